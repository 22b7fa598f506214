package sim

import "fmt"

// MCP23017 register kinds: the register's index within its port's bank
// (the address in IOCON.BANK=1 mode, port A).
const (
	regIODIR = iota
	regIPOL
	regGPINTEN
	regDEFVAL
	regINTCON
	regIOCON
	regGPPU
	regINTF
	regINTCAP
	regGPIO
	regOLAT
	numRegs
)

// IOCON bits.
const (
	ioconBANK  = 1 << 7
	ioconSEQOP = 1 << 5
)

// Pins is what the outside world does to an expander's 16 pins (bit i:
// GPA0..GPA7 for i = 0..7, GPB0..GPB7 for i = 8..15).
type Pins interface {
	// PulledLow returns the pins pulled to ground from outside, given the
	// pins the chip itself drives low (outputs whose latch is 0).
	PulledLow(drivenLow uint16) uint16
}

// MCP23017 emulates a Microchip MCP23017 16-bit I²C port expander at
// register level:
//
//   - the register map in both IOCON.BANK modes (BANK=0: A/B registers
//     interleaved at 0x00..0x15; BANK=1: port A at 0x00..0x0A, port B at
//     0x10..0x1A); IOCON is one register seen at two addresses;
//   - the address pointer: set by the first byte written, kept between
//     transactions; after each byte it moves on (SEQOP=0: to the next
//     register, wrapping to 0x00; SEQOP=1: toggling within the A/B pair in
//     BANK=0, staying put in BANK=1);
//   - GPIO reads the pin levels of inputs (IODIR=1), inverted where IPOL is
//     set, and the output latch of outputs; writes to GPIO go to OLAT;
//   - pin levels: an output drives its OLAT bit; an input reads low when
//     pulled low from outside (Pins), high when its pull-up (GPPU) is on,
//     and Floating otherwise;
//   - power-on: IODIR = 0xFF on both ports, every other register 0, pointer
//     0x00;
//   - interrupt-on-change, as a driver polls it (the INT pins are not
//     wired): an input whose GPINTEN bit is set and whose value changes
//     from the value last sampled (INTCON=0), or differs from DEFVAL
//     (INTCON=1), sets its INTF bit and copies its port's GPIO value into
//     INTCAP, unless an interrupt of that port is pending (the first one
//     is kept); reading the port's INTCAP or GPIO clears it (INTF reads 0
//     again, INTCAP keeps its value). The pins are sampled when the wired
//     Pins report a change (a Pins with a watch method: the Set reports
//     its buttons' presses and releases) and at each transaction, so a
//     button pressed and let go between two reads is latched as the chip
//     latches it.
type MCP23017 struct {
	chip
	reg   [2][numRegs]uint8 // [port][kind]; IOCON lives in iocon
	iocon uint8
	ptr   uint8
	pins  Pins
	// prev is the GPIO value last sampled for interrupt-on-change;
	// sampled says whether there is one (not since the power-on).
	prev    uint16
	sampled bool
	// Floating is the level that inputs without pull-up read when nothing
	// pulls them low (bit i for pin i). It is 0 by default, so that a
	// driver that forgets the pull-ups sees every switch closed.
	Floating uint16
	// Shorted pins are tied to ground by a fault (a short): they read low
	// whatever drives them.
	Shorted uint16
}

// NewMCP23017 returns a chip in its power-on state with nothing wired to
// its pins; addr is used in error messages.
func NewMCP23017(addr uint16) *MCP23017 {
	m := &MCP23017{}
	m.name = fmt.Sprintf("mcp23017 0x%02x", addr)
	m.reset = m.powerOn
	m.powerOn()
	return m
}

func (m *MCP23017) powerOn() {
	m.reg = [2][numRegs]uint8{}
	m.reg[0][regIODIR], m.reg[1][regIODIR] = 0xFF, 0xFF
	m.iocon, m.ptr = 0, 0
	m.sampled = false
}

// watcher is Pins that report their changes: watch registers a function
// called (without the Pins' locks held) after each change.
type watcher interface {
	watch(changed func())
}

// SetPins wires p to the chip's pins (nil: nothing wired).
func (m *MCP23017) SetPins(p Pins) {
	m.mu.Lock()
	m.pins = p
	m.sampled = false
	m.mu.Unlock()
	if w, ok := p.(watcher); ok {
		w.watch(m.pinsChanged)
	}
}

// pinsChanged samples the pins when the wired Pins report a change.
func (m *MCP23017) pinsChanged() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.gone {
		m.sample()
	}
}

// gpio is the value GPIO reads: the pin levels, inputs inverted where
// IPOL is set.
func (m *MCP23017) gpio() uint16 {
	return m.levels() ^ (m.reg16(regIPOL) & m.reg16(regIODIR))
}

