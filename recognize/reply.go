package recognize

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// The next player's lift as a confirmation: a move the board shows is
// complete once the other side has begun their reply (liftConfirms), even
// in the same scan as its last placement, when one legal reply lifts what
// they lifted and puts a piece on, or passes over, what they put down.

// replyWatch follows the other side's reply as it begins. from, when set,
// is the reading in which the other side's pieces lifts were lifted: they
// confirm a move once the reading has stood Opts.Skew. slideWait: a reply
// lift read just before the move's last placement waits to see whether
// the mover's piece goes on (see completedAt). The next change decides it
// (standOver set while it is checked, goesOn whether the position's moves
// in progress explain the new reading).
type replyWatch struct {
	from                         time.Time
	lifts                        rules.CellSet
	slideWait, standOver, goesOn bool
}

// slideDecided decides a reply's lift that waited to see whether the
// mover's piece went on, now that the reading changed to closed. If no
// move of the position in progress explains the new reading, it did not:
// the reply goes on (at blitz pace it lifts and puts down in the same
// instants as the mover, and its next lift can be in this reading
// already). Decide on the reading as it was, so that the reply continues
// in the new position. (When the new reading is explained, the wait is
// over too: the next check decides on it.)
func (r *Recognizer) slideDecided(now time.Time, closed rules.CellSet) {
	r.reply.slideWait, r.reply.standOver = false, true
	r.reply.goesOn = r.inProgress(closed)
	if !r.liftConfirms(now, r.reply.lifts, false) {
		r.liftConfirms(now, r.reply.lifts, true)
	}
	r.reply.standOver = false
}

// replyBegun follows a change from prevClosed to the reading: the other
// side's recent lifts confirm a move once no other change has followed
// for r.opts.Skew (contact bounce can delay the move's last placement by
// a scan or two).
func (r *Recognizer) replyBegun(now time.Time, prevClosed rules.CellSet) {
	r.reply.from = time.Time{}
	if recent := r.replyLiftsNow(); !recent.Empty() {
		r.reply.from, r.reply.lifts = now, recent
		r.cellBuf = recent.Cells(r.cellBuf[:0])
		for _, x := range r.cellBuf {
			// A piece set down in this position that reads open again
			// within Settle/2 may be rocking as the hand lets go (a
			// wobble): a lift only once it stays open that long.
			if c := r.at.closed[x]; c.After(r.loadedAt) && now.Sub(c) < r.opts.Settle/2 {
				if at := c.Add(r.opts.Settle/2 - r.opts.Skew); at.After(r.reply.from) {
					r.reply.from = at
				}
			}
		}
	} else if !r.closed.Minus(prevClosed).Minus(r.expected).Empty() {
		// A cell the position has empty closed: the mover's piece,
		// or, in a placement phase, the next player's placement.
		r.reply.from, r.reply.lifts = now, rules.CellSet{}
	}
}

// replyDecides completes a move once the other side's lifts have stood
// Opts.Skew, if they can be the start of their reply (liftConfirms); it
// reports whether it did.
func (r *Recognizer) replyDecides(now time.Time) bool {
	if r.reply.from.IsZero() || now.Sub(r.reply.from) < r.opts.Skew {
		return false
	}
	r.reply.from, r.reply.slideWait = time.Time{}, false
	return r.synced && len(r.choice.pending) == 0 &&
		(r.liftConfirms(now, r.reply.lifts, false) || !r.reply.slideWait && r.liftConfirms(now, r.reply.lifts, true))
}

// replyLiftsNow are the cells holding a piece of the side not to move,
// or a board, that read open: the next player's reply may have begun.
func (r *Recognizer) replyLiftsNow() rules.CellSet {
	var out rules.CellSet
	other := r.pos.Turn().Other()
	r.cellBuf = r.expected.Minus(r.closed).Cells(r.cellBuf[:0])
	for _, c := range r.cellBuf {
		// A cell with no piece of its own holds a board (a pin, a
		// platform): either side's, as canReply decides.
		if pc, ok := r.pos.CellPiece(c); !ok || pc.Color() == other {
			out.Add(c)
		}
	}
	return out
}

