package st3d

import (
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// Tests one per decision of docs/rules.md (D1..D18) and per rule of Article 3.

func TestD1SquaresExistOnlyWithABoard(t *testing.T) {
	p := StartPosition()
	n := 0
	for s := Square(0); s < NumSquares; s++ {
		if p.Exists(s) {
			n++
		}
	}
	if n != 64 {
		t.Errorf("start position: %d squares exist, want 64", n)
	}
	for _, col := range []string{"b0", "c0", "b9", "c9"} {
		for _, lv := range append([]string{"W", "N", "B"}, pinNames[:]...) {
			if _, err := ParseSquare(col + lv); err == nil {
				t.Errorf("ParseSquare(%s%s) succeeded; D1 says %s never exists", col, lv, col)
			}
		}
	}
	if _, err := Parse("QL1:w,QL6:b,KL1:w,KL6:b Kb1W,kc8B,Rz2QL3 w - - - 0 10"); err == nil ||
		!strings.Contains(err.Error(), "z2QL3 does not exist") {
		t.Errorf("a piece on a pin without a board: err = %v, want 'z2QL3 does not exist'", err)
	}
}

func TestD2ColumnsHoldSeveralSquares(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL2:w,QL5:b Kb1W,kc8B w - - - 0 10")
	var got []string
	c := sqCol[mustSquare("a4W")]
	for i := int8(0); i < colNSq[c]; i++ {
		if s := colSq[c][i]; p.Exists(s) {
			got = append(got, s.String())
		}
	}
	if want := rulestest.Sorted("a4W", "a4N", "a4QL2", "a4QL5"); !slices.Equal(rulestest.Sorted(got...), want) {
		t.Errorf("squares of column a4 = %v, want %v", got, want)
	}
	if _, err := Parse("QL1:w,QL1:b Kb1W,kc8B w - - - 0 10"); err == nil || !strings.Contains(err.Error(), "two boards on pin QL1") {
		t.Errorf("two boards on one pin: err = %v", err)
	}
}

func TestD3SquareColour(t *testing.T) {
	for _, tc := range []struct {
		sq   string
		dark bool
	}{{"a1W", true}, {"b1W", false}, {"z0QL1", true}, {"a0QL1", false}, {"e9KL6", true}, {"d8B", true}, {"b5N", false}} {
		if got := mustSquare(tc.sq).Dark(); got != tc.dark {
			t.Errorf("%s dark = %v, want %v", tc.sq, got, tc.dark)
		}
	}
}

func TestD4LevelChoice(t *testing.T) {
	p := StartPosition()
	if got, want := rulestest.MovesFrom(&p, "a1W-"), rulestest.Sorted("a1W-b3W", "a1W-b3N"); !slices.Equal(got, want) {
		t.Errorf("knight a1W: %v, want %v", got, want)
	}
	if got, want := rulestest.MovesFrom(&p, "b2W-"), rulestest.Sorted("b2W-b3W", "b2W-b3N", "b2W-b4W", "b2W-b4N"); !slices.Equal(got, want) {
		t.Errorf("pawn b2W: %v, want %v", got, want)
	}
}

func TestD5BlockingAcrossLevels(t *testing.T) {
	// The knight on a3N blocks the a-file on every level, but the rook may
	// land below it on a3W; rank 1 reaches both levels of column d1.
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Ra1W,Kd0KL1,na3N,kd9KL6 w - - - 0 10")
	want := rulestest.Sorted("a1W-a0QL1", "a1W-z1QL1", "a1W-a2W", "a1W-a3W", "a1W-a3N", "a1W-b1W", "a1W-c1W", "a1W-d1W", "a1W-d1KL1", "a1W-e1KL1")
	if got := rulestest.MovesFrom(p, "a1W-"); !slices.Equal(got, want) {
		t.Errorf("rook a1W: %v, want %v", got, want)
	}
	// The same knight blocks the pawn's double step (3.4(b)).
	p = rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Pa2W,Kd0KL1,na3N,kd9KL6 w - - a2W 0 10")
	if got, want := rulestest.MovesFrom(p, "a2W-"), []string{"a2W-a3W"}; !slices.Equal(got, want) {
		t.Errorf("pawn a2W: %v, want %v", got, want)
	}
}

func TestD5VoidsAreFlownOver(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kb1W,kc8B w - - - 0 10")
	want := rulestest.Sorted("z0QL1-a0QL1", "z0QL1-d0KL1", "z0QL1-e0KL1", "z0QL1-z1QL1", "z0QL1-z8QL6", "z0QL1-z9QL6")
	if got := rulestest.MovesFrom(p, "z0QL1-"); !slices.Equal(got, want) {
		t.Errorf("rook z0QL1 over the voids: %v, want %v", got, want)
	}
}

func TestD6NoMoveWithinAColumn(t *testing.T) {
	g := rules.NewGame(Start())
	rng := rulestest.Rand(6)
	for ply := 0; ply < 2000; ply++ {
		p := g.Position().(*Position)
		moves := p.LegalMoves(nil)
		if len(moves) == 0 || p.Status() != rules.Ongoing {
			g = rules.NewGame(Start())
			continue
		}
		for _, m := range moves {
			if mKind(m) != kindBoard && mKind(m) != kindCastleK && sqCol[mFrom(m)] == sqCol[mTo(m)] {
				t.Fatalf("%s: %s stays in its column (D6)", p, p.Long(m))
			}
		}
		g.Play(moves[rng.Intn(len(moves))])
	}
}

func TestD7CarriedPawnLosesDoubleStep(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Pz1QL1,Kb1W,kc8B w - - z1QL1 0 10")
	after := rulestest.Play(t, p, "QL1-QL3")
	if got, want := after.String(), "QL3:w,QL6:b,KL1:w,KL6:b Kb1W,kc8B,Pz3QL3 b - - - 1 10"; got != want {
		t.Errorf("after QL1-QL3:\n got %s\nwant %s", got, want)
	}
}

func TestD8EnPassantOntoEitherLevel(t *testing.T) {
	for _, landing := range []string{"b4W", "b4N"} {
		p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Pb2W,Kd0KL1,pc4N,kd9KL6 w - - b2W 0 10")
		p = rulestest.Play(t, p, "b2W-"+landing)
		if got := strings.Fields(p.String())[4]; got != landing {
			t.Errorf("en passant field after b2W-%s = %s", landing, got)
		}
		want := rulestest.Sorted("c4N-b3N", "c4N-b3W", "c4N-c3N", "c4N-c3W")
		if got := rulestest.MovesFrom(p, "c4N-"); !slices.Equal(got, want) {
			t.Errorf("after b2W-%s: black pawn %v, want %v", landing, got, want)
		}
		for _, target := range []string{"b3W", "b3N"} {
			q := rulestest.Play(t, p, "c4N-"+target)
			want := "QL1:w,QL6:b,KL1:w,KL6:b p" + target + ",Kd0KL1,kd9KL6 w - - - 0 11"
			if target == "b3N" {
				want = "QL1:w,QL6:b,KL1:w,KL6:b pb3N,Kd0KL1,kd9KL6 w - - - 0 11"
			}
			if got := q.String(); got != want {
				t.Errorf("c4N-%s e.p.:\n got %s\nwant %s", target, got, want)
			}
		}
		// The right ends with the next move.
		q := rulestest.Play(t, rulestest.Play(t, rulestest.Play(t, p, "d9KL6-e9KL6"), "d0KL1-c1W"), "e9KL6-d9KL6")
		if got := rulestest.MovesFrom(q, "c4N-b3"); len(got) != 0 {
			t.Errorf("en passant still offered two moves later: %v", got)
		}
	}
}

func TestD9FurthestRank(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w Kb1W,kc5N,Pa7B,Pb7B,Pd7B,Pz8QL6 w - - - 0 30")
	for _, tc := range []struct {
		from string
		want []string
	}{
		{"b7B-", rulestest.Sorted("b7B-b8B=Q", "b7B-b8B=R", "b7B-b8B=B", "b7B-b8B=N")},                   // files b, c: rank 8
		{"a7B-", rulestest.Sorted("a7B-a8B", "a7B-a8QL6")},                                               // a with QL6: rank 9
		{"d7B-", rulestest.Sorted("d7B-d8B=Q", "d7B-d8B=R", "d7B-d8B=B", "d7B-d8B=N")},                   // d without KL6: rank 8
		{"z8QL6-", rulestest.Sorted("z8QL6-z9QL6=Q", "z8QL6-z9QL6=R", "z8QL6-z9QL6=B", "z8QL6-z9QL6=N")}, // z, e: rank 9
	} {
		if got := rulestest.MovesFrom(p, tc.from); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.from, got, tc.want)
		}
	}
	// Black: file a promotes on rank 1 while no board stands on QL1.
	b := rulestest.MustParse(t, Parse, "QL6:b,KL1:w,KL6:b Kd4N,pa2W,kd9KL6 b - - - 0 30")
	if got, want := rulestest.MovesFrom(b, "a2W-"), rulestest.Sorted("a2W-a1W=Q", "a2W-a1W=R", "a2W-a1W=B", "a2W-a1W=N"); !slices.Equal(got, want) {
		t.Errorf("black a2W without QL1: %v, want %v", got, want)
	}
	if _, err := Parse("QL6:b,KL1:w,KL6:b Kd4N,pa1W,kd9KL6 w - - - 0 30"); err == nil || !strings.Contains(err.Error(), "furthest rank") {
		t.Errorf("a black pawn on a1W without QL1: err = %v, want furthest rank", err)
	}
}

