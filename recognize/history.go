package recognize

import (
	"strings"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// reading is a reading of the cells, the lifts seen by then, and when it
// came.
type reading struct {
	closed, lifted rules.CellSet
	at             time.Time
}

// resetLifts starts the lift history afresh from the current reading: the
// cells of the position that read open count as lifted.
func (r *Recognizer) resetLifts() {
	lifted := r.expected.Minus(r.closed).Minus(r.unknown)
	if lifted != r.lifted {
		r.lifted = lifted
		r.fresh = false
	}
	r.firstLifted = rules.NoCell
	if r.cellBuf = lifted.Cells(r.cellBuf[:0]); len(r.cellBuf) > 0 {
		r.firstLifted = r.cellBuf[0]
	}
	for _, c := range r.cellBuf {
		// Open since before the position was loaded: open in it since.
		if r.firstGen[c] != r.gen && r.haveReading && !r.openedAt[c].IsZero() {
			r.firstOpen[c], r.firstGen[c] = r.openedAt[c], r.gen
		}
	}
}

// change takes in a new reading.
func (r *Recognizer) change(now time.Time, closed, unknown rules.CellSet) {
	had := r.haveReading
	if had && r.slideWait && r.synced && len(r.pending) == 0 && unknown.Empty() && r.unknown.Empty() {
		// A reply's lift waited to see whether the mover's piece went on.
		// If no move of the position in progress explains the new reading,
		// it did not: the reply goes on (at blitz pace it lifts and puts
		// down in the same instants as the mover, and its next lift can be
		// in this reading already). Decide on the reading as it was, so
		// that the reply continues in the new position. (When the new
		// reading is explained, the wait is over too: the next check
		// decides on it.)
		r.slideWait, r.standOver = false, true
		r.goesOn = r.inProgress(closed)
		if !r.liftConfirms(now, r.replyLifts, false) {
			r.liftConfirms(now, r.replyLifts, true)
		}
		r.standOver = false
	}
	prevClosed, prevUnknown := r.closed, r.unknown
	r.before = reading{closed: r.closed, lifted: r.lifted, at: r.changedAt}
	r.changedAt = now
	// Cells the position has closed that went open (from closed, or from
	// unknown after a sensor fault): lifts.
	newly := r.expected.Intersect(r.closed.Union(r.unknown)).Minus(closed).Minus(unknown)
	if !had {
		newly = r.expected.Minus(closed).Minus(unknown)
	}
	r.cellBuf = newly.Cells(r.cellBuf[:0])
	for _, c := range r.cellBuf {
		r.liftedAt[c] = now
		if r.firstLifted == rules.NoCell && r.synced {
			r.firstLifted = c
		}
	}
	r.lifted = r.lifted.Union(newly)
	if had {
		r.cellBuf = prevClosed.Xor(closed).Cells(r.cellBuf[:0])
		for _, c := range r.cellBuf {
			r.gapOf[c] = r.nextGap
			if closed.Has(c) {
				r.closedAt[c] = now
			} else {
				r.openedAt[c] = now
				if r.firstGen[c] != r.gen {
					r.firstOpen[c], r.firstGen[c] = now, r.gen
				}
			}
		}
	}
	r.closed, r.unknown, r.haveReading = closed, unknown, true
	r.fresh = false
	if !unknown.Empty() {
		r.fault = "cannot read " + strings.Join(unknown.Names(r.cells), " ")
	}
	if had && r.synced && len(r.pending) == 0 && unknown.Empty() && prevUnknown.Empty() {
		// The other side's recent lifts confirm a move once no other
		// change has followed for r.opts.Skew: contact bounce can delay the
		// move's last placement by a scan or two.
		r.replyFrom = time.Time{}
		if recent := r.replyLiftsNow(); !recent.Empty() {
			r.replyFrom, r.replyLifts = now, recent
			r.cellBuf = recent.Cells(r.cellBuf[:0])
			for _, x := range r.cellBuf {
				// A piece set down in this position that reads open again
				// within Settle/2 may be rocking as the hand lets go (a
				// wobble): a lift only once it stays open that long.
				if c := r.closedAt[x]; c.After(r.loadedAt) && now.Sub(c) < r.opts.Settle/2 {
					if at := c.Add(r.opts.Settle/2 - r.opts.Skew); at.After(r.replyFrom) {
						r.replyFrom = at
					}
				}
			}
		} else if !closed.Minus(prevClosed).Minus(r.expected).Empty() {
			// A cell the position has empty closed: the mover's piece,
			// or, in a placement phase, the next player's placement.
			r.replyFrom, r.replyLifts = now, rules.CellSet{}
		}
	}
}

// readBefore reports whether the lift of x was read before done, or in
// the same reading after a gap longer than Opts.Skew (a scan that came
// late: it may have come first).
func (r *Recognizer) readBefore(x rules.Cell, done time.Time) bool {
	return r.openedAt[x].Before(done) || r.openedAt[x].Equal(done) && r.gapOf[x] > r.opts.Skew
}

// firstOpened is the earliest time a cell of s last went open (zero for
// none).
func (r *Recognizer) firstOpened(s rules.CellSet) time.Time {
	var t time.Time
	r.cellBuf = s.Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		if t.IsZero() || r.openedAt[x].Before(t) {
			t = r.openedAt[x]
		}
	}
	return t
}

// lastClosed is the latest time a cell of s last closed.
func (r *Recognizer) lastClosed(s rules.CellSet) time.Time {
	var t time.Time
	r.cellBuf = s.Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		if r.closedAt[x].After(t) {
			t = r.closedAt[x]
		}
	}
	return t
}

// openedSince reports whether every cell of s first went open in this
// position at t or later.
func (r *Recognizer) openedSince(s rules.CellSet, t time.Time) bool {
	r.cellBuf = s.Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		first := r.openedAt[x]
		if r.firstGen[x] == r.gen {
			first = r.firstOpen[x]
		}
		if first.Before(t) {
			return false
		}
	}
	return true
}

// closedAfter reports whether every cell of s was read closed after t.
func (r *Recognizer) closedAfter(s rules.CellSet, t time.Time) bool {
	r.cellBuf = s.Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		if !r.closedAt[x].After(t) {
			return false
		}
	}
	return true
}

// placedSince reports whether every cell of placed was read closed after
// the first of the lifts of d: pieces the reply has put down.
func (r *Recognizer) placedSince(placed, d rules.CellSet) bool {
	if placed.Empty() {
		return true
	}
	var start time.Time
	r.cellBuf = d.Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		if start.IsZero() || r.openedAt[x].Before(start) {
			start = r.openedAt[x]
		}
	}
	r.cellBuf = placed.Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		if r.closedAt[x].Before(start) {
			return false
		}
	}
	return true
}

func (r *Recognizer) oldestLift(s rules.CellSet) time.Time {
	var t time.Time
	for _, c := range s.Cells(r.cellBuf[:0]) {
		if t.IsZero() || r.liftedAt[c].Before(t) {
			t = r.liftedAt[c]
		}
	}
	return t
}
