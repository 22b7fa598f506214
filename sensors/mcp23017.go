package sensors

import (
	"fmt"

	"periph.io/x/conn/v3/i2c"
)

// MCP23017 registers in IOCON.BANK=0 addressing (the power-on mode, which
// the scanner keeps).
const (
	regIODIRA     = 0x00
	regGPINTENA   = 0x04
	regIOCONBank1 = 0x05 // IOCON's address in BANK=1 (GPINTENB in BANK=0)
	regIOCON      = 0x0A
	regGPPUA      = 0x0C
	regINTFA      = 0x0E // INTFA, INTFB, INTCAPA, INTCAPB, then GPIOA, GPIOB
	regGPIOA      = 0x12
	regOLATA      = 0x14
	// numCfg is the number of registers configured and read back: IODIRA
	// (0x00) to GPPUB (0x0D).
	numCfg = 0x0E
)

// mux is the scanner's view of a PCA9548: which channels it believes are
// on (-1: unknown, after a failure or at start).
type mux struct {
	dev i2c.Dev
	sel int16
	buf [1]byte
}

// expander is the scanner's state for one MCP23017.
type expander struct {
	name   string
	dev    i2c.Dev
	mux    *mux
	muxCh  uint8
	matrix bool
	rows   []uint8 // matrix rows in use, ascending

	slot [64]int16 // index (cell, or button after the cells) of each slot, -1 unused
	used uint64    // slots in use
	// buttons are the slots of buttons on a direct expander: their pins
	// interrupt on change, so that a press let go before the next read is
	// latched by the chip (INTF, INTCAP) and read (latchButtons).
	buttons uint64
	// latched are buttons whose latched press has not been debounced yet:
	// they read pressed until it has.
	latched uint64

	cfg [numCfg]byte // registers 0x00..0x0D as configured
	w   [numCfg + 1]byte
	r   [numCfg]byte // what is read: the configuration, or INTF, INTCAP and GPIO

	// Readings and debounce: bit i is slot i.
	lastRaw uint64 // last reading (closed = 1)
	state   uint64 // debounced closed
	unknown uint64 // slots whose state is unknown
	fresh   bool   // next reading starts debounce afresh
	since   [64]int64
	readAt  int64     // time of the last reading
	gap     [64]int64 // time from the reading before to the first of each change

	// Health.
	needConfig  bool
	failing     bool
	consecutive int
	nextTry     int64
	nextVerify  int64
	verifiedAt  int64 // last time the configuration was read back intact
	reads       uint64
	failures    uint64
	configs     uint64
	resets      uint64
	lastErr     error
}

func newExpander(bus i2c.Bus, e *Expander, muxes map[uint16]*mux) *expander {
	x := &expander{
		name:       e.Name(),
		dev:        i2c.Dev{Bus: bus, Addr: e.Address},
		matrix:     e.Mode == Matrix,
		needConfig: true,
		fresh:      true,
	}
	if e.Mux != nil {
		m := muxes[e.Mux.Address]
		if m == nil {
			m = &mux{dev: i2c.Dev{Bus: bus, Addr: e.Mux.Address}, sel: -1}
			muxes[e.Mux.Address] = m
		}
		x.mux, x.muxCh = m, uint8(e.Mux.Channel)
	}
	for i := range x.slot {
		x.slot[i] = -1
	}
	// IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON x2 (0: BANK=0, sequential),
	// GPPU. Direct: all inputs with pull-ups. Matrix: rows (GPA) outputs,
	// columns (GPB) inputs with pull-ups.
	if x.matrix {
		x.cfg[0], x.cfg[1] = 0x00, 0xFF
		x.cfg[regGPPUA], x.cfg[regGPPUA+1] = 0x00, 0xFF
	} else {
		x.cfg[0], x.cfg[1] = 0xFF, 0xFF
		x.cfg[regGPPUA], x.cfg[regGPPUA+1] = 0xFF, 0xFF
	}
	return x
}

// tx does one transaction with the expander, selecting its mux channel
// first when needed. others are the other muxes, deselected first so that
// no two channels with the same addresses are on at once.
func (x *expander) tx(w, r []byte, muxes []*mux) error {
	if x.mux != nil {
		for _, m := range muxes {
			if m != x.mux && m.sel != 0 {
				m.buf[0] = 0
				if err := m.dev.Tx(m.buf[:], nil); err != nil {
					m.sel = -1
					return fmt.Errorf("deselect mux 0x%02x: %w", m.dev.Addr, err)
				}
				m.sel = 0
			}
		}
		if want := int16(1) << x.muxCh; x.mux.sel != want {
			x.mux.buf[0] = byte(want)
			if err := x.mux.dev.Tx(x.mux.buf[:], nil); err != nil {
				x.mux.sel = -1
				return fmt.Errorf("select channel: %w", err)
			}
			x.mux.sel = want
		}
	}
	if err := x.dev.Tx(w, r); err != nil {
		if x.mux != nil {
			x.mux.sel = -1 // the mux may have reset too
		}
		return err
	}
	return nil
}

