package table

import (
	"sync"
	"sync/atomic"
	"time"
)

// Sink is an output of a table: the MQTT client, the LEDs, a printer, a
// display. Handle is called on the sink's own goroutine, one event at a
// time, in the order the events happened; it may take its time (the table
// queues meanwhile) but should not block for ever.
type Sink interface {
	Handle(e Event)
}

// SinkFunc is a Sink made of a function.
type SinkFunc func(e Event)

// Handle calls f(e).
func (f SinkFunc) Handle(e Event) { f(e) }

// SinkStats counts what a sink got and missed.
type SinkStats struct {
	// Delivered counts the events handled; Dropped those that did not fit
	// in the queue (the sink then gets a Started event with the whole
	// table before the next one).
	Delivered, Dropped uint64
	// Queued is the number of events waiting.
	Queued int
}

// queue feeds one sink from its own goroutine.
type queue struct {
	sink   Sink
	ch     chan Event
	lost   atomic.Bool // events were dropped: send Started first
	latest atomic.Pointer[Snapshot]
	done   chan struct{}

	delivered, dropped atomic.Uint64
	closeOnce          sync.Once
}

func newQueue(s Sink, n int) *queue {
	q := &queue{sink: s, ch: make(chan Event, n), done: make(chan struct{})}
	go q.run()
	return q
}

// put queues e, or drops it when the queue is full. It never blocks.
func (q *queue) put(e Event) {
	q.latest.Store(e.Snap)
	if q.lost.Load() {
		// Resynchronize first: a Started with the newest snapshot stands
		// for everything dropped.
		select {
		case q.ch <- Event{Kind: Started, At: e.At, Snap: e.Snap}:
			q.lost.Store(false)
		default:
			q.dropped.Add(1)
			return
		}
		if e.Kind == Started {
			return
		}
	}
	select {
	case q.ch <- e:
	default:
		q.dropped.Add(1)
		q.lost.Store(true)
	}
}

func (q *queue) run() {
	defer close(q.done)
	for e := range q.ch {
		q.sink.Handle(e)
		q.delivered.Add(1)
	}
}

// close stops the queue after the events queued, waiting at most wait.
func (q *queue) close(wait time.Duration) bool {
	q.closeOnce.Do(func() { close(q.ch) })
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-q.done:
		return true
	case <-t.C:
		return false
	}
}

func (q *queue) stats() SinkStats {
	return SinkStats{Delivered: q.delivered.Load(), Dropped: q.dropped.Load(), Queued: len(q.ch)}
}
