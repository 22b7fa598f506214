package sim

import (
	"sync"
	"time"
)

// Epoch is the time every Clock made by NewClock(time.Time{}) starts at.
var Epoch = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// Clock is a simulated clock: time moves only when Advance or Set is called
// (or, when attached with Bus.SetClock, by the wire time of each
// transaction). It is safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at t, or at Epoch when t is the zero time.
func NewClock(t time.Time) *Clock {
	if t.IsZero() {
		t = Epoch
	}
	return &Clock{now: t}
}

// Now is the current simulated time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

// Set moves the clock to t (it may go backwards; tests should not).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}
