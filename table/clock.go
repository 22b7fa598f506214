package table

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// The chess clock of a game with a time control (issue 16). The table owns
// a clock.Clock for the game and hands it every event with its moment:
//
//   - the clock starts when the set first shows the position of a new game
//     it was set up for (or, with clock buttons, at the first press); a new
//     game begun on a set already standing in its start position
//     (standing) starts it at the completion of White's first move, White
//     charged nothing, unless a press or the arbiter's resume starts it
//     first (issue 33; docs/game.md, The clock's start);
//   - a move on the set stops the mover's clock at its completion time
//     (completedAt), not when it was recognized; a move made elsewhere at
//     the command's time;
//   - a flag is declared on the first Tick at or after FlagAt when the set
//     is in sync (no move can be on the way), else once the table's clock
//     has passed FlagAt by the recognition latency (flagGrace), so that a
//     move completed before the flag fell is reported first and counts;
//   - take-backs restore the readings; a game that ends stops the clock;
//   - arbiter commands (Clock) and penalties are journaled, and a resumed
//     game's clock is rebuilt from the journal, paused.
//
// Everything runs on the table's goroutine, in the table's injected time:
// no timer, no goroutine.

// ClockOpts configure the table's chess clock.
type ClockOpts struct {
	// Default is the time control of the game the table starts when the
	// state directory has none, and of a NewGame with DefaultClock.
	// The zero Control is no clock.
	Default clock.Control
	// Penalty is given to the opponent of a player whose move on the set
	// no legal move explains (an Illegal event); 0 gives none. FIDE's
	// blitz penalty is clock.DefaultPenalty.
	Penalty time.Duration
	// Low is the low-time threshold (LowTime events, Snapshot.Clock.Low);
	// 0 never warns. Low time leaves the settle windows as they are.
	Low time.Duration
	// CannotMate decides a flag's result (clock.FlagResult); nil is
	// clock.DefaultCannotMate.
	CannotMate clock.CannotMate
}

// DefaultClockOpts returns the defaults: no clock, no penalty, the clock
// package's low-time threshold.
func DefaultClockOpts() ClockOpts { return ClockOpts{Low: clock.DefaultLow} }

// Clock actions of the Clock command.
type ClockAction uint8

const (
	// ClockPause stops the running clock.
	ClockPause ClockAction = iota + 1
	// ClockResume restarts it.
	ClockResume
	// ClockAdd adds D (negative: takes it off) to Side's clock.
	ClockAdd
	// ClockSet sets Side's clock to D.
	ClockSet
)

var clockActions = [...]game.ClockAction{ClockPause: game.ClockPause, ClockResume: game.ClockResume,
	ClockAdd: game.ClockAdd, ClockSet: game.ClockSet}

// Clock is an arbiter's command to the game's clock: pause, resume, add or
// set a side's time. It is refused in a game without a clock or over.
type Clock struct {
	Action ClockAction
	// Side and D are those of ClockAdd and ClockSet.
	Side rules.Color
	D    time.Duration
}

// Name is the command's name.
func (Clock) Name() string { return "clock" }
func (Clock) command()     {}

// ErrNoClock: the game has no clock.
var ErrNoClock = game.ErrNoClock

// clockState is the table's part of the clock.
type clockState struct {
	clk *clock.Clock // nil: the game has no clock
	// resumed is set by openGame: the game was resumed from its journal.
	resumed bool
	// restartPaused: paused since a restart, until someone resumes it.
	restartPaused bool
	// stopped: the game is over; the clock stands.
	stopped bool
	low     [2]bool
	buttons bool // clock buttons are wired: they start the clock
	// waitMove: the new game began on a set already standing in its start
	// position (standing): the clock waits for White's first move (or a
	// press, or the arbiter's resume), not for the set to show it.
	waitMove bool
	// saved is when the clock was last kept beside the journal (clockSave).
	saved time.Time
	// offSync is when the set last left the expected position: where a
	// blame for a mismatch begins (clockIllegal).
	offSync time.Time
	// choicePress is the press that completed a promotion still waiting
	// for its piece: the clock stopped there, whenever the piece is
	// chosen.
	choicePress time.Time
	// idle is a press without a move waiting for its grace (idlePress).
	idle *idlePress
}

// completedAt is when the move of e was physically completed: the time of
// the last settled cell change that made it, never the end of the settle
// window, so that recognition's latency is never charged to the mover.
//
// recognize.Event.CompletedAt is that time (At is when the move was
// decided); an event without it (a take-back) counts at At. A move a clock
// press completed counts at the press (At), as on any chess clock: the
// mover's time runs until the press, however long after letting go of the
// piece (or, for a press that came first, until the board showed it).
func completedAt(e recognize.Event) time.Time {
	if e.By == recognize.ByPress || e.CompletedAt.IsZero() {
		return e.At
	}
	return e.CompletedAt
}

