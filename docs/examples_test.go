package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/systems"
)

var pgnBlock = regexp.MustCompile("(?s)```pgn\n(.*?)```")

// Every game record the docs show (```pgn blocks) is a real game: pasted
// into tridboard replay it plays to its end, and a result it claims by mate
// is a mate.
func TestDocsRecordsReplay(t *testing.T) {
	files, _ := filepath.Glob("*.md")
	files = append(files, "../README.md")
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range pgnBlock.FindAllStringSubmatch(string(data), -1) {
			n++
			where := f + " record " + string(rune('1'+i))
			rec, err := record.Read(strings.NewReader(m[1]))
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			variant, options, _ := strings.Cut(rec.Tag("Variant"), "+")
			if variant == "" {
				variant = "st3d"
			}
			sys, err := systems.Lookup(variant, options)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			pos := sys.Start()
			if p := rec.Tag("Position"); p != "" {
				if pos, err = sys.ParsePosition(p); err != nil {
					t.Errorf("%s: Position: %v", where, err)
					continue
				}
			}
			ok := true
			for _, tok := range rec.Moves {
				mv, _, err := pos.ParseMove(tok)
				if err != nil {
					t.Errorf("%s: %s: %v", where, tok, err)
					ok = false
					break
				}
				pos = pos.Play(mv)
			}
			if !ok {
				continue
			}
			if last := rec.Moves[len(rec.Moves)-1]; strings.HasSuffix(last, "#") {
				want := map[rules.Color]string{rules.White: "0-1", rules.Black: "1-0"}[pos.Turn()]
				if pos.Status().String() != "checkmate" || rec.Result != want {
					t.Errorf("%s: ends %s with %s, result %s", where, last, pos.Status(), rec.Result)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no ```pgn record in the docs")
	}
}
