package millennium

import (
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// Tests one per decision of docs/rules.md (M1..M10), and for the board,
// check from other levels and the clocks. Positions keep the kings out of
// the way of the piece under test.

func TestBoardAndStart(t *testing.T) {
	names := CellNames()
	if len(names) != 192 || names[0] != "1a1" || names[7] != "1h1" || names[8] != "1a2" || names[64] != "2a1" || names[191] != "3h8" {
		t.Errorf("cells: %d, first %q, last %q", len(names), names[0], names[len(names)-1])
	}
	if len(System.Cells()) != 192 || System.Name() != "millennium" {
		t.Errorf("System: %q with %d cells", System.Name(), len(System.Cells()))
	}
	for _, tc := range []struct {
		sq   string
		dark bool
	}{{"1a1", true}, {"2a1", true}, {"3a1", true}, {"1b1", false}, {"3e8", false}, {"2d5", false}, {"1h8", true}} {
		if got := mustSquare(tc.sq).Dark(); got != tc.dark {
			t.Errorf("%s dark = %v, want %v (as on a chess board, every level alike)", tc.sq, got, tc.dark)
		}
	}
	for _, bad := range []string{"0a1", "4a1", "1i1", "1a0", "1a9", "a1", "1a10", "1A1"} {
		if _, err := ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q) succeeded", bad)
		}
	}
	p := StartPosition()
	if p.Turn() != rules.White {
		t.Error("Black moves first")
	}
	for s := Square(0); s < NumSquares; s++ {
		pc := p.PieceAt(s)
		switch {
		case s.Level() == 0 && s.Rank() <= 1:
			if pc == 0 || pc.Color() != rules.White {
				t.Errorf("start: %s holds %q, want a white piece", s, pc.Letter())
			}
		case s.Level() == 2 && s.Rank() >= 6:
			if pc == 0 || pc.Color() != rules.Black {
				t.Errorf("start: %s holds %q, want a black piece", s, pc.Letter())
			}
		case pc != 0:
			t.Errorf("start: %s holds %c, want empty", s, pc.Letter())
		}
	}
	if pc := p.PieceAt(mustSquare("1e1")); pc != King {
		t.Errorf("start: 1e1 holds %c, want K", pc.Letter())
	}
	if pc := p.PieceAt(mustSquare("3d8")); pc != Queen|blackBit {
		t.Errorf("start: 3d8 holds %c, want q", pc.Letter())
	}
}

// countFrom counts the legal moves from sq.
func countFrom(p *Position, sq string) int { return len(rulestest.MovesFrom(p, sq+"-")) }

func TestM1KingHas26Directions(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "K2e5,k3a8 w - - - 0 1")
	if n := countFrom(p, "2e5"); n != 26 {
		t.Errorf("king on 2e5: %d moves, want 26", n)
	}
	p = rulestest.MustParse(t, Parse, "K1a1,k3h8 w - - - 0 1")
	want := rulestest.Sorted("1a1-1a2", "1a1-1b1", "1a1-1b2", "1a1-2a1", "1a1-2a2", "1a1-2b1", "1a1-2b2")
	if got := rulestest.MovesFrom(p, "1a1-"); !slices.Equal(got, want) {
		t.Errorf("king on 1a1: %v, want %v", got, want)
	}
}

func TestM2Rook(t *testing.T) {
	// 2d4: 14 on its level, 2 straight up and down, 4 (n,0,n), 4 (0,n,n).
	p := rulestest.MustParse(t, Parse, "R2d4,K1a8,k3h1 w - - - 0 1")
	if n := countFrom(p, "2d4"); n != 24 {
		t.Errorf("rook on 2d4: %d moves, want 24", n)
	}
	for _, m := range []string{"2d4-1d4", "2d4-3d4", "2d4-1c4", "2d4-3e4", "2d4-1d3", "2d4-3d5", "2d4-2d8", "2d4-2a4"} {
		if !rulestest.HasMove(p, m) {
			t.Errorf("rook: %s missing", m)
		}
	}
	for _, m := range []string{"2d4-1c3", "2d4-3e5", "2d4-2e5"} {
		if rulestest.HasMove(p, m) {
			t.Errorf("rook: %s is a bishop's move (M2)", m)
		}
	}
	// Equal lateral and vertical steps: 1a1 reaches 3c1 and 3a3, never 3b1.
	p = rulestest.MustParse(t, Parse, "R1a1,P1b1,P1a2,K1h8,k3h1 w - - - 0 1")
	want := rulestest.Sorted("1a1-2a1", "1a1-3a1", "1a1-2b1", "1a1-3c1", "1a1-2a2", "1a1-3a3")
	if got := rulestest.MovesFrom(p, "1a1-"); !slices.Equal(got, want) {
		t.Errorf("rook on 1a1: %v, want %v", got, want)
	}
}

