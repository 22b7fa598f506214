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

// A Sink that is also a Closer is closed by Table.Close, once it has
// handled its last event: what it owns (an LED writer, a display) goes with
// the table, and the daemon wires a sink in one line.
type Closer interface {
	Close() error
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

// queue feeds one sink from its own goroutine. When the sink falls so far
// behind that its queue is full, events are dropped until it has caught up;
// it then gets a Started event with the newest snapshot, and the events
// after it, so what it sees after a Started is never missing a step.
type queue struct {
	sink   Sink
	ch     chan Event
	wake   chan struct{}
	lost   atomic.Bool // events were dropped: send Started when caught up
	latest atomic.Pointer[Snapshot]
	done   chan struct{}

	accepted, delivered, dropped atomic.Uint64
	closeOnce                    sync.Once
}

func newQueue(s Sink, n int) *queue {
	q := &queue{sink: s, ch: make(chan Event, n), wake: make(chan struct{}, 1), done: make(chan struct{})}
	go q.run()
	return q
}

// put queues e, or drops it when the queue is full or the sink has not yet
// caught up after a loss. It never blocks.
func (q *queue) put(e Event) {
	q.latest.Store(e.Snap)
	if !q.lost.Load() {
		select {
		case q.ch <- e:
			q.accepted.Add(1)
			return
		default:
		}
	}
	q.dropped.Add(1)
	q.lost.Store(true)
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) handle(e Event) {
	q.sink.Handle(e)
	q.delivered.Add(1)
}

func (q *queue) run() {
	defer close(q.done)
	for {
		select {
		case e, ok := <-q.ch:
			if !ok {
				return
			}
			q.handle(e)
			continue
		default:
		}
		// Caught up: after a loss, the whole table again.
		if q.lost.Load() {
			q.accepted.Add(1)
			q.lost.Store(false)
			snap := q.latest.Load()
			q.handle(Event{Kind: Started, At: snap.Time, Snap: snap})
			continue
		}
		select {
		case e, ok := <-q.ch:
			if !ok {
				return
			}
			q.handle(e)
		case <-q.wake:
		}
	}
}

// idle reports whether the sink has handled every event it accepted and
// owes it no Started.
func (q *queue) idle() bool { return q.delivered.Load() == q.accepted.Load() && !q.lost.Load() }

// close stops the queue after the events queued, waiting at most wait.
// close ends the queue, waits (at most wait) for the sink to handle the
// events queued, then closes a sink that is a Closer. It reports whether the
// sink finished in time; the error is the sink's Close's.
func (q *queue) close(wait time.Duration) (bool, error) {
	q.closeOnce.Do(func() { close(q.ch) })
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-q.done:
	case <-t.C:
		return false, nil
	}
	if c, ok := q.sink.(Closer); ok {
		return true, c.Close()
	}
	return true, nil
}

func (q *queue) stats() SinkStats {
	return SinkStats{Delivered: q.delivered.Load(), Dropped: q.dropped.Load(), Queued: len(q.ch)}
}
