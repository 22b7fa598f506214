package sets

import (
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
)

// FirstContactMux is where FirstContactWiring puts the expanders of the
// inverted contacts: a PCA9548 at 0x70, channels 0..3, one expander at
// 0x27 on each (the main bus holds 0x20..0x26 already).
var FirstContactMux = sensors.MuxPort{Address: 0x70, Channel: 0}

// FirstContactUpWiring is the reference ST3D build read as a First Contact
// set whose sockets sense upright platforms only (F6): ReferenceWiring with
// the cells named as firstcontact.UpCellNames() names them (the same list
// in the same order: z0QL1 is z0QL1u, the pin QL1 the position QL1u).
func FirstContactUpWiring(buttons ...string) *sensors.Wiring {
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
func FirstContactWiring(buttons ...string) *sensors.Wiring {
	first := buttons
	if len(first) > 4 {
		first = first[:4]
	}
	w := FirstContactUpWiring(first...)
	for i := 0; i < 4; i++ {
		e := sensors.Expander{Address: 0x27, Mode: sensors.Direct, Mux: &sensors.MuxPort{Address: FirstContactMux.Address, Channel: FirstContactMux.Channel + i}}
		for k := 0; k < 3; k++ {
			pin := st3d.Pin(3*i + k)
			pos := pin.String() + "d"
			e.Cells = append(e.Cells, sensors.Wire{Cell: pos, Bit: 5 * k})
			for j, sq := range pin.Squares() {
				// z0QL1 on the pin is z0QL1d on the inverted platform.
				e.Cells = append(e.Cells, sensors.Wire{Cell: sq.String() + "d", Bit: 5*k + 1 + j})
			}
		}
		if 4+i < len(buttons) {
			e.Cells = append(e.Cells, sensors.Wire{Cell: sensors.ButtonPrefix + buttons[4+i], Bit: 15})
		}
		w.Expanders = append(w.Expanders, e)
	}
	if len(buttons) > 8 {
		e := sensors.Expander{Address: sensors.ButtonExpander, Mode: sensors.Direct, Mux: &sensors.MuxPort{Address: FirstContactMux.Address, Channel: FirstContactMux.Channel + 4}}
		for i, b := range buttons[8:] {
			if i >= 16 {
				break
			}
			e.Cells = append(e.Cells, sensors.Wire{Cell: sensors.ButtonPrefix + b, Bit: i})
		}
		w.Expanders = append(w.Expanders, e)
	}
	return w
}
