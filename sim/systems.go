package sim

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
)

// SystemOf is the first registered system (rules/systems, in the order
// they register: ST3D, whose options share its cells, Millennium, First
// Contact with inverted contacts, First Contact on a set that senses only
// upright platforms) whose cells w wires (Validate passes), or the error
// of the one it fits best (the most of its cells wired) when none fits.
func SystemOf(w *sensors.Wiring) (rules.System, error) {
	all := systems.All()
	wired := map[string]bool{}
	for _, e := range w.Expanders {
		for _, c := range e.Cells {
			wired[c.Cell] = true
		}
	}
	best, bestN := all[0], -1
	for _, sys := range all {
		if w.Validate(sys.Cells()) == nil {
			return sys, nil
		}
		n := 0
		for _, c := range sys.Cells() {
			if wired[c] {
				n++
			}
		}
		if n > bestN {
			best, bestN = sys, n
		}
	}
	return nil, w.Validate(best.Cells())
}

// CheckSet says whether the set that w wires can sense the game system sys,
// and if not why: a Millennium game on an ST3D set, First Contact with
// inverted platforms on a set whose sockets sense upright ones only (F6:
// the system's Caps.Fallback, first-contact-up, fits it). Options of st3d
// need no more than st3d's cells. A wiring that fits sys after ForCells
// (the reference ST3D set for first-contact-up) is fine.
func CheckSet(sys rules.System, w *sensors.Wiring) error {
	if _, err := w.ForCells(sys.Cells()); err == nil {
		return nil
	}
	variant, _ := systems.Split(sys)
	if other, err := SystemOf(w); err == nil {
		ov, _ := systems.Split(other)
		why := ""
		if c := systems.CapsOf(sys); c.Fallback != "" {
			if fb, err := systems.Lookup(c.Fallback, ""); err == nil {
				if _, err := w.ForCells(fb.Cells()); err == nil {
					why = fmt.Sprintf("; %s: play %s", c.FallbackWhy, c.Fallback)
				}
			}
		}
		return fmt.Errorf("sim: the configured set is a %s set (%d cells): it cannot sense %s's %d cells%s",
			ov, len(other.Cells()), variant, len(sys.Cells()), why)
	}
	_, err := w.ForCells(sys.Cells())
	return fmt.Errorf("sim: the configured wiring does not sense %s's cells: %w", variant, err)
}