func TestD10DeferredPromotion(t *testing.T) {
	// White's empty board leaves QL6: the white pawn on a8B promotes to the
	// piece the move names.
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30")
	want := rulestest.Sorted("QL6-QL4=Q", "QL6-QL4=R", "QL6-QL4=B", "QL6-QL4=N", "QL6-QL5=Q", "QL6-QL5=R", "QL6-QL5=B", "QL6-QL5=N")
	if got := rulestest.MovesFrom(p, "QL6-"); !slices.Equal(got, want) {
		t.Errorf("QL6 board: %v, want %v", got, want)
	}
	if got := rulestest.Play(t, p, "QL6-QL4=N").String(); got != "QL1:w,QL4:w,KL1:w,KL6:b Kb1W,Na8B,kd9KL6 b - - - 1 30" {
		t.Errorf("after QL6-QL4=N: %s", got)
	}
	// White's board leaves QL1: Black's pawn on a1W becomes a queen.
	p = rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b pa1W,Kd3N,kd9KL6 w - - - 0 30")
	if got, want := rulestest.MovesFrom(p, "QL1-"), rulestest.Sorted("QL1-QL2", "QL1-QL3"); !slices.Equal(got, want) {
		t.Errorf("QL1 board: %v, want %v", got, want)
	}
	after := rulestest.Play(t, p, "QL1-QL3")
	if got := after.String(); got != "QL3:w,QL6:b,KL1:w,KL6:b qa1W,Kd3N,kd9KL6 b - - - 1 30" {
		t.Errorf("after QL1-QL3: %s", got)
	}
	info := p.Info(mustMove(t, p, "QL1-QL3"))
	if !info.Promotion || info.PromoteTo != 'Q' || CellNames()[info.Promoted] != "a1W" {
		t.Errorf("Info(QL1-QL3) = %+v, want a promotion to Q on a1W", info)
	}
	// Illegal when a knight on a1W would attack the mover's king (b3W) or
	// the new queen does (a4W).
	for _, king := range []string{"b3W", "a4W", "c2W"} {
		p = rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b pa1W,K"+king+",kd9KL6 w - - - 0 30")
		if got := rulestest.MovesFrom(p, "QL1-"); len(got) != 0 {
			t.Errorf("white king on %s: board moves %v, want none (D10)", king, got)
		}
	}
}

