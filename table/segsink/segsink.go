// Package segsink shows a table's chess clock on the two 7-segment
// displays of clock/segment, one per side, redrawn at 10 Hz from its own
// goroutine (the tenths under 20 s need it) from the latest snapshot's
// clock, so the displays count down without drift however late a snapshot
// came. A game without a clock blanks them.
package segsink

import (
	"log/slog"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/table"
)

// Refresh is the redraw period of the default ticker.
const Refresh = 100 * time.Millisecond

// Display is what the sink draws on: a *segment.Display.
type Display interface {
	Show(s clock.Snapshot, at time.Time) error
	Halt() error
}

// Opts tune a Sink.
type Opts struct {
	// Ticks drives the redraws; nil means a time.Ticker of Refresh.
	Ticks <-chan time.Time
	// Now is the time the displays show the clock at; nil means time.Now.
	// Give the table's clock (table.Opts.Now).
	Now func() time.Time
	// Log receives display failures, once until they change; nil means
	// slog.Default().
	Log *slog.Logger
}

// Sink is a table.Sink drawing the clock of every snapshot.
type Sink struct {
	d      Display
	o      Opts
	ticker *time.Ticker

	mu      sync.Mutex
	snap    *clock.Snapshot
	has     bool // a snapshot came (with or without a clock)
	lit     bool // the displays show a clock
	lastErr string

	stop, done chan struct{}
	once       sync.Once
}

// New returns a sink drawing on d; Close stops it and blanks the displays.
func New(d Display, o *Opts) *Sink {
	s := &Sink{d: d, stop: make(chan struct{}), done: make(chan struct{})}
	if o != nil {
		s.o = *o
	}
	if s.o.Now == nil {
		s.o.Now = time.Now
	}
	if s.o.Log == nil {
		s.o.Log = slog.Default()
	}
	if s.o.Ticks == nil {
		s.ticker = time.NewTicker(Refresh)
		s.o.Ticks = s.ticker.C
	}
	go s.run()
	return s
}

// Handle keeps the clock of e's snapshot for the next redraw.
func (s *Sink) Handle(e table.Event) {
	if e.Snap == nil {
		return
	}
	s.mu.Lock()
	s.snap, s.has = e.Snap.Clock, true
	s.mu.Unlock()
}

func (s *Sink) run() {
	defer close(s.done)
	for {
		select {
		case <-s.stop:
			return
		case <-s.o.Ticks:
			s.draw(s.o.Now())
		}
	}
}

// draw shows the clock at now, or blanks the displays of a game without.
func (s *Sink) draw(now time.Time) {
	s.mu.Lock()
	snap, has, lit := s.snap, s.has, s.lit
	s.mu.Unlock()
	var err error
	switch {
	case !has:
		return
	case snap == nil:
		if !lit {
			return
		}
		err = s.d.Halt()
		lit = false
	default:
		err = s.d.Show(*snap, now)
		lit = true
	}
	s.mu.Lock()
	s.lit = lit
	report := err != nil && err.Error() != s.lastErr
	if err == nil && s.lastErr != "" {
		s.o.Log.Info("clock displays work again")
	}
	if err != nil {
		s.lastErr = err.Error()
	} else {
		s.lastErr = ""
	}
	s.mu.Unlock()
	if report {
		s.o.Log.Warn("clock displays", "err", err)
	}
}

// Close stops the redraws and blanks the displays.
func (s *Sink) Close() error {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	if s.ticker != nil {
		s.ticker.Stop()
	}
	return s.d.Halt()
}
