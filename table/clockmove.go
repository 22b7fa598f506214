package table

import (
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// clockMove stops the mover's clock for a move recognized on the set and
// gives the job its completion time and reading. It reports false when the
// mover's flag had fallen: the move is not played, the game is over.
func (t *Table) clockMove(jb *job) bool {
	jb.at = t.ck.moveTime(jb.ev)
	c := t.ck.clk
	if c == nil || t.ck.stopped {
		return true
	}
	if !c.Started() {
		_ = c.Start(jb.at, jb.ev.Before.Turn())
	}
	r, err := c.Moved(jb.at)
	switch {
	case errors.Is(err, clock.ErrFlag):
		t.clockFlag(jb.ev.At)
		t.setExpected(t.sess.Position(), "the flag fell before "+jb.ev.Before.Long(jb.ev.Move)+" was completed: take it back")
		return false
	case err != nil:
		t.log.Warn("clock", "move", jb.ev.Before.Long(jb.ev.Move), "err", err)
		return true
	}
	jb.reading = &r
	return true
}

// clockTakeBack restores the clock for a take-back at at.
func (t *Table) clockTakeBack(at time.Time) {
	t.ck.choicePress = time.Time{}
	c := t.ck.clk
	if c == nil {
		return
	}
	if err := c.TakeBack(at); err != nil {
		t.log.Warn("clock", "take-back", err)
		return
	}
	// The position had ended the game: it goes on again (TakeBack restarts
	// a stopped clock).
	t.ck.stopped = false
}

// clockPlay plays a move made elsewhere at now, with the clock's reading,
// or with sync's times when given (the other set's reading, in a remote
// game). The clock changes only once the session has the move.
func (t *Table) clockPlay(now time.Time, m rules.Move, sync *clock.Reading) (game.Move, error) {
	c := t.ck.clk
	if c == nil || t.ck.stopped {
		return t.sess.PlayAt(m, now, nil)
	}
	next := *c
	if !next.Started() {
		_ = next.Start(now, t.sess.Position().Turn())
	}
	r, err := next.Moved(now)
	if fa, ok := next.FlagAt(); errors.Is(err, clock.ErrFlag) && sync != nil && ok {
		// The other set's clock, authoritative for its side, had time
		// left: this copy of it ran ahead by the message's way here.
		r, err = next.Moved(fa.Add(-time.Millisecond))
	}
	if errors.Is(err, clock.ErrFlag) {
		t.clockFlag(now)
		return game.Move{}, fmt.Errorf("table: move: %w", err)
	}
	if err != nil {
		return game.Move{}, err
	}
	if sync != nil {
		if r, err = next.Sync(time.Duration(sync.WhiteMS)*time.Millisecond, time.Duration(sync.BlackMS)*time.Millisecond); err != nil {
			return game.Move{}, err
		}
	}
	rec, err := t.sess.PlayAt(m, now, &r)
	if err == nil {
		t.ck.clk = &next
	}
	return rec, err
}

// flagGrace is how long after a flag's fall the table waits before it
// declares it while a move is on the way (pieces lifted or placed): the
// latest a move completed just before can be reported (the debounce, the
// longer settle window and two scans). With the set in sync (nothing
// lifted, nothing placed) no move can have been completed before the flag,
// and the flag is declared at the first scan that sees it: within a scan
// period.
func (t *Table) flagGrace() time.Duration {
	return t.o.Sensors.Debounce + max(t.o.Recognize.Settle, t.o.Recognize.SettleExtended) + 2*t.o.Sensors.Period
}

// clockTick declares a fallen flag and warns of low time. It allocates
// nothing while nothing changes.
func (t *Table) clockTick(now time.Time) {
	c := t.ck.clk
	if c == nil || t.ck.stopped {
		return
	}
	if !c.Started() {
		// A new game's clock starts when the set first shows its position,
		// unless clock buttons start it, or the set stood in it already
		// (the first move starts it: clockMove, clockPlay).
		if !t.ck.buttons && !t.ck.waitMove && !t.ck.undecided && t.rec.Status().State == recognize.InSync {
			t.clockStart(now)
			t.emit(Event{Kind: ClockChanged, At: now, Side: t.rec.Position().Turn(), Detail: "started"})
		}
		return
	}
	if t.clockIdlePress(now); t.ck.stopped {
		return
	}
	if at, ok := c.FlagAt(); ok && !now.Before(at) && (t.rec.Status().State == recognize.InSync || !now.Before(at.Add(t.flagGrace()))) {
		t.clockFlag(now)
		return
	}
	if !c.Paused() && now.Sub(t.ck.saved) >= CheckpointEvery {
		t.clockSave(now, false)
	}
	low := t.ck.wentLow(now)
	for _, side := range [2]rules.Color{rules.White, rules.Black} {
		if low[side] {
			t.log.Info("low time", "side", side.String())
			t.emit(Event{Kind: LowTime, At: now, Side: side})
		}
	}
}

// clockFlag ends the game on time if a flag has fallen by now: a loss, or
// a draw when the opponent cannot mate (clock.FlagResult).
func (t *Table) clockFlag(now time.Time) {
	t.flush()
	c := t.ck.clk
	side, when, ok := c.Flagged(now)
	if !ok || t.ck.stopped || t.peerFlags(side) {
		return
	}
	t.ck.stopped = true
	c.Stop(now)
	if res, _ := t.sess.Result(); res != rules.NoResult {
		return
	}
	defer t.clockSave(now, true)
	res := clock.FlagResult(t.sess.Position(), side, t.o.Clock.CannotMate)
	if err := t.sess.FlagFell(side, res, when); err != nil {
		t.log.Error("flag fell, the journal refused the result", "side", side.String(), "err", err)
		return
	}
	t.log.Info("flag fell", "side", side.String(), "at", when.UTC().Format(clock.TimeLayout))
	t.gameOver(now)
}

// clockStop stops the clock of a game that ended (clock.Clock.Stop): the
// state then says "stopped", with no side running and nothing paused.
func (t *Table) clockStop(at time.Time) {
	if c := t.ck.clk; c != nil && !c.Stopped() {
		t.ck.stopped = true
		t.ck.restartPaused = false
		c.Stop(at)
		t.clockSave(at, true) // the final times outlive a restart
	}
}

// culprit is the side that caused the mismatch st. It is the side to move,
// unless every piece lifted off the expected position is the other side's
// and one of them is the piece that just moved (it stands on the last
// move's cells): after a move recognized too early (a ghost, a change of
// mind) the mover moved its piece on, while the position says that the
// opponent is to move (issue 21). A captured piece's cell is covered again
// by the capturer, so it is not lifted; an opponent's piece the side to
// move took off alone is not the piece that just moved.
func (t *Table) culprit(st recognize.Status) rules.Color {
	pos := t.rec.Position()
	turn := pos.Turn()
	other := false
	for _, c := range st.Lifted.Cells(nil) {
		pc, ok := pos.CellPiece(c)
		if !ok {
			continue
		}
		if pc.Color() == turn {
			return turn
		}
		other = true
	}
	if other && !st.Lifted.Intersect(t.lastMove).Empty() {
		return turn.Other()
	}
	return turn
}

// clockIllegal handles a move on the set that no legal move explains, made
// by the side that caused it (culprit): its opponent gets the penalty, when
// one is configured, and when the culprit is not the side to move its
// clock runs instead of the opponent's from the moment the set left the
// position until it shows it again (clock.Clock.Blame): a mismatch the
// mover caused is the mover's time.
//
// It returns the culprit and, when a penalty was given, how many illegal
// moves it has completed in the game (0 without).
func (t *Table) clockIllegal(at time.Time, st recognize.Status) (rules.Color, int) {
	c := t.ck.clk
	if c == nil || t.ck.stopped || !c.Started() {
		return t.culprit(st), 0
	}
	t.flush() // the journal keeps the penalty after the moves before it
	side := t.culprit(st)
	if !c.Paused() {
		from := t.ck.offSync
		if from.IsZero() || from.After(at) {
			from = at
		}
		if err := c.Blame(from, side); err != nil {
			t.log.Info("clock: no blame", "err", err)
		}
	}
	return side, t.penalize(at, side)
}

// penalize gives side's opponent the penalty for side's illegal move at
// at, journaled, when one is configured; it returns how many illegal moves
// side has completed in the game (0: no penalty given).
func (t *Table) penalize(at time.Time, side rules.Color) int {
	penalty := t.penalty()
	if penalty <= 0 {
		return 0
	}
	next := *t.ck.clk
	n, err := next.Illegal(at, side)
	if err != nil {
		t.log.Info("clock: no penalty", "err", err)
		return 0
	}
	err = t.sess.ChangeClock(game.ClockChange{Action: game.ClockPenalty, Side: side, D: penalty, Time: at})
	if err != nil {
		t.log.Error("clock: penalty not journaled", "err", err)
		return 0
	}
	t.ck.clk = &next
	t.emit(Event{Kind: ClockChanged, At: at, Side: side,
		Detail: fmt.Sprintf("penalty: %s gets %v for %s's illegal move", side.Other(), penalty, side)})
	return n
}

// clockInSync ends a blame when the set shows the position again: the
// side to move's clock runs again, and the time charged is kept.
func (t *Table) clockInSync(at time.Time) {
	c := t.ck.clk
	if c == nil || t.ck.stopped {
		return
	}
	if _, on := c.Blamed(); !on {
		return
	}
	if err := c.Unblame(at); err != nil {
		t.log.Info("clock: unblame", "err", err)
		return
	}
	t.clockSave(at, true)
}

// clockClose keeps the clock exactly at a clean shutdown: the side to
// move's thinking time since its turn began survives the restart.
func (t *Table) clockClose(now time.Time) {
	if c := t.ck.clk; c != nil && !t.ck.stopped {
		t.clockSave(now, true)
	}
}
