package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/systems"
)

// UCI's setoption (issue 33): "name NAME [value VALUE]", the value empty or
// absent as GUIs send it to clear a string option; a new UCI_Variant drops
// the options that do not apply to it; options a variant refuses change
// nothing.
func TestUCISetOption(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lines   []string // setoption's arguments, in turn
		variant string   // then
		options string
		said    string // in the output ("" nothing)
	}{
		{"st3d's options", []string{"name Options value V.A1,V.A2"}, "st3d", "V.A1,V.A2", ""},
		{"an empty value clears Options", []string{"name Options value V.A1", "name Options value "}, "st3d", "", ""},
		{"no value clears Options", []string{"name Options value V.A1", "name Options value"}, "st3d", "", ""},
		{"GUI's <empty> clears Options", []string{"name Options value V.A1", "name Options value <empty>"}, "st3d", "", ""},
		{"a new variant drops st3d's options", []string{"name Options value V.A1", "name UCI_Variant value first-contact"},
			"first-contact", "", `options "V.A1" do not apply to first-contact: dropped`},
		{"the same variant keeps them", []string{"name Options value V.A1", "name UCI_Variant value st3d"}, "st3d", "V.A1", ""},
		{"options refused by the variant", []string{"name UCI_Variant value millennium", "name Options value V.A1"},
			"millennium", "", "variant millennium has no options"},
		{"an unknown option", []string{"name Options value V.Z9"}, "st3d", "", "setoption: --options"},
		{"an unknown variant", []string{"name UCI_Variant value chess"}, "st3d", "", `unknown variant "chess"`},
		{"no name", []string{"value st3d"}, "st3d", "", "want setoption name NAME"},
		{"a name of two words", []string{"name Clear Hash"}, "st3d", "", `unknown option "Clear Hash"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			u := newUCI(&out)
			for _, l := range tc.lines {
				u.setOption(l)
			}
			if u.variant != tc.variant || u.options != tc.options {
				t.Errorf("variant %q options %q, want %q %q", u.variant, u.options, tc.variant, tc.options)
			}
			if _, o := systems.Split(u.sys); u.sys == nil || o != tc.options {
				t.Errorf("system %v, want options %q", u.sys, tc.options)
			}
			if got := out.String(); tc.said == "" && got != "" || !strings.Contains(got, tc.said) {
				t.Errorf("said %q, want %q", got, tc.said)
			}
		})
	}
}

// A GUI driving tridboard uci across the systems (issue 33): variants
// switched with and without options, positions from the start and from
// position strings after random moves, and positions that fail (a bad
// move, startpos of a setup without one). Every bestmove is legal in the
// position the GUI sent, and a failed position answers bestmove 0000.
func TestUCIMultiSystemSession(t *testing.T) {
	u := startUCI(t)
	u.send("uci")
	u.until("uciok")
	rng := rand.New(rand.NewPCG(33, 1))
	type step struct {
		variant, options string
	}
	steps := []step{{"st3d", "V.A1"}, {"first-contact", ""}, {"millennium", ""}, {"st3d", ""}, {"first-contact-up", ""},
		{"st3d", "V.A2"}, {"millennium", ""}, {"first-contact", ""}}
	searched, refused := 0, 0
	for round := 0; round < 3; round++ {
		for _, st := range steps {
			// The variant first, then its options (a GUI's order): a
			// change of variant drops options that do not apply.
			u.send("setoption name UCI_Variant value "+st.variant, "setoption name Options value "+st.options)
			sys, err := systems.Lookup(st.variant, st.options)
			if err != nil {
				t.Fatal(err)
			}
			pos := sys.Start()
			var moves []string
			for n := rng.IntN(8); len(moves) < n; {
				legal := pos.LegalMoves(nil)
				if len(legal) == 0 {
					break
				}
				m := legal[rng.IntN(len(legal))]
				moves = append(moves, pos.Long(m))
				pos = pos.Play(m)
			}
			cmd := "position startpos"
			if rng.IntN(2) == 0 {
				cmd = "position fen " + sys.Start().String()
			}
			if len(moves) > 0 {
				cmd += " moves " + strings.Join(moves, " ")
			}
			what := fmt.Sprintf("%s+%s %s", st.variant, st.options, cmd)
			u.send(cmd, "go nodes 300")
			lines := u.until("bestmove")
			best := strings.TrimPrefix(lines[len(lines)-1], "bestmove ")
			if len(pos.LegalMoves(nil)) == 0 {
				continue
			}
			m, _, err := pos.ParseMove(best)
			if err != nil || !slices.Contains(pos.LegalMoves(nil), m) || pos.Long(m) != best {
				t.Errorf("%s: bestmove %s is not legal in %s: %v (%q)", what, best, pos, err, lines)
			}
			searched++
			// The same system, a position that fails: no search.
			bad := cmd + " zz9-zz10"
			if len(moves) == 0 {
				bad = cmd + " moves zz9-zz10"
			}
			u.send(bad, "go nodes 300")
			if lines := u.until("bestmove"); lines[len(lines)-1] != "bestmove 0000" ||
				!strings.HasPrefix(lines[len(lines)-2], fmt.Sprintf("info string go: no position: position: move %d zz9-zz10", len(moves)+1)) {
				t.Errorf("%s zz9-zz10: %q, want the reason and bestmove 0000", what, lines)
			}
			refused++
		}
	}
	// A setup without a start position: startpos fails, a position string
	// plays.
	u.send("setoption name UCI_Variant value st3d", "setoption name Options value V.P3", "go nodes 300")
	if lines := u.until("bestmove"); lines[len(lines)-1] != "bestmove 0000" {
		t.Errorf("V.P3 without a position: %q, want bestmove 0000", lines)
	}
	u.send("position startpos", "go nodes 300")
	if lines := u.until("bestmove"); lines[len(lines)-1] != "bestmove 0000" || !strings.Contains(lines[0], "starts from a position string") {
		t.Errorf("V.P3 startpos: %q, want the reason and bestmove 0000", lines)
	}
	if searched < 20 || refused < 20 {
		t.Errorf("%d searches and %d refusals, want at least 20 of each", searched, refused)
	}
	t.Logf("%d bestmoves, all legal; %d failed positions answered bestmove 0000", searched, refused)
}