func TestM3Bishop(t *testing.T) {
	// 2d4: 13 on its level, 8 triagonal one level up or down.
	p := rulestest.MustParse(t, Parse, "B2d4,K1a8,k3h1 w - - - 0 1")
	if n := countFrom(p, "2d4"); n != 21 {
		t.Errorf("bishop on 2d4: %d moves, want 21", n)
	}
	p = rulestest.MustParse(t, Parse, "B1c1,P1b2,P1d2,K1h8,k3h1 w - - - 0 1")
	want := rulestest.Sorted("1c1-2b2", "1c1-3a3", "1c1-2d2", "1c1-3e3")
	if got := rulestest.MovesFrom(p, "1c1-"); !slices.Equal(got, want) {
		t.Errorf("bishop on 1c1: %v, want %v", got, want)
	}
	for _, m := range []string{"1c1-2c1", "1c1-2c2", "1c1-2d1", "1c1-3c3"} {
		if rulestest.HasMove(p, m) {
			t.Errorf("bishop: %s: a level change plus one orthogonal step is not a bishop move (M3)", m)
		}
	}
}

func TestM4Queen(t *testing.T) {
	// 2d4: 27 on its level and one step up or down in each of the other
	// 18 directions.
	p := rulestest.MustParse(t, Parse, "Q2d4,K1a8,k3h1 w - - - 0 1")
	if n := countFrom(p, "2d4"); n != 45 {
		t.Errorf("queen on 2d4: %d moves, want 45", n)
	}
	rook := len(rulestest.MovesFrom(rulestest.MustParse(t, Parse, "R1d4,K1a8,k3h1 w - - - 0 1"), "1d4-"))
	bishop := len(rulestest.MovesFrom(rulestest.MustParse(t, Parse, "B1d4,K1a8,k3h1 w - - - 0 1"), "1d4-"))
	queen := len(rulestest.MovesFrom(rulestest.MustParse(t, Parse, "Q1d4,K1a8,k3h1 w - - - 0 1"), "1d4-"))
	if queen != rook+bishop {
		t.Errorf("queen on 1d4: %d moves, rook %d + bishop %d", queen, rook, bishop)
	}
}

func TestM5Knight(t *testing.T) {
	// 24 leaps in all; from level 1, 8 stay, 4 climb two levels with one
	// step, 4 climb one level with two steps; pieces around do not block.
	p := rulestest.MustParse(t, Parse, "N1d4,P1c4,P1e4,P1d3,P1d5,P2d4,P2c4,P2e4,P2d3,P2d5,K1a8,k3h1 w - - - 0 1")
	want := rulestest.Sorted("1d4-1b3", "1d4-1b5", "1d4-1c2", "1d4-1c6", "1d4-1e2", "1d4-1e6", "1d4-1f3", "1d4-1f5",
		"1d4-3c4", "1d4-3e4", "1d4-3d3", "1d4-3d5", "1d4-2b4", "1d4-2f4", "1d4-2d2", "1d4-2d6")
	if got := rulestest.MovesFrom(p, "1d4-"); !slices.Equal(got, want) {
		t.Errorf("knight on 1d4: %v, want %v", got, want)
	}
	n := 0
	for s := Square(0); s < NumSquares; s++ {
		n += knightMask[s].count()
	}
	// Offsets with |dl| = 2 exist only from levels 1 and 3; a check that
	// all 24 are generated: 8 in-level + 8 one-level + 8 two-level, summed
	// over the squares they fit.
	var want24 int
	for s := Square(0); s < NumSquares; s++ {
		for df := -2; df <= 2; df++ {
			for dr := -2; dr <= 2; dr++ {
				for dl := -2; dl <= 2; dl++ {
					a, b, c := abs(df), abs(dr), abs(dl)
					if a*b*c == 0 && a+b+c == 3 && step(s, df, dr, dl) != NoSquare {
						want24++
					}
				}
			}
		}
	}
	if n != want24 {
		t.Errorf("knight leaps in the tables: %d, want %d", n, want24)
	}
}

