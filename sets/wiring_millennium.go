package sets

import (
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/sensors"
)

// MillenniumMux is the PCA9548 port of level 1 in MillenniumDirectWiring;
// level L is on channel MillenniumMux.Channel+L-1.
var MillenniumMux = sensors.MuxPort{Address: 0x70, Channel: 0}

// MillenniumMatrixWiring is hardware.md's reference build of the Millennium
// set for millennium.CellNames(): one 8x8 diode matrix per level on one
// MCP23017 each, level 1 at 0x20, level 2 at 0x21, level 3 at 0x22; port A
// drives the ranks (row r = rank r+1), port B reads the files (col f = file
// a+f). The buttons given (at most 16, names without sensors.ButtonPrefix) are on
// bits 0.. of a Direct expander at sensors.ButtonExpander.
func MillenniumMatrixWiring(buttons ...string) *sensors.Wiring {
	w := &sensors.Wiring{}
	for lv := 0; lv < millennium.NumLevels; lv++ {
		e := sensors.Expander{Address: 0x20 + uint16(lv), Mode: sensors.Matrix}
		for rank := 0; rank < millennium.NumRanks; rank++ {
			for file := 0; file < millennium.NumFiles; file++ {
				sq := millennium.SquareAt(lv, rank, file)
				e.Cells = append(e.Cells, sensors.Wire{Cell: sq.String(), Row: rank, Col: file})
			}
		}
		w.Expanders = append(w.Expanders, e)
	}
	return w.WithButtons(buttons)
}

// MillenniumDirectWiring is hardware.md's alternative Millennium build:
// twelve MCP23017 in Direct mode, four per level, behind a PCA9548 at
// MillenniumMux.Address (at most eight expander addresses on one bus
// segment): level L on channel L-1, its expanders at 0x20..0x23, expander
// 0x20+k holding ranks 2k+1 (GPA0..7 = files a..h) and 2k+2 (GPB0..7). The
// buttons given (at most 16) are on a Direct expander at sensors.ButtonExpander on
// the main bus.
func MillenniumDirectWiring(buttons ...string) *sensors.Wiring {
	w := &sensors.Wiring{}
	for lv := 0; lv < millennium.NumLevels; lv++ {
		for k := 0; k < 4; k++ {
			e := sensors.Expander{Address: 0x20 + uint16(k), Mode: sensors.Direct,
				Mux: &sensors.MuxPort{Address: MillenniumMux.Address, Channel: MillenniumMux.Channel + lv}}
			for bit := 0; bit < 16; bit++ {
				sq := millennium.SquareAt(lv, 2*k+bit/8, bit%8)
				e.Cells = append(e.Cells, sensors.Wire{Cell: sq.String(), Bit: bit})
			}
			w.Expanders = append(w.Expanders, e)
		}
	}
	return w.WithButtons(buttons)
}