// controlTag is c as the game's TimeControl tag: "" for no clock.
func controlTag(c clock.Control) string {
	if c.None() {
		return ""
	}
	return c.String()
}

func (t *Table) clockOpts() *clock.Opts {
	return &clock.Opts{Penalty: t.penalty(), Low: t.o.Clock.Low}
}

// clockTags sets the time control of a new game's tags.
func (t *Table) clockTags(tags *game.Tags, c NewGame) error {
	ctl := c.TimeControl
	if c.DefaultClock && ctl.None() {
		ctl = t.o.Clock.Default
	}
	if err := ctl.Check(); err != nil {
		return fmt.Errorf("table: new game: %w", err)
	}
	tags.TimeControl = controlTag(ctl)
	return nil
}

// clockGame sets up the clock of the table's (new or resumed) game.
func (t *Table) clockGame(now time.Time) {
	resumed := t.ck.resumed
	t.ck = clockState{}
	for _, b := range t.buttons {
		if b.Kind == ButtonClockWhite || b.Kind == ButtonClockBlack {
			t.ck.buttons = true
		}
	}
	ctl := t.sess.Control()
	// With clock buttons and a clock to press, the press, not the
	// settling, completes a move (the practice of DGT boards with clocks);
	// a game without a clock settles as on a set without buttons.
	t.rec.SetConfirmByPress(t.o.Recognize.ConfirmByPress || t.ck.buttons && !ctl.None())
	t.applyPlay()
	if ctl.None() {
		return
	}
	if !resumed {
		c, err := clock.New(ctl, t.clockOpts())
		if err != nil {
			t.log.Error("clock", "err", err)
			return
		}
		t.ck.clk = c
		if res, _ := t.sess.Result(); res != rules.NoResult {
			t.clockStop(now) // a game that begins over (a dead position)
		}
		return
	}
	t.clockRebuild(now, true)
}

// clockRebuild makes the clock again from the journal: the readings after
// each move and the changes since. After a restart it stays paused (the
// time the set was off is nobody's); after a refused move it runs again if
// it ran.
func (t *Table) clockRebuild(now time.Time, restart bool) {
	running := t.ck.clk != nil && t.ck.clk.Started() && !t.ck.clk.Paused()
	ctl := t.sess.Control()
	// With clock buttons and a clock to press, the press, not the
	// settling, completes a move (the practice of DGT boards with clocks);
	// a game without a clock settles as on a set without buttons.
	t.rec.SetConfirmByPress(t.o.Recognize.ConfirmByPress || t.ck.buttons && !ctl.None())
	if ctl.None() {
		return
	}
	turn := t.sess.Position().Turn()
	rs, ok := t.sess.Readings()
	var c *clock.Clock
	var err error
	if ok {
		c, err = clock.Rebuild(ctl, rs, turn, t.clockOpts())
	}
	if !ok || err != nil {
		// Moves without readings: the journal cannot give the times back.
		t.log.Warn("clock: the journal has no readings for every move; the clock starts again from the control",
			"game", t.sess.ID(), "err", err)
		if c, err = clock.New(ctl, t.clockOpts()); err == nil {
			_ = c.Start(now, turn)
			_ = c.Pause(now)
		}
	}
	if err != nil {
		t.log.Error("clock", "err", err)
		t.ck.clk = nil
		return
	}
	cp, before, saved := t.sess.SavedClock()
	changes := t.sess.ClockChanges()
	for i, ch := range changes {
		if saved && i == before {
			t.clockRestore(c, cp)
		}
		switch ch.Action {
		case game.ClockAdd:
			err = c.Add(now, ch.Side, ch.D)
		case game.ClockSet:
			err = c.Set(now, ch.Side, ch.D)
		case game.ClockPenalty:
			_, err = c.Illegal(now, ch.Side)
		}
		if err != nil {
			t.log.Warn("clock: a journaled change does not apply again", "action", ch.Action, "err", err)
		}
	}
	if saved && before == len(changes) {
		t.clockRestore(c, cp)
	}
	t.ck.clk = c
	if res, _ := t.sess.Result(); res != rules.NoResult {
		t.clockStop(now)
		return
	}
	if restart {
		t.ck.restartPaused = true
		t.log.Info("clock paused: the game was resumed after a restart; resume the clock to go on", "game", t.sess.ID())
	} else if running {
		_ = c.Resume(now)
	}
}

