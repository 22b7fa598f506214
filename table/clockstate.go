package table

import (
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// clockState is the table's part of the clock.
type clockState struct {
	clk *clock.Clock // nil: the game has no clock
	// resumed is set by openGame: the game was resumed from its journal.
	resumed bool
	// restartPaused: paused since a restart, until someone resumes it.
	restartPaused bool
	// stopped: the game is over; the clock stands.
	stopped bool
	low     [2]bool
	buttons bool // clock buttons are wired: they start the clock
	// waitMove: the new game began on a set already standing in its start
	// position (standing): the clock waits for White's first move (or a
	// press, or the arbiter's resume), not for the set to show it.
	waitMove bool
	// undecided: the new game began before the set was read whole; its
	// first complete reading decides waitMove (settleStanding).
	undecided bool
	// saved is when the clock was last kept beside the journal (clockSave).
	saved time.Time
	// offSync is when the set last left the expected position: where a
	// blame for a mismatch begins (clockIllegal).
	offSync time.Time
	// choicePress is the press that completed a promotion still waiting
	// for its piece: the clock stopped there, whenever the piece is
	// chosen.
	choicePress time.Time
	// idle is a press without a move waiting for its grace (idlePress).
	idle *idlePress
}

// completedAt is when the move of e was physically completed: the time of
// the last settled cell change that made it, never the end of the settle
// window, so that recognition's latency is never charged to the mover.
//
// recognize.Event.CompletedAt is that time (At is when the move was
// decided); an event without it (a take-back) counts at At. A move a clock
// press completed counts at the press (At), as on any chess clock: the
// mover's time runs until the press, however long after letting go of the
// piece (or, for a press that came first, until the board showed it).
func completedAt(e recognize.Event) time.Time {
	if e.By == recognize.ByPress || e.CompletedAt.IsZero() {
		return e.At
	}
	return e.CompletedAt
}

// snapshot is the clock at now for a Snapshot; nil for a game without a
// clock.
func (c *clockState) snapshot(now time.Time) *clock.Snapshot {
	if c.clk == nil {
		return nil
	}
	s := c.clk.Snapshot(now)
	return &s
}

// moveTime is when the move of e counts on the clock: its completion
// (completedAt), or, for a promotion whose piece was chosen after the press
// that completed it, that press. The press is then forgotten.
func (c *clockState) moveTime(e recognize.Event) time.Time {
	at := completedAt(e)
	if e.By == recognize.ByChoice && !c.choicePress.IsZero() {
		at = c.choicePress
	}
	c.choicePress = time.Time{}
	return at
}

// wentLow reports, for each side, whether its time went under the
// low-time threshold since the last call, at now (a side whose time is
// back over it, an arbiter's addition, is warned again when it goes
// under). It allocates nothing.
func (c *clockState) wentLow(now time.Time) (low [2]bool) {
	for _, side := range [2]rules.Color{rules.White, rules.Black} {
		if l := c.clk.Low(side, now); l != c.low[side] {
			c.low[side], low[side] = l, l
		}
	}
	return low
}

// idleDue returns the press without a move (idlePress) whose grace is
// over by now, and forgets it; nil while there is none, or it is in its
// grace.
func (c *clockState) idleDue(now time.Time, grace time.Duration) *idlePress {
	p := c.idle
	if p == nil || now.Sub(p.at) < grace {
		return nil
	}
	c.idle = nil
	return p
}
