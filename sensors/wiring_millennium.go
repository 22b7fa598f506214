package sensors

import (
	"fmt"

	"github.com/tridboard/tridboard/rules/millennium"
)

// ButtonExpander is the address of the Direct expander that holds the
// buttons of a Millennium build (hardware.md: buttons on free expander
// bits; the Millennium builds have none free, so they get one expander of
// their own on the main bus).
const ButtonExpander = 0x27

// MillenniumMux is the PCA9548 port of level 1 in MillenniumDirectWiring;
// level L is on channel MillenniumMux.Channel+L-1.
var MillenniumMux = MuxPort{Address: 0x70, Channel: 0}

// MillenniumMatrixWiring is hardware.md's reference build of the Millennium
// set for millennium.CellNames(): one 8x8 diode matrix per level on one
// MCP23017 each, level 1 at 0x20, level 2 at 0x21, level 3 at 0x22; port A
// drives the ranks (row r = rank r+1), port B reads the files (col f = file
// a+f). The buttons given (at most 16, names without ButtonPrefix) are on
// bits 0.. of a Direct expander at ButtonExpander.
func MillenniumMatrixWiring(buttons ...string) *Wiring {
	w := &Wiring{}
	for lv := 0; lv < millennium.NumLevels; lv++ {
		e := Expander{Address: 0x20 + uint16(lv), Mode: Matrix}
		for rank := 0; rank < millennium.NumRanks; rank++ {
			for file := 0; file < millennium.NumFiles; file++ {
				sq := millennium.SquareAt(lv, rank, file)
				e.Cells = append(e.Cells, Wire{Cell: sq.String(), Row: rank, Col: file})
			}
		}
		w.Expanders = append(w.Expanders, e)
	}
	return w.withButtons(buttons)
}

// MillenniumDirectWiring is hardware.md's alternative Millennium build:
// twelve MCP23017 in Direct mode, four per level, behind a PCA9548 at
// MillenniumMux.Address (at most eight expander addresses on one bus
// segment): level L on channel L-1, its expanders at 0x20..0x23, expander
// 0x20+k holding ranks 2k+1 (GPA0..7 = files a..h) and 2k+2 (GPB0..7). The
// buttons given (at most 16) are on a Direct expander at ButtonExpander on
// the main bus.
func MillenniumDirectWiring(buttons ...string) *Wiring {
	w := &Wiring{}
	for lv := 0; lv < millennium.NumLevels; lv++ {
		for k := 0; k < 4; k++ {
			e := Expander{Address: 0x20 + uint16(k), Mode: Direct,
				Mux: &MuxPort{Address: MillenniumMux.Address, Channel: MillenniumMux.Channel + lv}}
			for bit := 0; bit < 16; bit++ {
				sq := millennium.SquareAt(lv, 2*k+bit/8, bit%8)
				e.Cells = append(e.Cells, Wire{Cell: sq.String(), Bit: bit})
			}
			w.Expanders = append(w.Expanders, e)
		}
	}
	return w.withButtons(buttons)
}

// withButtons adds a Direct expander at ButtonExpander with the buttons
// (names without ButtonPrefix) on bits 0.., at most 16; none adds nothing.
func (w *Wiring) withButtons(buttons []string) *Wiring {
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
