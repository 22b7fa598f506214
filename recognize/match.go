package recognize

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Candidate matching: the legal moves of the position with the occupancy
// after each, and which of them the reading shows (bestFor), could still
// become (liftsExplained, inProgress) or could extend (couldTake).

// candidate is a legal move with what it does to the cells.
type candidate struct {
	m     rules.Move
	after rules.CellSet
	info  rules.MoveInfo
}

// listMoves lists the legal moves of the position with their occupancy
// after.
func (r *Recognizer) listMoves() {
	r.buf = r.pos.LegalMoves(r.buf[:0])
	r.moves = r.moves[:0]
	for _, m := range r.buf {
		next := r.pos.Play(m)
		c := candidate{m: m, after: next.Occupancy(), info: r.pos.Info(m)}
		if c.info.From == rules.NoCell && c.info.PromoteTo == 0 && c.info.To != rules.NoCell {
			// A placement: the sensors see a cell close, not which piece;
			// placements of different pieces on one cell are a choice,
			// made like a promotion's (Choose with the piece's letter).
			if pc, ok := next.CellPiece(c.info.To); ok {
				c.info.PromoteTo = rules.PieceLetters[pc.Kind()]
			}
		}
		r.moves = append(r.moves, c)
	}
}

// couldTake reports whether the piece on from has a legal move that
// lifts a cell of s (a victim).
func (r *Recognizer) couldTake(from rules.Cell, s rules.CellSet) bool {
	for i := range r.moves {
		if c := &r.moves[i]; c.info.From == from && !c.info.Touched.Intersect(s).Minus(rules.CellSetOf(from)).Empty() {
			return true
		}
	}
	return false
}

// liftsExplained reports whether the cells that differ from the position
// could be a move in progress: one legal move lifts every cell the reading
// lacks and puts a piece on every cell it adds. lacking is the expected
// cells that read open.
func (r *Recognizer) liftsExplained(lacking rules.CellSet) bool {
	placed := r.closed.Minus(r.expected)
	for i := range r.moves {
		c := &r.moves[i]
		if lacking.Minus(c.info.Touched).Empty() && placed.Minus(c.after).Empty() {
			return true
		}
	}
	return false
}

// inProgress reports whether the reading closed can be a move of the
// position in progress: one legal move lifts every expected cell that
// reads open, and every other cell that reads closed is where it puts a
// piece or a square its piece could reach on the way.
func (r *Recognizer) inProgress(closed rules.CellSet) bool {
	lacking, placed := r.expected.Minus(closed), closed.Minus(r.expected)
	for i := range r.moves {
		c := &r.moves[i]
		if !lacking.Minus(c.info.Touched).Empty() {
			continue
		}
		rest := placed.Minus(c.after)
		for j := range r.moves {
			if o := &r.moves[j]; !rest.Empty() && o.info.From == c.info.From && !o.info.Board && o.info.To != rules.NoCell {
				rest.Remove(o.info.To)
			}
		}
		if rest.Empty() {
			return true
		}
	}
	return false
}

// answer is bestFor's answer for the reading and its lifts (group, or
// why none: ambiguous), valid while fresh, and whether any move in
// progress explains the reading.
type answer struct {
	group     []candidate
	ambiguous string
	explained bool
	fresh     bool
}

// refresh finds the moves the reading shows, if the reading or the lifts
// changed since, and starts or stops the mismatch timer.
func (r *Recognizer) refresh(now time.Time) {
	if r.best.fresh {
		return
	}
	b := &r.best
	b.group, b.ambiguous = r.bestFor(r.closed, r.lifted, false)
	b.explained = len(b.group) > 0 || r.closed == r.expected ||
		b.ambiguous == "" && r.liftsExplained(r.expected.Minus(r.closed))
	b.fresh = true
	switch {
	case b.explained:
		r.unexplainedSince = time.Time{}
	case r.unexplainedSince.IsZero():
		r.unexplainedSince = now
	}
}

// bestFor finds the moves a reading can be: their occupancy after equals
// the reading and every cell they touch has been lifted (relaxed: but the
// victim's square of a capture, which a hand can empty and fill again
// faster than the debounce). Of several, the one touching more cells wins
// (castling over a rook move of the same cells), then the one whose cells
// were lifted last. Promotions to different pieces come back together, the
// queen first.
func (r *Recognizer) bestFor(reading, lifted rules.CellSet, relaxed bool) (group []candidate, ambiguous string) {
	group = r.best.group[:0]
	var top *candidate
	var topN int
	var topAt time.Time
	tie := false
	for i := range r.moves {
		c := &r.moves[i]
		// A placement (a piece or platform put on the set from off it)
		// touches no cell; every other move lifts something.
		if c.after != reading || c.info.Touched.Empty() && c.info.From != rules.NoCell {
			continue
		}
		if missing := c.info.Touched.Minus(lifted); !missing.Empty() {
			if !relaxed || c.info.Captured != c.info.To || c.info.To == rules.NoCell ||
				missing != rules.CellSetOf(c.info.To) || c.info.Board || c.info.Castle {
				continue
			}
		}
		n := 2 * c.info.Touched.Len()
		if c.info.Touched.Minus(lifted).Empty() {
			n += 1000 // every lift seen: above a move relying on an unseen swap
		}
		at := r.at.oldestLift(c.info.Touched.Intersect(lifted))
		if c.info.From == rules.NoCell && c.info.To != rules.NoCell {
			// Placements that put down the same cells (V.P6's queen, whose
			// square decides the king's and the rooks') are told apart by
			// the first cell put down, the piece the move names: the
			// earlier its cell closed, the later it ranks here.
			at = r.loadedAt.Add(time.Hour - r.at.closed[c.info.To].Sub(r.loadedAt))
		}
		switch {
		case top == nil || n > topN || n == topN && at.After(topAt):
			top, topN, topAt, tie = c, n, at, false
		case n == topN && at.Equal(topAt) && !samePlay(c, top):
			tie = true
		}
	}
	if top == nil {
		return nil, ""
	}
	if tie {
		return nil, "ambiguous: more than one move leads to this reading"
	}
	for i := range r.moves {
		if c := &r.moves[i]; samePlay(c, top) && c.after == top.after {
			group = append(group, *c)
		}
	}
	// The queen first: it stands when no choice is made.
	for i, c := range group {
		if c.info.PromoteTo == 'Q' {
			group[0], group[i] = group[i], group[0]
		}
	}
	return group, ""
}

// samePlay reports whether two moves differ at most in the promotion piece.
func samePlay(a, b *candidate) bool {
	return a.info.From == b.info.From && a.info.To == b.info.To && a.info.Touched == b.info.Touched &&
		a.info.Board == b.info.Board && a.info.Castle == b.info.Castle
}
