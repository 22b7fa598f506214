package rules

import "testing"

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
