package st3d

import (
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// Tests of the variant options (docs/rules.md): one per option and decision
// V1..V6, each exact.

func mustOptions(t testing.TB, s string) Options {
	t.Helper()
	o, err := ParseOptions(s)
	if err != nil {
		t.Fatalf("ParseOptions(%q): %v", s, err)
	}
	return o
}

// optParse reads a position string of a game under the options opts.
func optParse(t testing.TB, opts, s string) *Position {
	t.Helper()
	p, err := ParseWith(s, mustOptions(t, opts))
	if err != nil {
		t.Fatalf("ParseWith(%q, %s): %v", s, opts, err)
	}
	return &p
}

func optStart(t testing.TB, opts string) *Position {
	t.Helper()
	p, err := StartWith(mustOptions(t, opts))
	if err != nil {
		t.Fatalf("StartWith(%s): %v", opts, err)
	}
	return &p
}

func TestOptionsParse(t *testing.T) {
	for _, tc := range []struct{ in, canon string }{
		{"", ""},
		{"V.A1", "V.A1"},
		{"v.a2, V.A2.1", "V.A2,V.A2.1"},
		{"A2.1,A2", "V.A2,V.A2.1"},
		{"V.A3", "V.A3"},
		{"V.A3:6", "V.A3:6"},
		{"V.A3:12", "V.A3:12"},
		{"V.A3:8", "V.A3:8"},
		{"V.A4,V.A5,V.A2", "V.A2,V.A4,V.A5"},
		{"V.P1", "V.P1"},
		{"V.P2,V.A1", "V.A1,V.P2"},
		{"V.P3", "V.P3"},
		{"V.P4", "V.P4"},
		{"V.P5:409", "V.P5:409"},
		{"V.P5:0", "V.P5:0"},
		{"V.P5", "V.P5:random"},
		{"V.P5:random", "V.P5:random"},
		{"V.P6,V.A4", "V.A4,V.P6"},
		{"V.A1,V.A2,V.A2.1,V.A3,V.A4,V.P5:959", "V.A1,V.A2,V.A2.1,V.A3,V.A4,V.P5:959"},
	} {
		o, err := ParseOptions(tc.in)
		if err != nil {
			t.Errorf("ParseOptions(%q): %v", tc.in, err)
			continue
		}
		if got := o.String(); got != tc.canon {
			t.Errorf("ParseOptions(%q).String() = %q, want %q", tc.in, got, tc.canon)
		}
	}
	for _, tc := range []struct{ in, reason string }{
		{"V.A1,V.A5", "V3"},
		{"V.A5,V.A1", "cannot be combined"},
		{"V.A2.2", "no effect under the tournament rules"},
		{"V.M1", "not offered"},
		{"V.P1,V.P2", "one setup"},
		{"V.P5:3,V.P6", "one setup"},
		{"V.A1,V.A1", "named twice"},
		{"V.A9", "unknown option"},
		{"V.P5:960", "0-959"},
		{"V.P5:-1", "0-959"},
		{"V.P5:0409", "0-959"},
		{"V.A3:3", "4 to 12"},
		{"V.A1:2", "takes no argument"},
		{"V.A1,,V.A2", "unknown option"},
	} {
		if _, err := ParseOptions(tc.in); err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("ParseOptions(%q) err = %v, want %q", tc.in, err, tc.reason)
		}
	}
}

func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"", "V.A1,V.A2", "V.A2.1", "V.A3:8", "V.A4,V.P5:409", "V.P6", "V.A1,V.A5", "v.p5:random"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOptions(s)
		if err != nil {
			return
		}
		if err := o.Validate(); err != nil {
			t.Fatalf("ParseOptions(%q) accepted options that do not validate: %v", s, err)
		}
		back, err := ParseOptions(o.String())
		if err != nil || back != o {
			t.Fatalf("%q -> %q -> %+v, %v; want %+v", s, o.String(), back, err, o)
		}
	})
}

func TestNewSystem(t *testing.T) {
	sys, err := NewSystem(Options{})
	if err != nil || sys != System {
		t.Fatalf("NewSystem(no options) = %v, %v; want the tournament System", sys, err)
	}
	sys, err = NewSystem(mustOptions(t, "V.P5:409,V.A1"))
	if err != nil || sys.Name() != "st3d+V.A1,V.P5:409" {
		t.Fatalf("NewSystem(V.A1,V.P5:409) = %v, %v", sys, err)
	}
	p := sys.Start()
	if p.System().Name() != sys.Name() {
		t.Errorf("its start position names %q", p.System().Name())
	}
	q := p.Play(p.LegalMoves(nil)[0])
	if q.System().Name() != sys.Name() {
		t.Errorf("a position after a move names %q", q.System().Name())
	}
	if _, err := NewSystem(Options{Peters: true, Dayson: true}); err == nil || !strings.Contains(err.Error(), "V3") {
		t.Errorf("NewSystem(V.A1+V.A5) err = %v, want V3", err)
	}
	r, err := NewSystem(mustOptions(t, "V.P5"))
	if err != nil || !strings.HasPrefix(r.Name(), "st3d+V.P5:") || strings.Contains(r.Name(), "random") {
		t.Errorf("random V.P5: %v, %v; want a drawn number in the name", r, err)
	}
	// The plain System stays the tournament rules.
	if s := StartPosition(); s.System() != System || s.System().Name() != "st3d" {
		t.Errorf("tournament start: System %v", s.System().Name())
	}
	// V.P1 alone changes only the setup, and still names itself.
	if s := optStart(t, "V.P1"); s.System().Name() != "st3d+V.P1" {
		t.Errorf("V.P1 start: System %v", s.System().Name())
	}
}

// ---------------------------------------------------------------- V.A1

