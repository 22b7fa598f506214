package rules

import (
	"errors"
	"fmt"
	"testing"
)

func TestCleanMove(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"b2W-b4N", "b2W-b4N"},
		{"b2W–b4N", "b2W-b4N"},         // en dash
		{"b2W—b4N", "b2W-b4N"},         // em dash
		{"b2W−b4N", "b2W-b4N"},         // minus sign
		{"b2W‑b4N", "b2W-b4N"},         // non-breaking hyphen
		{"Q×1b2", "Qx1b2"},             // multiplication sign
		{"♛×1b2+", "Qx1b2"},            // figurine
		{"0-0", "0-0"},                 // castling
		{"O-O", "0-0"},                 //
		{"o-o-o", "0-0-0"},             //
		{"0–0–0", "0-0-0"},             //
		{"O—O+", "0-0"},                //
		{"dWxe2KL3 e.p.+", "dWxe2KL3"}, // the check after e.p.
		{"dWxe2KL3+ e.p.", "dWxe2KL3"}, // or before it
		{"dWxe2KL3e.p.#", "dWxe2KL3"},  //
		{"Nc6B!?", "Nc6B"},
		{"Nc6B‼", "Nc6B"},
		{"Nc6B $1", "Nc6B"},
		{"Nc6B$146!", "Nc6B"},
		{"Nc6B (=)", "Nc6B"},
		{" Nc6B\u00a0", "Nc6B"},
		{"+", ""},
		{"$3", ""},
		{"e.p.+", ""},
		{"$", "$"},             // not a NAG
		{"0-0-0-0", "0-0-0-0"}, // not castling
		{"O-0x", "O-0x"},
	} {
		if got := CleanMove(tc.in); got != tc.want {
			t.Errorf("CleanMove(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzCleanMove(f *testing.F) {
	for _, s := range []string{"dWxe2KL3 e.p.+", "O–O–O", "♛×1b2#", "Nc6B $1 !?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := CleanMove(s)
		if again := CleanMove(c); again != c {
			t.Fatalf("CleanMove(%q) = %q, and again %q", s, c, again)
		}
	})
}

// TestReadMove: the one resolution every system's ParseMove shares: one
// candidate is the move, none is illegal, several are ambiguous unless the
// system's convention settles them (st3d's D17).
func TestReadMove(t *testing.T) {
	legal := map[string][]Move{"a": {1}, "b": {2, 3}, "c": {4, 5}}
	r := Reader{
		System: "toy",
		Match: func(in string) ([]Move, error) {
			if in == "q" {
				return nil, errors.New("cannot read it")
			}
			return legal[in], nil
		},
		Long: func(m Move) string { return fmt.Sprintf("m%d", m) },
		Settle: func(cands []Move) (Move, string, bool) {
			if cands[0] == 4 {
				return 5, "settled on m5", true
			}
			return 0, "", false
		},
	}
	for _, tc := range []struct {
		in   string
		m    Move
		note string
		err  string
	}{
		{"a+", 1, "", ""},
		{"c", 5, "settled on m5", ""},
		{"+", 0, "", "toy: empty move"},
		{"q", 0, "", `toy: move "q": cannot read it`},
		{"z", 0, "", `toy: move "z": not legal in this position`},
		{"b!", 0, "", `toy: move "b!": ambiguous: m2, m3`},
	} {
		m, note, err := r.ReadMove(tc.in)
		if m != tc.m || note != tc.note || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("ReadMove(%q) = %d, %q, %v; want %d, %q, %q", tc.in, m, note, err, tc.m, tc.note, tc.err)
		}
	}
}
