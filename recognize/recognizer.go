package recognize

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Opts tunes a Recognizer.
type Opts struct {
	// Settle is how long a reading must stand still before a move that the
	// same piece could not extend is accepted. A piece set down on its way
	// for less than this is never a move.
	Settle time.Duration
	// SettleExtended is the same for a move the piece could still extend
	// along its line (a slide may be passing through).
	SettleExtended time.Duration
	// MismatchAfter bounds how long the board may show readings that no
	// legal move explains, however often they change, before it is called
	// a mismatch.
	MismatchAfter time.Duration
	// TakeBacks makes putting the previous position back a take-back.
	TakeBacks bool
	// MaxTakeBacks bounds how many moves can be taken back in a row.
	MaxTakeBacks int
	// ConfirmByPress: a move is completed by Confirm (a clock button) or by
	// the next player lifting one of their pieces, never by settling alone.
	ConfirmByPress bool
	// Skew is how far apart two changes made at the same moment can reach
	// the recognizer: contact bounce delays a cell's first stable reading
	// by up to two scans. A lift confirms a move once Skew has passed with
	// no other change. Set it to two scan periods and a little more.
	Skew time.Duration
	// PressGrace is how long a Confirm that comes before the board shows a
	// complete move waits for it (a press can beat the last placement's
	// debounce) before it calls the reading a mismatch.
	PressGrace time.Duration
	// Correction is how long a move that the settle window completed
	// stays open to correction by its mover (a change of mind): lifting
	// the same piece again and putting it on another legal square replaces
	// the move (a Corrected event); putting it back where it came from
	// takes the move back. The other side's lift, a press, EndCorrection
	// (a command) or the end of this time closes it. 0 never: the first
	// move stands (touch-move tournaments).
	Correction time.Duration
}

// DefaultOpts returns the defaults: 300 ms to settle, 400 ms when the move
// could be extended, a mismatch after 2 s of readings no move explains,
// take-backs on, moves completed by settling (or the next lift, or a
// press), a press waiting up to 100 ms for the move it completes, a skew
// of 12 ms (scans every 5 ms), a settled move open to its mover's
// correction for 3 s.
func DefaultOpts() Opts {
	return Opts{
		Settle:         300 * time.Millisecond,
		SettleExtended: 400 * time.Millisecond,
		MismatchAfter:  2 * time.Second,
		TakeBacks:      true,
		MaxTakeBacks:   16,
		PressGrace:     100 * time.Millisecond,
		Skew:           12 * time.Millisecond,
		Correction:     3 * time.Second,
	}
}

// latePress is how long after a move was complete a press by its mover
// still counts as that move's, when something else completed it.
const latePress = time.Second

// candidate is a legal move with what it does to the cells.
type candidate struct {
	m     rules.Move
	after rules.CellSet
	info  rules.MoveInfo
}

// played is an earlier position and the move played from it.
type played struct {
	pos rules.Position
	m   rules.Move
	occ rules.CellSet
}