func TestVA1DirectionRule(t *testing.T) {
	// White boards: QL1 empty, QL3 with a knight, QL5 empty, KL1 empty.
	const pos = "QL1:w,QL3:w,QL5:w,KL1:w,KL6:b Kb1W,Nz2QL3,kc8B w - - - 0 10"
	for _, tc := range []struct {
		opts string
		want []string
	}{
		// D13: occupied forward or sideways, empty anywhere adjacent.
		{"", []string{"KL1-KL2", "KL1-KL3", "QL1-QL2", "QL3-KL3", "QL3-QL2", "QL3-QL4", "QL5-KL5", "QL5-QL4", "QL5-QL6"}},
		// V.A1: occupied forward or sideways, empty backward or sideways.
		{"V.A1", []string{"QL3-KL3", "QL3-QL2", "QL3-QL4", "QL5-KL5"}},
	} {
		var p *Position
		if tc.opts == "" {
			p = rulestest.MustParse(t, Parse, pos)
		} else {
			p = optParse(t, tc.opts, pos)
		}
		var got []string
		for _, l := range rulestest.Longs(p) {
			if strings.HasPrefix(l, "QL") || strings.HasPrefix(l, "KL") {
				got = append(got, l)
			}
		}
		if !slices.Equal(got, rulestest.Sorted(tc.want...)) {
			t.Errorf("%q: board moves %v, want %v", tc.opts, got, rulestest.Sorted(tc.want...))
		}
	}
	// Black: backward is toward higher ranks.
	p := optParse(t, "V.A1", "QL6:b,QL4:b,KL1:w Kb1W,kc8B,nz6QL4 b - - - 0 10")
	if got, want := rulestest.MovesFrom(p, "QL"), rulestest.Sorted("QL4-KL4", "QL4-QL2", "QL4-QL3", "QL4-QL5", "QL6-KL6"); !slices.Equal(got, want) {
		t.Errorf("black boards under V.A1: %v, want %v", got, want)
	}
}

// ---------------------------------------------------------------- V.A2

