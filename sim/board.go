package sim

import (
	"fmt"
	"github.com/tridboard/tridboard/rules"

	"github.com/tridboard/tridboard/sensors"
)

// LEDAddress is where New attaches the HT16K33 (hardware.md); a set of
// more than 128 cells gets a second one at LEDAddress+1 (the Millennium
// set's 128 + 64).
const LEDAddress = 0x71

// Board is a whole simulated build: the bus with its chips, the physical
// set wired to the expanders, and the clock they share.
type Board struct {
	Bus *Bus
	// Clock is the simulated time the bus, the set and the table share
	// (their wall clock, not a chess clock).
	Clock  *TimeSource
	Set    *Set
	Wiring *sensors.Wiring
	// Expanders are the MCP23017s, in Wiring.Expanders order.
	Expanders []*MCP23017
	// Muxes are the PCA9548s by address.
	Muxes map[uint16]*PCA9548
	// LEDs is the HT16K33 at LEDAddress.
	LEDs *HT16K33
	// LEDChips are all the HT16K33s, at LEDAddress, LEDAddress+1, ...: one
	// per 128 cells of the system.
	LEDChips []*HT16K33
}

// New builds the board that w describes for the system whose cells it wires
// (SystemOf): ST3D, Millennium or First Contact, in that system's start
// position. See ForSystem.
func New(w *sensors.Wiring) (*Board, error) {
	sys, err := SystemOf(w)
	if err != nil {
		return nil, err
	}
	return ForSystem(sys, w)
}

// ForSystem builds the board that w describes for the cells of sys, with
// one HT16K33 per 128 cells from LEDAddress on, the set in sys's start
// position (the ST3D start, V.A4's six boards, Millennium's two armies,
// First Contact's empty set) and the clock at Epoch. The wiring must wire
// sys.Cells() (sensors.Wiring.ForCells: a reference ST3D wiring serves
// first-contact-up). DefaultBoard builds the set a system is played on.
func ForSystem(sys rules.System, w *sensors.Wiring) (*Board, error) {
	w, err := w.ForCells(sys.Cells())
	if err != nil {
		return nil, err
	}
	b := &Board{
		Bus:    NewBus("sim"),
		Clock:  NewTimeSource(Epoch),
		Wiring: w.Clone(),
		Muxes:  map[uint16]*PCA9548{},
	}
	for i := 0; i*128 < len(sys.Cells()); i++ {
		h := NewHT16K33(uint16(LEDAddress + i))
		if err := b.Bus.Attach(uint16(LEDAddress+i), h); err != nil {
			return nil, err
		}
		b.LEDChips = append(b.LEDChips, h)
	}
	b.LEDs = b.LEDChips[0]
	b.Set = NewSetFor(sys, b.Clock, w.Buttons()...)
	b.Set.Start()
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
