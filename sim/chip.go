package sim

import (
	"errors"
	"fmt"
	"sync"
)

// ErrNACK is wrapped by the error of a transaction that no device
// acknowledged.
var ErrNACK = errors.New("no acknowledge")

// ErrShortRead is wrapped by the error of a transaction whose read part
// ended early.
var ErrShortRead = errors.New("short read")

// Device is a chip on the simulated bus.
type Device interface {
	// Tx handles one transaction addressed to the device: the bytes written
	// after the address, then the bytes read after a repeated start. An
	// error means the device did not acknowledge (or the read failed).
	Tx(w, r []byte) error
	// Reset puts the device in its power-on state.
	Reset()
}

// chip holds what every emulated chip shares: its lock and its faults.
type chip struct {
	mu        sync.Mutex
	name      string // "mcp23017 0x21", for errors
	nack      int    // NACK the next nack transactions
	shortRead int    // cut the read part of the next shortRead transactions
	gone      bool   // NACK until Return
	txs       uint64 // transactions acknowledged
	reset     func() // power-on reset of the registers, called with mu held
}

// fault returns the error the next transaction meets, if any, and how many
// of n read bytes it delivers. It is called with c.mu held.
func (c *chip) fault(n int) (int, error) {
	if c.gone {
		return 0, fmt.Errorf("sim: %s: %w (chip gone)", c.name, ErrNACK)
	}
	if c.nack > 0 {
		c.nack--
		return 0, fmt.Errorf("sim: %s: %w", c.name, ErrNACK)
	}
	if n > 0 && c.shortRead > 0 {
		c.shortRead--
		return n / 2, fmt.Errorf("sim: %s: %w: %d of %d bytes", c.name, ErrShortRead, n/2, n)
	}
	c.txs++
	return n, nil
}

// FailNext makes the chip NACK its next n transactions.
func (c *chip) FailNext(n int) {
	c.mu.Lock()
	c.nack += n
	c.mu.Unlock()
}

// ShortReadNext makes the next n transactions that read deliver only half
// of the bytes asked for (the rest of the buffer is 0xFF) and fail.
func (c *chip) ShortReadNext(n int) {
	c.mu.Lock()
	c.shortRead += n
	c.mu.Unlock()
}

// Gone reports whether the chip has vanished.
func (c *chip) Gone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gone
}

// Transactions is the number of transactions the chip acknowledged.
func (c *chip) Transactions() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.txs
}

// Vanish makes the chip NACK every transaction until Return, as when its
// supply or its connector is lost.
func (c *chip) Vanish() {
	c.mu.Lock()
	c.gone = true
	c.mu.Unlock()
}

// Return brings a vanished chip back in its power-on state.
func (c *chip) Return() {
	c.mu.Lock()
	c.gone = false
	c.resetLocked()
	c.mu.Unlock()
}

// PowerCycle resets the chip to its power-on state without it ever missing
// a transaction, as after a brown-out between two scans.
func (c *chip) PowerCycle() {
	c.mu.Lock()
	c.resetLocked()
	c.mu.Unlock()
}

// Reset puts the chip in its power-on state (the faults stay).
func (c *chip) Reset() { c.PowerCycle() }

// resetLocked is set by each chip type to its power-on reset.
func (c *chip) resetLocked() {
	if c.reset != nil {
		c.reset()
	}
}
