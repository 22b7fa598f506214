package recognize

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// A change of mind (issue 21): a move the settle window completed stays
// open to correction by its mover (Opts.Correction) until the other side
// acts. While the board still shows it, the first change decides: the
// moved piece lifted again, and nothing else, reopens the move (the
// position before it is expected again, the piece in the hand), and so
// does the piece lifted and put on another square it could have gone to,
// read in one scan (movedOn: issue 33); anything
// else, a press, EndCorrection or the end of Opts.Correction closes it.
// Reopened, the piece put on another legal square is a Corrected event
// (once it is complete, as any move: settled, the other side's lift, a
// press), put back on the move's square is the move again (no event), put
// back where it came from is a take-back; the other side lifting a piece
// of theirs before the piece is put down again restores the move (it was their
// reply: a recapture lifts the piece just moved first); once the piece
// was put down (it may rock as the hand lets go), their lift confirms the
// correction instead.

// correction is the state of the last move's change of mind. open: the
// move, completed by the settle window, may still be corrected until until,
// while to (the cell its piece went to) is the first to change. reopened:
// its piece is lifted again and the position is the one before it, the
// move withdrawn (and after the position it led to) until a move replaces
// it, a take-back, or the other side's lift restores it; placed: a piece
// was put down since the move was reopened.
type correction struct {
	open      bool
	until     time.Time
	to        rules.Cell
	reopened  bool
	placed    bool
	withdrawn played
	after     rules.Position
}

// correctable reports whether a move can be corrected: a piece moved from
// one square to another (not a board, a castling, a placement or a
// promotion, whose choice is a correction of its own).
func correctable(in rules.MoveInfo) bool {
	return in.From != rules.NoCell && in.To != rules.NoCell && !in.Board && !in.Castle && !in.Promotion &&
		in.PromoteTo == 0
}

// EndCorrection closes the last move's correction: the other side acted
// (a command). A reopened move is restored.
func (r *Recognizer) EndCorrection(now time.Time) []Event {
	r.evs = r.evs[:0]
	r.corr.open = false
	if r.corr.reopened {
		r.restore()
		r.step(now)
	}
	return r.evs
}

// amend follows the correction window after a reading.
func (r *Recognizer) amend(now time.Time) {
	if r.corr.reopened {
		// Their lift while the piece is still in the hand: the move was
		// not reopened, its piece was lifted as their victim. Once the
		// piece is down again, their lift confirms that as it would any
		// move.
		if !r.closed.Minus(r.expected).Empty() {
			r.corr.placed = true
		}
		// (Once their lift has stood Opts.Skew: contact bounce can delay
		// the piece's placement by a scan or two.)
		if !r.corr.placed && now.Sub(r.changedAt) >= r.opts.Skew && !r.theirLifts().Empty() {
			r.restore()
		}
		return
	}
	if !r.corr.open {
		return
	}
	switch {
	case !now.Before(r.corr.until) || !r.synced || len(r.choice.pending) > 0 || !r.unknown.Empty():
		r.corr.open = false
	case r.closed == r.expected:
	case r.closed.Union(rules.CellSetOf(r.corr.to)) == r.expected && len(r.history) > 0:
		r.reopen(now)
	case r.movedOn():
		// The lift and the new placement read in one scan (a quick
		// hand, a scan late under load): the same change of mind.
		r.reopen(now)
	default:
		r.corr.open = false
	}
}

// movedOn reports whether the reading is the moved piece lifted again and
// put on another square in one change: the move's square open, one other
// cell closed, and a move of the same piece from where it came to that
// cell is legal and correctable in the position before it.
func (r *Recognizer) movedOn() bool {
	n := len(r.history)
	if n == 0 || r.expected.Minus(r.closed) != rules.CellSetOf(r.corr.to) {
		return false
	}
	added := r.closed.Minus(r.expected)
	if added.Len() != 1 {
		return false
	}
	prev := r.history[n-1]
	from := prev.pos.Info(prev.m).From
	for _, m := range prev.pos.LegalMoves(nil) {
		if in := prev.pos.Info(m); in.From == from && added.Has(in.To) && in.Captured == rules.NoCell && correctable(in) {
			return true
		}
	}
	return false
}

// theirLifts are the cells holding a piece of the side not to move that
// read open.
func (r *Recognizer) theirLifts() rules.CellSet {
	var out rules.CellSet
	other := r.pos.Turn().Other()
	r.cellBuf = r.expected.Minus(r.closed).Cells(r.cellBuf[:0])
	for _, c := range r.cellBuf {
		if pc, ok := r.pos.CellPiece(c); ok && pc.Color() == other {
			out.Add(c)
		}
	}
	return out
}

// reopen withdraws the last move quietly: the position before it is
// expected, its piece in the hand.
func (r *Recognizer) reopen(now time.Time) {
	n := len(r.history)
	r.corr.withdrawn, r.corr.after = r.history[n-1], r.pos
	r.history = r.history[:n-1]
	r.pos = r.corr.withdrawn.pos
	r.load()
	r.synced, r.corr.reopened, r.corr.open, r.corr.placed = true, true, false, false
	r.resetLifts()
	r.setStatus(now, Status{State: MoveInProgress})
}

// restore plays the withdrawn move again, quietly.
func (r *Recognizer) restore() {
	r.history = append(r.history, r.corr.withdrawn)
	r.pos = r.corr.after
	r.load()
	r.synced, r.corr.reopened = true, false
	r.resetLifts()
}

// withdraw takes the reopened move back: its piece is back where it came
// from.
func (r *Recognizer) withdraw(now time.Time) {
	r.corr.reopened = false
	if !r.opts.TakeBacks {
		r.restore()
		r.mismatch(now, TakeBacksOff+r.corr.withdrawn.pos.Long(r.corr.withdrawn.m)+" stands")
		return
	}
	r.evs = append(r.evs, Event{Kind: TookBack, At: now, CompletedAt: r.changedAt, Move: r.corr.withdrawn.m,
		Before: r.corr.after, After: r.pos})
	r.resetLifts()
	r.setStatus(now, Status{State: InSync})
}
