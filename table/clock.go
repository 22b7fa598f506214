package table

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/setting"
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
//   - arbiter commands (AdjustClock) and penalties are journaled, and a resumed
//     game's clock is rebuilt from the journal, paused.
//
// Everything runs on the table's goroutine, in the table's injected time:
// no timer, no goroutine.

// ClockOpts configure the table's chess clock. They are the configuration
// file's "clock" section (the yaml names; those tagged "-" are not
// settings, and displays belongs to the clock's 7-segment displays),
// checked by Validate.
type ClockOpts struct {
	// Default is the time control of the game the table starts when the
	// state directory has none, and of a NewGame with DefaultClock, as
	// PGN's TimeControl tag writes it ("180+2", "300d3",
	// "40/5400+30:1800+30"; clock.Parse). The zero Control ("") is no
	// clock.
	Default clock.Control `yaml:"time_control"`
	// Penalty is given to the opponent of a player whose move on the set
	// no legal move explains (an Illegal event); 0 gives none. FIDE's
	// blitz penalty is clock.DefaultPenalty.
	Penalty time.Duration `yaml:"penalty"`
	// Low is the low-time threshold (LowTime events, Snapshot.Clock.Low);
	// 0 never warns. Low time leaves the settle windows as they are.
	Low time.Duration `yaml:"low"`
	// CannotMate decides a flag's result (clock.FlagResult); nil is
	// clock.DefaultCannotMate.
	CannotMate clock.CannotMate `yaml:"-"`
}

// DefaultClockOpts returns the defaults: no clock, no penalty, the clock
// package's low-time threshold.
func DefaultClockOpts() ClockOpts { return ClockOpts{Low: clock.DefaultLow} }

// Validate checks the settings of the configuration file: a time control
// clock.Control.Check accepts, low and penalty 0 to an hour. Its error is
// setting.Problems, keyed by the yaml names.
func (o *ClockOpts) Validate() error {
	var ps setting.Problems
	if err := o.Default.Check(); err != nil {
		ps.Add("time_control", "%s", strings.TrimPrefix(err.Error(), "clock: "))
	}
	ps.Between("low", o.Low, 0, time.Hour)
	ps.Between("penalty", o.Penalty, 0, time.Hour)
	return ps.Err("table: clock")
}

// Clock actions of the AdjustClock command.
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

// AdjustClock is an arbiter's command to the game's clock: pause, resume, add or
// set a side's time. It is refused in a game without a clock or over.
type AdjustClock struct {
	Action ClockAction
	// Side and D are those of ClockAdd and ClockSet.
	Side rules.Color
	D    time.Duration
}

// Name is the command's name.
func (AdjustClock) Name() string { return "clock" }
func (AdjustClock) command()     {}

// ErrNoClock: the game has no clock.
var ErrNoClock = game.ErrNoClock

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
	t.ck.buttons = t.buttons.has(ButtonClockWhite, ButtonClockBlack)
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

// standing reports whether the set's last reading already shows pos, the
// start position of a new game of sys, before the game replaces the
// expected position: every cell read, a piece where pos has one and none
// elsewhere. A system of other cells (read by a new scanner) is not
// standing. known is false when that cannot be told yet: nothing read, or
// cells not yet settled (a new_game that comes as the daemon starts); the
// first complete reading decides then (settle).
func (t *Table) standing(sys rules.System, pos rules.Position) (standing, known bool) {
	if !slices.Equal(t.sys.Cells(), sys.Cells()) {
		return false, true
	}
	if !t.observed {
		return false, false
	}
	snap := t.sc.Snapshot()
	if !snap.Unknown.Empty() {
		return false, false
	}
	return snap.Closed == pos.Occupancy(), true
}

// settleStanding decides, at the first complete reading after a new game
// whose set could not be read yet, whether it stood in the game's start
// position: nobody can have set it up unseen, so a set that shows the
// position at once stood in it.
func (t *Table) settleStanding(closed, unknown rules.CellSet) {
	if !t.ck.undecided || !unknown.Empty() {
		return
	}
	t.ck.undecided = false
	t.ck.waitMove = len(t.sess.Moves()) == 0 && closed == t.sess.Position().Occupancy()
}

func (t *Table) clockStart(at time.Time) {
	turn := t.rec.Position().Turn()
	if err := t.ck.clk.Start(at, turn); err != nil {
		t.log.Warn("clock", "err", err)
		return
	}
	t.log.Info("clock started", "running", turn.String())
}
