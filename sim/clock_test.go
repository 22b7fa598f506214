package sim

import (
	"slices"
	"testing"
	"time"
)

// TestClockTimers: a timer fires when the clock reaches its time, not a
// nanosecond before, once; a stopped timer never fires; Timers lists what
// waits, earliest first.
func TestClockTimers(t *testing.T) {
	c := NewTimeSource(time.Time{})
	t0 := c.Now()
	a, _ := c.NewTimer(2 * time.Second)
	b, stopB := c.NewTimer(time.Second)
	d := c.After(3 * time.Second)
	if got, want := c.Timers(), []time.Time{t0.Add(time.Second), t0.Add(2 * time.Second), t0.Add(3 * time.Second)}; !slices.Equal(got, want) {
		t.Fatalf("timers %v, want %v", got, want)
	}
	fired := func(ch <-chan time.Time) (time.Time, bool) {
		select {
		case at := <-ch:
			return at, true
		default:
			return time.Time{}, false
		}
	}
	c.Advance(time.Second - 1)
	if _, ok := fired(b); ok {
		t.Fatal("a 1 s timer fired at 1 s - 1 ns")
	}
	if !stopB() {
		t.Fatal("stop of a waiting timer reported false")
	}
	if stopB() {
		t.Error("second stop reported true")
	}
	c.Advance(1)
	if _, ok := fired(b); ok {
		t.Fatal("a stopped timer fired")
	}
	// One move past two timers fires both, with the clock's time.
	now := c.Advance(2 * time.Second)
	for name, ch := range map[string]<-chan time.Time{"2 s": a, "3 s": d} {
		if at, ok := fired(ch); !ok || !at.Equal(now) {
			t.Errorf("%s timer: fired %t at %v, want at %v", name, ok, at, now)
		}
	}
	if got := c.Timers(); len(got) != 0 {
		t.Errorf("timers left %v", got)
	}
	// Set fires too; a timer of 0 fires at once and cannot be stopped.
	e, stopE := c.NewTimer(time.Minute)
	c.Set(now.Add(time.Hour))
	if _, ok := fired(e); !ok || stopE() {
		t.Error("Set did not fire a timer it passed")
	}
	z, stopZ := c.NewTimer(0)
	if _, ok := fired(z); !ok || stopZ() {
		t.Error("a timer of 0 did not fire at once")
	}
}
