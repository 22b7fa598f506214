package sensors

import (
	"fmt"
	"strings"
)

// Mode is how an expander's switches are wired.
type Mode string

const (
	// Direct: one switch per pin, between the pin and ground; the scanner
	// reads all 16 pins with pull-ups. A closed switch reads low.
	Direct Mode = "direct"
	// Matrix: a diode matrix of up to 8 x 8 switches. Rows are GPA0..GPA7,
	// driven low one at a time; columns are GPB0..GPB7, read with pull-ups.
	// A closed switch at (row, col) pulls its column low while its row is
	// driven low (the diode stops it from pulling other rows).
	Matrix Mode = "matrix"
)

// ButtonPrefix starts the name of a push-button cell ("button:promote").
// Buttons are wired like switches but are not cells of the game system.
const ButtonPrefix = "button:"

// Wiring says which expander pin senses which cell. It is data: the
// configuration file describes the board that was built; ReferenceWiring
// and MatrixWiring are the defaults for the builds of hardware.md.
type Wiring struct {
	Expanders []Expander `yaml:"expanders"`
}

// Expander is one MCP23017 and the cells wired to it.
type Expander struct {
	// Address is the MCP23017's I²C address, 0x20..0x27.
	Address uint16 `yaml:"address"`
	// Mux is the PCA9548 channel the expander sits behind, or nil when it
	// is on the main bus.
	Mux *MuxPort `yaml:"mux,omitempty"`
	// Mode is Direct or Matrix.
	Mode Mode `yaml:"mode"`
	// Cells lists the wired switches.
	Cells []Wire `yaml:"cells"`
}

// MuxPort is a channel of a PCA9548 multiplexer.
type MuxPort struct {
	// Address is the PCA9548's I²C address, 0x70..0x77.
	Address uint16 `yaml:"address"`
	// Channel is 0..7.
	Channel int `yaml:"channel"`
}

// Wire is one switch: a cell name (or a button, ButtonPrefix + name) and
// where it is wired on its expander.
type Wire struct {
	Cell string `yaml:"cell"`
	// Bit is the pin in Direct mode: 0..7 = GPA0..GPA7, 8..15 = GPB0..GPB7.
	Bit int `yaml:"bit,omitempty"`
	// Row (GPA pin) and Col (GPB pin), 0..7, in Matrix mode.
	Row int `yaml:"row,omitempty"`
	Col int `yaml:"col,omitempty"`
}

// Name names the expander in messages: "0x21", or
// "0x20 (mux 0x70 channel 3)".
func (e *Expander) Name() string {
	if e.Mux == nil {
		return fmt.Sprintf("0x%02x", e.Address)
	}
	return fmt.Sprintf("0x%02x (mux 0x%02x channel %d)", e.Address, e.Mux.Address, e.Mux.Channel)
}

// Slot is the index of a wire's switch in the expander's reading: the bit
// in Direct mode, row*8+col in Matrix mode.
func (e *Expander) Slot(w Wire) int {
	if e.Mode == Matrix {
		return w.Row*8 + w.Col
	}
	return w.Bit
}

// Buttons lists the button cells of the wiring, in wiring order.
func (w *Wiring) Buttons() []string {
	var out []string
	for _, e := range w.Expanders {
		for _, c := range e.Cells {
			if strings.HasPrefix(c.Cell, ButtonPrefix) {
				out = append(out, c.Cell)
			}
		}
	}
	return out
}

// Clone returns a deep copy of w.
func (w *Wiring) Clone() *Wiring {
	out := &Wiring{Expanders: make([]Expander, len(w.Expanders))}
	for i, e := range w.Expanders {
		if e.Mux != nil {
			m := *e.Mux
			e.Mux = &m
		}
		e.Cells = append([]Wire(nil), e.Cells...)
		out.Expanders[i] = e
	}
	return out
}

// BehindMux returns a copy of w with every expander behind channel ch of
// the PCA9548 at addr.
func (w *Wiring) BehindMux(addr uint16, ch int) *Wiring {
	out := w.Clone()
	for i := range out.Expanders {
		out.Expanders[i].Mux = &MuxPort{Address: addr, Channel: ch}
	}
	return out
}
