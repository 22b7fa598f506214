package recognize

import (
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
	firstLifted     rules.Cell
	// at: when each cell's reading changed (history.go).
	at cellTimes

	// choice: a move completed on the board awaiting its piece (a
	// promotion, or a placement), see Choose.
	choice choiceState
	status Status
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
	// nextGap is the gap of the next reading (ObserveGap); loadedAt is
	// when the position was loaded.
	nextGap  time.Duration
	loadedAt time.Time
	// reply: the other side's reply begun, which may confirm the move the
	// board shows (reply.go).
	reply replyWatch
	// before is the reading before the last change, and its lifts.
	before reading
	// press: the clock presses (confirm.go).
	press pressState
	// corr: the last move, if the settle window completed it, open to its
	// mover's change of mind (correction.go).
	corr correction
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
	r.choice.pending = nil
	r.press.owed = [2]time.Time{}
	r.corr.open, r.corr.reopened = false, false
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
	r.press.waiting, r.press.seen = false, false
	r.reply.from, r.reply.slideWait = time.Time{}, false
	r.loadedAt = r.changedAt
	r.gen++
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
	if len(r.choice.pending) > 0 {
		// Swapping the pawn for the new piece changes nothing; any other
		// change means the next move has begun and the default stands.
		diff := r.closed.Xor(r.choice.pending[0].after)
		if p := r.choice.pending[0].info.Promoted; p != rules.NoCell {
			diff.Remove(p)
		}
		if diff.Empty() {
			r.setStatus(now, Status{State: NeedsChoice, Choices: r.choice.list})
			return
		}
		r.accept(now, r.choice.at, ByLift, r.choice.pending[0])
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
	if r.press.waiting && r.decidePress(now) {
		return
	}
	if !r.reply.from.IsZero() && now.Sub(r.reply.from) >= r.opts.Skew {
		r.reply.from, r.reply.slideWait = time.Time{}, false
		if r.synced && len(r.choice.pending) == 0 &&
			(r.liftConfirms(now, r.reply.lifts, false) || !r.reply.slideWait && r.liftConfirms(now, r.reply.lifts, true)) {
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
		if r.corr.reopened && stable >= r.opts.SettleExtended {
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

// accept plays the move (or, for a promotion with a choice, waits for it).
// completed is when the board came to show it.
func (r *Recognizer) accept(now, completed time.Time, by Confirmation, group ...candidate) {
	if len(group) > 1 {
		r.choice.pending = append(r.choice.pending[:0:0], group...)
		r.choice.at = completed
		r.choice.list = r.choices()
		r.setStatus(now, Status{State: NeedsChoice, Choices: r.choice.list})
		return
	}
	r.play(now, completed, by, group[0], r.pos.Play(group[0].m))
}

// play makes c, whose position after is next, the position.
func (r *Recognizer) play(now, completed time.Time, by Confirmation, c candidate, next rules.Position) {
	before := r.pos
	r.choice.pending = nil
	r.history = append(r.history, played{pos: before, m: c.m, occ: r.expected})
	if len(r.history) > r.opts.MaxTakeBacks {
		r.history = r.history[1:]
	}
	r.press.owed[before.Turn()&1] = time.Time{}
	if by != ByPress && !r.press.seen {
		r.press.owed[before.Turn()&1] = completed.Add(latePress)
	}
	r.pos = next
	r.load()
	r.resetLifts()
	r.corr.open = false
	if by == BySettle && r.opts.Correction > 0 && correctable(c.info) {
		r.corr.open, r.corr.until, r.corr.to = true, completed.Add(r.opts.Correction), c.info.To
	}
	switch {
	case !r.corr.reopened:
		r.evs = append(r.evs, Event{Kind: Moved, At: now, CompletedAt: completed, By: by, Move: c.m, Before: before, After: r.pos})
	case c.m == r.corr.withdrawn.m:
		// The piece went back to the square of the move: it stands.
		r.corr.reopened = false
	default:
		r.corr.reopened = false
		r.evs = append(r.evs, Event{Kind: Corrected, At: now, CompletedAt: completed, By: by, Move: c.m,
			Withdrawn: r.corr.withdrawn.m, Before: before, After: r.pos})
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
