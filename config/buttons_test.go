package config

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// The pawn and king buttons (First Contact's placements, issue 29) are
// keys like the others: checked, wired by the preset after the rest, in
// ButtonNames order.
func TestPawnAndKingButtons(t *testing.T) {
	c, err := Parse("t.yaml", []byte("variant: first-contact-up\nbuttons:\n  king: \"button:k\"\n  queen: \"button:q\"\n  pawn: \"button:p\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Buttons.Cells(), " "); got != "button:q button:p button:k" {
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

// table.AllButtons (the simulated set's buttons) are all wired by the
// reference preset (four on bit 15 of 0x23..0x26, the rest at 0x27), and
// pass the checks.
func TestAllButtonsWired(t *testing.T) {
	for _, placements := range []bool{false, true} {
		c := Default()
		c.Buttons = table.AllButtons(placements)
		if err := c.Validate(st3d.CellNames()); err != nil {
			t.Errorf("placements %v: %v", placements, err)
		}
		w, err := c.Wiring(st3d.CellNames())
		if err != nil || strings.Join(w.Buttons(), " ") != strings.Join(c.Buttons.Cells(), " ") {
			t.Errorf("placements %v: wired %v, %v", placements, w.Buttons(), err)
		}
	}
}
