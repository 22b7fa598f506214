package sets

import (
	"fmt"

	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
)

// ReferenceWiring is hardware.md's reference build for st3d.CellNames():
// seven MCP23017 in Direct mode. 0x20, 0x21, 0x22 hold W, N, B (GPA0..3 =
// files a..d of the lowest rank, GPA4..7 the next rank, then GPB); 0x23,
// 0x24, 0x25, 0x26 hold pins QL1-3, QL4-6, KL1-3, KL4-6, five bits per pin:
// presence, then its squares in Pin.Squares() order. Bit 15 of 0x23..0x26
// is free: the first four buttons given (names without
// sensors.ButtonPrefix) are wired there in that order; the rest (at most
// 16 more) on bits 0.. of a Direct expander at sensors.ButtonExpander
// (0x27, the one address left).
func ReferenceWiring(buttons ...string) *sensors.Wiring {
	w := &sensors.Wiring{}
	for lv, level := range []string{"W", "N", "B"} {
		e := sensors.Expander{Address: 0x20 + uint16(lv), Mode: sensors.Direct}
		for bit := 0; bit < 16; bit++ {
			name := fmt.Sprintf("%c%d%s", "abcd"[bit%4], 1+2*lv+bit/4, level)
			e.Cells = append(e.Cells, sensors.Wire{Cell: name, Bit: bit})
		}
		w.Expanders = append(w.Expanders, e)
	}
	for i := 0; i < 4; i++ {
		e := sensors.Expander{Address: 0x23 + uint16(i), Mode: sensors.Direct}
		for k := 0; k < 3; k++ {
			p := st3d.Pin(3*i + k)
			e.Cells = append(e.Cells, sensors.Wire{Cell: p.String(), Bit: 5 * k})
			for j, sq := range p.Squares() {
				e.Cells = append(e.Cells, sensors.Wire{Cell: sq.String(), Bit: 5*k + 1 + j})
			}
		}
		if i < len(buttons) {
			e.Cells = append(e.Cells, sensors.Wire{Cell: sensors.ButtonPrefix + buttons[i], Bit: 15})
		}
		w.Expanders = append(w.Expanders, e)
	}
	if len(buttons) > 4 {
		w.WithButtons(buttons[4:])
	}
	return w
}

// MatrixWiring is the diode-matrix build for st3d.CellNames(): two
// MCP23017 in Matrix mode at 0x20 and 0x21; cell i of st3d.CellNames() is
// on 0x20 for i < 64 and on 0x21 otherwise, at row (i%64)/8, column i%8.
// The buttons given (at most 20, names without sensors.ButtonPrefix) follow the
// cells on 0x21.
func MatrixWiring(buttons ...string) *sensors.Wiring {
	w := &sensors.Wiring{Expanders: []sensors.Expander{
		{Address: 0x20, Mode: sensors.Matrix},
		{Address: 0x21, Mode: sensors.Matrix},
	}}
	names := append([]string(nil), st3d.CellNames()...)
	for _, b := range buttons {
		names = append(names, sensors.ButtonPrefix+b)
	}
	for i, n := range names {
		if i >= 128 {
			break
		}
		e := &w.Expanders[i/64]
		e.Cells = append(e.Cells, sensors.Wire{Cell: n, Row: (i % 64) / 8, Col: i % 8})
	}
	return w
}