func TestVA2Rotate(t *testing.T) {
	const pos = "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,Ra0QL1,Pz8QL6,kc6N w - - - 0 10"
	p := optParse(t, "V.A2", pos)
	want := rulestest.Sorted("QL1@", "QL6@=Q", "QL6@=R", "QL6@=B", "QL6@=N")
	var got []string
	for _, l := range rulestest.Longs(p) {
		if strings.Contains(l, "@") {
			got = append(got, l)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("turns: %v, want %v", got, want)
	}
	// Without V.A2 there are none.
	if got := rulestest.MovesFrom(rulestest.MustParse(t, Parse, pos), "QL1@"); len(got) != 0 {
		t.Errorf("tournament rules turn a board: %v", got)
	}
	// The rook goes to the diagonally opposite square; the clock adds one.
	after := rulestest.Play(t, p, "QL1@")
	if got, want := after.String(), "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,kc6N,Rz1QL1,Pz8QL6 b - - - 1 10"; got != want {
		t.Errorf("after QL1@:\n got %s\nwant %s", got, want)
	}
	// A pawn turned onto its furthest rank promotes (z8 -> a9 with QL6).
	after = rulestest.Play(t, p, "QL6@=N")
	if got, want := after.String(), "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,kc6N,Ra0QL1,Na9QL6 b - - - 1 10"; got != want {
		t.Errorf("after QL6@=N:\n got %s\nwant %s", got, want)
	}
	m := mustMove(t, p, "QL6@Q")
	if p.Long(m) != "QL6@=Q" || p.Short(m) != "QL6@Q" {
		t.Errorf("QL6@Q: long %s short %s", p.Long(m), p.Short(m))
	}
	in := p.Info(m)
	if !in.Board || cells(in.Touched)[0] != "z8QL6" || !in.Touched.Has(PinCell(pinQL6)) || in.Touched.Len() != 2 ||
		CellNames()[in.Promoted] != "a9QL6" || in.PromoteTo != 'Q' {
		t.Errorf("Info(QL6@=Q) = %+v (touched %v)", in, cells(in.Touched))
	}
	// Bookkeeping: en passant ends, a turned pawn loses its double step, a
	// turned rook loses its castling right, and a pawn may be turned backward.
	q := optParse(t, "V.A2", "QL1:w,QL6:b,KL1:w,KL6:b Pz1QL1,Kb1W,pb4N,kd9KL6,Pc4N w - b4N z1QL1 0 10")
	if !rulestest.HasMove(q, "c4N-b5N") {
		t.Errorf("en passant not offered: %v", rulestest.Longs(q))
	}
	r := rulestest.Play(t, q, "QL1@")
	if got, want := r.String(), "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,pb4N,Pc4N,Pa0QL1,kd9KL6 b - - - 1 10"; got != want {
		t.Errorf("after turning the pawn backward:\n got %s\nwant %s", got, want)
	}
	c := optParse(t, "V.A2", "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,Re0KL1,Pd1KL1,Pe1KL1,Rz0QL1,kd9KL6 w KQ - - 0 10")
	if got := strings.Fields(rulestest.Play(t, c, "QL1@").String())[3]; got != "K" {
		t.Errorf("castling after turning the queenside rook: %s, want K", got)
	}
	// An empty board is not turned; a board with two pieces neither.
	e := optParse(t, "V.A2", "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,kd9KL6 w - - - 0 10")
	for _, l := range rulestest.Longs(e) {
		if strings.Contains(l, "@") {
			t.Errorf("empty board turned: %s", l)
		}
	}
}

// ---------------------------------------------------------------- V.A2.1, V1

func TestV1TwoSquares(t *testing.T) {
	// V1: QL3 reaches QL1, QL2 and QL5 (two ranks), not QL4 (four ranks).
	want := map[string][]string{
		"QL1": {"QL3"}, "QL2": {"QL3", "QL4"}, "QL3": {"QL1", "QL2", "QL5"},
		"QL4": {"QL2", "QL5", "QL6"}, "QL5": {"QL3", "QL4"}, "QL6": {"QL4"},
	}
	for from, to := range want {
		for _, side := range []string{"QL", "KL"} {
			f := side + from[2:]
			p := optParse(t, "V.A2.1", f+":w Kb2W,kc7B w - - - 0 10")
			var got []string
			for _, l := range rulestest.MovesFrom(p, f+"-") {
				got = append(got, strings.TrimPrefix(l, f+"-")[2:])
			}
			var w []string
			for _, o := range to {
				w = append(w, o[2:])
			}
			if !slices.Equal(got, rulestest.Sorted(w...)) {
				t.Errorf("V.A2.1: %s reaches %v, want %v", f, got, rulestest.Sorted(w...))
			}
			for _, l := range rulestest.MovesFrom(p, f+"-") {
				if !strings.HasPrefix(strings.TrimPrefix(l, f+"-"), side) {
					t.Errorf("V.A2.1: sideways move %s", l)
				}
			}
		}
	}
	// With V.A2 a board holding one piece may still be turned.
	p := optParse(t, "V.A2,V.A2.1", "QL1:w,QL3:w,QL5:w,KL1:w,KL6:b Kb1W,Nz2QL3,kc8B w - - - 0 10")
	if got, want := rulestest.MovesFrom(p, "QL3"), rulestest.Sorted("QL3-QL2", "QL3@"); !slices.Equal(got, want) {
		t.Errorf("QL3 with a knight: %v, want %v", got, want)
	}
}

// ---------------------------------------------------------------- V.A3

func TestVA3PromotionToABoard(t *testing.T) {
	const pos = "QL1:w,KL1:w Kb1W,Pa7B,Pd7B,kc5N w - - - 0 30"
	p := optParse(t, "V.A3", pos)
	for _, from := range []string{"a7B-", "d7B-"} {
		sq := from[:1] + "8B"
		want := rulestest.Sorted(from+sq+"=Q", from+sq+"=R", from+sq+"=B", from+sq+"=N", from+sq+"=A")
		if got := rulestest.MovesFrom(p, from); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", from, got, want)
		}
	}
	m := mustMove(t, p, "a8BA")
	if p.Long(m) != "a7B-a8B=A" || p.Short(m) != "a8BA" {
		t.Errorf("a8BA: long %s, short %s", p.Long(m), p.Short(m))
	}
	if got, want := p.Play(m).String(), "QL1:w,QL6:w,KL1:w Kb1W,kc5N,Pd7B b - - - 0 30"; got != want {
		t.Errorf("after a7B-a8B=A:\n got %s\nwant %s", got, want)
	}
	in := p.Info(m)
	if in.From != SquareCell(mustSquare("a7B")) || in.To != PinCell(pinQL6) || in.PromoteTo != 'A' ||
		in.Promoted != SquareCell(sqA8B) || !in.Promotion || in.Board {
		t.Errorf("Info(a7B-a8B=A) = %+v", in)
	}
	// Black promotes on d1 to a board on KL1 (marked Black's).
	b := optParse(t, "V.A3", "QL1:w,QL6:b,KL6:b Kb3W,pd2W,kc8B b - - - 0 30")
	if got := rulestest.Play(t, b, "d2W-d1W=A").String(); got != "QL1:w,QL6:b,KL1:b,KL6:b Kb3W,kc8B w - - - 0 31" {
		t.Errorf("after d2W-d1W=A: %s", got)
	}
	// A set with no spare board: no =A.
	if full := optParse(t, "V.A3:4", "QL1:w,QL2:w,KL1:w,KL2:w Kb1W,Pa7B,kc5N w - - - 0 30"); rulestest.HasMove(full, "a7B-a8B=A") {
		t.Errorf("=A offered with all four boards of a four-board set in play")
	}
	// The rules set no limit: with eight boards standing, =A is offered,
	// and a set of eight boards (V.A3:8) refuses it.
	const eight = "QL1:w,QL2:w,QL3:w,QL4:w,KL1:w,KL2:w,KL3:w,KL4:w Kb1W,Pa7B,kc5N w - - - 0 30"
	if many := optParse(t, "V.A3", eight); !rulestest.HasMove(many, "a7B-a8B=A") {
		t.Errorf("=A not offered with eight boards standing: %v", rulestest.MovesFrom(many, "a7B-"))
	}
	if set8 := optParse(t, "V.A3:8", eight); rulestest.HasMove(set8, "a7B-a8B=A") {
		t.Errorf("=A offered by a set of eight boards with eight standing")
	}
	// V.A3 with V.A4: six boards stand from the start, and =A is offered.
	// (KL5 instead of KL6, so that d8B is the furthest rank, D9.)
	six := optParse(t, "V.A3,V.A4", "QL1:w,QL4:n,QL6:b,KL1:w,KL3:n,KL5:b Kb1W,Pd7B,kc5N w - - - 0 30")
	if !rulestest.HasMove(six, "d7B-d8B=A") {
		t.Errorf("V.A3,V.A4: =A not offered with KL6 free: %v", rulestest.MovesFrom(six, "d7B-"))
	}
	if tour := rulestest.MustParse(t, Parse, pos); rulestest.HasMove(tour, "a7B-a8B=A") {
		t.Errorf("=A offered under the tournament rules")
	}
	// Deferred promotion of the mover's pawn (D10): the new board stands on
	// the pin just vacated.
	d := optParse(t, "V.A3", "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30")
	want := rulestest.Sorted("QL6-QL4=Q", "QL6-QL4=R", "QL6-QL4=B", "QL6-QL4=N", "QL6-QL4=A",
		"QL6-QL5=Q", "QL6-QL5=R", "QL6-QL5=B", "QL6-QL5=N", "QL6-QL5=A")
	if got := rulestest.MovesFrom(d, "QL6-"); !slices.Equal(got, want) {
		t.Errorf("deferred: %v, want %v", got, want)
	}
	dm := mustMove(t, d, "QL6-QL4A")
	if got := d.Play(dm).String(); got != "QL1:w,QL4:w,QL6:w,KL1:w,KL6:b Kb1W,kd9KL6 b - - - 1 30" {
		t.Errorf("after QL6-QL4=A: %s", got)
	}
	in = d.Info(dm)
	if !in.Board || in.From != PinCell(pinQL6) || !in.Touched.Has(SquareCell(sqA8B)) || in.Promoted != SquareCell(sqA8B) {
		t.Errorf("Info(QL6-QL4=A) = %+v", in)
	}
	// An opponent's pawn still becomes a queen.
	o := optParse(t, "V.A3", "QL1:w,QL6:b,KL1:w,KL6:b pa1W,Kd3N,kd9KL6 w - - - 0 30")
	if got, want := rulestest.MovesFrom(o, "QL1-"), rulestest.Sorted("QL1-QL2", "QL1-QL3"); !slices.Equal(got, want) {
		t.Errorf("opponent's deferred promotion: %v, want %v", got, want)
	}
}

