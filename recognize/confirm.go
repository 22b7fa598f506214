package recognize

import (
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// What completes a move the board shows (the confirmation policy): the
// settle window (settleFor, Recognizer.settle), the other side's reply
// (reply.go), a press of the mover's clock (Confirm, decidePress), or,
// for a move whose piece is still to be chosen, Choose or the next
// change.

// settleFor is the settle window of a move: longer when the same piece
// could still go further along its line.
func (r *Recognizer) settleFor(c candidate) time.Duration {
	if c.info.Board || c.info.Castle || c.info.Captured != rules.NoCell {
		return r.opts.Settle
	}
	ext, hasExt := r.pos.(interface {
		Extends(m, further rules.Move) bool
	})
	for _, o := range r.moves {
		if o.info.From != c.info.From || o.info.To == c.info.To || o.info.Board {
			continue
		}
		if !hasExt || ext.Extends(c.m, o.m) {
			return r.opts.SettleExtended
		}
	}
	return r.opts.Settle
}

// latePress is how long after a move was complete a press by its mover
// still counts as that move's, when something else completed it.
const latePress = time.Second

// pressState is what the recognizer knows of the clock presses.
type pressState struct {
	// waiting: a Confirm at at waits for the move it completes.
	waiting bool
	at      time.Time
	// before holds the reading before the last change when the press was
	// read with that change, and alt says it may be the board the press
	// confirmed (see decidePress).
	before reading
	alt    bool
	// seen: the side to move has pressed in this position.
	seen bool
	// owed, per side (by rules.Color): until then, a press still to come
	// for a move of theirs that the other side's lift or the settle
	// window completed is late, not one for their next move (a second
	// after the move was complete: a player who never pressed does not
	// lose every later press).
	owed [2]time.Time
}

// Confirm completes the move the board shows at once: call it when side
// presses their clock (after Observe of the same scan). A press by the
// side not to move is late (the other side's lift has already completed
// that move) and changes nothing. A promotion still to be chosen waits for
// Choose (NeedsChoice). When the board does not show a move yet, the press
// waits Opts.PressGrace for one; then a reading no legal move explains
// becomes a Mismatch at once.
func (r *Recognizer) Confirm(now time.Time, side rules.Color) []Event {
	r.evs = r.evs[:0]
	r.corr.open = false // a press, either side's, ends the move's correction
	if owed := &r.press.owed[side&1]; now.Before(*owed) || side != r.pos.Turn() {
		// The press of a move already completed (late, after the
		// other side's lift, or after a reply quicker than the press).
		*owed = time.Time{}
		r.step(now)
		return r.evs
	}
	r.press.seen = true
	if !r.haveReading || !r.unknown.Empty() {
		r.step(now)
		return r.evs
	}
	switch {
	case len(r.choice.pending) > 0:
		r.accept(now, r.choice.at, ByPress, r.choice.pending[0])
	case r.synced:
		r.press.at, r.press.waiting = now, true
		// Read with the last change (a scan that came late read both):
		// the press may have come before it.
		r.press.before, r.press.alt = r.before, now.Equal(r.changedAt) && !r.before.at.IsZero()
	}
	r.step(now)
	return r.evs
}

// decidePress handles a pending Confirm; it reports whether it decided.
func (r *Recognizer) decidePress(now time.Time) bool {
	// Every lift seen before any swap too fast to see; the board as it
	// stands before the other side's lifts since the move.
	for _, relaxed := range []bool{false, true} {
		if group, _ := r.bestFor(r.closed, r.lifted, relaxed); len(group) > 0 {
			r.press.waiting = false
			r.accept(now, r.changedAt, ByPress, group...)
			return true
		}
		if r.replyConfirms(now, rules.CellSet{}, relaxed, r.press.at) {
			r.press.waiting = false
			return true
		}
	}
	_, ambiguous := r.bestFor(r.closed, r.lifted, true)
	switch {
	case now.Sub(r.press.at) < r.opts.PressGrace:
		return false
	case r.press.alt && r.press.before.closed != r.expected && r.press.before.closed != r.closed:
		// Read in the same scan as the last change, the press may have
		// come first (the other side's first lift, read with it): the
		// board before that change, if it shows a move.
		r.press.alt = false
		for _, relaxed := range []bool{false, true} {
			if group, _ := r.bestFor(r.press.before.closed, r.press.before.lifted, relaxed); len(group) > 0 {
				r.press.waiting = false
				r.accept(now, r.press.before.at, ByPress, group...)
				return true
			}
		}
		return false
	case r.closed == r.expected || r.closed.Minus(r.expected).Empty() && r.liftsExplained(r.expected.Minus(r.closed)):
		// Nothing moved, or pieces only lifted (held in the hand, a reply
		// begun before a late press of the last move): nothing to
		// confirm.
		r.press.waiting = false
		return false
	case r.showsPrevious():
		r.press.waiting = false
		r.takeBack(now)
		return true
	}
	r.press.waiting = false
	if ambiguous == "" {
		ambiguous = "the clock was pressed, but no legal move leads to this"
	}
	r.mismatch(now, ambiguous)
	return true
}

// choiceState is a move completed on the board whose piece is still to
// be chosen: pending, the moves that differ only in it (the queen first),
// at, when the board came to show them, and list, their moves.
type choiceState struct {
	pending []candidate
	at      time.Time
	list    []rules.Move
}

// choiceWaits follows a move awaiting its piece: swapping the pawn for
// the new piece changes nothing, and it still waits (NeedsChoice), but the
// move is complete at the new piece's placement; any other change means
// the next move has begun and the default stands.
func (r *Recognizer) choiceWaits(now time.Time) bool {
	if len(r.choice.pending) == 0 {
		return false
	}
	diff := r.closed.Xor(r.choice.pending[0].after)
	if p := r.choice.pending[0].info.Promoted; p != rules.NoCell {
		diff.Remove(p)
	}
	if diff.Empty() {
		if p := r.choice.pending[0].info.Promoted; p != rules.NoCell && r.closed.Has(p) && r.changedAt.After(r.choice.at) {
			// The new piece set down on the promotion square (the pawn
			// swapped for it): the move is complete only now (FIDE
			// 4.6.3), and its time up to here is the mover's.
			r.choice.at = r.changedAt
		}
		r.setStatus(now, Status{State: NeedsChoice, Choices: r.choice.list})
		return true
	}
	r.accept(now, r.choice.at, ByLift, r.choice.pending[0])
	return false
}

// Choose picks the promotion piece ('Q', 'R', 'B', 'N') of the move
// awaiting it.
func (r *Recognizer) Choose(now time.Time, piece byte) ([]Event, error) {
	r.evs = r.evs[:0]
	if len(r.choice.pending) == 0 {
		return nil, errors.New("recognize: no promotion is waiting for a choice")
	}
	for _, c := range r.choice.pending {
		if c.info.PromoteTo == piece {
			r.accept(now, r.choice.at, ByChoice, c)
			r.step(now)
			return r.evs, nil
		}
	}
	return nil, fmt.Errorf("recognize: %q is not a promotion piece here (Q, R, B or N)", piece)
}

func (r *Recognizer) choices() []rules.Move {
	out := make([]rules.Move, len(r.choice.pending))
	for i, c := range r.choice.pending {
		out[i] = c.m
	}
	return out
}
