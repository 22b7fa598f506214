package sensors_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sets"
)

// readings lists what Readings feeds after the last scan, as offsets from
// start and the cells of names that read closed.
func (r *rig) readings(start time.Time, names ...string) []string {
	var out []string
	r.sc.Readings(func(at time.Time, closed, _ rules.CellSet, _ uint64, _ time.Duration) {
		var on []string
		for _, n := range names {
			if closed.Intersect(cellSet(n)) == cellSet(n) {
				on = append(on, n)
			}
		}
		out = append(out, fmt.Sprintf("%v %v", at.Sub(start), on))
	})
	return out
}

// A scan that comes late stamps each change with when it was first read
// and stood the window, not with the late scan's time, and feeds the
// readings it went through in their order (issue 21: a late scan made a
// piece's rest on a square seem longer than it was).
func TestLateScanStampsReadings(t *testing.T) {
	r := newRig(t, sets.NewReference(), nil)
	r.run(40 * time.Millisecond)
	start := r.board.Clock.Now()
	r.do(r.board.Set.Place("b3W"))
	r.step(5 * time.Millisecond) // b3W read closed at +5 ms
	r.step(35 * time.Millisecond)
	if got := r.sc.Events(); len(got) != 1 || got[0].Time.Sub(start) != 35*time.Millisecond {
		t.Fatalf("events %v, want b3W at +35ms (read at +5ms, 30 ms of debounce)", got)
	}
	// b3W lifted at +45 ms, b4W placed at +50 ms; the loop stalls until
	// +140 ms and reads both at once; they stand at +170 ms, whatever the
	// stall that follows.
	r.board.Clock.Advance(5 * time.Millisecond)
	r.do(r.board.Set.Lift("b3W"))
	r.board.Clock.Advance(5 * time.Millisecond)
	r.do(r.board.Set.Place("b4W"))
	r.step(90 * time.Millisecond)
	snap := r.sc.Snapshot()
	// Credited half the gap beyond the period, at most half the window:
	// first read at +125 ms, due at +155 ms.
	if asOf := snap.AsOf.Sub(start); asOf != 140*time.Millisecond {
		t.Errorf("AsOf +%v with the change in its window, want the scan's +140ms", asOf)
	}
	r.step(100 * time.Millisecond)
	if got, want := r.readings(start, "b3W", "b4W"), []string{"155ms [b4W]", "240ms [b4W]"}; !slices.Equal(got, want) {
		t.Errorf("readings %q, want %q", got, want)
	}
	for _, e := range r.sc.Events() {
		if at := e.Time.Sub(start); at != 155*time.Millisecond || e.Gap != 100*time.Millisecond {
			t.Errorf("%v stamped +%v after a gap of %v, want +155ms (read at +140ms less half the window, then the "+
				"window) after 100ms", e, at, e.Gap)
		}
	}
}

// A piece set down between two late scans and read by one of them only
// counts when the gaps around that reading, credited by half, make the
// window (issue 21: a placement of 150 ms was lost); a glitch read between
// two scans on time never does.
func TestLateScanReadOnce(t *testing.T) {
	for _, tc := range []struct {
		before, after time.Duration // the gaps around the one reading
		want          []string
	}{
		{5 * time.Millisecond, 5 * time.Millisecond, nil},
		{40 * time.Millisecond, 10 * time.Millisecond, nil},
		{95 * time.Millisecond, 85 * time.Millisecond, []string{"b3W open -> closed", "15ms b3W closed -> open"}},
	} {
		t.Run(fmt.Sprintf("%v/%v", tc.before, tc.after), func(t *testing.T) {
			r := newRig(t, sets.NewReference(), nil) // nil: DefaultOpts()
			r.run(40 * time.Millisecond)
			r.board.Clock.Advance(tc.before - time.Millisecond)
			r.do(r.board.Set.Place("b3W"))
			r.step(time.Millisecond)
			r.board.Clock.Advance(tc.after - time.Millisecond)
			r.do(r.board.Set.Lift("b3W"))
			got := r.step(time.Millisecond)
			got = append(got, r.run(100*time.Millisecond)...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("events %q, want %q", got, tc.want)
			}
		})
	}
}