// ---------------------------------------------------------------- V.A4

func TestVA4NeutralBoards(t *testing.T) {
	s := optStart(t, "V.A4")
	if got := strings.Fields(s.String())[0]; got != "QL1:w,QL4:n,QL6:b,KL1:w,KL3:n,KL6:b" {
		t.Errorf("V.A4 boards: %s", got)
	}
	// Nobody moves or turns a neutral board.
	p := optParse(t, "V.A2,V.A4", "QL1:w,QL4:n,QL6:b,KL1:w,KL3:n,KL6:b Kb1W,kc8B w - - - 0 10")
	if got := rulestest.MovesFrom(p, "QL4"); len(got) != 0 {
		t.Errorf("neutral QL4 moves: %v", got)
	}
	if got := rulestest.MovesFrom(p, "KL3"); len(got) != 0 {
		t.Errorf("neutral KL3 moves: %v", got)
	}
	// A piece landing on it claims it for its side, for good.
	q := optParse(t, "V.A4", "QL1:w,QL4:n,QL6:b,KL1:w,KL3:n,KL6:b Kb1W,Nc1W,kc8B,nb8B w - - - 0 10")
	q = rulestest.Play(t, q, "c1W-e2KL3")
	if got := strings.Fields(q.String())[0]; got != "QL1:w,QL4:n,QL6:b,KL1:w,KL3:w,KL6:b" {
		t.Errorf("after the knight lands on KL3: %s", got)
	}
	q = rulestest.Play(t, q, "b8B-a6QL4")
	if got := strings.Fields(q.String())[0]; got != "QL1:w,QL4:b,QL6:b,KL1:w,KL3:w,KL6:b" {
		t.Errorf("after the black knight lands on QL4: %s", got)
	}
	q = rulestest.Play(t, q, "e2KL3-c1W") // the white knight leaves: KL3 stays White's
	if got := rulestest.MovesFrom(q, "KL3"); !slices.Equal(got, []string{}) && len(got) != 0 {
		t.Errorf("Black moves White's claimed board: %v", got)
	}
	q = rulestest.Play(t, q, "a6QL4-b8B")
	if got := rulestest.MovesFrom(q, "KL3-"); len(got) == 0 {
		t.Errorf("White cannot move its claimed empty board KL3")
	}
	// The position string: n needs V.A4; no piece on a neutral board.
	if _, err := Parse("QL1:w,QL4:n Kb1W,kc8B w - - - 0 10"); err == nil || !strings.Contains(err.Error(), "V.A4") {
		t.Errorf("n without V.A4: err = %v", err)
	}
	if _, err := ParseWith("QL1:w,QL4:n Kb1W,kc8B,Nz6QL4 w - - - 0 10", mustOptions(t, "V.A4")); err == nil ||
		!strings.Contains(err.Error(), "neutral board on QL4") {
		t.Errorf("piece on a neutral board: err = %v", err)
	}
}

// ---------------------------------------------------------------- V.A5, V3

func TestVA5Dayson(t *testing.T) {
	const pos = "QL1:w,QL3:w,QL6:b,KL1:w,KL4:b,KL6:b Kb1W,Pz2QL3,Nd1KL1,Pd6KL4,kc8B w - - - 0 10"
	p := optParse(t, "V.A5", pos)
	// QL1 empty: QL3 only, which is taken. QL3 with its own pawn: QL5 (up).
	// KL1 carries a knight: stuck. KL4 is Black's: White may not move it.
	if got, want := append(rulestest.MovesFrom(p, "QL"), rulestest.MovesFrom(p, "KL")...), []string{"QL3-QL5"}; !slices.Equal(got, want) {
		t.Errorf("V.A5 board moves: %v, want %v", got, want)
	}
	// Empty boards go up or down one main board, same corner.
	e := optParse(t, "V.A5", "QL3:w,KL4:w,QL6:b Kb1W,kc8B w - - - 0 10")
	if got, want := rulestest.Sorted(append(rulestest.MovesFrom(e, "QL"), rulestest.MovesFrom(e, "KL")...)...), rulestest.Sorted("QL3-QL1", "QL3-QL5", "KL4-KL2", "KL4-KL6"); !slices.Equal(got, want) {
		t.Errorf("V.A5 empty boards: %v, want %v", got, want)
	}
	// Never backward for the carried pawn: Black's pawn goes down only.
	b := optParse(t, "V.A5", "QL3:b,QL6:b,KL1:w Kb1W,pz3QL3,kc8B b - - - 0 10")
	if got, want := rulestest.MovesFrom(b, "QL3"), []string{"QL3-QL1"}; !slices.Equal(got, want) {
		t.Errorf("V.A5 black pawn board: %v, want %v", got, want)
	}
	// With V.A2.1: pins both allow (the same here).
	w := optParse(t, "V.A2.1,V.A5", "QL3:w,KL4:w,QL6:b Kb1W,kc8B w - - - 0 10")
	if got := rulestest.Sorted(append(rulestest.MovesFrom(w, "QL"), rulestest.MovesFrom(w, "KL")...)...); !slices.Equal(got, rulestest.Sorted("QL3-QL1", "QL3-QL5", "KL4-KL2", "KL4-KL6")) {
		t.Errorf("V.A2.1+V.A5: %v", got)
	}
}

// turns lists the V.A2 turns of p in long form.
func turns(p rules.Position) []string {
	var out []string
	for _, l := range rulestest.Longs(p) {
		if strings.Contains(l, "@") {
			out = append(out, l)
		}
	}
	return out
}

