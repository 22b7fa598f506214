package mqttsink_test

import (
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/mqttsink"
	"github.com/tridboard/tridboard/table/tabletest"
)

// outbox is a Publisher whose Enqueue fails while broken, and keeps the
// moves in order as the real outbox does (a known seq is a no-op, a gap is
// refused).
type outbox struct {
	mu     sync.Mutex
	broken int // the next broken calls fail
	moves  []protocol.Move
	states int
}

func (o *outbox) Enqueue(m protocol.Move) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken > 0 {
		o.broken--
		return errors.New("disk full")
	}
	if n := len(o.moves); m.Seq <= n {
		return nil
	} else if m.Seq != n+1 {
		return errors.New("gap")
	}
	o.moves = append(o.moves, m)
	return nil
}
func (o *outbox) PublishState(protocol.State) { o.mu.Lock(); o.states++; o.mu.Unlock() }
func (o *outbox) PublishEvent(protocol.Event) {}

func (o *outbox) seqs() []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	var s []int
	for _, m := range o.moves {
		s = append(s, m.Seq)
	}
	return s
}

// An outbox whose writes fail for a while and then work: every move
// arrives, in order, without a restart.
func TestOutboxFailsThenWorks(t *testing.T) {
	ob := &outbox{broken: 5}
	ticks := make(chan time.Time)
	o := mqttsink.DefaultOpts()
	o.After = func(time.Duration) <-chan time.Time { return ticks }
	o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	s := mqttsink.New(ob, &o)
	defer s.Close()
	snaps := tabletest.Snapshots(8)
	for i, snap := range snaps {
		m := snap.Moves[i]
		s.Handle(table.Event{Kind: table.Moved, Snap: snap, Move: &m})
	}
	if !s.Failing() {
		t.Fatal("the sink does not know the outbox failed")
	}
	// Each retry (a tick of the injected clock) tries again, until the
	// outbox works.
	for deadline := time.Now().Add(5 * time.Second); s.Failing(); {
		select {
		case ticks <- time.Now():
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the sink never caught up")
		}
	}
	got := ob.seqs()
	if len(got) != 8 {
		t.Fatalf("outbox holds seqs %v, want 1..8", got)
	}
	for i, s := range got {
		if s != i+1 {
			t.Fatalf("outbox holds seqs %v, want 1..8 in order", got)
		}
	}
	// Moves after the outage go straight in.
	more := tabletest.Snapshots(9)
	m := more[8].Moves[8]
	s.Handle(table.Event{Kind: table.Moved, Snap: more[8], Move: &m})
	if got := ob.seqs(); len(got) != 9 {
		t.Errorf("after recovery: %v", got)
	}
}

// A Started event (a start-up, or a sink that missed events) enqueues the
// whole game again: a crash between the journal and the outbox loses
// nothing.
func TestStartedCatchesUp(t *testing.T) {
	ob := &outbox{}
	s := mqttsink.New(ob, nil)
	defer s.Close()
	snaps := tabletest.Snapshots(5)
	s.Handle(table.Event{Kind: table.Started, Snap: snaps[4]})
	if got := ob.seqs(); len(got) != 5 || ob.states != 1 {
		t.Errorf("after Started: seqs %v, %d states", got, ob.states)
	}
}
