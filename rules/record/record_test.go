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

func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[Event Club]\n1. b3W", "line 1: malformed tag"},
		{"1. b3W {open", "unclosed '{'"},
		{"1. b3W } d6B", "'}' without '{'"},
		{"1. b3W 1-0 d6B", `move "d6B" after the result 1-0`},
		{"1. b3W 1-0 0-1", "two results"},
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
