package firstcontact

import (
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// Tests one per decision of docs/rules.md (F1..F6) and per rule of
// "Pieces" and "Play". Every expected move list is worked out by hand in
// the comments: heights are W 0, N 2, B 4; a `u` platform stands one above
// its level, a `d` one below.

// far are four platforms on B's corners, out of the way of play on W and N.
const far = "QL5u:-,QL6u:-,KL5u:-,KL6u:-"

func TestF1Geometry(t *testing.T) {
	for _, tc := range []struct {
		sq             string
		file, rank, ht int
	}{
		{"b2W", 2, 2, 0}, {"c4N", 3, 4, 2}, {"a5B", 1, 5, 4},
		{"a2QL3u", 1, 2, 3}, {"a2QL3d", 1, 2, 1}, // N's corner: h 2 +- 1
		{"z0QL1d", 0, 0, -1}, {"e9KL6u", 5, 9, 5}, {"d4KL2u", 4, 4, 1}, {"e5KL5d", 5, 5, 3},
	} {
		s := mustSquare(tc.sq)
		if s.File() != tc.file || s.Rank() != tc.rank || s.Height() != tc.ht {
			t.Errorf("%s = (%d,%d,%d), want (%d,%d,%d)", tc.sq, s.File(), s.Rank(), s.Height(), tc.file, tc.rank, tc.ht)
		}
	}
	// 48 fixed + 24 positions x 4 squares; every square on its own lattice
	// point (init panics otherwise): no two positions share a cell.
	if NumSquares != 144 {
		t.Errorf("NumSquares = %d", NumSquares)
	}
	// A pin may hold a platform up and another inverted at once.
	p := rulestest.MustParse(t, Parse, "QL3u:-,QL3d:-,KL1u:-,KL6u:- Kd1W,ra3N,kd8B w - - - 0 10 -/- -")
	// The rook on a3N: down a3QL3d (h1), a3W (h0), then no cell at h-1;
	// up a3QL3u (h3), then a3 at h4 is no square (B has ranks 5-8); on N
	// a4N a5N a6N, b3N c3N d3N; a2 is not on N.
	p.side = rules.Black
	want := rulestest.Sorted("a3N-a3QL3d", "a3N-a3W", "a3N-a3QL3u", "a3N-a4N", "a3N-a5N", "a3N-a6N", "a3N-b3N", "a3N-c3N", "a3N-d3N")
	if got := rulestest.MovesFrom(p, "a3N-"); !slices.Equal(got, want) {
		t.Errorf("rook a3N between QL3u and QL3d: %v, want %v", got, want)
	}
	// The king on a1W with QL1u (z0 a0 z1 a1 at h1) and QL3d (z2 a2 z3 a3
	// at h1): orthogonal a2W, b1W, up a1QL1u (a0W, z1W and h-1 do not
	// exist); diagonal on the level b2W; triagonal z0QL1u and z2QL3d.
	k := rulestest.MustParse(t, Parse, "QL1u:-,QL3d:-,KL5u:-,KL6u:- Ka1W,kd8B w - - - 0 10 -/- -")
	want = rulestest.Sorted("a1W-a2W", "a1W-b1W", "a1W-a1QL1u", "a1W-b2W", "a1W-z0QL1u", "a1W-z2QL3d")
	if got := rulestest.MovesFrom(k, "a1W-"); !slices.Equal(got, want) {
		t.Errorf("king a1W: %v, want %v", got, want)
	}
	// A queen there (king on d2W): triagonal steps z0QL1u, z2QL3d; slides
	// a2W-a4W, b1W-d1W, up a1QL1u (a1 at h2 is no square), b2W-d4W.
	q := rulestest.MustParse(t, Parse, "QL1u:-,QL3d:-,KL5u:-,KL6u:- Qa1W,Kd2W,kd8B w - - - 0 10 -/- -")
	want = rulestest.Sorted("a1W-z0QL1u", "a1W-z2QL3d", "a1W-a2W", "a1W-a3W", "a1W-a4W", "a1W-b1W", "a1W-c1W", "a1W-d1W",
		"a1W-a1QL1u", "a1W-b2W", "a1W-c3W", "a1W-d4W")
	if got := rulestest.MovesFrom(q, "a1W-"); !slices.Equal(got, want) {
		t.Errorf("queen a1W: %v, want %v", got, want)
	}
	// A bishop there: the triagonal steps and the diagonal on the level.
	b := rulestest.MustParse(t, Parse, "QL1u:-,QL3d:-,KL5u:-,KL6u:- Ba1W,Kd2W,kd8B w - - - 0 10 -/- -")
	want = rulestest.Sorted("a1W-z0QL1u", "a1W-z2QL3d", "a1W-b2W", "a1W-c3W", "a1W-d4W")
	if got := rulestest.MovesFrom(b, "a1W-"); !slices.Equal(got, want) {
		t.Errorf("bishop a1W: %v, want %v", got, want)
	}
}

func TestF2LinesThroughExistingCellsOnly(t *testing.T) {
	// Rook a4W with QL2u (a4 at h1), QL5d (a4 at h3): up a4QL2u, a4N,
	// a4QL5d, then a4 at h4 is no square (B has ranks 5-8); a3W-a1W;
	// b4W-d4W; down nothing (QL2d absent).
	p := rulestest.MustParse(t, Parse, "QL2u:-,QL5d:-,KL1u:-,KL6u:- Ra4W,Kd1W,kd8B w - - - 0 10 -/- -")
	want := rulestest.Sorted("a4W-a4QL2u", "a4W-a4N", "a4W-a4QL5d", "a4W-a3W", "a4W-a2W", "a4W-a1W", "a4W-b4W", "a4W-c4W", "a4W-d4W")
	if got := rulestest.MovesFrom(p, "a4W-"); !slices.Equal(got, want) {
		t.Errorf("rook a4W under QL2u: %v, want %v", got, want)
	}
	// With the platform inverted, a4 at h1 does not exist: no flying over
	// the void to a4N; down there is a4QL2d.
	p = rulestest.MustParse(t, Parse, "QL2d:-,QL5d:-,KL1u:-,KL6u:- Ra4W,Kd1W,kd8B w - - - 0 10 -/- -")
	want = rulestest.Sorted("a4W-a4QL2d", "a4W-a3W", "a4W-a2W", "a4W-a1W", "a4W-b4W", "a4W-c4W", "a4W-d4W")
	if got := rulestest.MovesFrom(p, "a4W-"); !slices.Equal(got, want) {
		t.Errorf("rook a4W over QL2d: %v, want %v", got, want)
	}
	// A piece on the way blocks a vertical line as any other: a black
	// pawn on a4N is captured, a4QL5d is out of reach.
	p = rulestest.MustParse(t, Parse, "QL2u:-,QL5d:-,KL1u:-,KL6u:- Ra4W,Kd1W,pa4N,kd8B w - - - 0 10 -/- -")
	if got := rulestest.MovesFrom(p, "a4W-a4"); !slices.Equal(got, rulestest.Sorted("a4W-a4QL2u", "a4W-a4N")) {
		t.Errorf("rook a4W blocked on a4N: %v", got)
	}
}

func TestF3KnightLeaps(t *testing.T) {
	for _, tc := range []struct {
		name, pos, from string
		want            []string
	}{
		// a3W: on W b1W, c2W, c4W; to N (height +2) b3N and a4N, through
		// a3QL3d (a3 at h1) directly above the start.
		{"between fixed levels through a platform cell", "QL3d:-,KL1u:-,KL2u:-,KL6u:- Na3W,Kd1W,kd8B w - - - 0 10 -/- -",
			"a3W-", []string{"a3W-b1W", "a3W-c2W", "a3W-c4W", "a3W-b3N", "a3W-a4N"}},
		// With the platform up (h3) nothing stands above a3W: W only.
		{"no platform cell above: no change of level", "QL3u:-,KL1u:-,KL2u:-,KL6u:- Na3W,Kd1W,kd8B w - - - 0 10 -/- -",
			"a3W-", []string{"a3W-b1W", "a3W-c2W", "a3W-c4W"}},
		// The platform cell may be occupied: the knight leaps.
		{"occupied platform cell", "QL3d:-,KL1u:-,KL2u:-,KL6u:- Na3W,Pa3QL3d,Kd1W,kd8B w - - - 0 10 -/- -",
			"a3W-", []string{"a3W-b1W", "a3W-c2W", "a3W-c4W", "a3W-b3N", "a3W-a4N"}},
		// From a platform cell (a2 at h1) leaps are free: a4N (up 1, 2
		// along the rank), c2W and a4W (down 1); c2N and a0 do not exist,
		// nor anything at h3 or h-1 there.
		{"from a platform", "QL3d:-,KL1u:-,KL2u:-,KL6u:- Na2QL3d,Kd1W,kd8B w - - - 0 10 -/- -",
			"a2QL3d-", []string{"a2QL3d-a4N", "a2QL3d-c2W", "a2QL3d-a4W"}},
		// To platforms: from a3W two along the rank and one up lands on
		// a1QL1u and a5QL2u, one down on a1QL1d; free.
		{"to platforms", "QL1u:-,QL2u:-,QL1d:-,KL6u:- Na3W,Kd1W,kd8B w - - - 0 10 -/- -",
			"a3W-", []string{"a3W-b1W", "a3W-c2W", "a3W-c4W", "a3W-a1QL1u", "a3W-a5QL2u", "a3W-a1QL1d"}},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		if got := rulestest.MovesFrom(p, tc.from); !slices.Equal(got, rulestest.Sorted(tc.want...)) {
			t.Errorf("%s: %v, want %v", tc.name, got, rulestest.Sorted(tc.want...))
		}
	}
	// The same holds for the knight's attack: a black king on b3N is in
	// check from a3W only while QL3d stands (the reader refuses it then).
	if _, err := Parse("QL3d:-,KL1u:-,KL2u:-,KL6u:- Na3W,Kd1W,kb3N w - - - 0 10 -/- -"); err == nil ||
		!strings.Contains(err.Error(), "side not to move is in check") {
		t.Errorf("knight check through a3QL3d: err = %v", err)
	}
	rulestest.MustParse(t, Parse, "QL3u:-,KL1u:-,KL2u:-,KL6u:- Na3W,Kd1W,kb3N w - - - 0 10 -/- -")
}

func TestPawnMoves(t *testing.T) {
	// White pawn b3W under QL3d? No platform over b: steps b4W, b2W, a3W,
	// c3W (backward and sideways too), no vertical; captures c4W (diagonal
	// on the level) and nothing on b4W (straight ahead is no capture).
	p := rulestest.MustParse(t, Parse, far+" Pb3W,pc4W,pb4W,Kd1W,kd8B w - - - 0 10 -/- -")
	want := rulestest.Sorted("b3W-b2W", "b3W-a3W", "b3W-c3W", "b3W-c4W")
	if got := rulestest.MovesFrom(p, "b3W-"); !slices.Equal(got, want) {
		t.Errorf("pawn b3W: %v, want %v", got, want)
	}
	// A black pawn on a3W under QL3d steps up onto a3QL3d too, and
	// captures triagonally z2QL3d (White's rook there); the a4W pawn
	// is straight ahead and stays.
	p = rulestest.MustParse(t, Parse, "QL3d:-,KL1u:-,KL2u:-,KL6u:- pa3W,Pa4W,Rz2QL3d,Kd1W,kd8B b - - - 0 10 -/- -")
	want = rulestest.Sorted("a3W-a2W", "a3W-b3W", "a3W-a3QL3d", "a3W-z2QL3d")
	if got := rulestest.MovesFrom(p, "a3W-"); !slices.Equal(got, want) {
		t.Errorf("black pawn a3W: %v, want %v", got, want)
	}
}

func TestPlacementPhase(t *testing.T) {
	p := StartPosition()
	if got := len(rulestest.Longs(&p)); got != 24 {
		t.Fatalf("start: %d moves, want 24 platform placements", got)
	}
	for _, l := range rulestest.Longs(&p) {
		if l[0] != '@' {
			t.Fatalf("start: move %s is not a platform placement", l)
		}
	}
	q := &p
	for i, mv := range []string{"@QL3u", "@KL6d", "@QL3d", "@KL1u"} {
		if want := rules.Color(i % 2); q.Turn() != want {
			t.Fatalf("placement %d: %v to move, want %v", i+1, q.Turn(), want)
		}
		q = rulestest.Play(t, q, mv)
	}
	// White's king on a vacant cell of W, then Black's on B.
	if got, want := rulestest.Longs(q), 16; len(got) != want || got[0] != "K@a1W" || got[15] != "K@d4W" {
		t.Fatalf("white king placements: %v", got)
	}
	q = rulestest.Play(t, q, "K@c1W")
	if got := rulestest.Longs(q); len(got) != 16 || got[0] != "K@a5B" || q.Turn() != rules.Black {
		t.Fatalf("black king placements: %v", got)
	}
	q = rulestest.Play(t, q, "K@b8B")
	want := "QL3u:-,QL3d:-,KL1u:-,KL6d:- Kc1W,kb8B w - - - 0 4 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -"
	if got := q.String(); got != want {
		t.Errorf("after the placement phase: %s, want %s", got, want)
	}
	// Now White introduces (5 kinds x 15 vacant cells of W), moves its king
	// (b1W, d1W, b2W, c2W, d2W, and triagonally up d0KL1u; c1 at h1 does
	// not exist, nor b0/b2/d2 at h1) or inverts an empty platform (QL3u:
	// QL4d, KL3d; QL3d: QL4u, KL3u; KL1u: KL1d, KL2d, QL1d; KL6d: KL6u,
	// KL5u, QL6u).
	if got := len(rulestest.MovesFrom(q, "")); got != 75+6+10 {
		t.Errorf("first move after placements: %d moves, want 91", got)
	}
	if got := len(rulestest.MovesFrom(q, "Q@")); got != 15 {
		t.Errorf("queen introductions: %d, want 15", got)
	}
	if got := rulestest.MovesFrom(q, "c1W-"); !slices.Equal(got, rulestest.Sorted("c1W-b1W", "c1W-d1W", "c1W-b2W", "c1W-c2W", "c1W-d2W", "c1W-d0KL1u")) {
		t.Errorf("king c1W: %v", got)
	}
}

func TestIntroductions(t *testing.T) {
	// Onto a vacant cell of the mover's own fixed level only: Black's
	// knight onto B's 15 vacant cells (its king stands on b8B).
	p := rulestest.MustParse(t, Parse, far+" Kc1W,kb8B b - - - 0 10 -/n -")
	got := rulestest.MovesFrom(p, "N@")
	if len(got) != 15 || got[0] != "N@a5B" || rulestest.HasMove(p, "N@b8B") {
		t.Errorf("black knight introductions: %v", got)
	}
	q := rulestest.Play(t, p, "N@c6B")
	if q.Reserve(rules.Black, Knight) != 0 || q.PieceAt(mustSquare("c6B")) != rules.PieceOf(rules.Black, Knight) {
		t.Errorf("after N@c6B: %s", q)
	}
	if got := q.String(); got != "QL5u:-,QL6u:-,KL5u:-,KL6u:- Kc1W,nc6B,kb8B w - - - 0 11 -/- -" {
		t.Errorf("after N@c6B: %s", got)
	}
}

func TestF4PlatformMoves(t *testing.T) {
	for _, tc := range []struct {
		name, pos, prefix string
		want              []string
	}{
		// F4: an empty platform only inverts, at its corner or at an
		// orthogonally adjacent corner of its level (QL4, KL3; never KL4).
		{"empty platform inverts", "QL3u:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B w - - - 0 10 -/- -",
			"QL3u-", []string{"QL3u-QL3d", "QL3u-QL4d", "QL3u-KL3d"}},
		// A platform with one friendly pawn: QL4u, KL3u (same level),
		// QL1u (W, below) and QL5u (B, above), orientation kept.
		{"pawn platform shifts", "QL3u:-,KL1u:-,KL2u:-,KL6u:- Pa2QL3u,Kd1W,kd8B w - - - 0 10 -/- -",
			"QL3u-", []string{"QL3u-QL4u", "QL3u-KL3u", "QL3u-QL1u", "QL3u-QL5u"}},
		// Only to vacant positions: QL1u holds a platform.
		{"occupied position", "QL3u:-,QL1u:-,KL2u:-,KL6u:- Pa2QL3u,Kd1W,kd8B w - - - 0 10 -/- -",
			"QL3u-", []string{"QL3u-QL4u", "QL3u-KL3u", "QL3u-QL5u"}},
		// A corner of W has no level below; KL1d is vacant though KL1u
		// holds a platform.
		{"from W", "QL1d:-,KL1u:-,KL2u:-,KL6u:- Pz1QL1d,Kd2W,kd8B w - - - 0 10 -/- -",
			"QL1d-", []string{"QL1d-QL2d", "QL1d-KL1d", "QL1d-QL3d"}},
		{"an enemy pawn: not White's to move", "QL3u:-,KL1u:-,KL2u:-,KL6u:- pa2QL3u,Kd1W,kd8B w - - - 0 10 -/- -",
			"QL3u-", nil},
		{"a friendly knight: no", "QL3u:-,KL1u:-,KL2u:-,KL6u:- Na2QL3u,Kd1W,kd8B w - - - 0 10 -/- -",
			"QL3u-", nil},
		{"two pawns: no", "QL3u:-,KL1u:-,KL2u:-,KL6u:- Pa2QL3u,Pz3QL3u,Kd1W,kd8B w - - - 0 10 -/- -",
			"QL3u-", nil},
		{"banned", "QL3u:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B w - - - 0 10 -/- QL3u",
			"QL3u-", nil},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		if got := rulestest.MovesFrom(p, tc.prefix); !slices.Equal(got, rulestest.Sorted(tc.want...)) {
			t.Errorf("%s: %v, want %v", tc.name, got, rulestest.Sorted(tc.want...))
		}
	}
}

func TestF4PlatformMoveCarriesPawn(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL3u:-,KL1u:-,KL2u:-,KL6u:- Pa2QL3u,Kd1W,kd8B w - - - 7 10 -/- -")
	for _, tc := range []struct{ move, pawn string }{
		{"QL3u-QL5u", "a4QL5u"}, {"QL3u-QL1u", "a0QL1u"}, {"QL3u-QL4u", "a6QL4u"}, {"QL3u-KL3u", "e2KL3u"},
	} {
		q := rulestest.Play(t, p, tc.move)
		if q.PieceAt(mustSquare(tc.pawn)) != rules.PieceOf(rules.White, Pawn) {
			t.Errorf("%s: the pawn is not on %s: %s", tc.move, tc.pawn, q)
		}
		// A platform move is no pawn step: the clock goes on; the platform
		// may not move next.
		if q.HalfmoveClock() != 8 || q.Banned().String() != tc.move[5:] {
			t.Errorf("%s: clock %d, ban %s", tc.move, q.HalfmoveClock(), q.Banned())
		}
	}
}

func TestF4MoveBan(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "KL1u:-,QL6u:-,KL6u:-,KL5u:- Kb2W,kb7B w - - - 0 10 -/- -")
	p = rulestest.Play(t, p, "KL1u-KL1d")
	// The ban binds Black too, and lasts while only pieces move.
	if got := rulestest.MovesFrom(p, "KL1d-"); len(got) != 0 {
		t.Errorf("Black may move the platform White has just moved: %v", got)
	}
	p = rulestest.Play(t, p, "b7B-b6B")
	p = rulestest.Play(t, p, "b2W-b3W")
	if got := rulestest.MovesFrom(p, "KL1d-"); len(got) != 0 || p.Banned().String() != "KL1d" {
		t.Errorf("after two piece moves the ban is gone: %v, %s", got, p)
	}
	// Another platform moves: KL1d is free again, QL6d banned.
	p = rulestest.Play(t, p, "QL6u-QL6d")
	if got, want := rulestest.MovesFrom(p, "KL1d-"), rulestest.Sorted("KL1d-KL1u", "KL1d-KL2u", "KL1d-QL1u"); !slices.Equal(got, want) {
		t.Errorf("KL1d after another platform moved: %v, want %v", got, want)
	}
	if got := rulestest.MovesFrom(p, "QL6d-"); len(got) != 0 {
		t.Errorf("QL6d has just moved: %v", got)
	}
}

