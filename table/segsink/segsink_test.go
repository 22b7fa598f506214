package segsink_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/clock/segment"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/segsink"
)

// fake is a Display that records what it shows and when.
type fake struct {
	mu    sync.Mutex
	shows []time.Time
	halts int
	fail  error
	drawn chan struct{}
}

func (f *fake) Show(_ clock.Snapshot, at time.Time) error {
	f.mu.Lock()
	f.shows = append(f.shows, at)
	err := f.fail
	f.mu.Unlock()
	f.drawn <- struct{}{}
	return err
}

func (f *fake) Halt() error {
	f.mu.Lock()
	f.halts++
	f.mu.Unlock()
	f.drawn <- struct{}{}
	return nil
}

func wait(t *testing.T, ch chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("no redraw within 5 s")
	}
}

func snapAt(t0 time.Time) *table.Snapshot {
	c, _ := clock.New(clock.MustParse("180+2"), nil)
	_ = c.Start(t0, rules.White)
	s := c.Snapshot(t0)
	return &table.Snapshot{Clock: &s}
}

// Each tick redraws at the injected clock's time; a game without a clock
// blanks the displays once.
func TestRedrawsOnTicks(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	now := t0
	var mu sync.Mutex
	ticks := make(chan time.Time)
	f := &fake{drawn: make(chan struct{}, 8)}
	s := segsink.New(f, &segsink.Opts{Ticks: ticks, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	s.Handle(table.Event{Kind: table.Started, Snap: snapAt(t0)})
	for i := range 3 {
		mu.Lock()
		now = t0.Add(time.Duration(i) * segsink.Refresh)
		mu.Unlock()
		ticks <- now
		wait(t, f.drawn)
	}
	f.mu.Lock()
	if len(f.shows) != 3 || !f.shows[2].Equal(t0.Add(2*segsink.Refresh)) {
		t.Errorf("shown at %v", f.shows)
	}
	f.mu.Unlock()
	s.Handle(table.Event{Kind: table.GameBegan, Snap: &table.Snapshot{}})
	ticks <- now
	wait(t, f.drawn)
	ticks <- now // already blank: nothing to do
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.halts != 2 || len(f.shows) != 3 { // one for the game without a clock, one for Close
		t.Errorf("%d halts, %d shows", f.halts, len(f.shows))
	}
}

// A failing display is reported once, and the sink goes on.
func TestFailingDisplay(t *testing.T) {
	ticks := make(chan time.Time)
	f := &fake{drawn: make(chan struct{}, 8), fail: errors.New("segment: ht16k33 0x74: nack")}
	var log bytes.Buffer
	s := segsink.New(f, &segsink.Opts{Ticks: ticks, Log: slog.New(slog.NewTextHandler(&log, nil))})
	s.Handle(table.Event{Snap: snapAt(time.Now())})
	for range 3 {
		ticks <- time.Now()
		wait(t, f.drawn)
	}
	f.mu.Lock()
	f.fail = nil
	f.mu.Unlock()
	ticks <- time.Now()
	wait(t, f.drawn)
	_ = s.Close()
	if n, back := strings.Count(log.String(), "nack"), strings.Count(log.String(), "work again"); n != 1 || back != 1 {
		t.Errorf("failure logged %d times, recovery %d times:\n%s", n, back, log.String())
	}
}

// On the simulated backpacks the times count down from the snapshot.
func TestOnTheSimulatedBackpacks(t *testing.T) {
	bus := sim.NewBus("")
	white, black := sim.NewHT16K33(0x74), sim.NewHT16K33(0x75)
	_ = bus.Attach(0x74, white)
	_ = bus.Attach(0x75, black)
	d, err := segment.New(bus, nil)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	at := t0.Add(61500 * time.Millisecond)
	ticks := make(chan time.Time)
	s := segsink.New(d, &segsink.Opts{Ticks: ticks, Now: func() time.Time { return at }})
	defer s.Close()
	s.Handle(table.Event{Snap: snapAt(t0)})
	ticks <- at
	want := segment.Render(180*time.Second - 61500*time.Millisecond)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		ram := white.RAM()
		if [10]byte(ram[:10]) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("white shows % x, want % x", ram[:10], want)
		}
	}
	if ram, want := black.RAM(), segment.Render(180*time.Second); [10]byte(ram[:10]) != want {
		t.Errorf("black shows % x, want % x", ram[:10], want)
	}
}