func TestD11CastlingNotOnTheFirstMove(t *testing.T) {
	p := StartPosition()
	if rulestest.HasMove(&p, "0-0") {
		t.Errorf("0-0 offered on White's first move")
	}
	q := rulestest.Play(t, rulestest.Play(t, &p, "a2W-a3W"), "a7B-a6B")
	if !rulestest.HasMove(q, "0-0") {
		t.Errorf("0-0 not offered on White's second move: %v", rulestest.Longs(q))
	}
	if r := rulestest.Play(t, q, "a3W-a4W"); !rulestest.HasMove(r, "0-0") {
		t.Errorf("0-0 not offered on Black's second move")
	}
	// In a position string: while the fullmove number is 1.
	p1 := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Pe1KL1,Re0KL1,rz9QL6,kd9KL6,pe8KL6,re9KL6 b KQkq - - 0 1")
	if rulestest.HasMove(p1, "0-0") || rulestest.HasMove(p1, "0-0-0") {
		t.Errorf("castling offered to Black at fullmove 1")
	}
}

func TestCastlingBothSidesBothColours(t *testing.T) {
	// The e-file pawns shield e0/e9 from the rooks on the far side: lines
	// fly over the voids between (D5).
	const pos = "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rz9QL6,kd9KL6,re9KL6 %s KQkq - - 0 5"
	for _, tc := range []struct {
		side, move, want string
	}{
		{"w", "0-0", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,rz9QL6,Rd0KL1,Ke0KL1,Pe1KL1,pe8KL6,kd9KL6,re9KL6 b kq - - 1 5"},
		{"w", "0-0-0", "QL1:w,QL6:b,KL1:w,KL6:b Ka0QL1,rz9QL6,Rd0KL1,Re0KL1,Pe1KL1,pe8KL6,kd9KL6,re9KL6 b kq - - 1 5"},
		{"b", "0-0", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,rz9QL6,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rd9KL6,ke9KL6 w KQ - - 1 6"},
		{"b", "0-0-0", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,ka9QL6,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rd9KL6,re9KL6 w KQ - - 1 6"},
	} {
		p := rulestest.MustParse(t, Parse, strings.Replace(pos, "%s", tc.side, 1))
		if got := rulestest.Play(t, p, tc.move).String(); got != tc.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.side, tc.move, got, tc.want)
		}
	}
	// Without the shield the rook on e9KL6 attacks e0KL1 over the voids:
	// kingside castling is prevented, queenside is not (3.5(a)(ii)(2)).
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 5")
	if rulestest.HasMove(p, "0-0") || !rulestest.HasMove(p, "0-0-0") {
		t.Errorf("castlings = %v, want 0-0-0 only", rulestest.MovesFrom(p, "0-"))
	}
}

func TestD12BoardControl(t *testing.T) {
	// A white-marked board holding one black knight is Black's to move.
	const pos = "QL1:w,QL6:b,KL6:b na1QL1,Kc3W,kd9KL6 %s - - - 0 10"
	w := rulestest.MustParse(t, Parse, strings.Replace(pos, "%s", "w", 1))
	if got := rulestest.MovesFrom(w, "QL1-"); len(got) != 0 {
		t.Errorf("White moves a board holding a black knight: %v", got)
	}
	b := rulestest.MustParse(t, Parse, strings.Replace(pos, "%s", "b", 1))
	if got, want := rulestest.MovesFrom(b, "QL1-"), []string{"QL1-KL1"}; !slices.Equal(got, want) {
		t.Errorf("Black's board moves from QL1: %v, want %v (forward is lower ranks for Black)", got, want)
	}
	// An empty board belongs to its marking; a board with two pieces is stuck.
	e := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL6:b Kc3W,kd9KL6 b - - - 0 10")
	if got := rulestest.MovesFrom(e, "QL1-"); len(got) != 0 {
		t.Errorf("Black moves White's empty board: %v", got)
	}
	s := StartPosition()
	if got := rulestest.MovesFrom(&s, "QL1-"); len(got) != 0 {
		t.Errorf("a board holding four pieces moves: %v", got)
	}
}

func TestD13Adjacency(t *testing.T) {
	// The table of docs/rules.md; KL rows mirror QL rows.
	table := map[string][3][]string{ // higher ranks, lower ranks, sideways
		"QL1": {{"QL2", "QL3"}, nil, {"KL1"}},
		"QL2": {{"QL4"}, {"QL1", "QL3"}, {"KL2"}},
		"QL3": {{"QL2", "QL4", "QL5"}, {"QL1"}, {"KL3"}},
		"QL4": {{"QL6"}, {"QL2", "QL3", "QL5"}, {"KL4"}},
		"QL5": {{"QL4", "QL6"}, {"QL3"}, {"KL5"}},
		"QL6": {nil, {"QL4", "QL5"}, {"KL6"}},
	}
	mirror := func(s []string) []string {
		var out []string
		for _, p := range s {
			if strings.HasPrefix(p, "QL") {
				out = append(out, "KL"+p[2:])
			} else {
				out = append(out, "QL"+p[2:])
			}
		}
		return out
	}
	for pin, row := range table {
		for _, side := range []string{"QL", "KL"} {
			from, hi, lo, sw := pin, row[0], row[1], row[2]
			if side == "KL" {
				from, hi, lo, sw = "KL"+pin[2:], mirror(hi), mirror(lo), mirror(sw)
			}
			q, _ := ParsePin(from)
			sq := q.Squares()[0].String()
			for _, tc := range []struct {
				name, pos string
				want      []string
			}{
				{"empty white board", from + ":w Kb2W,kc7B w - - - 0 10", append(append(append([]string{}, hi...), lo...), sw...)},
				{"white knight aboard", from + ":b Kb2W,kc7B,N" + sq + " w - - - 0 10", append(append([]string{}, hi...), sw...)},
				{"black knight aboard", from + ":w Kb2W,kc7B,n" + sq + " b - - - 0 10", append(append([]string{}, lo...), sw...)},
			} {
				p := rulestest.MustParse(t, Parse, tc.pos)
				var got []string
				for _, l := range rulestest.MovesFrom(p, from+"-") {
					got = append(got, strings.TrimPrefix(l, from+"-"))
				}
				if !slices.Equal(got, rulestest.Sorted(tc.want...)) {
					t.Errorf("%s on %s: %v, want %v", tc.name, from, got, rulestest.Sorted(tc.want...))
				}
			}
		}
	}
}

func TestD14CarriedPieceIsTranslated(t *testing.T) {
	for _, tc := range []struct{ pos, move, want string }{
		{"QL3:w Rz2QL3,Kb2W,kc7B w - - - 0 10", "QL3-QL5", "QL5:w Kb2W,kc7B,Rz4QL5 b - - - 1 10"},
		{"QL1:w Rz0QL1,Kb2W,kc7B w - - - 0 10", "QL1-KL1", "KL1:w Kb2W,kc7B,Rd0KL1 b - - - 1 10"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		if got := rulestest.Play(t, p, tc.move).String(); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.move, got, tc.want)
		}
	}
}

