package sensors

import (
	"errors"
	"fmt"
	"strings"
)

// where is the place of a wire in messages: "expander 0x21 bit 5".
func (e *Expander) where(w Wire) string {
	if e.Mode == Matrix {
		return fmt.Sprintf("expander %s row %d col %d", e.Name(), w.Row, w.Col)
	}
	return fmt.Sprintf("expander %s bit %d", e.Name(), w.Bit)
}

// ErrOtherSet is wrapped by Validate's error when not one wired cell is a
// cell of the system: the wiring of another set (the ST3D set's for a
// Millennium game), which one plain sentence says better than a line a cell.
var ErrOtherSet = errors.New("the wiring is another set's")

// Validate checks w against the cell list of the game system: every cell
// wired exactly once, no unknown names (buttons, ButtonPrefix + name, are
// allowed), no pin wired twice, addresses, channels, bits, rows and columns
// in range. It reports every problem found, one per line.
func (w *Wiring) Validate(cells []string) error {
	known := make(map[string]bool, len(cells))
	for _, c := range cells {
		known[c] = true
	}
	wired, first := 0, ""
	for _, e := range w.Expanders {
		for _, c := range e.Cells {
			if strings.HasPrefix(c.Cell, ButtonPrefix) {
				continue
			}
			if known[c.Cell] {
				return w.validate(cells, known)
			}
			if first == "" {
				first = c.Cell
			}
			wired++
		}
	}
	if wired > 0 && len(cells) > 0 {
		return fmt.Errorf("sensors: none of its %d cells (%s, ...) is a cell of this game's set (%s, ...): %w", wired, first, cells[0], ErrOtherSet)
	}
	return w.validate(cells, known)
}

func (w *Wiring) validate(cells []string, known map[string]bool) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("sensors: "+format, a...)) }
	if len(w.Expanders) == 0 {
		bad("no expander")
	}
	type place struct {
		mux  MuxPort // zero Address: main bus
		addr uint16
	}
	seenExp := map[place]int{}
	wiredAt := map[string]string{}
	nButtons := 0
	for i := range w.Expanders {
		e := &w.Expanders[i]
		name := e.Name()
		if e.Address < 0x20 || e.Address > 0x27 {
			bad("expander %s: address not in 0x20..0x27 (MCP23017)", name)
		}
		if e.Mux != nil {
			if e.Mux.Address < 0x70 || e.Mux.Address > 0x77 {
				bad("expander %s: mux address not in 0x70..0x77 (PCA9548)", name)
			}
			if e.Mux.Channel < 0 || e.Mux.Channel > 7 {
				bad("expander %s: mux channel not in 0..7", name)
			}
		}
		if e.Mode != Direct && e.Mode != Matrix {
			bad("expander %s: mode %q is neither %q nor %q", name, e.Mode, Direct, Matrix)
			continue
		}
		p := place{addr: e.Address}
		if e.Mux != nil {
			p.mux = *e.Mux
		}
		if _, dup := seenExp[p]; dup {
			bad("expander %s listed twice", name)
		}
		seenExp[p] = i
		if len(e.Cells) == 0 {
			bad("expander %s: no cell wired", name)
		}
		slots := map[int]string{}
		for _, c := range e.Cells {
			if e.Mode == Direct {
				if c.Bit < 0 || c.Bit > 15 {
					bad("expander %s: %s: bit %d not in 0..15", name, c.Cell, c.Bit)
					continue
				}
				if c.Row != 0 || c.Col != 0 {
					bad("expander %s: %s: row/col given in direct mode", name, c.Cell)
				}
			} else {
				if c.Row < 0 || c.Row > 7 || c.Col < 0 || c.Col > 7 {
					bad("expander %s: %s: row %d col %d not in 0..7", name, c.Cell, c.Row, c.Col)
					continue
				}
				if c.Bit != 0 {
					bad("expander %s: %s: bit given in matrix mode", name, c.Cell)
				}
			}
			s := e.Slot(c)
			if other, dup := slots[s]; dup {
				if e.Mode == Direct {
					bad("expander %s: bit %d wired twice: %s and %s", name, c.Bit, other, c.Cell)
				} else {
					bad("expander %s: row %d col %d wired twice: %s and %s", name, c.Row, c.Col, other, c.Cell)
				}
				continue
			}
			slots[s] = c.Cell
			switch {
			case strings.HasPrefix(c.Cell, ButtonPrefix) && len(c.Cell) > len(ButtonPrefix):
				nButtons++
			case !known[c.Cell]:
				bad("expander %s: unknown cell %q", name, c.Cell)
				continue
			}
			at := e.where(c)
			if prev, dup := wiredAt[c.Cell]; dup {
				bad("cell %s wired twice: %s and %s", c.Cell, prev, at)
				continue
			}
			wiredAt[c.Cell] = at
		}
	}
	// An expander on the main bus answers together with any expander at
	// the same address behind a selected mux channel.
	for i := range w.Expanders {
		e := &w.Expanders[i]
		if e.Mux == nil {
			continue
		}
		if j, clash := seenExp[place{addr: e.Address}]; clash {
			bad("expander %s on the main bus clashes with expander %s", w.Expanders[j].Name(), w.Expanders[i].Name())
		}
	}
	if nButtons > 64 {
		bad("%d buttons wired, at most 64", nButtons)
	}
	var missing []string
	for _, c := range cells {
		if _, ok := wiredAt[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		bad("cells not wired: %s", strings.Join(missing, " "))
	}
	return errors.Join(errs...)
}
