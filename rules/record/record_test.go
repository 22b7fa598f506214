package record

import (
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	in := `[Event "Club night"]
[White "Kirk"]
[Black "Spock \"the\" Vulcan"]

1. b2W-b3W {a quiet start, over
two lines} d7B-d6B 2. 0-0 Nc6B+ 3.QL3 cNxb3N e.p. 4. dWxe5KL5# (=) 1-0
`
	r, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"b2W-b3W", "d7B-d6B", "0-0", "Nc6B+", "QL3", "cNxb3N", "dWxe5KL5#"}
	if strings.Join(r.Moves, " ") != strings.Join(want, " ") {
		t.Errorf("moves %q, want %q", r.Moves, want)
	}
	if r.Result != "1-0" || r.Tag("White") != "Kirk" || r.Tag("Black") != `Spock "the" Vulcan` || r.Tag("Round") != "" {
		t.Errorf("result %q, tags %+v", r.Result, r.Tags)
	}
}

// TestReadAsPasted: records copied from web pages and books.
func TestReadAsPasted(t *testing.T) {
	for _, tc := range []struct {
		in, moves, result string
	}{
		{"1. b3W d6B 2. Nc6B 0–1", "b3W d6B Nc6B", "0-1"},
		{"1. b3W d6B 1—0", "b3W d6B", "1-0"},
		{"1. b3W d6B 1−0", "b3W d6B", "1-0"},
		{"1. b3W d6B ½–½", "b3W d6B", "1/2-1/2"},
		{"1. b3W d6B ½-½", "b3W d6B", "1/2-1/2"},
		{"1. b3W d6B 1/2–1/2", "b3W d6B", "1/2-1/2"},
		{"1. b3W d6B *", "b3W d6B", "*"},
		{"1. b3W", "b3W", ""},
		// Move numbers with dots or an ellipsis, glued or not.
		{"1.b3W 1…d6B 2… Nc6B 3.O–O", "b3W d6B Nc6B O-O", ""},
		// NAGs and assessments, alone or on the move.
		{"1. b3W $1 d6B!? $146 2. Nc6B?! ± ∞ = 1-0", "b3W d6B!? Nc6B?!", "1-0"},
		// ";" comments to the end of the line, {} comments across lines.
		{"1. b3W ; a quiet start (not a variation\n d6B {a {nested} comment; with ( } 2. Nc6B", "b3W d6B Nc6B", ""},
		// Variations, nested, with comments and results inside.
		{"1. b3W (1. b4W d6B (1... d5B 2. 0-0) 2. QL3 {)} 1-0) 1... d6B 2. Nc6B (=) 0-1", "b3W d6B Nc6B", "0-1"},
		// An en-passant mark with a check after it, and a lone check mark.
		{"1. dWxe2KL3 e.p.+ d6B + 2. cNxb3N ep", "dWxe2KL3 d6B cNxb3N", ""},
		// A no-break space between move and number.
		{"1.\u00a0b3W\u00a0d6B", "b3W d6B", ""},
	} {
		r, err := Read(strings.NewReader(tc.in))
		if err != nil {
			t.Errorf("Read(%q): %v", tc.in, err)
			continue
		}
		if got := strings.Join(r.Moves, " "); got != tc.moves || r.Result != tc.result {
			t.Errorf("Read(%q): moves %q, result %q; want %q, %q", tc.in, got, r.Result, tc.moves, tc.result)
		}
	}
	r, err := Read(strings.NewReader("[White “Davis”]\n[Black \"d'Agostino\"]\n\n1. N2g3 0–1"))
	if err != nil || r.Tag("White") != "Davis" || r.Tag("Black") != "d'Agostino" {
		t.Errorf("typographic quotes: %+v, %v", r, err)
	}
}

func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[Event Club]\n1. b3W", "line 1: malformed tag"},
		{"1. b3W {open", "unclosed '{'"},
		{"1. b3W } d6B", "'}' without '{'"},
		{"1. b3W 1-0 d6B", `move "d6B" after the result 1-0`},
		{"1. b3W 1-0 0-1", "two results"},
		{"1. b3W 1–0 ½–½", "two results (1-0, 1/2-1/2)"},
		{"1. b3W (1. b4W d6B", "line 1: unclosed '(' variation"},
		{"1. b3W\n(1. b4W (1. c4W)", "line 2: unclosed '('"},
		{"1. b3W d6B) 2. QL3", "line 1: ')' without '('"},
		{"1. b3W\n} d6B", "line 2: '}' without '{'"},
	} {
		if _, err := Read(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) err = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestWriteReadsBack(t *testing.T) {
	for _, tc := range []struct {
		first      int
		whiteFirst bool
		want       string
	}{
		{1, true, "[Event \"E\"]\n\n1. b3W d6B 2. 0-0 Nc6B+ 3. QL3 *\n"},
		{7, false, "[Event \"E\"]\n\n7... b3W 8. d6B 0-0 9. Nc6B+ QL3 *\n"},
	} {
		rec := &Record{Tags: []Tag{{"Event", "E"}}, Moves: []string{"b3W", "d6B", "0-0", "Nc6B+", "QL3"}}
		var b strings.Builder
		if err := Write(&b, rec, tc.first, tc.whiteFirst); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("Write:\n%s\nwant\n%s", b.String(), tc.want)
		}
		back, err := Read(strings.NewReader(b.String()))
		if err != nil || strings.Join(back.Moves, " ") != strings.Join(rec.Moves, " ") || back.Result != "*" {
			t.Errorf("read back %+v, %v", back, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add("[Event \"x\"]\n1. b3W {c} d6B 1-0")
	f.Add("1... QL3 e.p. (=) *")
	f.Add("1. b3W (1. b4W {x} (1... d5B)) $1 d6B!? ; c\n½–½")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		var b strings.Builder
		if err := Write(&b, r, 1, true); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(strings.NewReader(b.String())); err != nil {
			t.Fatalf("a record read from %q was written as %q, which does not read: %v", s, b.String(), err)
		}
	})
}
