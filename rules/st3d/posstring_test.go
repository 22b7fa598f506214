package st3d

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/rulestest"
)

func TestStartPositionString(t *testing.T) {
	p := StartPosition()
	if got := p.String(); got != StartString {
		t.Errorf("start position written as\n%s\nwant\n%s", got, StartString)
	}
}

func TestParseAcceptsAnyOrder(t *testing.T) {
	rulestest.CheckAnyOrder(t, System, StartString, []int{0, 1, 5}, func(f []string, _ *rand.Rand) { f[3] = "qkQK" })
}

func TestParseAcceptsSForB(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,kc8S w - - - 0 10")
	if got := p.String(); got != "QL1:w,QL6:b,KL1:w,KL6:b Kb1W,kc8B w - - - 0 10" {
		t.Errorf("got %s", got)
	}
}

func TestParseRefuses(t *testing.T) {
	const boards = "QL1:w,QL6:b,KL1:w,KL6:b "
	for _, tc := range []struct {
		name, pos, reason string
	}{
		{"field count", boards + "Kb1W,kc8B w - - - 0", "7 fields"},
		{"square without its board", "QL1:w Kb1W,kc8B,Pz2QL3 w - - - 0 10", "z2QL3 does not exist"},
		{"no such square", boards + "Kb1W,kc8B,Pb0W w - - - 0 10", "not a square"},
		{"two pieces on one square", boards + "Kb1W,kc8B,Pb2W,Nb2W w - - - 0 10", "two pieces on b2W"},
		{"two boards on one pin", "QL1:w,QL1:b Kb1W,kc8B w - - - 0 10", "two boards on pin QL1"},
		{"bad owner", "QL1:x Kb1W,kc8B w - - - 0 10", "board \"QL1:x\""},
		{"two white kings", boards + "Kb1W,Kc1W,kc8B w - - - 0 10", "more than one white king"},
		{"pawn on its furthest rank", boards + "Kb1W,kc8B,Pb8B w - - - 0 10", "furthest rank"},
		{"double-step square without a pawn", boards + "Kb1W,kc8B w - - b2W 0 10", "double-step square b2W holds no pawn"},
		{"en passant without a pawn", boards + "Kb1W,kc8B b - b4W - 0 10", "holds no white pawn"},
		{"en passant pawn of the wrong side", boards + "Kb1W,kc8B,Pb4W w - b4W - 0 10", "holds no black pawn"},
		{"side not to move in check", boards + "Kb1W,kb8B,Rb4N w - - - 0 10", "side not to move is in check"},
		{"bad side", boards + "Kb1W,kc8B x - - - 0 10", "side to move"},
		{"bad castling", boards + "Kb1W,kc8B w KK - - 0 10", "castling field"},
		{"bad halfmove", boards + "Kb1W,kc8B w - - - -1 10", "halfmove clock"},
		{"bad fullmove", boards + "Kb1W,kc8B w - - - 0 0", "fullmove number"},
		{"bad piece letter", boards + "Kb1W,kc8B,Xb2W w - - - 0 10", "FEN letter"},
	} {
		_, err := Parse(tc.pos)
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: Parse(%q) err = %v, want %q", tc.name, tc.pos, err, tc.reason)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(StartString)
	f.Add("QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 5")
	f.Add("QL1:w,QL6:b,KL1:w,KL6:b Pb4W,pc4N,Kd0KL1,kd9KL6 b - b4W - 0 10")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		out := p.String()
		q, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) ok but its output %q is refused: %v", s, out, err)
		}
		if q.String() != out || q != p {
			t.Fatalf("round trip changed the position: %q -> %q", out, q.String())
		}
	})
}
