package recognize

import (
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// latePress is how long after a move was complete a press by its mover
// still counts as that move's, when something else completed it.
const latePress = time.Second

// Confirm completes the move the board shows at once: call it when side
// presses their clock (after Observe of the same scan). A press by the
// side not to move is late (the other side's lift has already completed
// that move) and changes nothing. A promotion still to be chosen waits for
// Choose (NeedsChoice). When the board does not show a move yet, the press
// waits Opts.PressGrace for one; then a reading no legal move explains
// becomes a Mismatch at once.
func (r *Recognizer) Confirm(now time.Time, side rules.Color) []Event {
	r.evs = r.evs[:0]
	r.amendOpen = false // a press, either side's, ends the move's correction
	if owed := &r.owed[side&1]; now.Before(*owed) || side != r.pos.Turn() {
		// The press of a move already completed (late, after the
		// other side's lift, or after a reply quicker than the press).
		*owed = time.Time{}
		r.step(now)
		return r.evs
	}
	r.pressSeen = true
	if !r.haveReading || !r.unknown.Empty() {
		r.step(now)
		return r.evs
	}
	switch {
	case len(r.pending) > 0:
		r.accept(now, r.pendingAt, ByPress, r.pending[0])
	case r.synced:
		r.pressedAt, r.pressed = now, true
		// Read with the last change (a scan that came late read both):
		// the press may have come before it.
		r.pressBefore, r.pressAlt = r.before, now.Equal(r.changedAt) && !r.before.at.IsZero()
	}
	r.step(now)
	return r.evs
}

// press handles a pending Confirm; it reports whether it decided.
func (r *Recognizer) press(now time.Time) bool {
	// Every lift seen before any swap too fast to see; the board as it
	// stands before the other side's lifts since the move.
	for _, relaxed := range []bool{false, true} {
		if group, _ := r.bestFor(r.closed, r.lifted, relaxed); len(group) > 0 {
			r.pressed = false
			r.accept(now, r.changedAt, ByPress, group...)
			return true
		}
		if r.replyConfirms(now, rules.CellSet{}, relaxed, r.pressedAt) {
			r.pressed = false
			return true
		}
	}
	_, ambiguous := r.bestFor(r.closed, r.lifted, true)
	n := len(r.history)
	switch {
	case now.Sub(r.pressedAt) < r.opts.PressGrace:
		return false
	case r.pressAlt && r.pressBefore.closed != r.expected && r.pressBefore.closed != r.closed:
		// Read in the same scan as the last change, the press may have
		// come first (the other side's first lift, read with it): the
		// board before that change, if it shows a move.
		r.pressAlt = false
		for _, relaxed := range []bool{false, true} {
			if group, _ := r.bestFor(r.pressBefore.closed, r.pressBefore.lifted, relaxed); len(group) > 0 {
				r.pressed = false
				r.accept(now, r.pressBefore.at, ByPress, group...)
				return true
			}
		}
		return false
	case r.closed == r.expected || r.closed.Minus(r.expected).Empty() && r.liftsExplained(r.expected.Minus(r.closed)):
		// Nothing moved, or pieces only lifted (held in the hand, a reply
		// begun before a late press of the last move): nothing to
		// confirm.
		r.pressed = false
		return false
	case r.opts.TakeBacks && n > 0 && r.closed == r.history[n-1].occ:
		r.pressed = false
		r.takeBack(now)
		return true
	}
	r.pressed = false
	if ambiguous == "" {
		ambiguous = "the clock was pressed, but no legal move leads to this"
	}
	r.mismatch(now, ambiguous)
	return true
}

// Choose picks the promotion piece ('Q', 'R', 'B', 'N') of the move
// awaiting it.
func (r *Recognizer) Choose(now time.Time, piece byte) ([]Event, error) {
	r.evs = r.evs[:0]
	if len(r.pending) == 0 {
		return nil, errors.New("recognize: no promotion is waiting for a choice")
	}
	for _, c := range r.pending {
		if c.info.PromoteTo == piece {
			r.accept(now, r.pendingAt, ByChoice, c)
			r.step(now)
			return r.evs, nil
		}
	}
	return nil, fmt.Errorf("recognize: %q is not a promotion piece here (Q, R, B or N)", piece)
}

func (r *Recognizer) choices() []rules.Move {
	out := make([]rules.Move, len(r.pending))
	for i, c := range r.pending {
		out[i] = c.m
	}
	return out
}
