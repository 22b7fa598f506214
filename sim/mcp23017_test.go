package sim

import (
	"bytes"
	"errors"
	"testing"
)

// fixedPins pulls a fixed set of pins low.
type fixedPins uint16

func (p fixedPins) PulledLow(uint16) uint16 { return uint16(p) }

func newMCP(t *testing.T) (*Bus, *MCP23017) {
	t.Helper()
	b := NewBus("")
	m := NewMCP23017(0x20)
	if err := b.Attach(0x20, m); err != nil {
		t.Fatal(err)
	}
	return b, m
}

func txOK(t *testing.T, b *Bus, w []byte, n int) []byte {
	t.Helper()
	r := make([]byte, n)
	if err := b.Tx(0x20, w, r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMCP23017PowerOnAndSequential(t *testing.T) {
	b, _ := newMCP(t)
	want := make([]byte, 22)
	want[0], want[1] = 0xFF, 0xFF
	// 22 registers, then the pointer wraps to 0x00.
	got := txOK(t, b, []byte{0x00}, 24)
	if !bytes.Equal(got[:22], want) || got[22] != 0xFF || got[23] != 0xFF {
		t.Fatalf("power-on registers % x", got)
	}
	// The pointer is kept between transactions: a read without a write
	// continues at 0x02 (IPOLA).
	txOK(t, b, []byte{0x0C, 0xAA, 0x55}, 0) // GPPUA, GPPUB
	if got := txOK(t, b, []byte{0x0C}, 2); got[0] != 0xAA || got[1] != 0x55 {
		t.Fatalf("GPPU % x", got)
	}
	if got := txOK(t, b, nil, 2); got[0] != 0 || got[1] != 0 { // INTFA, INTFB
		t.Fatalf("INTF % x", got)
	}
}

func TestMCP23017IOCONModes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		iocon byte
		start byte
		n     int
		want  []byte
	}{
		// BANK=0, SEQOP=1: the pointer toggles between GPPUA and GPPUB.
		{"bank0 byte mode", 0x20, 0x0C, 4, []byte{0x11, 0x22, 0x11, 0x22}},
		// BANK=1, SEQOP=1: the pointer stays on GPPUA (0x06).
		{"bank1 byte mode", 0xA0, 0x06, 3, []byte{0x11, 0x11, 0x11}},
		// BANK=1, SEQOP=0: OLATA (0x0A) is followed by IODIRB (0x10).
		{"bank1 sequential", 0x80, 0x0A, 2, []byte{0x00, 0xFF}},
		// BANK=1: GPPUB at 0x16, then INTFB, INTCAPB, GPIOB, OLATB, wrap to IODIRA.
		{"bank1 wrap", 0x80, 0x16, 6, []byte{0x22, 0, 0, 0x22, 0, 0xFF}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, m := newMCP(t)
			txOK(t, b, []byte{0x0C, 0x11, 0x22}, 0) // GPPU in BANK=0
			txOK(t, b, []byte{0x0A, tc.iocon}, 0)
			if m.IOCON() != tc.iocon {
				t.Fatalf("IOCON %#x", m.IOCON())
			}
			if got := txOK(t, b, []byte{tc.start}, tc.n); !bytes.Equal(got, tc.want) {
				t.Fatalf("read from %#x: % x, want % x", tc.start, got, tc.want)
			}
		})
	}
	// IOCON is one register at two addresses, in either bank.
	b, m := newMCP(t)
	txOK(t, b, []byte{0x0B, 0x80}, 0)
	if got := txOK(t, b, []byte{0x15}, 1); got[0] != 0x80 {
		t.Fatalf("IOCON at 0x15 in BANK=1: %#x", got[0])
	}
	txOK(t, b, []byte{0x05, 0x01}, 0) // bit 0 unimplemented; back to BANK=0
	if m.IOCON() != 0 {
		t.Fatalf("IOCON %#x", m.IOCON())
	}
}

func TestMCP23017Pins(t *testing.T) {
	b, m := newMCP(t)
	m.SetPins(fixedPins(0x8001)) // GPA0 and GPB7 pulled low
	// Power-on: inputs without pull-ups float (read 0 by default).
	if got := txOK(t, b, []byte{0x12}, 2); got[0] != 0 || got[1] != 0 {
		t.Fatalf("floating GPIO % x", got)
	}
	m.Floating = 0xFFFF
	if got := txOK(t, b, []byte{0x12}, 2); got[0] != 0xFE || got[1] != 0x7F {
		t.Fatalf("floating high GPIO % x", got)
	}
	m.Floating = 0
	txOK(t, b, []byte{0x0C, 0xFF, 0xFF}, 0) // pull-ups
	if got := txOK(t, b, []byte{0x12}, 2); got[0] != 0xFE || got[1] != 0x7F {
		t.Fatalf("pulled-up GPIO % x", got)
	}
	txOK(t, b, []byte{0x02, 0x0F, 0x00}, 0) // IPOLA inverts GPA0..3
	if got := txOK(t, b, []byte{0x12}, 2); got[0] != 0xF1 || got[1] != 0x7F {
		t.Fatalf("IPOL GPIO % x", got)
	}
	// GPA4..7 outputs; a GPIO write lands in OLAT; outputs read their latch.
	txOK(t, b, []byte{0x00, 0x0F}, 0)
	txOK(t, b, []byte{0x12, 0x50}, 0)
	if m.OLAT() != 0x0050 {
		t.Fatalf("OLAT %#x", m.OLAT())
	}
	if got := txOK(t, b, []byte{0x12}, 1); got[0] != 0x51 {
		t.Fatalf("GPIOA with outputs %#x", got[0])
	}
	if m.Levels() != 0x7FFE&^0x00A0|0x0050 {
		t.Fatalf("levels %#x", m.Levels())
	}
}

