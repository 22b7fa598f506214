package clock

import (
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Blame makes side's clock run from at instead of the side to move's,
// without a move: side caused a mismatch out of turn (it moved a piece
// again after its move was recognized: a move recognized too early, a
// change of mind), and a mismatch the mover caused is the mover's time
// (issue 21). The side to move's turn stands still meanwhile. The blame
// ends at Moved, TakeBack, Pause, Stop or Unblame (Add, Set and Illegal
// keep it): side is charged the time since at in full (no delay, no
// bonus). side's flag can fall meanwhile (FlagAt,
// Flagged). Blaming the side to move, or while a blame stands, changes
// nothing; a paused or stopped clock is refused.
func (c *Clock) Blame(at time.Time, side rules.Color) error {
	if side != rules.White && side != rules.Black {
		return fmt.Errorf("clock: blame: side %d: want white or black", side)
	}
	if !c.started {
		return fmt.Errorf("clock: blame: %w", ErrNotStarted)
	}
	at = c.clamp(at)
	if err := c.flagged("blame", at); err != nil {
		return err
	}
	if c.paused {
		return errors.New("clock: blame: the clock is paused")
	}
	if c.blaming || side == c.turn {
		return nil
	}
	c.used = c.turnTime(at)
	c.blaming, c.blamed, c.blameSince, c.last = true, side, at, at
	return nil
}

// Blamed reports the side a standing Blame charges.
func (c *Clock) Blamed() (rules.Color, bool) { return c.blamed, c.blaming }

// Unblame ends a Blame at at: the blamed side is charged the time since
// the blame began, and the side to move's clock runs again from at. Without
// a blame it does nothing. Refused once a flag has fallen.
func (c *Clock) Unblame(at time.Time) error {
	if !c.blaming {
		return nil
	}
	at = c.clamp(at)
	if err := c.flagged("unblame", at); err != nil {
		return err
	}
	c.endBlame(at)
	return nil
}

// endBlame charges the blamed side up to at (at least the last event) and
// gives the clock back to the side to move.
func (c *Clock) endBlame(at time.Time) {
	if !c.blaming {
		return
	}
	d := max(0, at.Sub(c.blameSince))
	c.base[c.blamed] = max(0, c.base[c.blamed]-d)
	c.blaming = false
	c.since, c.last = at, at
}