func TestM6BlockingOnTheLineOnly(t *testing.T) {
	// 1c1-3e3 passes through 2d2 only: pieces on 2d1, 1d2, 2c2 beside the
	// line do not block; a piece on 2d2 does.
	p := rulestest.MustParse(t, Parse, "B1c1,n2d1,n1d2,n2c2,K1h8,k3h1 w - - - 0 1")
	if !rulestest.HasMove(p, "1c1-3e3") {
		t.Errorf("bishop 1c1-3e3 blocked by a piece off its line: %v", rulestest.MovesFrom(p, "1c1-"))
	}
	p = rulestest.MustParse(t, Parse, "B1c1,n2d2,K1h8,k3h1 w - - - 0 1")
	if rulestest.HasMove(p, "1c1-3e3") || !rulestest.HasMove(p, "1c1-2d2") {
		t.Errorf("bishop with a knight on 2d2: %v, want 2d2 captured and 3e3 blocked", rulestest.MovesFrom(p, "1c1-"))
	}
	// Straight up: 1a1-3a1 passes 2a1.
	p = rulestest.MustParse(t, Parse, "R1a1,P1b1,P1a2,K1h8,k3h1 w - - - 0 1")
	if !rulestest.HasMove(p, "1a1-3a1") {
		t.Error("rook 1a1-3a1 (straight up) missing")
	}
	p = rulestest.MustParse(t, Parse, "R1a1,P1b1,P1a2,n2a1,K1h8,k3h1 w - - - 0 1")
	if rulestest.HasMove(p, "1a1-3a1") || !rulestest.HasMove(p, "1a1-2a1") {
		t.Errorf("rook with a knight on 2a1: %v", rulestest.MovesFrom(p, "1a1-"))
	}
}

func TestM7PawnSteps(t *testing.T) {
	p := StartPosition()
	// One forward, one up, forward and up; on the first move two forward,
	// two forward and two up, two up.
	want := rulestest.Sorted("1e2-1e3", "1e2-2e2", "1e2-2e3", "1e2-1e4", "1e2-3e4", "1e2-3e2")
	if got := rulestest.MovesFrom(&p, "1e2-"); !slices.Equal(got, want) {
		t.Errorf("white pawn 1e2: %v, want %v", got, want)
	}
	q := rulestest.Play(t, &p, "1e3")
	want = rulestest.Sorted("3e7-3e6", "3e7-2e7", "3e7-2e6", "3e7-3e5", "3e7-1e5", "3e7-1e7")
	if got := rulestest.MovesFrom(q, "3e7-"); !slices.Equal(got, want) {
		t.Errorf("black pawn 3e7: %v, want %v", got, want)
	}
	// After its first move no two-step; up and down any number of times.
	q = rulestest.Play(t, q, "3e6")
	want = rulestest.Sorted("1e3-1e4", "1e3-2e3", "1e3-2e4")
	if got := rulestest.MovesFrom(q, "1e3-"); !slices.Equal(got, want) {
		t.Errorf("white pawn 1e3 after its first move: %v, want %v", got, want)
	}
	q = rulestest.Play(t, rulestest.Play(t, q, "2e3"), "3e5")
	want = rulestest.Sorted("2e3-2e4", "2e3-1e3", "2e3-3e3", "2e3-1e4", "2e3-3e4")
	if got := rulestest.MovesFrom(q, "2e3-"); !slices.Equal(got, want) {
		t.Errorf("white pawn 2e3: %v, want %v", got, want)
	}
	// The cell passed through must be empty; the destination too.
	p2 := rulestest.MustParse(t, Parse, "K1a1,P1e2,n2e3,k3h8 w - - 1e2 0 1")
	want = rulestest.Sorted("1e2-1e3", "1e2-2e2", "1e2-1e4", "1e2-3e2")
	if got := rulestest.MovesFrom(p2, "1e2-"); !slices.Equal(got, want) {
		t.Errorf("pawn 1e2 with a knight on 2e3: %v, want %v", got, want)
	}
	p2 = rulestest.MustParse(t, Parse, "K1a1,P1e2,n2e2,k3h8 w - - 1e2 0 1")
	want = rulestest.Sorted("1e2-1e3", "1e2-2e3", "1e2-1e4", "1e2-3e4")
	if got := rulestest.MovesFrom(p2, "1e2-"); !slices.Equal(got, want) {
		t.Errorf("pawn 1e2 with a knight on 2e2: %v, want %v", got, want)
	}
	// Captures: diagonally forward on its level or one level up or down;
	// never straight ahead, never two levels.
	p2 = rulestest.MustParse(t, Parse, "K1a1,P2e4,n2d5,n1f5,n3f5,n2e5,n3e4,k3h8 w - - - 0 1")
	want = rulestest.Sorted("2e4-2d5", "2e4-1f5", "2e4-3f5", "2e4-1e4", "2e4-1e5", "2e4-3e5")
	if got := rulestest.MovesFrom(p2, "2e4-"); !slices.Equal(got, want) {
		t.Errorf("pawn 2e4: %v, want %v", got, want)
	}
	p2 = rulestest.MustParse(t, Parse, "K1a1,P1e4,n3d5,k3h8 w - - - 0 1")
	if rulestest.HasMove(p2, "1e4-3d5") {
		t.Error("pawn 1e4 captures two levels up")
	}
}