// latchButtons makes the button slots of a direct expander interrupt on
// change (GPINTEN, compared with the previous value: INTCON 0), so that the
// chip latches a press between two reads (read). A matrix expander's
// buttons are read as its cells are.
func (x *expander) latchButtons(buttons uint64) {
	if x.matrix || buttons == 0 {
		return
	}
	x.buttons = buttons
	x.cfg[regGPINTENA], x.cfg[regGPINTENA+1] = byte(buttons), byte(buttons>>8)
}

// configure writes the configuration and reads it back.
func (x *expander) configure(muxes []*mux) error {
	// In BANK=1, 0x05 is IOCON: this puts the chip back in BANK=0. In
	// BANK=0 it is GPINTENB, which the full configuration below sets.
	x.w[0], x.w[1] = regIOCONBank1, 0
	if err := x.tx(x.w[:2], nil, muxes); err != nil {
		return fmt.Errorf("write IOCON: %w", err)
	}
	if x.matrix {
		// Rows idle high before they become outputs.
		x.w[0], x.w[1] = regOLATA, 0xFF
		if err := x.tx(x.w[:2], nil, muxes); err != nil {
			return fmt.Errorf("write OLATA: %w", err)
		}
	}
	x.w[0] = regIODIRA
	copy(x.w[1:], x.cfg[:])
	if err := x.tx(x.w[:], nil, muxes); err != nil {
		return fmt.Errorf("write configuration: %w", err)
	}
	x.w[0] = regIODIRA
	if err := x.tx(x.w[:1], x.r[:], muxes); err != nil {
		return fmt.Errorf("read back configuration: %w", err)
	}
	if x.r != x.cfg {
		return fmt.Errorf("configuration reads back % x, want % x", x.r[:], x.cfg[:])
	}
	return nil
}

// check reads back IOCON and GPPU, which a power-on reset clears (GPPU is
// never 0 in the scanner's configuration). It returns whether they hold.
func (x *expander) check(muxes []*mux) (bool, error) {
	x.w[0] = regIOCON
	if err := x.tx(x.w[:1], x.r[:4], muxes); err != nil {
		return false, fmt.Errorf("read IOCON/GPPU: %w", err)
	}
	return [4]byte(x.r[:4]) == [4]byte(x.cfg[regIOCON:regIOCON+4]), nil
}

// read reads the switches: bit i is slot i, 1 = closed. On a direct
// expander with buttons it reads INTF and INTCAP in the same transaction,
// before GPIO: latched are the buttons whose pin interrupted since the last
// read with the press captured (INTCAP low), pressed and perhaps already
// let go (reading INTCAP clears the interrupt for the next one).
func (x *expander) read(muxes []*mux) (raw, latched uint64, err error) {
	if !x.matrix && x.buttons != 0 {
		x.w[0] = regINTFA
		if err := x.tx(x.w[:1], x.r[:6], muxes); err != nil {
			return 0, 0, fmt.Errorf("read INTF, INTCAP, GPIO: %w", err)
		}
		intf, capt := uint16(x.r[0])|uint16(x.r[1])<<8, uint16(x.r[2])|uint16(x.r[3])<<8
		return uint64(^(uint16(x.r[4]) | uint16(x.r[5])<<8)), uint64(intf&^capt) & x.buttons, nil
	}
	if !x.matrix {
		x.w[0] = regGPIOA
		if err := x.tx(x.w[:1], x.r[:2], muxes); err != nil {
			return 0, 0, fmt.Errorf("read GPIO: %w", err)
		}
		return uint64(^(uint16(x.r[0]) | uint16(x.r[1])<<8)), 0, nil
	}
	for _, row := range x.rows {
		// Drive the row low; the pointer moves on to GPIOB, which the read
		// part returns: the columns.
		x.w[0], x.w[1] = regGPIOA, ^(byte(1) << row)
		if err := x.tx(x.w[:2], x.r[:1], muxes); err != nil {
			return 0, 0, fmt.Errorf("scan row %d: %w", row, err)
		}
		raw |= uint64(^x.r[0]) << (8 * row)
	}
	return raw, 0, nil
}