// liftConfirms completes a move when the next player has begun to reply:
// the reading is a legal move's occupancy but for cells lifted since it
// was complete (within r.opts.Skew), recent (the other side's pieces lifted
// just now) among them, and those lifts can be the start of a move of the
// side to move after it (see canReply). A move is complete when its last
// placement has been read (or, for a capture whose victim's square was
// never seen open, its last lift). The lifts then belong to the new
// position's move in progress. After a press (pressed, not zero), every
// lift read since the move was complete is the reply's, whoever's piece
// it lifts.
func (r *Recognizer) liftConfirms(now time.Time, recent rules.CellSet, relaxed bool) bool {
	return r.replyConfirms(now, recent, relaxed, time.Time{})
}

func (r *Recognizer) replyConfirms(now time.Time, recent rules.CellSet, relaxed bool, pressed time.Time) bool {
	var top *candidate
	var topN int
	var topAt time.Time
	var topNext rules.Position
	tie, topChain := false, false
	waiting := r.reply.slideWait
	for i := range r.moves {
		c := &r.moves[i]
		d := c.after.Minus(r.closed)
		extra := r.closed.Minus(c.after)
		// A reply that lifts nothing only puts down (a placement phase):
		// then the reading holds more than the move.
		placesOnly := d.Empty()
		// chain: the other side's placement (extra), then the mover's
		// lifts (d), at blitz pace in one reading.
		chain := false
		switch {
		case c.info.Touched.Empty() && c.info.From != rules.NoCell:
			continue
		case placesOnly:
			if extra.Empty() {
				continue
			}
		case pressed.IsZero() && d.Intersect(recent).Empty():
			if extra.Empty() {
				continue
			}
			chain = true
		}
		done, ok := r.completedAt(now, c, d, relaxed, !pressed.IsZero())
		if !ok || !r.at.placedSince(extra, d) || placesOnly && !r.at.closedAfter(extra, done) {
			continue
		}
		seen := c.info.Touched.Minus(r.lifted).Empty()
		if !seen && (r.liftsExplained(r.expected.Minus(r.closed)) || r.couldTake(c.info.From, d)) {
			// The victim's square was never seen open, and the lifts may
			// as well be the mover lifting a victim.
			continue
		}
		off := recent
		if !pressed.IsZero() {
			off = rules.CellSet{}
		}
		next := r.pos.Play(c.m)
		switch {
		case placesOnly:
			ok = placementReply(next, extra, rules.CellSet{})
		case !chain && canReply(next, off, d, extra):
			ok = true
		default:
			// The other side's placement, or whole move, first, then the
			// mover's lifts.
			ok = !extra.Empty() && r.at.openedSince(d.Intersect(r.moverCells(next)), r.at.lastClosed(extra).Add(-r.opts.Skew), r.gen) &&
				(placementReply(next, extra, d) || wholeReply(next, d, extra))
			chain = ok
		}
		if !ok {
			continue
		}
		// A move whose every lift was seen ranks above one that relies on
		// an unseen swap; then more cells touched; then the one that
		// leaves the reply fewer lifts; then one complete before the
		// reply's first lift was read (not a square the reply passes
		// over, read just after it); then the later.
		n := 100*c.info.Touched.Len() - 10*d.Len()
		if seen {
			n += 10000
		}
		if first := r.at.firstOpened(d); first.IsZero() || !done.After(first) {
			n++
		}
		switch {
		case top == nil || n > topN || n == topN && done.After(topAt):
			top, topN, topAt, topNext, topChain, tie = c, n, done, next, chain, false
		case n == topN && done.Equal(topAt) && !samePlay(c, top):
			tie = true
		}
	}
	if top == nil || tie || r.reply.slideWait && !waiting {
		// A move this reading may be waits to see whether its piece
		// goes on: no other is decided meanwhile.
		return false
	}
	by := ByLift
	if !pressed.IsZero() {
		by = ByPress
	}
	r.play(now, topAt, by, *top, topNext)
	if recent := r.replyLiftsNow(); topChain && !recent.Empty() {
		// The placement that confirmed the move is confirmed by the
		// lifts that followed it.
		r.reply.from, r.reply.lifts = now, recent
	}
	return true
}

