package sensors

import (
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/st3d"
)

// FirstContactMux is where FirstContactWiring puts the expanders of the
// inverted contacts: a PCA9548 at 0x70, channels 0..3, one expander at
// 0x27 on each (the main bus holds 0x20..0x26 already).
var FirstContactMux = MuxPort{Address: 0x70, Channel: 0}

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

// FirstContactUpWiring is the reference ST3D build read as a First Contact
// set whose sockets sense upright platforms only (F6): ReferenceWiring with
// the cells named as firstcontact.UpCellNames() names them (the same list
// in the same order: z0QL1 is z0QL1u, the pin QL1 the position QL1u).
func FirstContactUpWiring(buttons ...string) *Wiring {
	return ReferenceWiring(buttons...).Renamed(st3d.CellNames(), firstcontact.UpCellNames())
}

// FirstContactWiring is the reference ST3D build with the second contact
// of hardware.md's First Contact section in every socket, for the 168
// cells of firstcontact.CellNames(): FirstContactUpWiring's seven
// expanders for W, N, B and the upright positions, and four more at 0x27
// behind channels 0..3 of a PCA9548 at 0x70 for the inverted ones (QL1-3,
// QL4-6, KL1-3, KL4-6), five bits per socket as on 0x23..0x26: the `d`
// presence contact, then the squares of the inverted platform in cell-list
// order. Bit 15 of each of these is free: buttons beyond the four of the
// reference wiring go there; the rest (at most 16 more) on bits 0.. of one
// more Direct expander at 0x27 behind channel 4 of the PCA9548 (0x27 on
// the main bus would answer with the inverted ones' while a channel is on).
func FirstContactWiring(buttons ...string) *Wiring {
	first := buttons
	if len(first) > 4 {
		first = first[:4]
	}
	w := FirstContactUpWiring(first...)
	for i := 0; i < 4; i++ {
		e := Expander{Address: 0x27, Mode: Direct, Mux: &MuxPort{Address: FirstContactMux.Address, Channel: FirstContactMux.Channel + i}}
		for k := 0; k < 3; k++ {
			pin := st3d.Pin(3*i + k)
			pos := pin.String() + "d"
			e.Cells = append(e.Cells, Wire{Cell: pos, Bit: 5 * k})
			for j, sq := range pin.Squares() {
				// z0QL1 on the pin is z0QL1d on the inverted platform.
				e.Cells = append(e.Cells, Wire{Cell: sq.String() + "d", Bit: 5*k + 1 + j})
			}
		}
		if 4+i < len(buttons) {
			e.Cells = append(e.Cells, Wire{Cell: ButtonPrefix + buttons[4+i], Bit: 15})
		}
		w.Expanders = append(w.Expanders, e)
	}
	if len(buttons) > 8 {
		e := Expander{Address: ButtonExpander, Mode: Direct, Mux: &MuxPort{Address: FirstContactMux.Address, Channel: FirstContactMux.Channel + 4}}
		for i, b := range buttons[8:] {
			if i >= 16 {
				break
			}
			e.Cells = append(e.Cells, Wire{Cell: ButtonPrefix + b, Bit: i})
		}
		w.Expanders = append(w.Expanders, e)
	}
	return w
}

// sameOrder are the cell lists that name the same switches in the same
// order: st3d's and First Contact's up-only list (F6), so a reference-wired
// ST3D set is a first-contact-up set and back.
var sameOrder = [][]string{st3d.CellNames(), firstcontact.UpCellNames()}

// ForCells returns the wiring for the cells of a game system: w itself when
// it wires them (Validate passes), or w renamed from a list that names the
// same switches in the same order (a reference ST3D wiring read as
// first-contact-up's cells, F6). Otherwise it returns Validate's error.
func (w *Wiring) ForCells(cells []string) (*Wiring, error) {
	err := w.Validate(cells)
	if err == nil {
		return w, nil
	}
	for _, from := range sameOrder {
		if len(from) != len(cells) || from[0] == cells[0] && from[len(from)-1] == cells[len(cells)-1] {
			continue
		}
		if w.Validate(from) != nil {
			continue
		}
		if r := w.Renamed(from, cells); r.Validate(cells) == nil {
			return r, nil
		}
	}
	return nil, err
}
