// Package mqttsink connects a table to MQTT: its events and snapshots become
// the retained state, the moves (through the durable outbox) and the events
// of docs/mqtt.md, and MQTT commands become the table's commands.
package mqttsink

import (
	"log/slog"
	"sync"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/table"
)

// Publisher is what the sink publishes through: an *mqtt.Client.
type Publisher interface {
	// Enqueue hands a durable move to the outbox, in seq order; a seq
	// already enqueued is a no-op.
	Enqueue(m protocol.Move) error
	PublishState(s protocol.State)
	PublishEvent(e protocol.Event)
}

// Opts tune a Sink.
type Opts struct {
	// RetryMin and RetryMax bound the wait before a failed outbox write is
	// tried again (doubling from RetryMin).
	RetryMin, RetryMax time.Duration
	// After is the clock of the retries; nil means time.After.
	After func(time.Duration) <-chan time.Time
	// Log receives outbox failures; nil means slog.Default().
	Log *slog.Logger
}

// DefaultOpts returns the defaults: retries from 100 ms to 10 s.
func DefaultOpts() Opts {
	return Opts{RetryMin: 100 * time.Millisecond, RetryMax: 10 * time.Second, After: time.After}
}

// Sink is a table.Sink publishing on MQTT.
type Sink struct {
	p Publisher
	o Opts

	mu      sync.Mutex
	latest  *table.Snapshot
	failing bool // an outbox write failed: the retry loop catches up
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// New returns a sink publishing through p. Close stops its retries.
func New(p Publisher, o *Opts) *Sink {
	opts := DefaultOpts()
	if o != nil {
		opts = *o
	}
	if opts.After == nil {
		opts.After = time.After
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = DefaultOpts().RetryMin
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = opts.RetryMin
	}
	s := &Sink{p: p, o: opts, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go s.retry()
	return s
}

// Handle publishes e: a move to the outbox, an event, and the state after it.
func (s *Sink) Handle(e table.Event) {
	if e.Snap == nil {
		return
	}
	s.mu.Lock()
	s.latest = e.Snap
	s.mu.Unlock()
	switch e.Kind {
	case table.Started:
		// After a start or missed events: everything handed out for
		// publication goes to the outbox again (known seqs are no-ops), so
		// a crash between the journal and the outbox loses nothing.
		s.catchUp()
	case table.Moved, table.Corrected:
		s.enqueue(*e.Move)
	}
	if ev, ok := protocol.EventOf(e); ok {
		s.p.PublishEvent(ev)
	}
	s.p.PublishState(protocol.StateOf(e.Snap))
}

// enqueue puts m in the outbox, or leaves it to the retry loop.
func (s *Sink) enqueue(m game.Move) {
	s.mu.Lock()
	failing := s.failing
	s.mu.Unlock()
	if failing {
		s.poke()
		return
	}
	if err := s.p.Enqueue(protocol.Move(m)); err != nil {
		s.fail(err, m.Seq)
	}
}

func (s *Sink) fail(err error, seq int) {
	s.o.Log.Error("MQTT outbox: the move stays in the journal; enqueueing it again", "seq", seq, "err", err)
	s.mu.Lock()
	s.failing = true
	s.mu.Unlock()
	s.poke()
}

func (s *Sink) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// catchUp enqueues every published move of the latest snapshot in order;
// it reports whether all went in.
func (s *Sink) catchUp() bool {
	s.mu.Lock()
	snap := s.latest
	s.mu.Unlock()
	if snap == nil {
		return true
	}
	for _, m := range snap.Published() {
		if err := s.p.Enqueue(protocol.Move(m)); err != nil {
			s.fail(err, m.Seq)
			return false
		}
	}
	return true
}

// retry enqueues the journal's moves again, with backoff, after a failed
// write, until every one is in. Failing stays true until they are.
func (s *Sink) retry() {
	defer close(s.done)
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		}
		for wait := s.o.RetryMin; s.Failing(); {
			select {
			case <-s.stop:
				return
			case <-s.o.After(wait):
			}
			if s.catchUp() {
				s.mu.Lock()
				s.failing = false
				s.mu.Unlock()
				s.o.Log.Info("MQTT outbox: caught up with the journal")
				break
			}
			if wait *= 2; wait > s.o.RetryMax {
				wait = s.o.RetryMax
			}
		}
	}
}

// Close stops the retries.
func (s *Sink) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}

// Failing reports whether moves wait for the outbox to work again.
func (s *Sink) Failing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failing
}