func TestGivingCheckWins(t *testing.T) {
	// White's rook on a2W is pinned by the rook on a4W: b2W would check
	// Black's king but leave White's attacked, so only a3W and the capture
	// a4W remain; capturing gives check, which wins at once.
	p := rulestest.MustParse(t, Parse, far+" Ka1W,Ra2W,ra4W,kb4W w - - - 0 20 -/- -")
	if got := rulestest.MovesFrom(p, "a2W-"); !slices.Equal(got, rulestest.Sorted("a2W-a3W", "a2W-a4W")) {
		t.Errorf("pinned rook: %v", got)
	}
	m, _, err := p.ParseMove("a2W-a4W")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Short(m); got != "Rxa4W#" {
		t.Errorf("Short = %q, want Rxa4W#", got)
	}
	g := rules.NewGame(p)
	q := g.Play(m)
	if in, c := q.InCheck(); !in || CellNames()[c] != "b4W" {
		t.Errorf("InCheck = %v, %v", in, c)
	}
	// Black's king could take the rook in chess; here the game is over.
	if n := len(q.LegalMoves(nil)); n != 0 || q.Status() != rules.Checkmate {
		t.Errorf("after the check: %d moves, status %v", n, q.Status())
	}
	if res, why := g.Outcome(); res != rules.WhiteWins || why != "checkmate" {
		t.Errorf("outcome %v %q", res, why)
	}
	if got := q.(*Position).Perft(3); got != 0 {
		t.Errorf("perft below a won position = %d", got)
	}
}

