package leds

import (
	"fmt"
	"sync"
)

// Memory is a Driver that keeps the last frame in memory, for tests and for
// displays (a web page, a terminal). It is safe for concurrent use.
type Memory struct {
	mu     sync.Mutex
	n      int
	last   Frame
	writes int
	halted bool
	fail   error
}

// NewMemory returns a memory driver of n LEDs (at most MaxLEDs).
func NewMemory(n int) *Memory {
	if n < 0 || n > MaxLEDs {
		panic(fmt.Sprintf("leds: memory driver of %d LEDs, outside 0..%d", n, MaxLEDs))
	}
	return &Memory{n: n, last: Frame{N: n}}
}

func (m *Memory) String() string { return "memory" }

// NumLEDs implements Driver.
func (m *Memory) NumLEDs() int { return m.n }

// Write implements Driver. It fails with the error set by Fail, if any.
func (m *Memory) Write(f *Frame) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	m.last = *f
	m.last.N = m.n
	clear(m.last.LED[m.n:])
	m.writes++
	m.halted = false
	return nil
}

// Halt implements Driver.
func (m *Memory) Halt() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	m.last.Clear()
	m.halted = true
	return nil
}

// Fail makes every Write and Halt fail with err until Fail(nil).
func (m *Memory) Fail(err error) {
	m.mu.Lock()
	m.fail = err
	m.mu.Unlock()
}

// Frame returns the frame shown and how many frames were written.
func (m *Memory) Frame() (Frame, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last, m.writes
}

// Halted reports whether Halt was the last successful call.
func (m *Memory) Halted() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.halted
}
