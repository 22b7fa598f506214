package clock

import (
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Checkpoint is the clock between two moves, exactly enough to take it
// back after a restart (Restore): both sides' times and the time the side
// to move has used on its turn, at At. The journal's readings give the
// clock after each move; a checkpoint gives the thinking time since, which
// a restart would otherwise refund (issue 21).
type Checkpoint struct {
	// Reading holds both sides' times at At.
	Reading
	// TurnMS is the time the side to move has used on its turn (what a
	// delay is counted against).
	TurnMS int64 `json:"turn_ms"`
}

// Checkpoint is the clock at at, to keep (a standing Blame is counted as
// if it ended at at). It only reads.
func (c *Clock) Checkpoint(at time.Time) Checkpoint {
	at = c.clamp(at)
	n := *c
	n.endBlame(at)
	return Checkpoint{Reading: Reading{WhiteMS: c.Remaining(rules.White, at).Milliseconds(),
		BlackMS: c.Remaining(rules.Black, at).Milliseconds(), At: at.UTC()}, TurnMS: n.turnTime(at).Milliseconds()}
}

// Restore sets a paused clock (Rebuild's) to cp, taken after the last move
// Rebuild had and the changes before it: each side's time is cp's, and the
// side to move has used cp.TurnMS of its turn (so a delay is not given
// again). The clock stays paused. It refuses a running clock and negative
// times.
func (c *Clock) Restore(cp Checkpoint) error {
	if !c.started || !c.paused || c.stopped {
		return errors.New("clock: restore: want a paused clock (Rebuild's)")
	}
	if cp.WhiteMS < 0 || cp.BlackMS < 0 || cp.TurnMS < 0 {
		return fmt.Errorf("clock: restore: negative time in %d/%d ms, turn %d ms", cp.WhiteMS, cp.BlackMS, cp.TurnMS)
	}
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	other := c.turn.Other()
	c.used = ms(cp.TurnMS)
	c.base[other] = ms(cp.MS(other))
	c.base[c.turn] = ms(cp.MS(c.turn)) + c.charged(c.turn, c.used)
	return nil
}