// TestV7DaysonTurns: with V.A5 a side turns (V.A2) only a board of its own
// marking holding exactly one of its own pawns, and not when the turn puts
// that pawn on a rank behind it; V.A2 alone turns any single piece.
func TestV7DaysonTurns(t *testing.T) {
	const boards = "QL1:w,QL6:b,KL1:w,KL6:b "
	for _, tc := range []struct {
		opts, pos string
		want      []string
	}{
		// The two positions: a pawn turned back (z1 -> a0), a rook.
		{"V.A2,V.A5", boards + "Kb2W,kc7B,Pz1QL1 w - - - 0 10", nil},
		{"V.A2,V.A5", boards + "Kb2W,kc7B,Rz0QL1 w - - - 0 10", nil},
		// Without V.A5 both are turns.
		{"V.A2", boards + "Kb2W,kc7B,Pz1QL1 w - - - 0 10", []string{"QL1@"}},
		{"V.A2", boards + "Kb2W,kc7B,Rz0QL1 w - - - 0 10", []string{"QL1@"}},
		// A pawn on the board's rear rank goes forward (z0 -> a1).
		{"V.A2,V.A5", boards + "Kb2W,kc7B,Pz0QL1 w - - - 0 10", []string{"QL1@"}},
		// Black's rear rank is 9: z9 -> a8 forward, z8 -> a9 backward.
		{"V.A2,V.A5", boards + "Kb2W,kc7B,pz9QL6 b - - - 0 10", []string{"QL6@"}},
		{"V.A2,V.A5", boards + "Kb2W,kc7B,pz8QL6 b - - - 0 10", nil},
		// The other side's pawn, or the other side's board: no turn.
		{"V.A2,V.A5", boards + "Kb2W,kc7B,pz1QL1 b - - - 0 10", nil},
		{"V.A2,V.A5", boards + "Kb2W,kc7B,Pz8QL6 w - - - 0 10", nil},
		// The earlier test's position: QL1's rook and QL6 (Black's) stay.
		{"V.A2,V.A5", boards + "Kb1W,Ra0QL1,Pz8QL6,kc6N w - - - 0 10", nil},
		// A White board on QL6 holding a White pawn on z8: turned to a9, it
		// promotes (four moves).
		{"V.A2,V.A5", "QL1:w,QL6:w,KL1:w,KL6:b Kb2W,kc7B,Pz8QL6 w - - - 0 10",
			rulestest.Sorted("QL6@=Q", "QL6@=R", "QL6@=B", "QL6@=N")},
	} {
		p := optParse(t, tc.opts, tc.pos)
		if got := turns(p); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: turns %v, want %v", tc.opts, tc.pos, got, tc.want)
		}
	}
}

// TestV8PlacementOrder: White's second bishop and first knight (V.P6) come
// in either order; TestVP6Placement places the knight first.
func TestV8PlacementOrder(t *testing.T) {
	p := optStart(t, "V.P6")
	for _, mv := range []string{"B@b1W", "B@a8B", "B@b8B"} {
		p = rulestest.Play(t, p, mv)
	}
	p = rulestest.Play(t, p, "B@c1W") // the bishop first
	if p.Turn() != rules.White {
		t.Fatalf("after the second bishop: %s to place, want white", p.Turn())
	}
	if got := rulestest.MovesFrom(p, "B@"); len(got) != 0 {
		t.Errorf("a third bishop offered: %v", got)
	}
	if got := rulestest.MovesFrom(p, "N@"); len(got) != 6 || len(p.LegalMoves(nil)) != 6 {
		t.Errorf("knight placements %v, all %v; want the six free squares", got, rulestest.Longs(p))
	}
	p = rulestest.Play(t, p, "N@a0QL1")
	if p.Turn() != rules.Black || len(rulestest.MovesFrom(p, "N@")) != 6 {
		t.Errorf("after the knight: %s to place, %v", p.Turn(), rulestest.Longs(p))
	}
}

// ---------------------------------------------------------------- V.P1, V.P2, V2

func TestVP1VP2Setups(t *testing.T) {
	p1 := optStart(t, "V.P1")
	for _, sq := range []string{"Ba1W", "Nb1W", "Nc1W", "Bd1W", "ba8B", "nb8B", "nc8B", "bd8B", "Kd0KL1", "kd9KL6"} {
		if !strings.Contains(p1.String(), sq) {
			t.Errorf("V.P1 start lacks %s: %s", sq, p1)
		}
	}
	if got := strings.Fields(p1.String())[3]; got != "KQkq" {
		t.Errorf("V.P1 castling %s", got)
	}
	p2 := optStart(t, "V.P2")
	for _, sq := range []string{"Qb1W", "Kc1W", "Ba0QL1", "Bd0KL1", "Na1W", "Nd1W", "qb8B", "kc8B", "ba9QL6", "bd9KL6"} {
		if !strings.Contains(p2.String(), sq) {
			t.Errorf("V.P2 start lacks %s: %s", sq, p2)
		}
	}
	if got := strings.Fields(p2.String())[3]; got != "-" {
		t.Errorf("V.P2 castling %s, want - (the king is not on d0KL1)", got)
	}
}

// chess960Number computes a setup's number from its eight letters, the
// other way round from Chess960: light bishop, dark bishop, queen among
// the six places left, knights among the five left (the standard KRN
// table), in the test's own words.
func chess960Number(r string) int {
	lb, db := -1, -1
	for i := 0; i < 8; i++ {
		if r[i] == 'B' {
			if i%2 == 1 {
				lb = i / 2
			} else {
				db = i / 2
			}
		}
	}
	var rest []byte
	for i := 0; i < 8; i++ {
		if r[i] != 'B' {
			rest = append(rest, r[i])
		}
	}
	q := strings.IndexByte(string(rest), 'Q')
	rest = append(rest[:q:q], rest[q+1:]...)
	var kn []int
	for i, c := range rest {
		if c == 'N' {
			kn = append(kn, i)
		}
	}
	krn := 0
	for a := 0; a < 5; a++ {
		for b := a + 1; b < 5; b++ {
			if a == kn[0] && b == kn[1] {
				return lb + 4*db + 16*q + 96*krn
			}
			krn++
		}
	}
	return -1
}

