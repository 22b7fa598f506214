package table_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sim"
)

// touch applies one instant of a hand: the cells named in open read open,
// those in close read closed (space-separated names of the table's cells).
func (r *rig) touch(open, close string) {
	r.t.Helper()
	cells := r.tb.Snapshot().Cells()
	set := func(names string) rules.CellSet {
		var s rules.CellSet
		for _, n := range strings.Fields(names) {
			i := slices.Index(cells, n)
			if i < 0 {
				r.t.Fatalf("no cell %s", n)
			}
			s.Add(rules.Cell(i))
		}
		return s
	}
	if err := r.b.Set.Apply(sim.Touch{Open: set(open), Close: set(close)}); err != nil {
		r.t.Fatal(err)
	}
}

// First Contact's opening at blitz pace (BenchmarkTableHand lost it): each
// platform and king set down as soon as the last one was, so that a
// placement, which lifts nothing, is confirmed by the other side's
// placement; then Black's king put down in the instant White lifts a
// platform (a placement and the next lift in one reading), and a reply
// lift that is a platform, not a piece.
func TestFirstContactPlacementsAtBlitzPace(t *testing.T) {
	sys, err := systems.ByName("first-contact")
	if err != nil {
		t.Fatal(err)
	}
	r := newSystemRig(t, sys)
	for _, step := range []struct {
		wait        time.Duration
		open, close string
	}{
		{300 * time.Millisecond, "", "KL4u"}, {95 * time.Millisecond, "", "KL6u"}, {290 * time.Millisecond, "", "KL2d"},
		{190 * time.Millisecond, "", "KL5d"}, {145 * time.Millisecond, "", "a3W"}, {200 * time.Millisecond, "KL2d", "d7B"},
		{95 * time.Millisecond, "", "KL1u"},
	} {
		r.run(step.wait)
		r.touch(step.open, step.close)
	}
	r.run(time.Second)
	r.drain()
	want := []string{"@KL4u", "@KL6u", "@KL2d", "@KL5d", "K@a3W", "K@d7B", "KL2d-KL1u"}
	if got := r.rec.moves(); !slices.Equal(got, want) {
		t.Fatalf("published %q, want %q (board %s %q)", got, want, r.tb.Snapshot().Status.State, r.tb.Snapshot().Status.Hint)
	}
}
