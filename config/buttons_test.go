package config

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/st3d"
)

// The pawn and king buttons (First Contact's placements, issue 29) are
// keys like the others: checked, wired by the preset after the rest, in
// ButtonNames order.
func TestPawnAndKingButtons(t *testing.T) {
	c, err := Parse("t.yaml", []byte("variant: first-contact-up\nbuttons:\n  king: \"button:k\"\n  queen: \"button:q\"\n  pawn: \"button:p\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.ButtonCells(), " "); got != "button:q button:p button:k" {
		t.Errorf("button cells %s", got)
	}
	w, err := c.Wiring(firstcontact.UpCellNames())
	if err != nil || strings.Join(w.Buttons(), " ") != "button:q button:p button:k" {
		t.Errorf("wired: %v, %v", w.Buttons(), err)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"buttons:\n  pawn: p\n", `config t.yaml:2: buttons.pawn: "p": a button's cell name starts with "button:"`},
		{"buttons:\n  hint: \"button:x\"\n  king: \"button:x\"\n", `config t.yaml:3: buttons.king: "button:x" is also buttons.hint`},
	} {
		if _, err := Parse("t.yaml", []byte(tc.yaml)); err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %s", tc.yaml, err, tc.want)
		}
	}
}

// DefaultButtons: every button on the cell of its name, pawn and king only
// for a set whose games place pieces; all of them wired by the reference
// preset (four on bit 15 of 0x23..0x26, the rest at 0x27).
func TestDefaultButtons(t *testing.T) {
	for _, placements := range []bool{false, true} {
		c := Default()
		c.Buttons = DefaultButtons(placements)
		want := "queen rook bishop knight new_game take_back clock_white clock_black hint"
		if placements {
			want += " pawn king"
		}
		var got []string
		for _, b := range c.ButtonCells() {
			got = append(got, strings.TrimPrefix(b, "button:"))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("placements %v: %v, want %s", placements, got, want)
		}
		for i, r := range c.Buttons.roles() {
			if *r != "" && *r != "button:"+ButtonNames[i] {
				t.Errorf("%s on %s", ButtonNames[i], *r)
			}
		}
		if err := c.Validate(st3d.CellNames()); err != nil {
			t.Errorf("placements %v: %v", placements, err)
		}
	}
	if !(Buttons{}).None() || DefaultButtons(false).None() {
		t.Error("None")
	}
}
