package sim

import (
	"slices"
	"sync"
	"time"
)

// Epoch is the time every TimeSource made by NewTimeSource(time.Time{}) starts at.
var Epoch = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// TimeSource is the simulated time injected where the real one is time.Now
// (a simulated clock, not a chess clock): time moves only when Advance or Set is called
// (or, when attached with Bus.SetTimeSource, by the wire time of each
// transaction). Its timers (NewTimer, After) fire when it moves past their
// time. It is safe for concurrent use.
type TimeSource struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer // waiting, in no order
}

// timer is a timer of a TimeSource: c receives the clock's time once at.
type timer struct {
	at time.Time
	c  chan time.Time
}

// NewTimeSource returns a clock at t, or at Epoch when t is the zero time.
func NewTimeSource(t time.Time) *TimeSource {
	if t.IsZero() {
		t = Epoch
	}
	return &TimeSource{now: t}
}

// Now is the current simulated time.
func (c *TimeSource) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d, fires the timers whose time came,
// and returns the new time.
func (c *TimeSource) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.fire()
	return c.now
}

// Set moves the clock to t (it may go backwards; tests should not) and
// fires the timers whose time came.
func (c *TimeSource) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.fire()
	c.mu.Unlock()
}

// NewTimer is time.NewTimer on the simulated clock: the channel receives
// the clock's time once the clock reaches Now()+d (at once when d <= 0);
// stop cancels the timer and reports whether it was still waiting.
func (c *TimeSource) NewTimer(d time.Duration) (ch <-chan time.Time, stop func() bool) {
	t := &timer{c: make(chan time.Time, 1)}
	c.mu.Lock()
	defer c.mu.Unlock()
	t.at = c.now.Add(d)
	if d <= 0 {
		t.c <- c.now
		return t.c, func() bool { return false }
	}
	c.timers = append(c.timers, t)
	return t.c, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.timers, t)
		if i < 0 {
			return false
		}
		c.timers = slices.Delete(c.timers, i, i+1)
		return true
	}
}

// After is time.After on the simulated clock: NewTimer's channel alone.
func (c *TimeSource) After(d time.Duration) <-chan time.Time {
	ch, _ := c.NewTimer(d)
	return ch
}

// Timers returns the times of the timers still waiting, earliest first:
// a test sees there what the code under test waits for, and when.
func (c *TimeSource) Timers() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Time, len(c.timers))
	for i, t := range c.timers {
		out[i] = t.at
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

// fire sends the time to the timers whose time came and forgets them.
// c.mu is held.
func (c *TimeSource) fire() {
	c.timers = slices.DeleteFunc(c.timers, func(t *timer) bool {
		if t.at.After(c.now) {
			return false
		}
		t.c <- c.now // buffered, and each timer fires once
		return true
	})
}