// completedAt is when the board came to show c but for the cells d, and
// whether every cell of d was lifted after that (within r.opts.Skew), as a
// reply (pressed: the mover has said the move is done). With relaxed, the
// victim's square of a capture may never have read open (a swap faster
// than the debounce).
func (r *Recognizer) completedAt(now time.Time, c *candidate, d rules.CellSet, relaxed, pressed bool) (time.Time, bool) {
	var done time.Time
	if missing := c.info.Touched.Minus(r.lifted); !missing.Empty() {
		if !relaxed || c.info.Captured != c.info.To || c.info.To == rules.NoCell || c.info.Board || c.info.Castle ||
			missing != rules.CellSetOf(c.info.To) || d.Has(c.info.To) {
			return done, false
		}
	}
	r.cellBuf = c.info.Touched.Intersect(r.lifted).Minus(d).Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		if r.at.lifted[x].After(done) {
			done = r.at.lifted[x]
		}
	}
	lastLift := done
	// The cells the move puts a piece on must have been read closed in
	// this position (a square the position holds, a victim's: after the
	// reading it was loaded in, whose placements are the last move's),
	// after their own lift (a cell of d was lifted again since: the
	// recapture lifts the piece just moved).
	placed := c.after.Intersect(c.info.Touched).Intersect(r.lifted).Union(c.after.Minus(r.expected))
	r.cellBuf = placed.Cells(r.cellBuf[:0])
	for _, x := range r.cellBuf {
		if stale := r.at.closed[x].Before(r.loadedAt) || r.expected.Has(x) && r.at.closed[x].Equal(r.loadedAt); stale ||
			!d.Has(x) && r.lifted.Has(x) && r.at.closed[x].Before(r.at.lifted[x]) {
			return done, false
		}
		if r.at.closed[x].After(done) {
			done = r.at.closed[x]
		}
	}
	for _, x := range d.Cells(nil) {
		if r.at.opened[x].Before(done.Add(-r.opts.Skew)) {
			return done, false
		}
		first := r.at.opened[x]
		if !placed.Has(x) {
			// Not a cell the move puts a piece on (whose lift after its
			// placement is the last): its first lift in this position.
			first = r.at.firstOpenIn(x, r.gen)
		}
		if !first.After(lastLift.Add(r.opts.Skew)) {
			// Lifted with the move's own lifts (both hands), or before
			// them, if put back and lifted again since: a victim of the
			// mover's as well as a reply.
			return done, false
		}
		if !placed.Has(x) && r.at.closed[x].After(done) && r.couldTake(c.info.From, rules.CellSetOf(x)) {
			// Filled after the move was complete, then lifted again, and
			// the mover's piece could go there: it went on (the rest on
			// the way, the victim's lift and the capture merged by late
			// scans, issue 21).
			return done, false
		}
		if !pressed && r.at.readBefore(x, done, r.opts.Skew) && r.couldTake(c.info.From, rules.CellSetOf(x)) {
			switch {
			case r.reply.standOver:
				// The next change came: the piece went on only if a
				// move of the position in progress explains it.
				if r.reply.goesOn {
					return done, false
				}
			case r.at.opened[x].Equal(done) && r.at.gap[x] > r.opts.Skew && r.changedAt.After(done) &&
				r.closed.Minus(r.expected).Empty() && r.inProgress(r.closed):
				// Read in one reading with the placement (a late scan,
				// issue 21), and since then the placement was lifted again
				// with nothing put down: the piece went on, x was its
				// victim.
				return done, false
			case !r.changedAt.After(done) && now.Sub(done) < r.liftWait(c, x, done):
				// Lifted just before the last placement, and the mover's
				// piece could take it: the mover's victim if the piece
				// was only passing (a slide goes on within Settle/2). Ask
				// again later, or at the next change.
				r.reply.from, r.reply.slideWait = now, true
				return done, false
			}
		}
	}
	return done, true
}