// Recognizer follows one board. It is not safe for concurrent use: feed it
// from one goroutine (the scan loop).
type Recognizer struct {
	opts     Opts
	cells    []string
	pos      rules.Position
	history  []played // earlier positions, for take-backs
	moves    []candidate
	expected rules.CellSet
	synced   bool
	reason   string // why not synced

	haveReading     bool
	closed, unknown rules.CellSet
	changedAt       time.Time // time of the reading's last change
	lifted          rules.CellSet
	liftedAt        [256]time.Time
	firstLifted     rules.Cell

	pending    []candidate // a promotion awaiting its piece
	pendingAt  time.Time   // when the promotion was completed on the board
	choiceList []rules.Move
	status     Status
	// restate makes the next status be reported even if it equals the
	// last one: after SetPosition, the board showing the new position
	// already is news (the game that expects it is another).
	restate bool
	// best's answer for the current reading and lifts (valid while fresh),
	// and whether any move in progress explains the reading.
	group     []candidate
	ambiguous string
	explained bool
	fresh     bool
	// openedAt and closedAt are when each cell last went open and closed;
	// loadedAt is when the position was loaded.
	openedAt, closedAt [256]time.Time
	// gapOf is, per cell, how long before the reading of its last change
	// the change may have happened (ObserveGap); nextGap is the gap of the
	// next reading.
	gapOf   [256]time.Duration
	nextGap time.Duration
	// firstOpen is when each cell first went open in the position loaded
	// as generation firstGen.
	firstOpen [256]time.Time
	firstGen  [256]int
	loadedAt  time.Time
	// replyFrom, when set, is the reading in which the other side's
	// pieces replyLifts were lifted: they confirm a move once the reading
	// has stood r.opts.Skew.
	replyFrom  time.Time
	replyLifts rules.CellSet
	// slideWait: a reply lift read just before the move's last placement
	// waits to see whether the mover's piece goes on (see completedAt).
	// The next change decides it (standOver set while it is checked,
	// goesOn whether the position's moves in progress explain the new
	// reading).
	slideWait, standOver, goesOn bool
	// pressed: a Confirm at pressedAt waits for the move it completes.
	pressed   bool
	pressedAt time.Time
	// before is the reading before the last change, and its lifts; press
	// holds it when the press was read with that change (see press).
	before, pressBefore reading
	// pressAlt: pressBefore may be the board the press confirmed.
	pressAlt bool
	// The last move, completed by the settle window, is open to its
	// mover's correction (correction.go) until amendUntil, while amendTo
	// (the cell its piece went to) is the first to change. reopened: its
	// piece is lifted again and the position is the one before it, the
	// move withdrawn (and withdrawnAfter the position it led to) until a
	// move replaces it, a take-back, or the other side's lift restores it.
	amendOpen      bool
	amendUntil     time.Time
	amendTo        rules.Cell
	reopened       bool
	reopenPlaced   bool // a piece was put down since the move was reopened
	withdrawn      played
	withdrawnAfter rules.Position
	// owed, per side (by rules.Color): until then, a press still to come
	// for a move of theirs that the other side's lift or the settle
	// window completed is late, not one for their next move (a second
	// after the move was complete: a player who never pressed does not
	// lose every later press).
	owed [2]time.Time
	// pressSeen: the side to move has pressed in this position.
	pressSeen bool
	// unexplainedSince is when the readings stopped being explained by a
	// move in progress (zero while they are).
	unexplainedSince time.Time
	fault            string
	gen              int // counts the positions loaded
	hint             hintCache
	evs              []Event
	buf              []rules.Move
	cellBuf          []rules.Cell
}

// reading is a reading of the cells, the lifts seen by then, and when it
// came.
type reading struct {
	closed, lifted rules.CellSet
	at             time.Time
}

// hintCache keeps the last fix sentence, built only when the fix changes.
type hintCache struct {
	fix  rules.CellSet
	n    int
	gen  int
	text string
}

// New returns a recognizer expecting pos. It waits for the board to match
// pos before it recognizes anything.
func New(pos rules.Position, opts Opts) *Recognizer {
	r := &Recognizer{opts: opts, cells: pos.System().Cells()}
	r.SetPosition(pos, "set up the position")
	return r
}

// Position is the position the recognizer expects.
func (r *Recognizer) Position() rules.Position { return r.pos }

// SetConfirmByPress turns Opts.ConfirmByPress on or off from now on: on
// for a game with a clock and clock buttons, off for one without.
func (r *Recognizer) SetConfirmByPress(on bool) {
	r.opts.ConfirmByPress = on
	r.fresh = false
}

// Status is the current status.
func (r *Recognizer) Status() Status { return r.status }

// SetPosition replaces the expected position (a new game, a take-back or a
// move made elsewhere). The board must then match it before play goes on;
// until it does, the status is Mismatch with reason. The next status is
// reported as a StatusChanged event even when it is the same as before (a
// board already showing the new position is in sync with it afresh).
func (r *Recognizer) SetPosition(pos rules.Position, reason string) {
	r.restate = true
	r.pos = pos
	r.history = r.history[:0]
	r.pending = nil
	r.owed = [2]time.Time{}
	r.amendOpen, r.reopened = false, false
	r.load()
	r.synced = false
	r.reason = reason
	r.resetLifts()
}