func TestV2Chess960Numbering(t *testing.T) {
	for _, tc := range []struct {
		n    int
		rank string
	}{
		{518, "RNBQKBNR"}, {0, "BBQNNRKR"}, {959, "RKRNNQBB"},
		{409, "RQNBBNKR"}, // the ordinary ST3D setup (V2)
		{406, "RQBNNBKR"}, // V.P1
		{524, "RBNQKNBR"}, // V.P2
	} {
		if got := Chess960(tc.n); got != tc.rank {
			t.Errorf("Chess960(%d) = %s, want %s", tc.n, got, tc.rank)
		}
		if got := chess960Number(tc.rank); got != tc.n {
			t.Errorf("the test's numbering of %s = %d, want %d", tc.rank, got, tc.n)
		}
	}
	seen := map[string]bool{}
	for n := 0; n < 960; n++ {
		r := Chess960(n)
		if seen[r] {
			t.Fatalf("Chess960(%d) = %s twice", n, r)
		}
		seen[r] = true
		if got := chess960Number(r); got != n {
			t.Fatalf("Chess960(%d) = %s, numbered %d", n, r, got)
		}
		k, r1, r2 := strings.IndexByte(r, 'K'), strings.IndexByte(r, 'R'), strings.LastIndexByte(r, 'R')
		b1, b2 := strings.IndexByte(r, 'B'), strings.LastIndexByte(r, 'B')
		if !(r1 < k && k < r2) || (b1+b2)%2 == 0 {
			t.Fatalf("Chess960(%d) = %s: king not between the rooks or bishops on one colour", n, r)
		}
		// The virtual rank's colours alternate as on a rank (D3).
		if virtualRank[rules.White][b1].Dark() == virtualRank[rules.White][b2].Dark() {
			t.Fatalf("Chess960(%d): bishops on one colour of the set", n)
		}
	}
	// The start positions: 409 is the ordinary setup, 406 V.P1, 524 V.P2.
	pieces := func(p *Position) string { return strings.Fields(p.String())[1] }
	for _, tc := range []struct{ n, setup string }{{"V.P5:409", ""}, {"V.P5:406", "V.P1"}, {"V.P5:524", "V.P2"}} {
		a := optStart(t, tc.n)
		var b *Position
		if tc.setup == "" {
			s := StartPosition()
			b = &s
		} else {
			b = optStart(t, tc.setup)
		}
		if pieces(a) != pieces(b) {
			t.Errorf("%s: %s, want the pieces of %q: %s", tc.n, pieces(a), tc.setup, pieces(b))
		}
	}
	if got := strings.Fields(optStart(t, "V.P5:409").String())[3]; got != "z0QL1,e0KL1,z9QL6,e9KL6" {
		t.Errorf("V.P5:409 castling field %s", got)
	}
	// Black mirrors White.
	p := optStart(t, "V.P5:0")
	if got := pieces(p); !strings.Contains(got, "Bz0QL1") || !strings.Contains(got, "bz9QL6") ||
		!strings.Contains(got, "Qa1W") || !strings.Contains(got, "qa8B") || !strings.Contains(got, "rd8B") {
		t.Errorf("V.P5:0 pieces %s", got)
	}
}

// ---------------------------------------------------------------- V.P5.3, V5, V6

const b960 = "QL1:w,QL6:b,KL1:w,KL6:b "