// sample compares the pins with the value last sampled (or DEFVAL) and
// latches an interrupt of a port on an enabled input that changed.
func (m *MCP23017) sample() {
	en := m.reg16(regGPINTEN) & m.reg16(regIODIR)
	if en == 0 {
		m.sampled = false // nothing interrupts: the pins need not be read
		return
	}
	v := m.gpio()
	prev := m.prev
	if !m.sampled {
		prev = v
	}
	m.prev, m.sampled = v, true
	con := m.reg16(regINTCON)
	cause := ((v^prev)&^con | (v^m.reg16(regDEFVAL))&con) & en
	for port := range 2 {
		c := uint8(cause >> (8 * port))
		if c == 0 || m.reg[port][regINTF] != 0 {
			continue
		}
		m.reg[port][regINTF] = c
		m.reg[port][regINTCAP] = uint8(v >> (8 * port))
	}
}

// decode maps a register address to (port, kind) under the current BANK
// setting; ok is false for an unimplemented address.
func (m *MCP23017) decode(addr uint8) (port, kind int, ok bool) {
	if m.iocon&ioconBANK == 0 {
		if addr >= 2*numRegs {
			return 0, 0, false
		}
		return int(addr & 1), int(addr >> 1), true
	}
	port, kind = int(addr>>4), int(addr&0x0F)
	if port > 1 || kind >= numRegs {
		return 0, 0, false
	}
	return port, kind, true
}

// next is the pointer after one byte at the current pointer.
func (m *MCP23017) next() {
	bank, byteMode := m.iocon&ioconBANK != 0, m.iocon&ioconSEQOP != 0
	switch {
	case byteMode && !bank: // toggle within the A/B pair
		m.ptr ^= 1
	case byteMode: // BANK=1: the pointer stays
	case !bank:
		m.ptr++
		if m.ptr >= 2*numRegs {
			m.ptr = 0
		}
	default:
		m.ptr++
		if m.ptr&0x0F >= numRegs || m.ptr >= 0x20 {
			if m.ptr < 0x10 {
				m.ptr = 0x10
			} else {
				m.ptr = 0
			}
		}
	}
}

func (m *MCP23017) reg16(kind int) uint16 {
	return uint16(m.reg[0][kind]) | uint16(m.reg[1][kind])<<8
}

// levels is the level of each pin.
func (m *MCP23017) levels() uint16 {
	in := m.reg16(regIODIR)
	olat := m.reg16(regOLAT)
	var pulled uint16
	if m.pins != nil {
		pulled = m.pins.PulledLow(^in &^ olat)
	}
	up := m.reg16(regGPPU)
	inLevel := (up | m.Floating&^up) &^ pulled
	return (in&inLevel | ^in&olat) &^ m.Shorted
}

func (m *MCP23017) read(port, kind int) uint8 {
	switch kind {
	case regIOCON:
		return m.iocon
	case regGPIO:
		return uint8(m.gpio() >> (8 * port))
	}
	return m.reg[port][kind]
}

func (m *MCP23017) write(port, kind int, v uint8) {
	switch kind {
	case regIOCON:
		m.iocon = v &^ 1 // bit 0 is unimplemented
	case regINTF, regINTCAP:
	case regGPIO:
		m.reg[port][regOLAT] = v
	default:
		m.reg[port][kind] = v
	}
}

// Tx implements Device.
func (m *MCP23017) Tx(w, r []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.fault(len(r))
	if err != nil && n == 0 {
		return err
	}
	m.sample() // what changed since the last sample, as the chip saw it
	if len(w) > 0 {
		m.ptr = w[0]
		for _, v := range w[1:] {
			if port, kind, ok := m.decode(m.ptr); ok {
				m.write(port, kind, v)
			}
			m.next()
		}
	}
	for i := range r {
		if i >= n {
			r[i] = 0xFF
			continue
		}
		r[i] = 0
		if port, kind, ok := m.decode(m.ptr); ok {
			r[i] = m.read(port, kind)
			if kind == regINTCAP || kind == regGPIO {
				m.reg[port][regINTF] = 0 // the read clears the port's interrupt
			}
		}
		m.next()
	}
	return err
}

// Register returns the register at addr under the current IOCON.BANK
// setting, as a read would (GPIO gives the pins), without moving the
// pointer or clearing an interrupt.
func (m *MCP23017) Register(addr uint8) uint8 {
	m.mu.Lock()
	defer m.mu.Unlock()
	port, kind, ok := m.decode(addr)
	if !ok {
		return 0
	}
	return m.read(port, kind)
}

// IODIR is the direction register pair (bit i = 1: pin i is an input).
func (m *MCP23017) IODIR() uint16 { return m.get16(regIODIR) }

// GPPU is the pull-up register pair.
func (m *MCP23017) GPPU() uint16 { return m.get16(regGPPU) }

// IPOL is the input polarity register pair.
func (m *MCP23017) IPOL() uint16 { return m.get16(regIPOL) }

// OLAT is the output latch pair.
func (m *MCP23017) OLAT() uint16 { return m.get16(regOLAT) }

// IOCON is the configuration register.
func (m *MCP23017) IOCON() uint8 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.iocon
}

// Levels is the level of each pin now (1 = high).
func (m *MCP23017) Levels() uint16 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.levels()
}

func (m *MCP23017) get16(kind int) uint16 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reg16(kind)
}