// clockRestore sets the rebuilt clock c to the checkpoint cp: the thinking
// time since the last move, which the readings do not have.
func (t *Table) clockRestore(c *clock.Clock, cp clock.Checkpoint) {
	if err := c.Restore(cp); err != nil {
		t.log.Warn("clock: the checkpoint does not apply", "err", err)
		return
	}
	t.log.Info("clock: thinking time since the last move taken back from the checkpoint",
		"white_ms", cp.WhiteMS, "black_ms", cp.BlackMS, "at", cp.At.Format(clock.TimeLayout))
}

// CheckpointEvery is how often the table keeps the running clock beside
// the journal (game.Session.SaveClock, without an fsync): a crash costs the
// side to move at most this much of its thinking time (it gets it back).
const CheckpointEvery = time.Second

// clockSave keeps the clock at now beside the journal: with sync at a
// clean shutdown, at the end of a game and at the end of a blame, without
// every CheckpointEvery while it runs.
func (t *Table) clockSave(now time.Time, sync bool) {
	c := t.ck.clk
	if c == nil || !c.Started() {
		return
	}
	if err := t.sess.SaveClock(c.Checkpoint(now), sync); err != nil {
		t.log.Warn("clock: checkpoint not kept", "err", err)
	}
	t.ck.saved = now
}

// restartPausedDetail is the Detail of the ClockChanged event of a game
// resumed paused.
const restartPausedDetail = "paused: the game was resumed after a restart; resume the clock to go on"

// clockAddSink tells a new sink that the clock is paused by a restart.
func (t *Table) clockAddSink(q *queue, now time.Time) {
	if t.ck.restartPaused {
		q.put(Event{Kind: ClockChanged, At: now, Snap: t.latest.Load(), Detail: restartPausedDetail})
	}
}

// clockSnapshot is the clock at now for a Snapshot.
func (t *Table) clockSnapshot(now time.Time) *clock.Snapshot {
	if t.ck.clk == nil {
		return nil
	}
	s := t.ck.clk.Snapshot(now)
	return &s
}

// standing reports whether the set's last reading already shows pos, the
// start position of a new game of sys, before the game replaces the
// expected position: every cell read, a piece where pos has one and none
// elsewhere. Nothing read yet, or a system of other cells (read by a new
// scanner), is not standing.
func (t *Table) standing(sys rules.System, pos rules.Position) bool {
	if !t.observed || !slices.Equal(t.sys.Cells(), sys.Cells()) {
		return false
	}
	snap := t.sc.Snapshot()
	return snap.Unknown.Empty() && snap.Closed == pos.Occupancy()
}

func (t *Table) clockStart(at time.Time) {
	turn := t.rec.Position().Turn()
	if err := t.ck.clk.Start(at, turn); err != nil {
		t.log.Warn("clock", "err", err)
		return
	}
	t.log.Info("clock started", "running", turn.String())
}

