package engine

import (
	"time"
)

// TimeLeft is the engine's side of a chess clock when it is to move: what
// its time management allots a move from.
type TimeLeft struct {
	// Left is the time on its clock now.
	Left time.Duration
	// Inc is what each move gives back: a Fischer increment, a Bronstein
	// delay, or a simple delay (the clock waits that long before it counts
	// down); 0 for sudden death.
	Inc time.Duration
	// MovesToGo is the number of moves it has to make before its clock
	// gets more time (a control "40/5400"); 0 when the time on the clock is
	// for the rest of the game.
	MovesToGo int
	// Overhead is the time each move costs besides the search: the search
	// overrunning its budget until its next look at the clock, and the
	// time between the search's end and the clock's press. It is reserved
	// for every move to go. 0 is DefaultOverhead.
	Overhead time.Duration
}

// DefaultOverhead is TimeLeft.Overhead when none is given: a press of the
// clock by command, and a search on a Raspberry Pi Zero 2 W overrunning by
// ClockCheckEvery nodes (a few milliseconds), with room to spare.
const DefaultOverhead = 100 * time.Millisecond

// ClockCheckEvery is CheckEvery of a search on a clock: short enough that
// a search at the reserve (a budget of a millisecond) costs next to
// nothing even on a slow board; reading the clock every 16 nodes costs
// well under 1 % of the search.
const ClockCheckEvery = 16

// horizon is the number of moves sudden death plans for: every move may
// spend 1/horizon of what is left above the reserve, so the time left
// shrinks geometrically and never runs out, however long the game.
const horizon = 30

// Allot is the time to think about this move: the time above the reserve
// of the remaining moves (Overhead for each of the moves to go, the
// horizon's in sudden death), spread over the moves to go, plus most of
// the increment, and never more than half of what is above the reserve, so
// the clock never falls under what the remaining moves need. It is 0 when
// the clock is already at the reserve: the engine then plays at once.
func (t TimeLeft) Allot() time.Duration {
	over := t.Overhead
	if over <= 0 {
		over = DefaultOverhead
	}
	mtg := t.MovesToGo
	if mtg <= 0 || mtg > horizon {
		mtg = horizon
	}
	spare := t.Left - time.Duration(mtg)*over
	if spare <= 0 {
		return 0
	}
	a := spare/time.Duration(mtg) + t.Inc*3/4
	if mtg == 1 {
		// The last move before the control: the reserve is this move's.
		a = spare / 2
	}
	return min(a, spare/2)
}

// ClockOpts are level l's search options for a move on a clock: the
// level's own bounds (depth, nodes and its time, which is never exceeded)
// with the time t allots when it is shorter. The search then looks at the
// clock every ClockCheckEvery nodes.
func (l Level) ClockOpts(now func() time.Time, seed uint64, t TimeLeft) Opts {
	o := l.Opts(now, seed)
	a := max(t.Allot(), time.Millisecond) // 0 would be no bound: stop at the first look
	if o.Time == 0 || a < o.Time {
		o.Time = a
	}
	o.CheckEvery = ClockCheckEvery
	return o
}