func TestD15BoardMoveOutOfCheck(t *testing.T) {
	// The rook on a5N checks the king on a1QL1 along the a-file. The board
	// may carry the king to a5QL2 (the rook's own column is not attacked by
	// it) or to e1KL1, but not to a3QL3.
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL6:b Ka1QL1,ra5N,kd9KL6 w - - - 0 10")
	want := rulestest.Sorted("a1QL1-b1W", "a1QL1-b2W", "a1QL1-z0QL1", "a1QL1-z1QL1", "QL1-KL1", "QL1-QL2")
	if got := rulestest.Longs(p); !slices.Equal(got, want) {
		t.Errorf("legal moves in check: %v, want %v", got, want)
	}
}

func TestD16CastlingRightsLost(t *testing.T) {
	const base = "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,rz9QL6,kd9KL6,re9KL6,Pb2W,nc3N w KQkq - b2W 0 5"
	for _, tc := range []struct {
		name   string
		pos    string
		moves  []string
		castle string
	}{
		{"king moves", base, []string{"d0KL1-c1W"}, "kq"},
		{"kingside rook moves", base, []string{"e0KL1-e1KL1"}, "Qkq"},
		{"queenside rook moves", base, []string{"z0QL1-z1QL1"}, "Kkq"},
		{"rook captured at home", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,nc1W,rz9QL6,kd9KL6,re9KL6 b KQkq - - 0 5",
			[]string{"c1W-e0KL1"}, "Qkq"},
		{"board carries the rook", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 5", []string{"QL1-QL3"}, "Kkq"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		for _, m := range tc.moves {
			p = rulestest.Play(t, p, m)
		}
		if got := strings.Fields(p.String())[3]; got != tc.castle {
			t.Errorf("%s: castling %s, want %s", tc.name, got, tc.castle)
		}
	}
}

