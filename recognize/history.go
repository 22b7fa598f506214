package recognize

import (
	"strings"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// The reading's history: the reading and the one before its last change,
// the cells of the position lifted since the board was last in sync, and,
// per cell, when it last went open and closed (cellTimes). Every decision
// about what completed a move, and when, is read from these times.

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
		r.best.fresh = false
	}
	r.firstLifted = rules.NoCell
	if r.cellBuf = lifted.Cells(r.cellBuf[:0]); len(r.cellBuf) > 0 {
		r.firstLifted = r.cellBuf[0]
	}
	for _, c := range r.cellBuf {
		// Open since before the position was loaded: open in it since.
		if r.at.firstGen[c] != r.gen && r.haveReading && !r.at.opened[c].IsZero() {
			r.at.firstOpen[c], r.at.firstGen[c] = r.at.opened[c], r.gen
		}
	}
}

// change takes in a new reading: a reply's lift that waited for it is
// decided on the reading before it, the reading is recorded, and the
// other side's reply may have begun with it (reply.go).
func (r *Recognizer) change(now time.Time, closed, unknown rules.CellSet) {
	had := r.haveReading
	if had && r.reply.slideWait && r.synced && len(r.choice.pending) == 0 && unknown.Empty() && r.unknown.Empty() {
		r.slideDecided(now, closed)
	}
	prevClosed, prevUnknown := r.closed, r.unknown
	r.record(now, closed, unknown)
	if had && r.synced && len(r.choice.pending) == 0 && unknown.Empty() && prevUnknown.Empty() {
		r.replyBegun(now, prevClosed)
	}
}

// record makes closed and unknown the reading, read at now: the reading
// before it is kept, the cells of the position that went open are
// lifted, and the cells that changed are stamped.
func (r *Recognizer) record(now time.Time, closed, unknown rules.CellSet) {
	had := r.haveReading
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
		r.at.lifted[c] = now
		if r.firstLifted == rules.NoCell && r.synced {
			r.firstLifted = c
		}
	}
	r.lifted = r.lifted.Union(newly)
	if had {
		r.at.stamp(now, r.closed, closed, r.nextGap, r.gen)
	}
	r.closed, r.unknown, r.haveReading = closed, unknown, true
	r.best.fresh = false
	if !unknown.Empty() {
		r.fault = "cannot read " + strings.Join(unknown.Names(r.cells), " ")
	}
}

// cellTimes is, per cell, when its readings changed.
type cellTimes struct {
	// opened and closed are when each cell last went open and closed;
	// lifted when a cell the position has closed last went open.
	opened, closed, lifted [256]time.Time
	// gap is how long before the reading of its last change the change
	// may have happened (ObserveGap).
	gap [256]time.Duration
	// firstOpen is when each cell first went open in the position loaded
	// as generation firstGen.
	firstOpen [256]time.Time
	firstGen  [256]int
	buf       []rules.Cell
}

// stamp records a reading at now, after a gap, that changed the cells
// from prev to closed, in the position loaded as generation gen.
func (t *cellTimes) stamp(now time.Time, prev, closed rules.CellSet, gap time.Duration, gen int) {
	t.buf = prev.Xor(closed).Cells(t.buf[:0])
	for _, c := range t.buf {
		t.gap[c] = gap
		if closed.Has(c) {
			t.closed[c] = now
		} else {
			t.opened[c] = now
			if t.firstGen[c] != gen {
				t.firstOpen[c], t.firstGen[c] = now, gen
			}
		}
	}
}

// firstOpenIn is when x first went open in the position loaded as
// generation gen, or, if it has not since, when it last went open.
func (t *cellTimes) firstOpenIn(x rules.Cell, gen int) time.Time {
	if t.firstGen[x] == gen {
		return t.firstOpen[x]
	}
	return t.opened[x]
}

// readBefore reports whether the lift of x was read before done, or in
// the same reading after a gap longer than skew (a scan that came late:
// it may have come first).
func (t *cellTimes) readBefore(x rules.Cell, done time.Time, skew time.Duration) bool {
	return t.opened[x].Before(done) || t.opened[x].Equal(done) && t.gap[x] > skew
}

// firstOpened is the earliest time a cell of s last went open (zero for
// none).
func (t *cellTimes) firstOpened(s rules.CellSet) time.Time { return t.earliest(&t.opened, s) }

// oldestLift is the earliest time a cell of s was lifted (zero for none).
func (t *cellTimes) oldestLift(s rules.CellSet) time.Time { return t.earliest(&t.lifted, s) }

// earliest is the earliest of times over the cells of s (zero for none).
func (t *cellTimes) earliest(times *[256]time.Time, s rules.CellSet) time.Time {
	var first time.Time
	t.buf = s.Cells(t.buf[:0])
	for _, x := range t.buf {
		if first.IsZero() || times[x].Before(first) {
			first = times[x]
		}
	}
	return first
}

// lastClosed is the latest time a cell of s last closed.
func (t *cellTimes) lastClosed(s rules.CellSet) time.Time {
	var last time.Time
	t.buf = s.Cells(t.buf[:0])
	for _, x := range t.buf {
		if t.closed[x].After(last) {
			last = t.closed[x]
		}
	}
	return last
}

// openedSince reports whether every cell of s first went open in the
// position loaded as generation gen at since or later.
func (t *cellTimes) openedSince(s rules.CellSet, since time.Time, gen int) bool {
	t.buf = s.Cells(t.buf[:0])
	for _, x := range t.buf {
		if t.firstOpenIn(x, gen).Before(since) {
			return false
		}
	}
	return true
}

// closedAfter reports whether every cell of s was read closed after since.
func (t *cellTimes) closedAfter(s rules.CellSet, since time.Time) bool {
	t.buf = s.Cells(t.buf[:0])
	for _, x := range t.buf {
		if !t.closed[x].After(since) {
			return false
		}
	}
	return true
}

// placedSince reports whether every cell of placed was read closed after
// the first of the lifts of d: pieces the reply has put down.
func (t *cellTimes) placedSince(placed, d rules.CellSet) bool {
	if placed.Empty() {
		return true
	}
	start := t.firstOpened(d)
	t.buf = placed.Cells(t.buf[:0])
	for _, x := range t.buf {
		if t.closed[x].Before(start) {
			return false
		}
	}
	return true
}
