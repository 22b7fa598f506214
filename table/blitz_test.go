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
		t.Fatalf("published %q, want %q (board %s %q)", got, want, r.tb.Snapshot().Status.State, r.tb.Snapshot().Status.Reason)
	}
}

// A piece set down on its way (115 ms) mid-game in First Contact, where a
// reserve piece can be put on any vacant square: the placement on its
// target could be taken for the other side's placement after a move to
// the touch-down square, and the touch-down square's opening for the
// mover's next lift. That order (the lift before the placement it would
// follow) is no chain: the move is the one to the target.
func TestFirstContactTouchDownIsNoChain(t *testing.T) {
	sys, err := systems.ByName("first-contact")
	if err != nil {
		t.Fatal(err)
	}
	r := newSystemRig(t, sys)
	r.playGame([]string{"@KL5u", "@QL5d", "@QL3u", "@KL5d", "K@a1W", "K@c5B", "R@d1W", "Q@a5B", "B@a3W",
		"KL5u-KL6d", "d1W-c1W", "N@a7B", "B@d2W", "N@a6B", "R@b3W", "a7B-a5QL5d", "P@a4W", "B@b6B", "N@d3W",
		"B@a7B", "P@b4W", "R@d7B", "Q@d4W", "d7B-d5B", "KL5d-QL5u", "d5B-d8B", "d3W-b2W", "d8B-d5B", "P@c3W",
		"P@c8B", "N@d3W", "d5B-d7B", "c1W-c2W", "QL3u-KL3d", "d3W-d4N", "c8B-c7B", "KL6d-KL5u", "R@d6B",
		"d4N-b3N", "KL3d-KL3u", "b2W-c4W", "QL5u-KL5d", "KL3u-KL3d", "c7B-c8B", "a3W-c1W", "b6B-c7B", "P@b1W",
		"P@a8B", "c2W-a2W", "KL5u-KL6d", "c3W-c2W", "a7B-b8B", "d4W-d3W", "P@b7B", "b3N-d4N", "a6B-a4QL5d",
		"d4N-d5B", "a8B-a7B"})
	for _, step := range []struct {
		wait        time.Duration
		open, close string
	}{
		{0, "d5B", ""}, {90 * time.Millisecond, "", "c5N"}, {115 * time.Millisecond, "c5N", ""},
		{90 * time.Millisecond, "", "b6B"},
	} {
		r.run(step.wait)
		r.touch(step.open, step.close)
	}
	r.run(time.Second)
	r.drain()
	if got := r.rec.moves(); len(got) != 59 || got[58] != "d5B-b6B" {
		t.Fatalf("published %q after the game, want d5B-b6B (board %s %q)", got[58:], r.tb.Snapshot().Status.State,
			r.tb.Snapshot().Status.Reason)
	}
}
