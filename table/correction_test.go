package table_test

import (
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/table"
)

// moveList is the long forms of the game's record.
func (r *rig) moveList() []string {
	var out []string
	for _, m := range r.tb.Snapshot().Moves {
		out = append(out, m.Move)
	}
	return out
}

// A change of mind (issue 21): White's pawn rests 700 ms on b3W (the
// settle window publishes b2W-b3W), then goes on to b4W. The table
// publishes one Corrected event (b2W-b3W withdrawn, b2W-b4W made with the
// next seq), the record never holds b2W-b3W, the journal replays the
// corrected game after a restart, and the clock charges White from the
// start of the turn to b4W (Black's clock never ran for b2W-b3W).
func TestChangeOfMindIsPublishedAndJournaled(t *testing.T) {
	r := newClockRig(t, "300")
	m := newModel("300", r.clockStarted())
	r.run(2 * time.Second) // White thinks
	r.act("lift b2W", "wait 100", "place b3W", "wait 700")
	r.drain()
	if got := r.rec.moves(); !slices.Equal(got, []string{"b2W-b3W"}) {
		t.Fatalf("after the rest: published %q, want b2W-b3W", got)
	}
	r.act("lift b3W", "wait 150", "place b4W")
	r.run(time.Second)
	r.drain()
	e, ok := r.event(table.Corrected)
	if !ok {
		t.Fatalf("no correction: %s", r.rec.kinds())
	}
	if e.Withdrawn.Move != "b2W-b3W" || e.Move.Move != "b2W-b4W" || e.Move.Seq != 2 || e.Withdrawn.Seq != 1 {
		t.Fatalf("correction of %+v to %+v", e.Withdrawn, e.Move)
	}
	if got := r.moveList(); !slices.Equal(got, []string{"b2W-b4W"}) {
		t.Fatalf("record %q, want b2W-b4W", got)
	}
	m.moved(e.Move.Time)
	r.check(m, "after the correction")
	r.play("b7B-b6B")
	m.moved(r.lastMove().Time)
	r.check(m, "after Black's reply")
	if err := r.tb.Close(); err != nil {
		t.Fatal(err)
	}
	r.open()
	if got := r.moveList(); !slices.Equal(got, []string{"b2W-b4W", "b7B-b6B"}) {
		t.Fatalf("after a restart the record is %q", got)
	}
}

// With corrections off (touch-move tournaments), the first move stands:
// the rest on b3W is b2W-b3W and going on is an illegal move to fix.
func TestChangeOfMindOff(t *testing.T) {
	r := newRig(t, func(o *table.Opts) { o.Recognize.Correction = 0 })
	r.act("lift b2W", "wait 100", "place b3W", "wait 700", "lift b3W", "wait 150", "place b4W")
	r.run(3 * time.Second)
	r.drain()
	if got := r.moveList(); !slices.Equal(got, []string{"b2W-b3W"}) {
		t.Fatalf("record %q, want b2W-b3W", got)
	}
	if _, ok := r.event(table.Corrected); ok {
		t.Fatal("a correction with corrections off")
	}
	if _, ok := r.event(table.Illegal); !ok {
		t.Fatalf("no illegal move: %s", r.rec.kinds())
	}
}
