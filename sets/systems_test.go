package sets_test

import (
	"testing"

	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// TestCheckSet: a system is refused on a set that cannot sense it, with the
// reason (issue: a Millennium game on an ST3D set, first-contact on a set
// without inverted contacts), and played where it can be (F6: the reference
// set plays first-contact-up; every st3d option plays on the ST3D set).
func TestCheckSet(t *testing.T) {
	preset := func(name string) *sensors.Wiring {
		w, err := sets.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, tc := range []struct {
		system, preset, err string
	}{
		{"st3d", "reference", ""},
		{"st3d+V.A2,V.A3,V.A4", "matrix", ""},
		{"st3d+V.P6", "firstcontact-up", ""},
		{"millennium", "millennium-matrix", ""},
		{"millennium", "millennium-direct", ""},
		{"first-contact", "firstcontact", ""},
		{"first-contact", "firstcontact-matrix", ""},
		{"first-contact-up", "firstcontact-up", ""},
		{"first-contact-up", "reference", ""},
		{"millennium", "reference", "sim: the configured set is a st3d set (108 cells): it cannot sense millennium's 192 cells"},
		{"st3d", "millennium-matrix", "sim: the configured set is a millennium set (192 cells): it cannot sense st3d's 108 cells"},
		{"first-contact", "reference", "sim: the configured set is a st3d set (108 cells): it cannot sense first-contact's 168 cells; its sockets sense upright platforms only (F6): play first-contact-up"},
		{"first-contact", "firstcontact-up", "sim: the configured set is a first-contact-up set (108 cells): it cannot sense first-contact's 168 cells; its sockets sense upright platforms only (F6): play first-contact-up"},
		{"first-contact-up", "firstcontact", "sim: the configured set is a first-contact set (168 cells): it cannot sense first-contact-up's 108 cells"},
	} {
		sys, err := systems.ByName(tc.system)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := sim.CheckSet(sys, preset(tc.preset)); err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s on %s: %q, want %q", tc.system, tc.preset, got, tc.err)
		}
		if tc.err == "" {
			b, err := sim.ForSystem(sys, preset(tc.preset))
			if err != nil {
				t.Errorf("%s on %s: %v", tc.system, tc.preset, err)
			} else if b.Set.Closed() != sys.Start().Occupancy() {
				t.Errorf("%s on %s: not in the start position", tc.system, tc.preset)
			}
		}
	}
	bad := &sensors.Wiring{Expanders: []sensors.Expander{{Address: 0x20, Mode: sensors.Direct, Cells: []sensors.Wire{{Cell: "zz"}}}}}
	st, _ := systems.ByName("st3d")
	if err := sim.CheckSet(st, bad); err == nil || err.Error()[:54] != "sim: the configured wiring does not sense st3d's cells" {
		t.Errorf("bad wiring: %v", err)
	}
}

// TestDefaultBoard: each system's own set, in its start position, with as
// many HT16K33 as its cells need.
func TestBoard(t *testing.T) {
	for _, tc := range []struct {
		system      string
		expanders   int
		chips       int
		closedCells int
	}{
		{"st3d", 7, 1, 36},
		{"st3d+V.A4", 7, 1, 38},
		{"millennium", 3 + 1, 2, 32},
		{"first-contact", 11, 2, 0},
		{"first-contact-up", 7, 1, 0},
	} {
		sys, err := systems.ByName(tc.system)
		if err != nil {
			t.Fatal(err)
		}
		b, err := sets.Board(sys, "queen")
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Expanders) != tc.expanders || len(b.LEDChips) != tc.chips || b.Set.Closed().Len() != tc.closedCells || b.Set.System() != sys {
			t.Errorf("%s: %d expanders, %d LED chips, %d closed cells", tc.system, len(b.Expanders), len(b.LEDChips), b.Set.Closed().Len())
		}
		if len(b.Set.Cells()) != len(sys.Cells())+1 {
			t.Errorf("%s: button missing", tc.system)
		}
	}
}