func TestF5Stalemate(t *testing.T) {
	// White's king on a1W can go to a2W, b2W (attacked by Black's king on
	// b3W) and b1W (by the bishop on c2W); nothing in reserve; the three
	// platforms with Black's pawns are not White's to move, the empty one
	// is banned.
	const pos = far + " Ka1W,bc2W,kb3W,pa4QL5u,pa8QL6u,pd8KL6u w - - - 0 40 -/- KL5u"
	p := rulestest.MustParse(t, Parse, pos)
	if n := len(p.LegalMoves(nil)); n != 0 || p.Status() != rules.Stalemate {
		t.Errorf("%d moves, status %v; want a stalemate", n, p.Status())
	}
	if res, _ := rules.NewGame(p).Outcome(); res != rules.Draw {
		t.Errorf("outcome %v, want a draw", res)
	}
	// Without the ban the empty platform can invert: no stalemate.
	q := rulestest.MustParse(t, Parse, strings.TrimSuffix(pos, "KL5u")+"-")
	if got := rulestest.MovesFrom(q, ""); !slices.Equal(got, rulestest.Sorted("KL5u-KL5d", "KL5u-KL6d", "KL5u-QL5d")) {
		t.Errorf("without the ban: %v", got)
	}
}

// D18 (First Contact's reading): a position is dead only when no side can
// ever give check: the kings alone with nothing left in either reserve. A
// knight in a reserve, or a lone piece on the set, can still check, and
// check wins.
func TestD18DeadOnlyWhenNoCheckIsPossible(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		want      rules.Status
	}{
		{"kings alone, reserves empty", far + " Ka1W,kd8B w - - - 0 40 -/- -", rules.DeadPosition},
		{"kings alone, a knight in reserve", far + " Ka1W,kd8B w - - - 0 40 N/- -", rules.Ongoing},
		{"a lone bishop on the set", far + " Ka1W,Bb1W,kd8B w - - - 0 40 -/- -", rules.Ongoing},
		{"a lone knight on the set", far + " Ka1W,kd8B,nc8B b - - - 0 40 -/- -", rules.Ongoing},
		{"the start (placement phase)", "", rules.Ongoing},
	} {
		p := StartPosition()
		if tc.pos != "" {
			p = *rulestest.MustParse(t, Parse, tc.pos)
		}
		if got := p.Status(); got != tc.want {
			t.Errorf("%s: status %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestHalfmoveClockAndKey(t *testing.T) {
	p := rulestest.MustParse(t, Parse, far+" Pb3W,Kc1W,pc4W,kb8B w - - - 5 10 N/- -")
	for _, tc := range []struct {
		move string
		half int
	}{
		{"c1W-d1W", 6},   // a king move
		{"b8B-b7B", 7},   // a king move
		{"N@a1W", 0},     // an introduction
		{"KL6u-KL6d", 1}, // a platform move
		{"a1W-c2W", 2},   // a knight move
		{"b7B-a7B", 3},   // a king move
		{"b3W-c4W", 0},   // a capture (by a pawn)
		{"a7B-b7B", 1},   // a king move
		{"c4W-c3W", 0},   // a pawn step (backward: pawns step any orthogonal way)
	} {
		p = rulestest.Play(t, p, tc.move)
		if p.HalfmoveClock() != tc.half {
			t.Errorf("after %s: clock %d, want %d", tc.move, p.HalfmoveClock(), tc.half)
		}
	}
	// The key leaves out the clocks and keeps reserves and the ban.
	a := rulestest.MustParse(t, Parse, far+" Kc1W,kb8B w - - - 0 10 N/- -")
	b := rulestest.MustParse(t, Parse, far+" Kc1W,kb8B w - - - 9 30 N/- -")
	c := rulestest.MustParse(t, Parse, far+" Kc1W,kb8B w - - - 0 10 N/- KL5u")
	d := rulestest.MustParse(t, Parse, far+" Kc1W,kb8B w - - - 0 10 -/- -")
	if a.Key() != b.Key() || a.Key() == c.Key() || a.Key() == d.Key() {
		t.Errorf("keys: %q %q %q %q", a.Key(), b.Key(), c.Key(), d.Key())
	}
	// Repetition through rules.Game: inverting a platform and back with
	// the king shuffling repeats the position (the ban changes with it).
	g := rules.NewGame(a)
	for _, mv := range []string{"c1W-d1W", "b8B-a8B", "d1W-c1W", "a8B-b8B", "c1W-d1W", "b8B-a8B", "d1W-c1W", "a8B-b8B"} {
		if _, _, err := g.PlayNotation(mv); err != nil {
			t.Fatal(err)
		}
	}
	if !g.CanClaimThreefold() {
		t.Errorf("threefold repetition not seen: %d", g.Repetitions())
	}
}

func TestF6Cells(t *testing.T) {
	if n := len(System.Cells()); n != 168 {
		t.Errorf("System: %d cells, want 168", n)
	}
	if n := len(UpOnly.Cells()); n != 108 {
		t.Errorf("UpOnly: %d cells, want 108", n)
	}
	for _, tc := range []struct {
		sys  rules.System
		name string
		cell rules.Cell
	}{
		{System, "a1W", 0}, {System, "z0QL1u", 48}, {System, "z0QL1d", 52}, {System, "a2QL3u", 65},
		{System, "e9KL6d", 143}, {System, "QL1u", 144}, {System, "QL3d", 149}, {System, "KL6d", 167},
		{UpOnly, "z0QL1u", 48}, {UpOnly, "a2QL3u", 57}, {UpOnly, "QL1u", 96}, {UpOnly, "KL6u", 107},
	} {
		if c, ok := rules.CellByName(tc.sys, tc.name); !ok || c != tc.cell {
			t.Errorf("%s: cell %s = %d, %v; want %d", tc.sys.Name(), tc.name, c, ok, tc.cell)
		}
	}
	for _, n := range UpOnly.Cells() {
		if strings.HasSuffix(n, "d") {
			t.Errorf("UpOnly has the cell %s", n)
		}
	}
	// Occupancy: pieces and platform presence.
	p := rulestest.MustParse(t, Parse, "QL3u:-,QL3d:-,KL1u:-,KL6u:- Pa2QL3u,Kd1W,kd8B w - - - 0 10 -/- -")
	want := rulestest.Sorted("QL3u", "QL3d", "KL1u", "KL6u", "a2QL3u", "d1W", "d8B")
	if got := rulestest.Sorted(cells(p.Occupancy())...); !slices.Equal(got, want) {
		t.Errorf("occupancy %v, want %v", got, want)
	}
	// UpOnly: 12 placements, no `d` position read, an empty platform never
	// moves (it could only invert), a pawn platform shifts upright.
	up := UpOnly.Start()
	if n := len(up.LegalMoves(nil)); n != 12 {
		t.Errorf("UpOnly start: %d moves, want 12", n)
	}
	if _, err := UpOnly.ParsePosition("QL3d:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B w - - - 0 10 -/- -"); err == nil ||
		!strings.Contains(err.Error(), "upright platforms only") {
		t.Errorf("UpOnly read a d position: %v", err)
	}
	u, err := UpOnly.ParsePosition("QL3u:-,KL1u:-,KL2u:-,KL6u:- Pa2QL3u,Kd1W,kd8B w - - - 0 10 -/- -")
	if err != nil {
		t.Fatal(err)
	}
	var plat []string
	for _, m := range u.LegalMoves(nil) {
		if l := u.Long(m); strings.HasPrefix(l, "QL") || strings.HasPrefix(l, "KL") {
			plat = append(plat, l)
		}
	}
	if want := rulestest.Sorted("QL3u-QL4u", "QL3u-KL3u", "QL3u-QL1u", "QL3u-QL5u"); !slices.Equal(rulestest.Sorted(plat...), want) {
		t.Errorf("UpOnly platform moves %v, want %v", plat, want)
	}
	if u.System() != UpOnly || u.Play(u.LegalMoves(nil)[0]).System() != UpOnly {
		t.Errorf("UpOnly positions forget their system")
	}
	if c, ok := rules.CellByName(UpOnly, "a2QL3u"); !ok || !u.Occupancy().Has(c) {
		t.Errorf("UpOnly occupancy %v", u.Occupancy().Names(UpOnly.Cells()))
	}
}

func TestInfo(t *testing.T) {
	s := StartPosition()
	in := s.Info(mustMove(t, &s, "@QL3u"))
	if c, _ := rules.CellByName(System, "QL3u"); in.From != rules.NoCell || in.To != c || !in.Board || !in.Touched.Empty() {
		t.Errorf("placement: %+v", in)
	}
	p := rulestest.MustParse(t, Parse, "QL3u:-,KL1u:-,KL2u:-,KL6u:- Pa2QL3u,Kd1W,kd8B w - - - 0 10 N/- -")
	in = p.Info(mustMove(t, p, "N@b2W"))
	if in.From != rules.NoCell || CellNames()[in.To] != "b2W" || in.Board || !in.Touched.Empty() {
		t.Errorf("introduction: %+v", in)
	}
	in = p.Info(mustMove(t, p, "QL3u-QL5u"))
	if CellNames()[in.From] != "QL3u" || CellNames()[in.To] != "QL5u" || !in.Board ||
		!slices.Equal(rulestest.Sorted(cells(in.Touched)...), rulestest.Sorted("QL3u", "a2QL3u")) {
		t.Errorf("platform move: %+v", in)
	}
}

func mustMove(t *testing.T, p *Position, s string) rules.Move {
	t.Helper()
	m, _, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