func TestM8EnPassant(t *testing.T) {
	base := rulestest.MustParse(t, Parse, "K1a1,P1e2,p1d4,p2f4,p3d4,k3h8 w - - 1e2 0 1")
	for _, tc := range []struct {
		move, ep string
		takers   []string
	}{
		{"1e4", "1e3", []string{"1d4-1e3", "2f4-1e3"}},
		{"3e4", "2e3", []string{"3d4-2e3", "2f4-2e3", "1d4-2e3"}},
		{"3e2", "-", nil}, // purely vertical: no en passant
	} {
		p := rulestest.Play(t, base, tc.move)
		if f := strings.Fields(p.String()); f[3] != tc.ep {
			t.Errorf("after %s: en-passant field %q, want %q", tc.move, f[3], tc.ep)
		}
		var got []string
		for _, m := range p.LegalMoves(nil) {
			if mKind(m) == kindEP {
				got = append(got, p.Long(m))
			}
		}
		if !slices.Equal(rulestest.Sorted(got...), rulestest.Sorted(tc.takers...)) {
			t.Errorf("after %s: en passant %v, want %v", tc.move, got, tc.takers)
		}
	}
	// Made: the pawn on 1e4 goes, the capturer lands on 1e3.
	p := rulestest.Play(t, rulestest.Play(t, base, "1e4"), "1d4-1e3")
	if got, want := p.String(), "K1a1,p1e3,p2f4,p3d4,k3h8 w - - - 0 2"; got != want {
		t.Errorf("after 1d4x1e3 e.p.: %s, want %s", got, want)
	}
	p = rulestest.Play(t, rulestest.Play(t, base, "3e4"), "2f4-2e3")
	if got, want := p.String(), "K1a1,p1d4,p2e3,p3d4,k3h8 w - - - 0 2"; got != want {
		t.Errorf("after 2f4x2e3 e.p.: %s, want %s", got, want)
	}
	// The next move only.
	p = rulestest.Play(t, rulestest.Play(t, rulestest.Play(t, base, "1e4"), "3h8-3g8"), "1a1-1a2")
	if rulestest.HasMove(p, "1d4-1e3") {
		t.Error("en passant still possible a move later")
	}
}

