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
	// same piece could not extend is accepted.
	Settle time.Duration
	// SettleExtended is the same for a move the piece could still extend
	// along its line (a slide may be passing through).
	SettleExtended time.Duration
	// MismatchAfter is how long a placement that explains no legal move
	// may stand before it is called a mismatch.
	MismatchAfter time.Duration
	// TakeBacks makes putting the previous position back a take-back.
	TakeBacks bool
	// MaxTakeBacks bounds how many moves can be taken back in a row.
	MaxTakeBacks int
}

// DefaultOpts returns the defaults: 60 ms to settle, 250 ms when the move
// could be extended, a mismatch after 1.5 s, take-backs on.
func DefaultOpts() Opts {
	return Opts{
		Settle:         60 * time.Millisecond,
		SettleExtended: 250 * time.Millisecond,
		MismatchAfter:  1500 * time.Millisecond,
		TakeBacks:      true,
		MaxTakeBacks:   16,
	}
}

// candidate is a legal move with what it does to the cells.
type candidate struct {
	m     rules.Move
	after rules.CellSet
	info  rules.MoveInfo
}

// Recognizer follows one board. It is not safe for concurrent use: feed it
// from one goroutine (the scan loop).
type Recognizer struct {
	opts     Opts
	cells    []string
	pos      rules.Position
	history  []rules.Position // earlier positions, for take-backs
	moves    []candidate
	expected rules.CellSet
	synced   bool
	reason   string // why not synced

	haveReading     bool
	closed, unknown rules.CellSet
	changedAt       time.Time // physical time of the last change
	lifted          rules.CellSet
	liftedAt        [256]time.Time
	firstLifted     rules.Cell

	pending    []candidate // a promotion awaiting its piece
	choiceList []rules.Move
	status     Status
	// best's answer for the current reading and lifts (valid while fresh).
	group     []candidate
	ambiguous string
	fresh     bool
	fault     string
	evs       []Event
	buf       []rules.Move
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

// Status is the current status.
func (r *Recognizer) Status() Status { return r.status }

// SetPosition replaces the expected position (a new game, a take-back or a
// move made elsewhere). The board must then match it before play goes on;
// until it does, the status is Mismatch with reason.
func (r *Recognizer) SetPosition(pos rules.Position, reason string) {
	r.pos = pos
	r.history = r.history[:0]
	r.pending = nil
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
		r.moves = append(r.moves, candidate{m: m, after: r.pos.Play(m).Occupancy(), info: r.pos.Info(m)})
	}
}

func (r *Recognizer) resetLifts() {
	r.lifted = r.expected.Minus(r.closed).Minus(r.unknown)
	r.firstLifted = rules.NoCell
	r.fresh = false
}