// load lists the legal moves of the position with their occupancy.
func (r *Recognizer) load() {
	r.expected = r.pos.Occupancy()
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
	r.fresh = false
	r.unexplainedSince = time.Time{}
	r.pressed, r.pressSeen = false, false
	r.replyFrom, r.slideWait = time.Time{}, false
	r.loadedAt = r.changedAt
	r.gen++
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

// ObserveGap is Observe of a reading whose changes may have happened up
// to gap before it (a scan that came late read them together: which came
// first is unknown). Observe is ObserveGap with no gap.
func (r *Recognizer) ObserveGap(now time.Time, closed, unknown rules.CellSet, gap time.Duration) []Event {
	r.nextGap = gap
	evs := r.Observe(now, closed, unknown)
	r.nextGap = 0
	return evs
}

// Observe feeds one debounced reading: the closed cells and the unknown
// ones. Call it on every scan (an unchanged reading lets the settle timers
// run out). The events it returns are valid until the next call.
func (r *Recognizer) Observe(now time.Time, closed, unknown rules.CellSet) []Event {
	r.evs = r.evs[:0]
	if !r.haveReading || closed != r.closed || unknown != r.unknown {
		r.change(now, closed, unknown)
	}
	r.amend(now)
	r.step(now)
	return r.evs
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
	waiting := r.slideWait
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
		if !ok || !r.placedSince(extra, d) || placesOnly && !r.closedAfter(extra, done) {
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
			ok = !extra.Empty() && r.openedSince(d.Intersect(r.moverCells(next)), r.lastClosed(extra).Add(-r.opts.Skew)) &&
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
		if first := r.firstOpened(d); first.IsZero() || !done.After(first) {
			n++
		}
		switch {
		case top == nil || n > topN || n == topN && done.After(topAt):
			top, topN, topAt, topNext, topChain, tie = c, n, done, next, chain, false
		case n == topN && done.Equal(topAt) && !samePlay(c, top):
			tie = true
		}
	}
	if top == nil || tie || r.slideWait && !waiting {
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
		r.replyFrom, r.replyLifts = now, recent
	}
	return true
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
		if r.liftedAt[x].After(done) {
			done = r.liftedAt[x]
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
		if stale := r.closedAt[x].Before(r.loadedAt) || r.expected.Has(x) && r.closedAt[x].Equal(r.loadedAt); stale ||
			!d.Has(x) && r.lifted.Has(x) && r.closedAt[x].Before(r.liftedAt[x]) {
			return done, false
		}
		if r.closedAt[x].After(done) {
			done = r.closedAt[x]
		}
	}
	for _, x := range d.Cells(nil) {
		if r.openedAt[x].Before(done.Add(-r.opts.Skew)) {
			return done, false
		}
		first := r.openedAt[x]
		if r.firstGen[x] == r.gen && !placed.Has(x) {
			// Not a cell the move puts a piece on (whose lift after its
			// placement is the last): its first lift in this position.
			first = r.firstOpen[x]
		}
		if !first.After(lastLift.Add(r.opts.Skew)) {
			// Lifted with the move's own lifts (both hands), or before
			// them, if put back and lifted again since: a victim of the
			// mover's as well as a reply.
			return done, false
		}
		if !placed.Has(x) && r.closedAt[x].After(done) && r.couldTake(c.info.From, rules.CellSetOf(x)) {
			// Filled after the move was complete, then lifted again, and
			// the mover's piece could go there: it went on (the rest on
			// the way, the victim's lift and the capture merged by late
			// scans, issue 21).
			return done, false
		}
		if !pressed && r.readBefore(x, done) && r.couldTake(c.info.From, rules.CellSetOf(x)) {
			switch {
			case r.standOver:
				// The next change came: the piece went on only if a
				// move of the position in progress explains it.
				if r.goesOn {
					return done, false
				}
			case r.openedAt[x].Equal(done) && r.gapOf[x] > r.opts.Skew && r.changedAt.After(done) &&
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
				r.replyFrom, r.slideWait = now, true
				return done, false
			}
		}
	}
	return done, true
}

// readBefore reports whether the lift of x was read before done, or in
// the same reading after a gap longer than Opts.Skew (a scan that came
// late: it may have come first).
func (r *Recognizer) readBefore(x rules.Cell, done time.Time) bool {
	return r.openedAt[x].Before(done) || r.openedAt[x].Equal(done) && r.gapOf[x] > r.opts.Skew
}

// liftWait is how long a lift of x read no later than c's last placement
// (at done) waits to see whether the mover's piece goes on: Settle/2 (a
// slide goes on within it), or, when the two were read in the same
// reading after a gap longer than Opts.Skew (a scan that came late read
// both: which came first is unknown, issue 21), c's settle window, as long
// as a touch-down on the way lasts.
func (r *Recognizer) liftWait(c *candidate, x rules.Cell, done time.Time) time.Duration {
	if r.openedAt[x].Equal(done) && r.gapOf[x] > r.opts.Skew {
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

func (r *Recognizer) setStatus(now time.Time, s Status) {
	s.Lifted = r.expected.Minus(r.closed).Minus(r.unknown)
	s.Placed = r.closed.Minus(r.expected)
	s.Unknown = r.unknown
	s.FirstLifted = r.firstLifted
	if s.State == Mismatch {
		s.Fix = r.closed.Xor(r.expected)
		s.Hint = r.hintFor(s.Fix)
	}
	if r.restate || !s.equal(&r.status) {
		r.restate = false
		r.status = s
		r.evs = append(r.evs, Event{Kind: StatusChanged, At: now, Status: s})
	}
}

// mismatch leaves play: the board must match the position again.
func (r *Recognizer) mismatch(now time.Time, reason string) {
	r.synced = false
	r.reason = reason
	r.setStatus(now, Status{State: Mismatch, Reason: reason})
}

// step decides what the current reading means.
func (r *Recognizer) step(now time.Time) {
	if !r.haveReading {
		return
	}
	stable := now.Sub(r.changedAt)
	if !r.unknown.Empty() {
		r.setStatus(now, Status{State: SensorFault, Reason: r.fault})
		return
	}
	if len(r.pending) > 0 {
		// Swapping the pawn for the new piece changes nothing; any other
		// change means the next move has begun and the default stands.
		diff := r.closed.Xor(r.pending[0].after)
		if p := r.pending[0].info.Promoted; p != rules.NoCell {
			diff.Remove(p)
		}
		if diff.Empty() {
			r.setStatus(now, Status{State: NeedsChoice, Choices: r.choiceList})
			return
		}
		r.accept(now, r.pendingAt, ByLift, r.pending[0])
	}
	n := len(r.history)
	if !r.synced {
		switch {
		case r.closed == r.expected && stable >= r.opts.Settle:
			r.synced = true
			r.resetLifts()
			r.setStatus(now, Status{State: InSync})
		case r.opts.TakeBacks && n > 0 && r.closed == r.history[n-1].occ && stable >= r.opts.Settle:
			r.takeBack(now)
		default:
			r.setStatus(now, Status{State: Mismatch, Reason: r.reason})
		}
		return
	}
	if r.pressed && r.press(now) {
		return
	}
	if !r.replyFrom.IsZero() && now.Sub(r.replyFrom) >= r.opts.Skew {
		r.replyFrom, r.slideWait = time.Time{}, false
		if r.synced && len(r.pending) == 0 &&
			(r.liftConfirms(now, r.replyLifts, false) || !r.slideWait && r.liftConfirms(now, r.replyLifts, true)) {
			return
		}
	}
	if !r.fresh {
		r.group, r.ambiguous = r.bestFor(r.closed, r.lifted, false)
		r.explained = len(r.group) > 0 || r.closed == r.expected ||
			r.ambiguous == "" && r.liftsExplained(r.expected.Minus(r.closed))
		r.fresh = true
		switch {
		case r.explained:
			r.unexplainedSince = time.Time{}
		case r.unexplainedSince.IsZero():
			r.unexplainedSince = now
		}
	}
	if group := r.group; len(group) > 0 {
		if !r.opts.ConfirmByPress && stable >= r.settleFor(group[0]) {
			r.accept(now, r.changedAt, BySettle, group...)
			return
		}
		r.setStatus(now, Status{State: MoveInProgress, Ready: true})
		return
	}
	if r.closed == r.expected {
		if r.reopened && stable >= r.opts.SettleExtended {
			r.withdraw(now)
			return
		}
		r.resetLifts()
		r.setStatus(now, Status{State: InSync})
		return
	}
	if r.opts.TakeBacks && n > 0 && r.closed == r.history[n-1].occ && stable >= r.opts.SettleExtended {
		r.takeBack(now)
		return
	}
	if !r.explained && now.Sub(r.unexplainedSince) >= r.opts.MismatchAfter {
		reason := r.ambiguous
		if reason == "" {
			reason = "no legal move leads to this"
		}
		r.mismatch(now, reason)
		return
	}
	r.setStatus(now, Status{State: MoveInProgress})
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

func (r *Recognizer) choices() []rules.Move {
	out := make([]rules.Move, len(r.pending))
	for i, c := range r.pending {
		out[i] = c.m
	}
	return out
}

// bestFor finds the moves a reading can be: their occupancy after equals
// the reading and every cell they touch has been lifted (relaxed: but the
// victim's square of a capture, which a hand can empty and fill again
// faster than the debounce). Of several, the one touching more cells wins
// (castling over a rook move of the same cells), then the one whose cells
// were lifted last. Promotions to different pieces come back together, the
// queen first.
func (r *Recognizer) bestFor(reading, lifted rules.CellSet, relaxed bool) (group []candidate, ambiguous string) {
	group = r.group[:0]
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
		at := r.oldestLift(c.info.Touched.Intersect(lifted))
		if c.info.From == rules.NoCell && c.info.To != rules.NoCell {
			// Placements that put down the same cells (V.P6's queen, whose
			// square decides the king's and the rooks') are told apart by
			// the first cell put down, the piece the move names: the
			// earlier its cell closed, the later it ranks here.
			at = r.loadedAt.Add(time.Hour - r.closedAt[c.info.To].Sub(r.loadedAt))
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

func (r *Recognizer) oldestLift(s rules.CellSet) time.Time {
	var t time.Time
	for _, c := range s.Cells(r.cellBuf[:0]) {
		if t.IsZero() || r.liftedAt[c].Before(t) {
			t = r.liftedAt[c]
		}
	}
	return t
}

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

// accept plays the move (or, for a promotion with a choice, waits for it).
// completed is when the board came to show it.
func (r *Recognizer) accept(now, completed time.Time, by Confirmation, group ...candidate) {
	if len(group) > 1 {
		r.pending = append(r.pending[:0:0], group...)
		r.pendingAt = completed
		r.choiceList = r.choices()
		r.setStatus(now, Status{State: NeedsChoice, Choices: r.choiceList})
		return
	}
	r.play(now, completed, by, group[0], r.pos.Play(group[0].m))
}

// play makes c, whose position after is next, the position.
func (r *Recognizer) play(now, completed time.Time, by Confirmation, c candidate, next rules.Position) {
	before := r.pos
	r.pending = nil
	r.history = append(r.history, played{pos: before, m: c.m, occ: r.expected})
	if len(r.history) > r.opts.MaxTakeBacks {
		r.history = r.history[1:]
	}
	r.owed[before.Turn()&1] = time.Time{}
	if by != ByPress && !r.pressSeen {
		r.owed[before.Turn()&1] = completed.Add(latePress)
	}
	r.pos = next
	r.load()
	r.resetLifts()
	r.amendOpen = false
	if by == BySettle && r.opts.Correction > 0 && correctable(c.info) {
		r.amendOpen, r.amendUntil, r.amendTo = true, completed.Add(r.opts.Correction), c.info.To
	}
	switch {
	case !r.reopened:
		r.evs = append(r.evs, Event{Kind: Moved, At: now, CompletedAt: completed, By: by, Move: c.m, Before: before, After: r.pos})
	case c.m == r.withdrawn.m:
		// The piece went back to the square of the move: it stands.
		r.reopened = false
	default:
		r.reopened = false
		r.evs = append(r.evs, Event{Kind: Corrected, At: now, CompletedAt: completed, By: by, Move: c.m,
			Withdrawn: r.withdrawn.m, Before: before, After: r.pos})
	}
	r.setStatus(now, Status{State: r.quietState()})
}

func (r *Recognizer) quietState() State {
	if r.closed == r.expected {
		return InSync
	}
	return MoveInProgress
}

// takeBack restores the previous position.
func (r *Recognizer) takeBack(now time.Time) {
	n := len(r.history)
	from := r.pos
	prev := r.history[n-1]
	r.history = r.history[:n-1]
	r.pos = prev.pos
	r.load()
	r.synced = true
	r.resetLifts()
	r.evs = append(r.evs, Event{Kind: TookBack, At: now, CompletedAt: r.changedAt, Move: prev.m, Before: from, After: prev.pos})
	r.setStatus(now, Status{State: InSync})
}

// hintFor says in a sentence how to set the cells of fix right.
func (r *Recognizer) hintFor(fix rules.CellSet) string {
	h := &r.hint
	if h.text != "" && h.fix == fix && h.n == len(r.history) && h.gen == r.gen {
		return h.text
	}
	var put, off []string
	for _, c := range fix.Cells(nil) {
		name := r.cells[c]
		switch pc, ok := r.pos.CellPiece(c); {
		case !r.expected.Has(c):
			off = append(off, name)
		case ok:
			put = append(put, "the "+pieceName(pc)+" on "+name)
		default:
			put = append(put, "the board on "+name)
		}
	}
	var b strings.Builder
	if len(put) > 0 {
		b.WriteString("put back " + strings.Join(put, ", "))
	}
	if len(off) > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString("take away what stands on " + strings.Join(off, ", "))
	}
	if b.Len() == 0 {
		b.WriteString("the board matches: hold still")
	}
	if n := len(r.history); r.opts.TakeBacks && n > 0 {
		last := r.history[n-1]
		b.WriteString(". If " + last.pos.Long(last.m) + " was recognized wrongly, putting back the position before it takes it back")
	}
	*h = hintCache{fix: fix, n: len(r.history), gen: r.gen, text: b.String()}
	return h.text
}

// pieceName is "white knight".
func pieceName(pc rules.Piece) string {
	kinds := [...]string{"piece", "pawn", "knight", "bishop", "rook", "queen", "king"}
	k := int(pc.Kind())
	if k >= len(kinds) {
		k = 0
	}
	return pc.Color().String() + " " + kinds[k]
}
