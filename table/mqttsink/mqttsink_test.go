package mqttsink_test

import (
	"errors"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/mqttsink"
)

// outbox is a Publisher whose Enqueue fails while broken, and keeps the
// moves in order as the real outbox does (a known seq is a no-op, a gap is
// refused).
type outbox struct {
	mu     sync.Mutex
	broken int // the next broken calls fail
	moves  []mqtt.Move
	states int
}

func (o *outbox) Enqueue(m mqtt.Move) error {
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
func (o *outbox) PublishState(mqtt.State) { o.mu.Lock(); o.states++; o.mu.Unlock() }
func (o *outbox) PublishEvent(mqtt.Event) {}

func (o *outbox) seqs() []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	var s []int
	for _, m := range o.moves {
		s = append(s, m.Seq)
	}
	return s
}

// snapshots of a game of n moves, one after each move.
func snapshots(t *testing.T, n int) []*table.Snapshot {
	pos := st3d.Start()
	var moves []game.Move
	var out []*table.Snapshot
	for i := 0; i < n; i++ {
		m := pos.LegalMoves(nil)[0]
		moves = append(moves, game.Move{Seq: i + 1, Game: "g", Move: pos.Long(m), SAN: pos.Short(m)})
		pos = pos.Play(m)
		out = append(out, &table.Snapshot{Game: "g", System: st3d.System, Start: st3d.Start(), Position: pos,
			Expected: pos, Moves: append([]game.Move(nil), moves...), Result: rules.NoResult})
	}
	return out
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
	snaps := snapshots(t, 8)
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
	more := snapshots(t, 9)
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
	snaps := snapshots(t, 5)
	s.Handle(table.Event{Kind: table.Started, Snap: snaps[4]})
	if got := ob.seqs(); len(got) != 5 || ob.states != 1 {
		t.Errorf("after Started: seqs %v, %d states", got, ob.states)
	}
}

func TestState(t *testing.T) {
	snap := snapshots(t, 2)[1]
	st := mqttsink.State(snap)
	if st.Game != "g" || st.Variant != "st3d" || len(st.Moves) != 2 || st.LastMove.Seq != 2 || st.Board.Status != mqtt.BoardInSync ||
		st.Result != "*" || st.Start != "" || st.MoveNumber != 2 {
		t.Errorf("state %+v", st)
	}
}

// The state carries the record's tags (Site and Date too) and, when every
// move has one, the mover's clock after each move, so that a display that
// joins late writes the record the export writes (issue 25).
func TestStateRecordFields(t *testing.T) {
	snap := snapshots(t, 3)[2]
	snap.Tags = game.Tags{White: "Kirk", Black: "Spock", Site: "hall", Date: "2026.12.03", Event: "Open", Round: "2"}
	st := mqttsink.State(snap)
	if want := map[string]string{"White": "Kirk", "Black": "Spock", "Site": "hall", "Date": "2026.12.03", "Event": "Open", "Round": "2"}; !maps.Equal(st.Tags, want) {
		t.Errorf("tags %v, want %v", st.Tags, want)
	}
	if st.ClkMS != nil {
		t.Errorf("moves without clocks: clk_ms %v", st.ClkMS)
	}
	for i := range snap.Moves {
		ms := int64(170000 - i*1000)
		snap.Moves[i].ClkMS = &ms
	}
	if st := mqttsink.State(snap); !slices.Equal(st.ClkMS, []int64{170000, 169000, 168000}) {
		t.Errorf("clk_ms %v", st.ClkMS)
	}
	snap.Moves[1].ClkMS = nil
	if st := mqttsink.State(snap); st.ClkMS != nil {
		t.Errorf("a move without its clock: clk_ms %v, want none", st.ClkMS)
	}
}
