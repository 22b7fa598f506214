package recognize

import (
	"slices"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// played is an earlier position and the move played from it.
type played struct {
	pos rules.Position
	m   rules.Move
	occ rules.CellSet
}

// Recognizer follows one board. It is not safe for concurrent use: feed it
// from one goroutine (the scan loop).
//
// Its state, by concern: the position it expects and the moves the board
// may show from it (match.go); the reading and when each cell changed
// (history.go); what may complete the move the board shows, the other
// side's reply (reply.go) and the clock presses and a promotion's choice
// (confirm.go); the last move's change of mind (correction.go); and what
// it said (the status, its hint: hint.go).
type Recognizer struct {
	opts  Opts
	cells []string // the cells' names

	// The position expected.
	pos      rules.Position
	expected rules.CellSet // its occupancy
	moves    []candidate   // its legal moves, with their occupancy after
	history  []played      // earlier positions, for take-backs
	gen      int           // counts the positions loaded
	loadedAt time.Time     // the reading in which it was loaded
	synced   bool          // the board has matched it since
	reason   string        // why not synced

	// The reading.
	haveReading     bool
	closed, unknown rules.CellSet
	changedAt       time.Time     // time of the reading's last change
	lifted          rules.CellSet // cells of the position lifted since in sync
	firstLifted     rules.Cell
	before          reading       // the reading before the last change
	nextGap         time.Duration // the gap of the next reading (ObserveGap)
	at              cellTimes     // when each cell's reading changed
	fault           string        // which cells cannot be read

	// What the reading means.
	best answer // the moves it shows (bestFor), kept while fresh
	// unexplainedSince is when the readings stopped being explained by a
	// move in progress (zero while they are).
	unexplainedSince time.Time
	reply            replyWatch  // the other side's reply begun
	press            pressState  // the clock presses
	choice           choiceState // a move awaiting its piece (Choose)
	corr             correction  // the last move open to its mover's change of mind

	// What the recognizer said.
	status Status
	// restate makes the next status be reported even if it equals the
	// last one: after SetPosition, the board showing the new position
	// already is news (the game that expects it is another).
	restate bool
	hint    hintCache
	evs     []Event

	buf     []rules.Move // scratch
	cellBuf []rules.Cell
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
	r.best.fresh = false
}

// SetForgiving sets what the hand may undo (a game's play, issue 33):
// takeBacks as Opts.TakeBacks (the previous position put back is a
// take-back; off, a mismatch) and correction as Opts.Correction (0:
// touch-move, the first move released stands). A correction under way
// ends when correction is 0.
func (r *Recognizer) SetForgiving(takeBacks bool, correction time.Duration) {
	r.opts.TakeBacks, r.opts.Correction = takeBacks, correction
	if correction <= 0 {
		r.corr.open = false
	}
}

// Restore plays again the move m a TookBack event took back, as the
// expected position (SetPosition's, with reason) while the set still shows
// the position before it, and keeps the game's history: a take-back by hand
// made again later is recognized again (a take-back by hand refused, issue
// 33). m must be legal in the current position.
func (r *Recognizer) Restore(m rules.Move, reason string) {
	h := append(slices.Clone(r.history), played{pos: r.pos, m: m, occ: r.expected})
	r.SetPosition(r.pos.Play(m), reason)
	r.history = append(r.history[:0], h...)
	if len(r.history) > r.opts.MaxTakeBacks {
		r.history = r.history[len(r.history)-r.opts.MaxTakeBacks:]
	}
}

// Expect says why the set must show the expected position again (reason),
// as SetPosition does for the same position, keeping the game's history.
func (r *Recognizer) Expect(reason string) {
	h := slices.Clone(r.history)
	r.SetPosition(r.pos, reason)
	r.history = append(r.history[:0], h...)
}

// Status is the current status.
func (r *Recognizer) Status() Status {
	if r.restate {
		// SetPosition's position, not compared with a reading yet: the
		// last reading is all there is to say (the next one reports the
		// status as a StatusChanged event).
		fix := r.closed.Xor(r.expected)
		return Status{State: Mismatch, Reason: r.reason, Fix: fix, Instruction: r.instructionFor(fix)}
	}
	return r.status
}

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
	r.corr = correction{}
	r.load()
	r.synced = false
	r.reason = reason
	r.resetLifts()
}

// load starts the position afresh: its occupancy, its legal moves, and
// nothing decided in it yet.
func (r *Recognizer) load() {
	r.expected = r.pos.Occupancy()
	r.listMoves()
	r.best.fresh = false
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
		s.Instruction = r.instructionFor(s.Fix)
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
	if !r.unknown.Empty() {
		r.setStatus(now, Status{State: SensorFault, Reason: r.fault})
		return
	}
	if r.choiceWaits(now) {
		return
	}
	if !r.synced {
		r.resync(now)
		return
	}
	if r.press.waiting && r.decidePress(now) {
		return
	}
	if r.replyDecides(now) {
		return
	}
	r.settle(now)
}

// resync follows the board out of sync: it is in sync again once it has
// shown the position (or, a take-back, the previous one) for Opts.Settle.
func (r *Recognizer) resync(now time.Time) {
	stable := now.Sub(r.changedAt)
	switch {
	case r.closed == r.expected && stable >= r.opts.Settle:
		r.synced = true
		r.resetLifts()
		r.setStatus(now, Status{State: InSync})
	case r.showsPrevious() && stable >= r.opts.Settle:
		r.takeBack(now)
	default:
		r.setStatus(now, Status{State: Mismatch, Reason: r.reason})
	}
}

// settle decides on the reading as it stands, in sync: a move it shows
// completes once it has stood still for the move's settle window; the
// position shows again (a piece lifted and put back, or a reopened move
// withdrawn), or the previous one (a take-back); readings no move in
// progress explains become a mismatch after Opts.MismatchAfter.
func (r *Recognizer) settle(now time.Time) {
	stable := now.Sub(r.changedAt)
	r.refresh(now)
	if group := r.best.group; len(group) > 0 {
		stood := stable >= r.settleFor(group[0])
		if !r.opts.ConfirmByPress && stood {
			r.accept(now, r.changedAt, BySettle, group...)
			return
		}
		r.setStatus(now, Status{State: MoveInProgress, Ready: true, Held: stood})
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
	if r.showsPrevious() && stable >= r.opts.SettleExtended {
		r.takeBack(now)
		return
	}
	if !r.best.explained && now.Sub(r.unexplainedSince) >= r.opts.MismatchAfter {
		reason := r.best.ambiguous
		if n := len(r.history); n > 0 && r.closed == r.history[n-1].occ {
			// The previous position put back, take-backs off: the move
			// stands.
			reason = TakeBacksOff + r.history[n-1].pos.Long(r.history[n-1].m) + " stands"
		}
		if reason == "" {
			reason = "no legal move leads to this"
		}
		r.mismatch(now, reason)
		return
	}
	r.setStatus(now, Status{State: MoveInProgress})
}

// TakeBacksOff begins the reason of a mismatch that puts the previous
// position back while take-backs are off (Opts.TakeBacks): the move
// stands.
const TakeBacksOff = "take-backs are off: "

// showsPrevious reports whether the reading is the position before the
// last move, and take-backs are on.
func (r *Recognizer) showsPrevious() bool {
	n := len(r.history)
	return r.opts.TakeBacks && n > 0 && r.closed == r.history[n-1].occ
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