func TestD17AmbiguousPawnPush(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Pa4W,Pa4N,Kd0KL1,kd9KL6 w - - - 0 10")
	m := mustMove(t, p, "a4N-a5N")
	if got := p.Short(m); got != "a4Na5N" {
		t.Errorf("writer: Short(a4N-a5N) = %q, want a4Na5N", got)
	}
	m2, note, err := p.ParseMove("a5N")
	if err != nil || p.Long(m2) != "a4N-a5N" || !strings.Contains(note, "D17") {
		t.Errorf(`reader: "a5N" = %s, note %q, err %v; want a4N-a5N with a D17 note`, p.Long(m2), note, err)
	}
	if _, _, err := p.ParseMove("a5B"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf(`reader: "a5B" err = %v, want ambiguous (neither pawn stays on its level)`, err)
	}
}

func mustMove(t testing.TB, p *Position, s string) rules.Move {
	t.Helper()
	m, _, err := p.ParseMove(s)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return m
}

// D18: only K v K is dead. A piece never attacks its own column (D6), so
// the kings can stand in one column on two levels, and then a lone bishop
// or knight mates; bishops all on one colour mate too. The variants follow
// the same rule.
func TestD18OnlyKingVersusKingIsDead(t *testing.T) {
	va2, err := ParseOptions("V.A2")
	if err != nil {
		t.Fatal(err)
	}
	variant, err := NewSystem(va2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, pos string
		want      rules.Status
		mates     []string // moves that mate from pos
	}{
		{"K v K", "QL1:w Kb2W,kc7B w - - - 0 10", rules.DeadPosition, nil},
		{"K+B v K mates", "QL1:w,QL6:b,KL1:w,KL6:b Kb3W,Bd3N,kb3N w - - - 0 50", rules.Ongoing, []string{"d3N-c4W", "d3N-c4N"}},
		{"K+N v K mates", "QL1:w,QL6:b,KL1:w,KL6:b Kb3W,kb3N,Nc6N w - - - 0 50", rules.Ongoing, []string{"c6N-d4N"}},
		{"K+B v K, kings apart", "QL1:w Kb2W,Bc2W,kc7B w - - - 0 10", rules.Ongoing, nil},
		{"K v K+N", "QL1:w Kb2W,kc7B,nd4N w - - - 0 10", rules.Ongoing, nil},
		{"bishops all on dark squares", "QL1:w Kb2W,Ba1W,kc7B,bc3N w - - - 0 10", rules.Ongoing, nil},
	} {
		for _, sys := range []rules.System{System, variant} {
			p, err := sys.ParsePosition(tc.pos)
			if err != nil {
				t.Fatalf("%s: %v", tc.pos, err)
			}
			if got := p.Status(); got != tc.want {
				t.Errorf("%s (%s): status %v, want %v", tc.name, sys.Name(), got, tc.want)
			}
			for _, s := range tc.mates {
				m, _, err := p.ParseMove(s)
				if err != nil {
					t.Fatalf("%s (%s): %s: %v", tc.name, sys.Name(), s, err)
				}
				if got := p.Play(m).Status(); got != rules.Checkmate {
					t.Errorf("%s (%s): after %s status %v, want checkmate", tc.name, sys.Name(), s, got)
				}
			}
		}
	}
}