func TestM9Promotion(t *testing.T) {
	p := rulestest.MustParse(t, Parse, perftTable[6].pos)
	for _, tc := range []struct {
		from string
		want []string
	}{
		{"1g8", []string{"1g8-2g8"}}, // rank 8 of level 1: no promotion, up a level
		{"2d8", []string{"2d8-1d8", "2d8-3d8=B", "2d8-3d8=N", "2d8-3d8=Q", "2d8-3d8=R"}},
		{"3b7", []string{"3b7-2b7", "3b7-2b8", "3b7-3b8=B", "3b7-3b8=N", "3b7-3b8=Q", "3b7-3b8=R"}},
	} {
		if got := rulestest.MovesFrom(p, tc.from+"-"); !slices.Equal(got, rulestest.Sorted(tc.want...)) {
			t.Errorf("pawn %s: %v, want %v", tc.from, got, rulestest.Sorted(tc.want...))
		}
	}
	q := rulestest.Play(t, p, "2c7-3c8=N")
	if pc := q.PieceAt(mustSquare("3c8")); pc != Knight {
		t.Errorf("2c7-3c8=N left %c on 3c8", pc.Letter())
	}
	// Black promotes on rank 1 of level 1, and writes the letter upper case.
	b := rulestest.MustParse(t, Parse, perftTable[7].pos)
	if !rulestest.HasMove(b, "1b2-1b1=Q") || !rulestest.HasMove(b, "2d1-1d1=R") || rulestest.HasMove(b, "3g1-2g1=Q") || !rulestest.HasMove(b, "3g1-2g1") {
		t.Errorf("black pawns: %v", rulestest.Longs(b))
	}
	if _, err := Parse("K1a1,P3e8,k3h1 w - - - 0 1"); err == nil {
		t.Error("a white pawn on 3e8 accepted")
	}
	if _, err := Parse("K1a1,P2e8,P1e8,p2e1,p3e1,k3h1 w - - - 0 1"); err != nil {
		t.Errorf("pawns on rank 8 of levels 1 and 2 (or Black's on rank 1 of 2 and 3) refused: %v", err)
	}
}

func TestM10Castling(t *testing.T) {
	p := rulestest.MustParse(t, Parse, perftTable[1].pos)
	if got := rulestest.Play(t, p, "0-0").String(); got != "R1a1,R1f1,K1g1,r3a8,k3e8,r3h8 b kq - - 1 1" {
		t.Errorf("after 0-0: %s", got)
	}
	if got := rulestest.Play(t, p, "0-0-0").String(); got != "K1c1,R1d1,R1h1,r3a8,k3e8,r3h8 b kq - - 1 1" {
		t.Errorf("after 0-0-0: %s", got)
	}
	b := rulestest.MustParse(t, Parse, perftTable[2].pos)
	if got := rulestest.Play(t, b, "0-0").String(); got != "R1a1,K1e1,R1h1,r3a8,r3f8,k3g8 w KQ - - 1 2" {
		t.Errorf("after black 0-0: %s", got)
	}
	if got := rulestest.Play(t, b, "0-0-0").String(); got != "R1a1,K1e1,R1h1,k3c8,r3d8,r3h8 w KQ - - 1 2" {
		t.Errorf("after black 0-0-0: %s", got)
	}
	// Attacks from level 3: 1f1 (passed over) is attacked, 1b1 (not the
	// king's path) is.
	a := rulestest.MustParse(t, Parse, perftTable[3].pos)
	if rulestest.HasMove(a, "0-0") || !rulestest.HasMove(a, "0-0-0") {
		t.Errorf("castling under attack from level 3: %v", rulestest.Longs(a))
	}
	for _, tc := range []struct{ name, pos string }{
		{"king in check from level 3", "R1a1,K1e1,R1h1,r3e3,k3h8 w KQ - - 0 1"},
		{"landing cell attacked from level 2", "R1a1,K1e1,R1h1,n2e3,n2e2,k3h8 w KQ - - 0 1"},
		{"cells between occupied", "R1a1,N1b1,K1e1,B1f1,R1h1,k3h8 w KQ - - 0 1"},
	} {
		q := rulestest.MustParse(t, Parse, tc.pos)
		if rulestest.HasMove(q, "0-0") || rulestest.HasMove(q, "0-0-0") {
			t.Errorf("%s: castling allowed: %v", tc.name, rulestest.Longs(q))
		}
	}
	// A king or rook that moved, vertically included, cannot castle.
	for _, tc := range []struct{ moves, rights string }{
		{"1e1-2e1 3e8-3d8 2e1-1e1", "-"},
		{"1h1-2h1 3e8-3d8 2h1-1h1", "Q"},
		{"1a1-3a1 3e8-3d8 3a1-1a1", "K"},
	} {
		q := rulestest.MustParse(t, Parse, "R1a1,K1e1,R1h1,k3e8 w KQ - - 0 1")
		for _, m := range strings.Fields(tc.moves) {
			q = rulestest.Play(t, q, m)
		}
		if f := strings.Fields(q.String()); f[2] != tc.rights {
			t.Errorf("after %s: castling %q, want %q", tc.moves, f[2], tc.rights)
		}
	}
}

