package st3d

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/rulestest"
)

func TestShortNotation(t *testing.T) {
	for _, tc := range []struct {
		name, pos, long, short string
	}{
		{"pawn push", StartString, "b2W-b3W", "b3W"},
		{"knight with level", StartString, "a1W-b3N", "Nb3N"},
		{"pawn capture names file and level", "QL1:w,QL6:b,KL1:w,KL6:b Pa3W,pb4W,Kd0KL1,kd9KL6 w - - - 0 10", "a3W-b4W", "aWxb4W"},
		{"pawn capture onto a board", "QL1:w,KL1:w,KL5:b,KL6:b Pd4W,pe5KL5,Kb1W,kd9KL6 w - - - 0 10", "d4W-e5KL5", "dWxe5KL5"},
		{"en passant", "QL1:w,QL6:b,KL1:w,KL6:b Pb4W,pc4N,Kd0KL1,kd9KL6 b - b4W - 0 10", "c4N-b3N", "cNxb3N e.p."},
		{"en passant with check: the mark last", "QL1:w,QL6:b,KL1:w,KL3:w Ka1W,Pd1W,pe1KL1,kd3N w - e1KL1 - 0 30", "d1W-e2KL3", "dWxe2KL3 e.p.+"},
		{"disambiguation by file", "QL1:w,QL6:b,KL1:w,KL6:b Na1W,Nc1W,Kd0KL1,kd9KL6 w - - - 0 10", "a1W-b3W", "Nab3W"},
		{"disambiguation by rank", "QL1:w,QL6:b,KL1:w,KL6:b Na1W,Na5N,Kd0KL1,kd9KL6 w - - - 0 10", "a5N-b3W", "N5b3W"},
		{"disambiguation by level", "QL1:w,QL6:b,KL1:w,KL6:b Na1W,Na1QL1,Kd0KL1,kd9KL6 w - - - 0 10", "a1QL1-b3W", "NQL1b3W"},
		{"promotion", "QL1:w,QL6:b,KL1:w Kb1W,kc5N,Pb7B w - - - 0 30", "b7B-b8B=Q", "b8BQ"},
		{"promotion on a board", "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,kc5N,Pe8KL6 w - - - 0 30", "e8KL6-e9KL6=N", "e9KL6N"},
		{"board move", "QL1:w,QL6:b,KL1:w,KL6:b Pz1QL1,Kb1W,kc8B w - - - 0 10", "QL1-QL3", "QL3"},
		{"board move named by departure", "QL1:w,QL6:b,KL1:w,KL5:w,KL6:b Pz1QL1,Pe1KL1,Kb1W,kc8B w - - - 0 10", "KL1-KL3", "KL1-KL3"},
		{"board move that promotes", "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30", "QL6-QL4=Q", "QL4Q"},
		{"castling", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 5", "0-0-0", "0-0-0+"}, // the rook on d0KL1 checks d9KL6 over the voids
		{"check", "QL1:w,QL6:b,KL1:w,KL6:b Ra1W,Kd0KL1,kc8B w - - - 0 10", "a1W-a8B", "Ra8B+"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		rulestest.CheckShort(t, tc.name, p, tc.long, tc.short)
	}
}

// TestParseMoveAsPasted: moves as records copied from web pages write
// them: any dash, "×", O for 0 in castling, the check before or after
// "e.p.", assessments and NAGs.
func TestParseMoveAsPasted(t *testing.T) {
	ep := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL3:w Ka1W,Pd1W,pe1KL1,kd3N w - e1KL1 - 0 30")
	castle := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,Re0KL1,Rz0QL1,kd9KL6 w KQ - - 0 10")
	for _, tc := range []struct {
		p        *Position
		in, long string
	}{
		{ep, "dWxe2KL3 e.p.+", "d1W-e2KL3"},
		{ep, "dWxe2KL3+ e.p.", "d1W-e2KL3"},
		{ep, "dWxe2KL3e.p.+", "d1W-e2KL3"},
		{ep, "dW×e2KL3 e.p. +!", "d1W-e2KL3"},
		{ep, "d1W–e2KL3", "d1W-e2KL3"},
		{ep, "d1W—e2KL3 $1", "d1W-e2KL3"},
		{castle, "O-O", "0-0"},
		{castle, "0–0", "0-0"},
		{castle, "O—O—O!?", "0-0-0"},
		{castle, "QL1–QL3", "QL1-QL3"},
	} {
		rulestest.CheckReads(t, tc.p, tc.in, tc.long)
	}
}

func TestParseMoveErrors(t *testing.T) {
	p := StartPosition()
	for _, tc := range []struct{ in, want string }{
		{"", "empty move"},
		{"b2W-b5N", "not legal"},
		{"b2W-b5W", "not a square of the set"},
		{"Qd4N", "not legal"},
		{"QL3", "not legal"},
		{"b2W-b3W=X", "promotion must be"},
		{"hello", "no arrival square"},
		{"Kx", "no arrival square"},
		{"QL1-XX9", "not a pin"},
		{"zzb3W", "cannot read"},
	} {
		if _, _, err := p.ParseMove(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) err = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"b3W", "Nb3N", "aWxb4W", "QL3", "KL1-KL3", "0-0", "b2W-b4N", "c7B-b8B=Q", "e9KL6N", "QL4-QL6=Q", "dWxe2KL3 e.p.+", "O–O", "N×b3N $1"} {
		f.Add(s)
	}
	positions := []*Position{
		rulestest.MustParse(f, Parse, StartString),
		rulestest.MustParse(f, Parse, "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30"),
		rulestest.MustParse(f, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Pa4W,Pa4N,Kd0KL1,kd9KL6 w - - - 0 10"),
		rulestest.MustParse(f, Parse, "QL1:w,QL6:b,KL1:w,KL3:w Ka1W,Pd1W,pe1KL1,kd3N w - e1KL1 - 0 30"),
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, _, err := p.ParseMove(s)
			if err != nil {
				continue
			}
			for _, form := range []string{p.Long(m), p.Short(m)} {
				if back, _, err := p.ParseMove(form); err != nil || back != m {
					t.Fatalf("%q read as %s, whose form %q reads back as %v (%v)", s, p.Long(m), form, back, err)
				}
			}
		}
	})
}

func TestExtends(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Ra1W,Na2W,Pb2W,Kd0KL1,kd9KL6 w - - b2W 0 10")
	for _, tc := range []struct {
		m, further string
		want       bool
	}{
		{"a1W-b1W", "a1W-c1W", true},    // a rook slides on
		{"a1W-b1W", "a1W-d1KL1", true},  // onto another level of a further column
		{"a1W-c1W", "a1W-b1W", false},   // backward along the line is not further
		{"a1W-b1W", "a1W-a0QL1", false}, // another line
		{"b2W-b3W", "b2W-b4N", true},    // a pawn's double step passes its single step
		{"a2W-c3N", "a2W-b4W", false},   // knights leap
	} {
		if got := p.Extends(mustMove(t, p, tc.m), mustMove(t, p, tc.further)); got != tc.want {
			t.Errorf("Extends(%s, %s) = %v, want %v", tc.m, tc.further, got, tc.want)
		}
	}
}