func TestMCP23017Faults(t *testing.T) {
	b, m := newMCP(t)
	txOK(t, b, []byte{0x0C, 0xFF, 0xFF}, 0)
	m.FailNext(2)
	for i := 0; i < 2; i++ {
		if err := b.Tx(0x20, []byte{0x12}, make([]byte, 2)); !errors.Is(err, ErrNACK) {
			t.Fatalf("FailNext %d: %v", i, err)
		}
	}
	txOK(t, b, []byte{0x12}, 2)
	m.ShortReadNext(1)
	r := make([]byte, 2)
	if err := b.Tx(0x20, []byte{0x12}, r); !errors.Is(err, ErrShortRead) || err.Error() != "sim: mcp23017 0x20: short read: 1 of 2 bytes" || r[1] != 0xFF {
		t.Fatalf("short read % x: %v", r, err)
	}
	m.Vanish()
	if err := b.Tx(0x20, []byte{0x0C}, r); !errors.Is(err, ErrNACK) || !m.Gone() {
		t.Fatalf("vanished: %v", err)
	}
	if m.GPPU() != 0xFFFF {
		t.Fatal("registers lost while gone (they are lost when it comes back)")
	}
	m.Return()
	if m.GPPU() != 0 || m.IODIR() != 0xFFFF {
		t.Fatalf("after Return: GPPU %#x IODIR %#x", m.GPPU(), m.IODIR())
	}
	txOK(t, b, []byte{0x0C, 0xFF, 0xFF}, 0)
	m.PowerCycle()
	if m.GPPU() != 0 {
		t.Fatal("PowerCycle kept GPPU")
	}
	st := b.Stats()
	if st.NACKs != 3 {
		t.Fatalf("NACKs %d", st.NACKs)
	}
}

// watchedPins are pins whose changes are reported to the chip, as the
// Set reports its buttons'.
type watchedPins struct {
	low     uint16
	changed func()
}

func (p *watchedPins) PulledLow(uint16) uint16 { return p.low }
func (p *watchedPins) watch(f func())          { p.changed = f }
func (p *watchedPins) set(low uint16)          { p.low = low; p.changed() }

// Interrupt-on-change as a polling driver sees it (datasheet 3.6): a pin
// pressed and let go between two reads sets its INTF bit, and INTCAP holds
// the port as it was at the first change; a later change of the port does
// not overwrite it; reading INTCAP or GPIO clears the interrupt; a pin
// without GPINTEN, or INTCON comparing with DEFVAL, behave as the chip.
func TestMCP23017InterruptOnChange(t *testing.T) {
	b, m := newMCP(t)
	p := &watchedPins{}
	m.SetPins(p)
	// Inputs with pull-ups; interrupts on GPA1 and GPB2, compared with the
	// previous value.
	txOK(t, b, []byte{0x0C, 0xFF, 0xFF}, 0) // GPPU
	txOK(t, b, []byte{0x04, 0x02, 0x04}, 0) // GPINTENA, GPINTENB
	intf := func() []byte { return txOK(t, b, []byte{0x0E}, 2) }
	if got := intf(); got[0] != 0 || got[1] != 0 {
		t.Fatalf("INTF % x before any change", got)
	}
	p.set(0x0002) // GPA1 pressed...
	p.set(0x0003) // ... GPA0 (no interrupt) too ...
	p.set(0x0001) // ... GPA1 let go: the first change is kept
	if got := intf(); got[0] != 0x02 || got[1] != 0 {
		t.Fatalf("INTF % x, want GPA1's", got)
	}
	if got := m.Register(0x10); got != 0xFD {
		t.Fatalf("INTCAPA %#x, want 0xfd (GPA1 low at the press)", got)
	}
	if got := intf(); got[0] != 0x02 {
		t.Fatalf("INTF % x after Register, want it still set (Register clears nothing)", got)
	}
	if got := txOK(t, b, []byte{0x10}, 1); got[0] != 0xFD {
		t.Fatalf("INTCAPA %#x", got[0])
	}
	if got := intf(); got[0] != 0 {
		t.Fatalf("INTF % x after INTCAPA was read, want cleared", got)
	}
	if got := txOK(t, b, []byte{0x10}, 1); got[0] != 0xFD {
		t.Fatalf("INTCAPA %#x after the clear, want it kept", got[0])
	}
	// GPB2: a press read by GPIO clears it too.
	p.set(0x0401)
	if got := intf(); got[1] != 0x04 {
		t.Fatalf("INTFB %#x, want GPB2", got[1])
	}
	if got := txOK(t, b, []byte{0x12}, 2); got[0] != 0xFE || got[1] != 0xFB {
		t.Fatalf("GPIO % x", got)
	}
	if got := intf(); got[1] != 0 {
		t.Fatalf("INTFB %#x after GPIO was read, want cleared", got[1])
	}
	// INTCON=1 on GPA1, DEFVAL 1 (released): interrupt while it is pressed,
	// again after each clear.
	txOK(t, b, []byte{0x06, 0x02}, 0) // DEFVALA
	txOK(t, b, []byte{0x08, 0x02}, 0) // INTCONA
	p.set(0x0403)
	for i := range 2 {
		if got := intf(); got[0] != 0x02 {
			t.Fatalf("read %d: INTFA %#x, want GPA1 (differs from DEFVAL)", i, got[0])
		}
		txOK(t, b, []byte{0x12}, 2)
	}
}