func TestV5Castling960(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		castle    []string // the castlings offered
		after     map[string]string
	}{
		{"double-move (rooks b1W d1W, king c1W): e side; a side blocked by the d1W rook",
			b960 + "Rb1W,Kc1W,Rd1W,kc8B w b1W,d1W - - 0 5", []string{"0-0"},
			map[string]string{"0-0": b960 + "Rb1W,kc8B,Rd0KL1,Ke0KL1 b - - - 1 5"}},
		{"transposition (rooks a0QL1 e0KL1, king d0KL1)",
			b960 + "Ra0QL1,Pa2W,Kd0KL1,Re0KL1,Pe1KL1,ra9QL6,pa7B,kd9KL6,re9KL6,pe8KL6 w a0QL1,e0KL1,a9QL6,e9KL6 - - 0 5",
			[]string{"0-0", "0-0-0"},
			map[string]string{
				"0-0":   b960 + "Pa2W,pa7B,Ra0QL1,ra9QL6,Rd0KL1,Ke0KL1,Pe1KL1,pe8KL6,kd9KL6,re9KL6 b a9QL6,e9KL6 - - 1 5",
				"0-0-0": b960 + "Pa2W,pa7B,Ka0QL1,ra9QL6,Rd0KL1,Re0KL1,Pe1KL1,pe8KL6,kd9KL6,re9KL6 b a9QL6,e9KL6 - - 1 5",
			}},
		{"transposition, Black",
			b960 + "Ra0QL1,Pa2W,Kd0KL1,Re0KL1,Pe1KL1,ra9QL6,pa7B,kd9KL6,re9KL6,pe8KL6 b a0QL1,e0KL1,a9QL6,e9KL6 - - 0 5",
			[]string{"0-0", "0-0-0"},
			map[string]string{
				"0-0":   b960 + "Pa2W,pa7B,Ra0QL1,ra9QL6,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rd9KL6,ke9KL6 w a0QL1,e0KL1 - - 1 6",
				"0-0-0": b960 + "Pa2W,pa7B,Ra0QL1,ka9QL6,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rd9KL6,re9KL6 w a0QL1,e0KL1 - - 1 6",
			}},
		{"king-only, Black (rook d9KL6, king c8B)", b960 + "Kb1W,kc8B,rd9KL6 b d9KL6 - - 0 5", []string{"0-0"},
			map[string]string{"0-0": b960 + "Kb1W,rd9KL6,ke9KL6 w - - - 1 6"}},
		{"rook-only (rook z0QL1, king a0QL1)", b960 + "Rz0QL1,Ka0QL1,kc8B w z0QL1 - - 0 5", []string{"0-0-0"},
			map[string]string{"0-0-0": b960 + "kc8B,Ka0QL1,Rd0KL1 b - - - 1 5"}},
		{"V.P5.3.4 example 1: a side needs c1W, d1W, a0QL1 empty, not a1W",
			b960 + "Na1W,Rb1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []string{"0-0", "0-0-0"}, nil},
		{"example 1 with c1W taken", b960 + "Rb1W,Nc1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []string{"0-0"}, nil},
		{"example 1 with d1W taken", b960 + "Rb1W,Nd1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []string{"0-0"}, nil},
		{"example 1 with a0QL1 taken", b960 + "Na0QL1,Rb1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []string{"0-0"}, nil},
		{"example 1: the pawn on a1QL1 (another level) never blocks",
			b960 + "Pa1QL1,Rb1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []string{"0-0", "0-0-0"}, nil},
		{"example 2 (rooks b1W e0KL1, king c1W): both", b960 + "Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5",
			[]string{"0-0", "0-0-0"}, map[string]string{
				"0-0-0": b960 + "kc8B,Ka0QL1,Rd0KL1,Re0KL1,Pe1KL1 b - - - 1 5",
				"0-0":   b960 + "Rb1W,kc8B,Rd0KL1,Ke0KL1,Pe1KL1 b - - - 1 5",
			}},
		{"example 2 with a1W taken: e side only", b960 + "Na1W,Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []string{"0-0"}, nil},
		{"example 2 with d0KL1 taken: neither", b960 + "Rb1W,Kc1W,Nd0KL1,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", nil, nil},
		{"V.P5.3.5: a crossed rank-1 square attacked (d1W by the rook on d8B)",
			b960 + "Kc1W,Rd0KL1,kc8B,rd8B w d0KL1 - - 0 5", nil, nil},
		{"V5: a crossed rank-0 square (d0KL1) is not tested", b960 + "Kc1W,Re0KL1,Pe1KL1,nc2W,kc8B w e0KL1 - - 0 5",
			[]string{"0-0"}, map[string]string{"0-0": b960 + "nc2W,kc8B,Rd0KL1,Ke0KL1,Pe1KL1 b - - - 1 5"}},
		{"V5: attacks judged before the move (e0 seen over d0, which the rook then fills)",
			b960 + "Kc1W,Rd1W,ra0QL1,kc8B w d1W - - 0 5", nil, nil},
		{"a rank-0 king is not tested on the rank-1 squares (c1W attacked)",
			b960 + "Rb1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B,rc7B w b1W,e0KL1 - - 0 5", []string{"0-0", "0-0-0"}, nil},
		{"the king's end attacked", b960 + "Rb1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B,ra7B w b1W,e0KL1 - - 0 5", []string{"0-0"}, nil},
		{"in check: none", b960 + "Rb1W,Kd0KL1,Re0KL1,Pe1KL1,kc8B,rd7B w b1W,e0KL1 - - 0 5", nil, nil},
		{"not on the first move (D11)", b960 + "Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 1", nil, nil},
		{"QL1 away: a side impossible", "QL3:w,QL6:b,KL1:w,KL6:b Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []string{"0-0"}, nil},
	} {
		p := optParse(t, "V.P5:409", tc.pos)
		got := rulestest.MovesFrom(p, "0-")
		if !slices.Equal(got, rulestest.Sorted(tc.castle...)) {
			t.Errorf("%s: castlings %v, want %v", tc.name, got, rulestest.Sorted(tc.castle...))
		}
		for mv, want := range tc.after {
			m := mustMove(t, p, mv)
			q := p.Play(m).(*Position)
			if got := q.String(); got != want {
				t.Errorf("%s: after %s:\n got %s\nwant %s", tc.name, mv, got, want)
			}
			// Occupancy follows from Info alone.
			if got, want := q.Occupancy(), optExpectedOccupancy(p, m); got != want {
				t.Errorf("%s: %s: occupancy differs in %v", tc.name, mv, cells(got.Xor(want)))
			}
		}
	}
}

func TestV6CastlingField(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"KQkq", "z0QL1,e0KL1,z9QL6,e9KL6"},
		{"Kq", "e0KL1,z9QL6"},
		{"-", "-"},
		{"e9KL6,z0QL1", "z0QL1,e9KL6"},
	} {
		p := optParse(t, "V.P5:409", strings.Replace(StartString, "KQkq", tc.in, 1))
		if got := strings.Fields(p.String())[3]; got != tc.out {
			t.Errorf("castling %q written %q, want %q", tc.in, got, tc.out)
		}
	}
	// Q means the outermost rook on the a side.
	p := optParse(t, "V.P5:409", b960+"Rz0QL1,Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w Q - - 0 5")
	if got := strings.Fields(p.String())[3]; got != "z0QL1" {
		t.Errorf("Q with rooks z0QL1 and b1W: %s, want z0QL1", got)
	}
	for _, tc := range []struct{ field, reason string }{
		{"b1W", "holds no rook"},
		{"z0QL1,b1W", "two rights"},
		{"a2W", "holds no rook"},
		{"K", "no white rook on the e side"},
		{"x9", "castling field"},
	} {
		_, err := ParseWith(b960+"Rz0QL1,Kb1W,kc8B w "+tc.field+" - - 0 5", mustOptions(t, "V.P5:409"))
		if tc.field == "z0QL1,b1W" {
			_, err = ParseWith(b960+"Rz0QL1,Ra1W,Rb1W,Kc1W,kc8B w z0QL1,b1W - - 0 5", mustOptions(t, "V.P5:409"))
		}
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("castling field %q: err = %v, want %q", tc.field, err, tc.reason)
		}
	}
	// Rights go with the rook's home square (D16): a rook that leaves and
	// comes back has lost it; a captured rook at home too.
	q := optParse(t, "V.P5:409", b960+"Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B,nc3N w b1W,e0KL1 - - 0 5")
	q = rulestest.Play(t, q, "b1W-b2W")
	if got := strings.Fields(q.String())[3]; got != "e0KL1" {
		t.Errorf("after the a-side rook moved: %s", got)
	}
	q = rulestest.Play(t, q, "c3N-d1W")
	q = rulestest.Play(t, q, "b2W-b1W")
	if got := strings.Fields(q.String())[3]; got != "e0KL1" {
		t.Errorf("after the rook came back: %s", got)
	}
	k := optParse(t, "V.P5:409", b960+"Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5")
	if got := strings.Fields(rulestest.Play(t, k, "c1W-c2W").String())[3]; got != "-" {
		t.Errorf("after the king moved: %s", got)
	}
	c := optParse(t, "V.P5:409", b960+"Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B,nc3N b b1W,e0KL1 - - 0 5")
	if got := strings.Fields(rulestest.Play(t, c, "c3N-b1W").String())[3]; got != "e0KL1" {
		t.Errorf("after the rook was captured at home: %s", got)
	}
	// A tournament-rules string does not take squares.
	if _, err := Parse(b960 + "Rz0QL1,Kd0KL1,kc8B w z0QL1 - - 0 5"); err == nil {
		t.Errorf("a tournament position took a V6 castling field")
	}
}

// ---------------------------------------------------------------- V.P6, V4

func TestVP6Placement(t *testing.T) {
	p := optStart(t, "V.P6")
	// One placement per move in the order of turns (V4): W B, B B, B B,
	// W (B and N), B N N, W N then Q, B Q.
	steps := []struct {
		move, side string
		n          int // placements offered before it
	}{
		{"B@b1W", "w", 8},       // any of the eight squares (b1W is light)
		{"B@a8B", "b", 8},       // Black's first bishop (light)
		{"B@b8B", "b", 4},       // ... its second, on a dark square: a9, b8, d8, e9
		{"N@a0QL1", "w", 4 + 7}, // W: second bishop (dark: z0, a1, c1, d0) or a knight (7 squares)
		{"B@c1W", "w", 4},       // the bishop left, on one of the four dark squares
		{"N@z9QL6", "b", 6},     // Black's knights
		{"N@e9KL6", "b", 5},
		{"N@d1W", "w", 5},   // W: the second knight (V4) ...
		{"Q@d0KL1", "w", 4}, // ... then the queen, which fills R K R on z0, a1, e0
		{"Q@c8B", "b", 4},   // Black's queen: R K R on a9, d8, d9
	}
	for i, st := range steps {
		if got := string("wb"[p.Turn()]); got != st.side {
			t.Fatalf("step %d (%s): %s to place, want %s", i, st.move, got, st.side)
		}
		if got := len(p.LegalMoves(nil)); got != st.n {
			t.Errorf("step %d (%s): %d placements, want %d: %v", i, st.move, got, st.n, rulestest.Longs(p))
		}
		m := mustMove(t, p, st.move)
		if l := p.Long(m); l != st.move {
			t.Errorf("long form %s, want %s", l, st.move)
		}
		in := p.Info(m)
		if in.From != rules.NoCell || CellNames()[in.To] != st.move[2:] || !in.Touched.Empty() {
			t.Errorf("Info(%s) = %+v", st.move, in)
		}
		q := p.Play(m).(*Position)
		if q.FullmoveNumber() != 1 || q.HalfmoveClock() != 0 {
			t.Errorf("after %s: clocks %d %d, want 0 1", st.move, q.HalfmoveClock(), q.FullmoveNumber())
		}
		p = q
	}
	want := "QL1:w,QL6:b,KL1:w,KL6:b Ka1W,Bb1W,Bc1W,Nd1W,Pa2W,Pb2W,Pc2W,Pd2W,pa7B,pb7B,pc7B,pd7B,ba8B,bb8B,qc8B,kd8B," +
		"Rz0QL1,Na0QL1,Pz1QL1,Pa1QL1,pz8QL6,pa8QL6,nz9QL6,ra9QL6,Qd0KL1,Re0KL1,Pd1KL1,Pe1KL1,pd8KL6,pe8KL6,rd9KL6,ne9KL6 " +
		"w z0QL1,e0KL1,a9QL6,d9KL6 - a2W,b2W,c2W,d2W,a7B,b7B,c7B,d7B,z1QL1,a1QL1,z8QL6,a8QL6,d1KL1,e1KL1,d8KL6,e8KL6 0 1"
	if got := p.String(); got != want {
		t.Errorf("after the placements:\n got %s\nwant %s", got, want)
	}
	if got := p.Status(); got != rules.Ongoing {
		t.Errorf("status %v", got)
	}
	// The game goes on as 3D Chess960, with the castling rights placed.
	if len(rulestest.MovesFrom(p, "QL")) != 0 || len(p.LegalMoves(nil)) == 0 {
		t.Errorf("after the placements: moves %v", rulestest.Longs(p))
	}
	// Parse refuses a stage out of the order of turns.
	for _, tc := range []struct{ pos, reason string }{
		{"QL1:w,QL6:b,KL1:w,KL6:b Bb1W,Pa2W,pa7B b - - - 0 1", ""},
		{"QL1:w,QL6:b,KL1:w,KL6:b Bb1W,Pa2W,pa7B w - - - 0 1", "black's placement"},
		{"QL1:w,QL6:b,KL1:w,KL6:b Nb1W,Pa2W,pa7B b - - - 0 1", "order of turns"},
		{"QL1:w,QL6:b,KL1:w,KL6:b Bb3W,Pa2W,pa7B b - - - 0 1", "eight piece squares"},
		{"QL1:w,QL6:b,KL1:w,KL6:b Bb1W,ba8B,bc8B,Pa2W,pa7B w - - - 0 1", "one colour"},
		{"QL1:w,QL6:b,KL1:w,KL6:b Bb1W,Pa2W,pa7B b - - - 0 2", "fullmove 1"},
	} {
		_, err := ParseWith(tc.pos, mustOptions(t, "V.P6"))
		if tc.reason == "" && err != nil || tc.reason != "" && (err == nil || !strings.Contains(err.Error(), tc.reason)) {
			t.Errorf("%s: err = %v, want %q", tc.pos, err, tc.reason)
		}
	}
}
