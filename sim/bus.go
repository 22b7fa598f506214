package sim

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// DefaultSpeed is the bus clock until SetSpeed changes it (hardware.md).
const DefaultSpeed = 400 * physic.KiloHertz

// Stats counts the traffic of a Bus.
type Stats struct {
	// Transactions is the number of Tx calls, NACKed ones included.
	Transactions uint64
	// NACKs is the number of transactions no device acknowledged.
	NACKs uint64
	// Bits is the number of bit times on the wire: a start (1), the address
	// byte and its ack (9), 9 per data byte, a repeated start (1) and the
	// address again (9) before a read part, and a stop (1). A 2-byte
	// register read is 48 bits.
	Bits uint64
	// WireTime is Bits at the clock that was set when each bit was sent.
	WireTime time.Duration
}

// Bus is a simulated I²C bus: it implements i2c.BusCloser and hands each
// transaction to the device attached at its address (directly, or behind a
// PCA9548 channel that is selected). It is safe for concurrent use.
type Bus struct {
	mu     sync.Mutex
	name   string
	hz     uint64 // clock in Hz
	maxHz  uint64 // transactions fail above it (0: no limit)
	devs   map[uint16]Device
	muxes  []*PCA9548
	clock  *TimeSource
	closed bool

	st     Stats
	wirePs uint64 // wire time in picoseconds, exact at usual clocks
}

var _ i2c.BusCloser = (*Bus)(nil)

// NewBus returns an empty bus named name (String), clocked at DefaultSpeed.
func NewBus(name string) *Bus {
	if name == "" {
		name = "sim"
	}
	return &Bus{name: name, hz: uint64(DefaultSpeed / physic.Hertz), devs: map[uint16]Device{}}
}

// Attach connects d at addr on the bus itself (not behind a multiplexer).
// A PCA9548 attached here routes to the devices attached to its channels.
func (b *Bus) Attach(addr uint16, d Device) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if addr > 0x7F {
		return fmt.Errorf("sim: attach at 0x%02x: not a 7-bit address", addr)
	}
	if _, dup := b.devs[addr]; dup {
		return fmt.Errorf("sim: attach at 0x%02x: address already taken", addr)
	}
	b.devs[addr] = d
	if m, ok := d.(*PCA9548); ok {
		b.muxes = append(b.muxes, m)
	}
	return nil
}

// Detach removes the device at addr (a chip pulled off the bus).
func (b *Bus) Detach(addr uint16) {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.devs[addr]
	delete(b.devs, addr)
	for i, m := range b.muxes {
		if Device(m) == d {
			b.muxes = append(b.muxes[:i], b.muxes[i+1:]...)
			break
		}
	}
}

// SetTimeSource makes every transaction advance c by its wire time, so that a
// scanner reading c.Now() sees the bus take time. Nil detaches the clock.
func (b *Bus) SetTimeSource(c *TimeSource) {
	b.mu.Lock()
	b.clock = c
	b.mu.Unlock()
}

// String implements i2c.Bus.
func (b *Bus) String() string { return b.name }

// SetSpeed implements i2c.Bus: it sets the clock that wire time is counted
// at.
func (b *Bus) SetSpeed(f physic.Frequency) error {
	if f < physic.Hertz || f > 5*physic.MegaHertz {
		return fmt.Errorf("sim: %s: invalid speed %s", b.name, f)
	}
	b.mu.Lock()
	b.hz = uint64(f / physic.Hertz)
	b.mu.Unlock()
	return nil
}

// SetMaxSpeed makes every transaction fail while the bus clock is above
// f (0: no limit): a bus whose wires are too long or whose pull-ups too
// weak for 400 kHz, but that works at 100 kHz.
func (b *Bus) SetMaxSpeed(f physic.Frequency) {
	b.mu.Lock()
	b.maxHz = uint64(f / physic.Hertz)
	b.mu.Unlock()
}

// Speed is the bus clock.
func (b *Bus) Speed() physic.Frequency {
	b.mu.Lock()
	defer b.mu.Unlock()
	return physic.Frequency(b.hz) * physic.Hertz
}

// Close implements i2c.BusCloser; later transactions fail.
func (b *Bus) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errors.New("sim: " + b.name + ": already closed")
	}
	b.closed = true
	return nil
}

// Stats returns the traffic counters.
func (b *Bus) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.st
	s.WireTime = time.Duration(b.wirePs / 1000)
	return s
}

// ResetStats zeroes the traffic counters.
func (b *Bus) ResetStats() {
	b.mu.Lock()
	b.st = Stats{}
	b.wirePs = 0
	b.mu.Unlock()
}

// TxBits is the number of bit times a transaction writing nw bytes and
// reading nr bytes takes on the wire (see Stats.Bits).
func TxBits(nw, nr int) uint64 {
	bits := uint64(1 + 9 + 1) // start, address+ack, stop
	bits += 9 * uint64(nw)
	if nr > 0 {
		if nw > 0 {
			bits += 1 + 9 // repeated start, address+ack
		}
		bits += 9 * uint64(nr)
	}
	return bits
}

// Tx implements i2c.Bus.
func (b *Bus) Tx(addr uint16, w, r []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errors.New("sim: " + b.name + ": bus closed")
	}
	b.st.Transactions++
	d, n := b.route(addr)
	var err error
	switch {
	case n == 0:
		err = fmt.Errorf("sim: %s: address 0x%02x: %w", b.name, addr, ErrNACK)
	case n > 1:
		err = fmt.Errorf("sim: %s: address 0x%02x: %d devices answer (bus clash)", b.name, addr, n)
	case b.maxHz > 0 && b.hz > b.maxHz:
		// Edges too slow for the clock (long wires, weak pull-ups): the
		// chip misreads the transfer and does not acknowledge it.
		err = fmt.Errorf("sim: %s: address 0x%02x at %d kHz: %w (the bus works up to %d kHz)", b.name, addr, b.hz/1000, ErrNACK, b.maxHz/1000)
	default:
		err = d.Tx(w, r)
	}
	var bits uint64
	if err != nil && errors.Is(err, ErrNACK) {
		b.st.NACKs++
		bits = TxBits(0, 0) // the address byte is NACKed, then stop
	} else {
		bits = TxBits(len(w), len(r))
	}
	b.st.Bits += bits
	ps := bits * 1_000_000_000_000 / b.hz
	b.wirePs += ps
	if b.clock != nil {
		b.clock.Advance(time.Duration(ps / 1000))
	}
	return err
}

// route finds the device that answers at addr and how many answer.
func (b *Bus) route(addr uint16) (Device, int) {
	var found Device
	n := 0
	if d, ok := b.devs[addr]; ok {
		found, n = d, 1
	}
	for _, m := range b.muxes {
		if d, k := m.route(addr); k > 0 {
			found = d
			n += k
		}
	}
	return found, n
}