// Observe feeds one debounced reading: the closed cells and the unknown
// ones. Call it on every scan (an unchanged reading lets the settle timers
// run out). The events it returns are valid until the next call.
func (r *Recognizer) Observe(now time.Time, closed, unknown rules.CellSet) []Event {
	r.evs = r.evs[:0]
	if !r.haveReading || closed != r.closed || unknown != r.unknown {
		r.changedAt = now
		// Cells the position has closed that went open (from closed, or
		// from unknown after a sensor fault): lifts.
		newly := r.expected.Intersect(r.closed.Union(r.unknown)).Minus(closed).Minus(unknown)
		if !r.haveReading {
			newly = r.expected.Minus(closed).Minus(unknown)
		}
		for _, c := range newly.Cells(nil) {
			r.liftedAt[c] = now
			if r.firstLifted == rules.NoCell && r.synced {
				r.firstLifted = c
			}
		}
		r.lifted = r.lifted.Union(newly)
		r.closed, r.unknown, r.haveReading = closed, unknown, true
		r.fresh = false
		if !unknown.Empty() {
			r.fault = "cannot read " + strings.Join(unknown.Names(r.cells), " ")
		}
	}
	r.step(now)
	return r.evs
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
			r.accept(now, c)
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
	if !s.equal(&r.status) {
		r.status = s
		r.evs = append(r.evs, Event{Kind: StatusChanged, At: now, Status: s})
	}
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
		r.accept(now, r.pending[0])
	}
	if !r.synced {
		if r.closed == r.expected && stable >= r.opts.Settle {
			r.synced = true
			r.resetLifts()
			r.setStatus(now, Status{State: InSync})
			return
		}
		r.setStatus(now, Status{State: Mismatch, Fix: r.closed.Xor(r.expected), Reason: r.reason})
		return
	}
	if !r.fresh {
		r.group, r.ambiguous = r.best()
		r.fresh = true
	}
	group, ambiguous := r.group, r.ambiguous
	if len(group) > 0 {
		if stable >= r.settleFor(group[0]) {
			r.accept(now, group...)
			return
		}
		r.setStatus(now, Status{State: MoveInProgress})
		return
	}
	if r.closed == r.expected {
		r.resetLifts()
		r.setStatus(now, Status{State: InSync})
		return
	}
	if n := len(r.history); r.opts.TakeBacks && n > 0 && r.closed == r.history[n-1].Occupancy() &&
		stable >= r.opts.SettleExtended {
		r.takeBack(now)
		return
	}
	if ambiguous != "" && stable >= r.opts.MismatchAfter {
		r.synced = false
		r.reason = ambiguous
		r.setStatus(now, Status{State: Mismatch, Fix: r.closed.Xor(r.expected), Reason: r.reason})
		return
	}
	if r.closed.Minus(r.expected).Empty() || stable < r.opts.MismatchAfter {
		r.setStatus(now, Status{State: MoveInProgress})
		return
	}
	r.synced = false
	r.reason = "no legal move leads to this: put the pieces back"
	r.setStatus(now, Status{State: Mismatch, Fix: r.closed.Xor(r.expected), Reason: r.reason})
}

func (r *Recognizer) choices() []rules.Move {
	out := make([]rules.Move, len(r.pending))
	for i, c := range r.pending {
		out[i] = c.m
	}
	return out
}

// best finds the moves the reading can be: their occupancy after equals
// the reading and every cell they touch has been lifted. Of several, the
// one touching more cells wins (castling over a rook move of the same
// cells), then the one whose cells were lifted last. Promotions to
// different pieces come back together, the queen first.
func (r *Recognizer) best() (group []candidate, ambiguous string) {
	group = r.group[:0]
	var top *candidate
	var topN int
	var topAt time.Time
	tie := false
	for i := range r.moves {
		c := &r.moves[i]
		if c.after != r.closed || c.info.Touched.Minus(r.lifted) != (rules.CellSet{}) || c.info.Touched.Empty() {
			continue
		}
		n := c.info.Touched.Len()
		at := r.oldestLift(c.info.Touched)
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
	for _, c := range s.Cells(nil) {
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
func (r *Recognizer) accept(now time.Time, group ...candidate) {
	if len(group) > 1 {
		r.pending = append(r.pending[:0:0], group...)
		r.choiceList = r.choices()
		r.setStatus(now, Status{State: NeedsChoice, Choices: r.choiceList})
		return
	}
	c := group[0]
	before := r.pos
	r.pending = nil
	r.history = append(r.history, before)
	if len(r.history) > r.opts.MaxTakeBacks {
		r.history = r.history[1:]
	}
	r.pos = before.Play(c.m)
	r.load()
	r.resetLifts()
	r.evs = append(r.evs, Event{Kind: Moved, At: now, Move: c.m, Before: before, After: r.pos})
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
	var taken rules.Move
	for _, m := range prev.LegalMoves(nil) {
		if prev.Play(m).Key() == from.Key() {
			taken = m
			break
		}
	}
	r.pos = prev
	r.load()
	r.resetLifts()
	r.evs = append(r.evs, Event{Kind: TookBack, At: now, Move: taken, Before: from, After: prev})
	r.setStatus(now, Status{State: InSync})
}
