package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules/st3d"
)

// The time a move gets (issue 24): from the time left above the reserve
// of the remaining moves, the increment and the moves to go; never so
// much that the clock falls under the reserve, and 0 at the reserve.
func TestAllot(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	for _, tc := range []struct {
		name string
		tl   engine.TimeLeft
		want time.Duration
	}{
		// 60 s sudden death: (60 s - 30 x 100 ms) / 30.
		{"sudden death", engine.TimeLeft{Left: 60 * s}, 1900 * ms},
		// 180+2: 177 s / 30 + 1.5 s.
		{"increment", engine.TimeLeft{Left: 180 * s, Inc: 2 * s}, 5900*ms + 1500*ms},
		// 40/5400 with 10 moves to go: (5400 s - 1 s) / 10.
		{"moves to go", engine.TimeLeft{Left: 5400 * s, MovesToGo: 10}, 539900 * ms},
		// The last move before the control: half of what is above its own
		// overhead.
		{"last move of a period", engine.TimeLeft{Left: 10 * s, MovesToGo: 1}, 4950 * ms},
		// Little time and a big increment: never more than half the spare.
		{"increment above the spare", engine.TimeLeft{Left: 4 * s, Inc: 5 * s}, 500 * ms},
		{"at the reserve", engine.TimeLeft{Left: 3 * s}, 0},
		{"under the reserve", engine.TimeLeft{Left: 1 * s, Inc: 2 * s}, 0},
		{"own overhead", engine.TimeLeft{Left: 60 * s, Overhead: 500 * ms}, 1500 * ms},
	} {
		if got := tc.tl.Allot(); got != tc.want {
			t.Errorf("%s: Allot(%+v) = %v, want %v", tc.name, tc.tl, got, tc.want)
		}
	}
}

// On a clock a level keeps its node budget and depth, and thinks the
// shorter of its own time and the time allotted (issue 24).
func TestClockOpts(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		level int
		left  time.Duration
		want  time.Duration
	}{
		{6, 900 * s, 20 * s}, // its own 20 s is shorter than the 29.9 s allotted
		{6, 60 * s, 1900 * time.Millisecond},
		{3, 600 * s, 19900 * time.Millisecond}, // no time of its own: the allotted
		{6, 2 * s, time.Millisecond},           // at the reserve: a millisecond, the first look at the clock
	} {
		l := engine.Levels[tc.level]
		o := l.ClockOpts(nil, 1, engine.TimeLeft{Left: tc.left})
		if o.Time != tc.want || o.Nodes != l.Nodes || o.Depth != l.Depth || o.CheckEvery != engine.ClockCheckEvery {
			t.Errorf("level %d with %v left: %+v, want time %v and the level's bounds", tc.level, tc.left, o, tc.want)
		}
	}
}

// One score for one result (issue 24): whatever bound stops a search, the
// last iteration it reports is its result: the same depth, score, bound
// and move, its variation starting with the move.
func TestLastIterationIsTheResult(t *testing.T) {
	for _, nodes := range []int64{50, 700, 3000, 9000, 40000} {
		var last engine.Iteration
		o := engine.Opts{Nodes: nodes, OnIteration: func(it engine.Iteration) { last = it }}
		res, err := engine.Search(context.Background(), st3d.Start(), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Depth == 0 {
			continue // nothing reported: analyse prints the result's own line
		}
		if last.Depth != res.Depth || last.Score != res.Score || last.LowerBound != res.LowerBound ||
			len(last.PV) == 0 || last.PV[0] != res.Move || last.SelDepth < last.Depth {
			t.Errorf("%d nodes: last iteration %+v, result %+v", nodes, last, res)
		}
	}
}
