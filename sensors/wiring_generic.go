package sensors

import (
	"fmt"

	"github.com/tridboard/tridboard/rules/systems"
)

// ButtonExpander is the address of the Direct expander that holds the
// buttons of a build without free expander bits for them (hardware.md:
// buttons on free expander bits; the Millennium builds have none free, so
// they get one expander of their own on the main bus; the ST3D reference
// build puts its fifth and further buttons there).
const ButtonExpander = 0x27

// WithButtons adds a Direct expander at ButtonExpander with the buttons
// (names without ButtonPrefix) on bits 0.., at most 16; none adds nothing.
func (w *Wiring) WithButtons(buttons []string) *Wiring {
	if len(buttons) == 0 {
		return w
	}
	e := Expander{Address: ButtonExpander, Mode: Direct}
	for i, b := range buttons {
		if i >= 16 {
			break
		}
		e.Cells = append(e.Cells, Wire{Cell: ButtonPrefix + b, Bit: i})
	}
	w.Expanders = append(w.Expanders, e)
	return w
}

// Renamed returns a copy of w with every cell cells[i] renamed to as[i]
// (buttons and unknown names kept): a wiring of one system's cell list
// turned into the same wiring of another list in the same order.
func (w *Wiring) Renamed(cells, as []string) *Wiring {
	to := make(map[string]string, len(cells))
	for i, c := range cells {
		if i < len(as) {
			to[c] = as[i]
		}
	}
	out := w.Clone()
	for i := range out.Expanders {
		for j, c := range out.Expanders[i].Cells {
			if n, ok := to[c.Cell]; ok {
				out.Expanders[i].Cells[j].Cell = n
			}
		}
	}
	return out
}

// ForCells returns the wiring for the cells of a game system: w itself when
// it wires them (Validate passes), or w renamed from a list that names the
// same switches in the same order (systems.SameSwitches: a reference ST3D
// wiring read as first-contact-up's cells, F6). Otherwise it returns
// Validate's error.
func (w *Wiring) ForCells(cells []string) (*Wiring, error) {
	err := w.Validate(cells)
	if err == nil {
		return w, nil
	}
	for _, from := range systems.SameSwitches(cells) {
		if w.Validate(from) != nil {
			continue
		}
		if r := w.Renamed(from, cells); r.Validate(cells) == nil {
			return r, nil
		}
	}
	return nil, err
}

// MatrixWiringFor wires the cells in diode matrices on as many MCP23017 as
// they need, from address first on: cell i on first+i/64, row (i%64)/8,
// column i%8; the buttons given (names without ButtonPrefix) follow the
// cells. It refuses more than the eight addresses from first to 0x27 hold.
func MatrixWiringFor(cells []string, first uint16, buttons ...string) (*Wiring, error) {
	names := append([]string(nil), cells...)
	for _, b := range buttons {
		names = append(names, ButtonPrefix+b)
	}
	n := (len(names) + 63) / 64
	if n == 0 || first < 0x20 || int(first)+n-1 > 0x27 {
		return nil, fmt.Errorf("sensors: %d cells and buttons need %d matrix expanders from 0x%02x, beyond 0x27", len(names), n, first)
	}
	w := &Wiring{}
	for k := 0; k < n; k++ {
		w.Expanders = append(w.Expanders, Expander{Address: first + uint16(k), Mode: Matrix})
	}
	for i, name := range names {
		e := &w.Expanders[i/64]
		e.Cells = append(e.Cells, Wire{Cell: name, Row: (i % 64) / 8, Col: i % 8})
	}
	return w, nil
}