func TestChecksFromOtherLevels(t *testing.T) {
	for _, tc := range []struct {
		pos   string
		check bool
	}{
		{"K1e1,r3e1,k3h8 w - - - 0 1", true},                // straight down
		{"K1e1,r3e1,N2e1,k3h8 w - - - 0 1", false},          // blocked on 2e1
		{"K1e1,r3e3,k3h8 w - - - 0 1", true},                // (0,n,n)
		{"K1e1,b3g3,k3h8 w - - - 0 1", true},                // triagonal
		{"K1e1,b3e3,k3h8 w - - - 0 1", false},               // (0,n,n) is no bishop line
		{"K1e1,n3e2,k3h8 w - - - 0 1", true},                // knight two levels down
		{"K1e1,p2d2,k3h8 w - - - 0 1", true},                // pawn one level down
		{"K1e1,p3d2,k3h8 w - - - 0 1", false},               // not two levels
		{"K1e1,q2e2,k3h8 w - - - 0 1", true},                // queen one step
		{"K1e1,q3c3,P2d2,k3h8 w - - - 0 1", false},          // blocked on the triagonal
		{"K1e1,q3c3,P2d3,P1d2,P2c2,k3h8 w - - - 0 1", true}, // pieces beside the line
		{"k3e8,R1e8,K1a1 b - - - 0 1", true},                // Black: straight up
		{"k3e8,B2d7,K1a1 b - - - 0 1", true},                // Black: triagonal
		{"k3e8,N1e7,K1a1 b - - - 0 1", true},                // (0,1,2) leap
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		got, cell := p.InCheck()
		if got != tc.check || CellNames()[cell] != p.king[p.side].String() {
			t.Errorf("%s: in check %v (cell %d), want %v", tc.pos, got, cell, tc.check)
		}
	}
}

func TestClocksAndKey(t *testing.T) {
	p := StartPosition()
	q := rulestest.Play(t, &p, "N1g1-3g2")
	if q.HalfmoveClock() != 1 || q.FullmoveNumber() != 1 {
		t.Errorf("after a knight move: clocks %d %d", q.HalfmoveClock(), q.FullmoveNumber())
	}
	q = rulestest.Play(t, q, "3e7-2e7") // a pawn move, vertical included
	if q.HalfmoveClock() != 0 || q.FullmoveNumber() != 2 {
		t.Errorf("after a pawn move: clocks %d %d", q.HalfmoveClock(), q.FullmoveNumber())
	}
	q = rulestest.Play(t, rulestest.Play(t, q, "3g2-3f4"), "3d8-3g5")
	if q.HalfmoveClock() != 2 {
		t.Errorf("halfmove %d, want 2", q.HalfmoveClock())
	}
	q = rulestest.Play(t, q, "3f4-3g6")
	q = rulestest.Play(t, q, "3h7-3g6") // a capture
	if q.HalfmoveClock() != 0 {
		t.Errorf("after a capture: halfmove %d", q.HalfmoveClock())
	}
	// Repetition: a knight out and back gives the same key, other clocks.
	g := rules.NewGame(System.Start())
	for _, m := range []string{"N1g1-2g3", "N3g8-2g6", "N2g3-1g1", "N2g6-3g8", "N2g3", "N2g6", "N1g1", "N3g8"} {
		if _, _, err := g.PlayNotation(m); err != nil {
			t.Fatal(err)
		}
	}
	if !g.CanClaimThreefold() || g.Position().String() == g.Start().String() {
		t.Errorf("threefold: %d repetitions; %s", g.Repetitions(), g.Position())
	}
}
