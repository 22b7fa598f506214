package sets

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sim"
)

// NewReference builds the reference board of hardware.md: seven MCP23017
// at 0x20..0x26 wired by ReferenceWiring(buttons...), the HT16K33
// at 0x71, the set in the start position.
func NewReference(buttons ...string) *sim.Board {
	b, err := sim.New(ReferenceWiring(buttons...))
	if err != nil {
		panic(err)
	}
	return b
}

// MatrixMux is the PCA9548 port NewMatrix puts the expanders behind when
// asked to.
var MatrixMux = sensors.MuxPort{Address: 0x70, Channel: 3}

// NewMatrix builds the diode-matrix board: two MCP23017 at 0x20 and 0x21
// wired by MatrixWiring(), behind channel MatrixMux.Channel of a
// PCA9548 at MatrixMux.Address when muxed, the HT16K33 at 0x71, the set in
// the start position.
func NewMatrix(muxed bool) *sim.Board {
	w := MatrixWiring()
	if muxed {
		w = w.BehindMux(MatrixMux.Address, MatrixMux.Channel)
	}
	b, err := sim.New(w)
	if err != nil {
		panic(err)
	}
	return b
}

// Board is the simulated set sys is played on when the configuration
// names none: its kit's first wiring preset (reference for st3d and its
// options, millennium-matrix, firstcontact, firstcontact-up) with the
// buttons given (names without sensors.ButtonPrefix), built by
// sim.ForSystem.
func Board(sys rules.System, buttons ...string) (*sim.Board, error) {
	name := DefaultPreset(variantOf(sys))
	if name == "" {
		return nil, fmt.Errorf("sets: no set is known for the system %s", sys.Name())
	}
	w, err := Preset(name, buttons...)
	if err != nil {
		return nil, err
	}
	return sim.ForSystem(sys, w)
}