// clockMove stops the mover's clock for a move recognized on the set and
// gives the job its completion time and reading. It reports false when the
// mover's flag had fallen: the move is not played, the game is over.
func (t *Table) clockMove(jb *job) bool {
	jb.at = completedAt(jb.ev)
	if jb.ev.By == recognize.ByChoice && !t.ck.choicePress.IsZero() {
		jb.at = t.ck.choicePress
	}
	t.ck.choicePress = time.Time{}
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
		if !t.ck.buttons && !t.ck.waitMove && t.rec.Status().State == recognize.InSync {
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
	for _, side := range [2]rules.Color{rules.White, rules.Black} {
		low := c.Low(side, now)
		if low == t.ck.low[side] {
			continue
		}
		t.ck.low[side] = low
		if low {
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

// clockButton is a press of a side's clock button: it starts the clock at
// the start of a game, resumes a clock paused by a restart, and (in every
// case) completes the move of the side to move.
// With clock buttons the press, not the settling, completes a move
// (recognize.Opts.ConfirmByPress), so a slow slide never becomes a move
// before it.
func (t *Table) clockButton(now time.Time, kind ButtonKind) {
	c := t.ck.clk
	if c == nil || t.ck.stopped {
		return
	}
	side := rules.White
	if kind == ButtonClockBlack {
		side = rules.Black
	}
	idle := false
	switch {
	case !c.Started():
		t.clockStart(now)
		t.emit(Event{Kind: ClockChanged, At: now, Side: side, Detail: "started"})
	case t.ck.restartPaused:
		if _, err := t.exec(now, Clock{Action: ClockResume}); err != nil {
			t.log.Info("clock button", "err", err)
		}
	default:
		// The side to move presses with the set showing the position as
		// it stands, its clock running: no move on the way.
		idle = t.play() == game.PlayTournament && !c.Paused() && side == t.rec.Position().Turn() &&
			t.rec.Status().State == recognize.InSync
	}
	var moves int
	if idle {
		t.flush()
		moves = len(t.sess.Moves())
	}
	// A press is never used up by starting or resuming the clock (issue
	// 33): with its mover's move on the board it completes that move too,
	// charged to the press (the clock started or resumed at it, so the
	// mover is charged nothing for the move before it). The recognizer
	// ignores a press by the side not to move, and a press with no move.
	t.recognized(t.rec.Confirm(now, side))
	if t.rec.Status().State == recognize.NeedsChoice {
		t.ck.choicePress = now // the move is complete but for its piece
	}
	if idle {
		t.ck.idle = &idlePress{at: now, side: side, moves: moves}
	}
}

// idlePress is a press of the side to move's clock with no move on the
// set, in a tournament game: unless a move follows within the press's
// grace (recognize.Opts.PressGrace: a press read just before the move's
// last change), it is an illegal move (FIDE Laws 7.5.4).
type idlePress struct {
	at    time.Time
	side  rules.Color
	moves int // the game's moves at the press
}

// clockIdlePress penalizes a press without a move (idlePress) once its
// grace is over and no move came: as an illegal move (FIDE Laws 7.5.4,
// penalized by 7.5.5 and A.3 as the set's illegal moves are), the second
// losing the game.
func (t *Table) clockIdlePress(now time.Time) {
	p := t.ck.idle
	if p == nil || now.Sub(p.at) < t.o.Recognize.PressGrace+2*t.o.Sensors.Period {
		return
	}
	t.ck.idle = nil
	t.flush()
	if len(t.sess.Moves()) != p.moves || t.ck.stopped || t.rec.Status().State != recognize.InSync {
		return // a move came (or the game ended, or the board is being fixed)
	}
	if res, _ := t.sess.Result(); res != rules.NoResult {
		return
	}
	n := t.penalize(p.at, p.side)
	detail := fmt.Sprintf("tournament game: %s pressed the clock without making a move (FIDE Laws 7.5.4): an illegal move", p.side)
	t.log.Info("clock pressed without a move", "side", p.side.String(), "illegal_moves", n)
	t.emit(Event{Kind: Illegal, At: p.at, Side: p.side, Detail: detail})
	t.forfeitIllegal(now, p.side, n)
}

// clockCommand carries out an arbiter's Clock command; refused, it changes
// nothing.
func (t *Table) clockCommand(now time.Time, cmd Clock) (Reply, error) {
	c := t.ck.clk
	if c == nil {
		return Reply{}, fmt.Errorf("table: clock: %w", ErrNoClock)
	}
	if res, why := t.sess.Result(); res != rules.NoResult {
		return Reply{}, fmt.Errorf("table: clock: %w (%s, %s)", game.ErrGameOver, res, why)
	}
	if cmd.Action < ClockPause || cmd.Action > ClockSet {
		return Reply{}, fmt.Errorf("table: clock action %d: want pause, resume, add or set", cmd.Action)
	}
	next := *c
	var err error
	detail := clockActions[cmd.Action]
	switch cmd.Action {
	case ClockPause:
		err = next.Pause(now)
	case ClockResume:
		if !next.Started() {
			err = next.Start(now, t.rec.Position().Turn())
		} else {
			err = next.Resume(now)
		}
	case ClockAdd:
		err = next.Add(now, cmd.Side, cmd.D)
	case ClockSet:
		err = next.Set(now, cmd.Side, cmd.D)
	}
	if err != nil {
		return Reply{}, fmt.Errorf("table: %w", err)
	}
	ch := game.ClockChange{Action: detail, Side: cmd.Side, D: cmd.D, Time: now}
	if err := t.sess.ChangeClock(ch); err != nil {
		return Reply{}, err
	}
	t.ck.clk = &next
	if cmd.Action == ClockResume {
		t.ck.restartPaused = false
	}
	text := string(detail)
	if cmd.Action == ClockAdd || cmd.Action == ClockSet {
		text = fmt.Sprintf("%s %s %v", detail, cmd.Side, cmd.D)
	}
	t.log.Info("clock", "change", text)
	t.emit(Event{Kind: ClockChanged, At: now, Side: cmd.Side, Detail: text})
	return Reply{Clock: t.latest.Load().Clock}, nil
}
