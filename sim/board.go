package sim

import (
	"fmt"
	"github.com/tridboard/tridboard/rules/st3d"

	"github.com/tridboard/tridboard/sensors"
)

// LEDAddress is where New attaches the HT16K33 (hardware.md).
const LEDAddress = 0x71

// Board is a whole simulated build: the bus with its chips, the physical
// set wired to the expanders, and the clock they share.
type Board struct {
	Bus    *Bus
	Clock  *Clock
	Set    *Set
	Wiring *sensors.Wiring
	// Expanders are the MCP23017s, in Wiring.Expanders order.
	Expanders []*MCP23017
	// Muxes are the PCA9548s by address.
	Muxes map[uint16]*PCA9548
	// LEDs is the HT16K33 at LEDAddress.
	LEDs *HT16K33
}

// New builds the board that w describes for the ST3D cells, with an
// HT16K33 at LEDAddress, the set in the start position and the clock at
// Epoch. The wiring must be valid for st3d.CellNames().
func New(w *sensors.Wiring) (*Board, error) {
	if err := w.Validate(st3d.CellNames()); err != nil {
		return nil, err
	}
	b := &Board{
		Bus:    NewBus("sim"),
		Clock:  NewClock(Epoch),
		Wiring: w.Clone(),
		Muxes:  map[uint16]*PCA9548{},
		LEDs:   NewHT16K33(LEDAddress),
	}
	b.Set = NewSet(b.Clock, w.Buttons()...)
	b.Set.Start()
	if err := b.Bus.Attach(LEDAddress, b.LEDs); err != nil {
		return nil, err
	}
	for i := range b.Wiring.Expanders {
		e := &b.Wiring.Expanders[i]
		m := NewMCP23017(e.Address)
		m.SetPins(b.Set.Pins(e))
		b.Expanders = append(b.Expanders, m)
		if e.Mux == nil {
			if err := b.Bus.Attach(e.Address, m); err != nil {
				return nil, err
			}
			continue
		}
		mux := b.Muxes[e.Mux.Address]
		if mux == nil {
			mux = NewPCA9548(e.Mux.Address)
			if err := b.Bus.Attach(e.Mux.Address, mux); err != nil {
				return nil, fmt.Errorf("sim: mux: %w", err)
			}
			b.Muxes[e.Mux.Address] = mux
		}
		if err := mux.Attach(e.Mux.Channel, e.Address, m); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// NewReference builds the reference board of hardware.md: seven MCP23017
// at 0x20..0x26 wired by sensors.ReferenceWiring(buttons...), the HT16K33
// at 0x71, the set in the start position.
func NewReference(buttons ...string) *Board {
	b, err := New(sensors.ReferenceWiring(buttons...))
	if err != nil {
		panic(err)
	}
	return b
}

// MatrixMux is the PCA9548 port NewMatrix puts the expanders behind when
// asked to.
var MatrixMux = sensors.MuxPort{Address: 0x70, Channel: 3}

// NewMatrix builds the diode-matrix board: two MCP23017 at 0x20 and 0x21
// wired by sensors.MatrixWiring(), behind channel MatrixMux.Channel of a
// PCA9548 at MatrixMux.Address when muxed, the HT16K33 at 0x71, the set in
// the start position.
func NewMatrix(muxed bool) *Board {
	w := sensors.MatrixWiring()
	if muxed {
		w = w.BehindMux(MatrixMux.Address, MatrixMux.Channel)
	}
	b, err := New(w)
	if err != nil {
		panic(err)
	}
	return b
}

// Expander returns the chip of the expander at addr (the first one when
// several sit behind muxes), or nil.
func (b *Board) Expander(addr uint16) *MCP23017 {
	for i, e := range b.Wiring.Expanders {
		if e.Address == addr {
			return b.Expanders[i]
		}
	}
	return nil
}