// liftWait is how long a lift of x read no later than c's last placement
// (at done) waits to see whether the mover's piece goes on: Settle/2 (a
// slide goes on within it), or, when the two were read in the same
// reading after a gap longer than Opts.Skew (a scan that came late read
// both: which came first is unknown, issue 21), c's settle window, as long
// as a touch-down on the way lasts.
func (r *Recognizer) liftWait(c *candidate, x rules.Cell, done time.Time) time.Duration {
	if r.at.opened[x].Equal(done) && r.at.gap[x] > r.opts.Skew {
		return r.settleFor(*c)
	}
	return r.opts.Settle / 2
}

// canReply reports whether lifting the cells of lifted and putting
// pieces on the cells of placed can be the start of a move in next: off
// (unless empty: after a press) lifts a piece of the side to move, and one
// legal move touches every lifted cell and, on every placed cell, puts a
// piece or could pass its piece over it (with nothing placed, lifting only
// pieces of the side to move is enough: both hands may be at work).
func canReply(next rules.Position, off, lifted, placed rules.CellSet) bool {
	own := func(s rules.CellSet) (anyOwn, allOwn bool) {
		allOwn = true
		for _, x := range s.Cells(nil) {
			pc, ok := next.CellPiece(x)
			mine := ok && pc.Color() == next.Turn()
			anyOwn = anyOwn || mine
			allOwn = allOwn && mine
		}
		return anyOwn, allOwn
	}
	var pieces rules.CellSet // the cells of off that hold a piece, not a board
	for _, x := range off.Cells(nil) {
		if _, ok := next.CellPiece(x); ok {
			pieces.Add(x)
		}
	}
	if anyOwn, _ := own(pieces); !anyOwn && !pieces.Empty() {
		return false
	}
	if _, allOwn := own(lifted); allOwn && placed.Empty() {
		return true
	}
	moves := next.LegalMoves(nil)
	for _, m := range moves {
		in := next.Info(m)
		if !lifted.Minus(in.Touched).Empty() {
			continue
		}
		// Placed cells: where the move puts pieces, or squares its piece
		// can reach, passed over or touched down on the way.
		rest := placed.Minus(next.Play(m).Occupancy())
		for _, o := range moves {
			if oi := next.Info(o); oi.From == in.From && !oi.Board && oi.To != rules.NoCell {
				rest.Remove(oi.To)
			}
		}
		if rest.Empty() {
			return true
		}
	}
	return false
}

// moverCells are the cells holding a piece of the side not to move in
// next (the mover's, after their move).
func (r *Recognizer) moverCells(next rules.Position) rules.CellSet {
	var out rules.CellSet
	for _, c := range next.Occupancy().Cells(nil) {
		if pc, ok := next.CellPiece(c); ok && pc.Color() != next.Turn() {
			out.Add(c)
		}
	}
	return out
}

// wholeReply reports whether a whole move of next, lifting some of the
// cells of lifted and putting pieces on every cell of placed, is followed
// by the lift of the rest (the mover's next move begun, in one reading at
// blitz pace).
func wholeReply(next rules.Position, lifted, placed rules.CellSet) bool {
	occ := next.Occupancy()
	for _, m := range next.LegalMoves(nil) {
		in := next.Info(m)
		if in.Touched.Empty() || !in.Touched.Minus(lifted).Intersect(occ).Empty() {
			continue
		}
		after := next.Play(m)
		got := after.Occupancy()
		if !placed.Minus(got).Empty() || !got.Minus(occ).Minus(placed).Empty() {
			continue
		}
		then := lifted.Intersect(got)
		if !then.Empty() && canReply(after, rules.CellSet{}, then, rules.CellSet{}) {
			return true
		}
	}
	return false
}

// placementReply reports whether putting pieces on the cells of placed,
// lifting nothing, can be a placement in next (a piece or a board put on
// the set from off it), and lifting the cells of then (unless empty) the
// start of the move after it.
func placementReply(next rules.Position, placed, then rules.CellSet) bool {
	occ := next.Occupancy()
	for _, m := range next.LegalMoves(nil) {
		if in := next.Info(m); in.From != rules.NoCell || !placed.Minus(next.Play(m).Occupancy().Minus(occ)).Empty() {
			continue
		}
		if then.Empty() || canReply(next.Play(m), rules.CellSet{}, then, rules.CellSet{}) {
			return true
		}
	}
	return false
}
