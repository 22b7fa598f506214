package table_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sim"
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

// A change of mind read in one scan (issue 33), through the table in every
// system: the moved piece lifted again and put on another legal square in
// the same scan (or 3 ms apart) is one Corrected event, the record holds
// the new move alone and the set is in sync, as when the hand is slower.
func TestChangeOfMindInOneScanThroughTheTable(t *testing.T) {
	for _, tc := range []struct {
		system, position    string // "" the start
		from, first, then   string
		firstMove, thenMove string
	}{
		{"st3d", "", "a1W", "b3W", "b3N", "a1W-b3W", "a1W-b3N"},
		{"millennium", "", "1b1", "1c3", "1a3", "1b1-1c3", "1b1-1a3"},
		{"first-contact", "QL1u:-,QL1d:-,QL2u:-,QL2d:- Ka1W,ka5B w - - - 0 4 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -",
			"a1W", "a2W", "b1W", "a1W-a2W", "a1W-b1W"},
	} {
		for _, gap := range []time.Duration{0, 3 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s %v", tc.system, gap), func(t *testing.T) {
				sys, err := systems.Lookup(tc.system, "")
				if err != nil {
					t.Fatal(err)
				}
				r := newSystemRig(t, sys)
				if tc.position != "" {
					if _, err := r.tb.Exec(table.NewGame{Position: tc.position}); err != nil {
						t.Fatal(err)
					}
					r.setup()
					r.run(time.Second)
				}
				r.act("lift "+tc.from, "wait 100", "place "+tc.first, "wait 700")
				r.drain()
				if got := r.rec.moves(); !slices.Equal(got, []string{tc.firstMove}) {
					t.Fatalf("after the rest: %q, want %s", got, tc.firstMove)
				}
				// The lift and the placement between two scans.
				for _, a := range []string{"lift " + tc.first, "place " + tc.then} {
					act, _, err := sim.ParseAction(a)
					if err != nil {
						t.Fatal(err)
					}
					if err := r.b.Set.Do(act); err != nil {
						t.Fatal(err)
					}
					r.b.Clock.Advance(gap)
				}
				r.run(2 * time.Second)
				r.drain()
				e, ok := r.event(table.Corrected)
				if !ok || e.Withdrawn.Move != tc.firstMove || e.Move.Move != tc.thenMove {
					t.Fatalf("no correction to %s: %s", tc.thenMove, r.rec.kinds())
				}
				if got := r.moveList(); !slices.Equal(got, []string{tc.thenMove}) {
					t.Fatalf("record %q, want %s", got, tc.thenMove)
				}
				if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
					t.Fatalf("the set is %s after the correction", st)
				}
			})
		}
	}
}
