package clock

import (
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Opts are the options of New and Rebuild.
type Opts struct {
	// Penalty is the time given to the opponent of a player who completed
	// an illegal move (Illegal); 0 gives nothing.
	Penalty time.Duration
	// Low is the low-time threshold: a side with less on its clock is in
	// low time (Snapshot.Low, Settle); 0 never warns.
	Low time.Duration
}

// DefaultPenalty is FIDE's for a first completed illegal move in rapid and
// blitz (Laws of Chess 2023, Appendix A.4.2, which Appendix B applies to
// blitz): one minute to the opponent. Standard play gives two minutes
// (Article 7.5.5); set Opts.Penalty to 2*time.Minute for it. The second
// illegal move loses the game under both, which is the table's decision
// (Illegal returns the count).
const DefaultPenalty = time.Minute

// DefaultLow is the default low-time threshold: 20 s, where the segment
// display switches to tenths and a blitz player has some ten moves left.
const DefaultLow = 20 * time.Second

// DefaultOpts returns the defaults: DefaultPenalty and DefaultLow.
func DefaultOpts() Opts {
	return Opts{Penalty: DefaultPenalty, Low: DefaultLow}
}

// Errors of the clock's commands, wrapped in errors that say more.
var (
	// ErrNotStarted: the clock was not started (Start).
	ErrNotStarted = errors.New("clock not started")
	// ErrFlag: a flag has fallen; the clock is frozen.
	ErrFlag = errors.New("flag fallen")
	// ErrNoMove: there is no move to take back.
	ErrNoMove = errors.New("no move to take back")
	// ErrStopped: the game is over and its clock stopped (Stop).
	ErrStopped = errors.New("clock stopped: the game is over")
)

// Reading is the clock after a move: both sides' remaining time, in
// milliseconds, and the moment the move was completed. A game's journal
// keeps one per move; Rebuild takes them back after a restart.
type Reading struct {
	WhiteMS int64     `json:"white_ms"`
	BlackMS int64     `json:"black_ms"`
	At      time.Time `json:"at"`
}

// MS is side's time in the reading.
func (r Reading) MS(side rules.Color) int64 {
	if side == rules.Black {
		return r.BlackMS
	}
	return r.WhiteMS
}

// Clock is a chess clock in injected time: every command takes the moment
// of its event, and nothing inside reads the system clock or waits, so the
// caller arms its own timer (FlagAt) and a test runs in simulated time.
//
// A running side's time is its reading at the start of the turn less the
// time the turn has used, counted across pauses; the delays count on that
// turn time. A flag falls when a running side's time reaches zero; the
// clock then freezes at exactly 0 for that side. The flag is a fact of the
// times, not of the calls: a move completed before the flag fell counts
// even when it is reported (Moved) after FlagAt or after Flagged saw the
// flag, since recognition reports a move a settle window after it was
// completed.
//
// Times passed to commands should not go back; one earlier than the last
// event (a move completed before a Resume was reported after it) counts as
// that event's time, so no turn is charged a negative time. Pass times from
// time.Now as they come (not converted with UTC or In, which drop the
// monotonic reading): turns are then measured on the monotonic clock, and a
// step of the wall clock (NTP setting a Raspberry Pi's time after boot) is
// charged to nobody. Readings carry the wall time, in UTC.
//
// A Clock is not safe for concurrent use: the table owns it.
type Clock struct {
	ctl  Control
	opts Opts

	started bool
	paused  bool
	// stopped: the game is over (Stop); fell is the flag that had fallen
	// by then, if one had.
	stopped bool
	fell    *fallenFlag
	// blaming: blamed's clock runs since blameSince instead of the turn's,
	// for a mismatch blamed caused out of turn (Blame, blame.go).
	blaming    bool
	blamed     rules.Color
	blameSince time.Time
	turn       rules.Color // whose clock runs (or would, when paused)
	base       [2]time.Duration
	since      time.Time     // when the running clock last (re)started
	used       time.Duration // turn time before since (pauses split a turn)
	last       time.Time     // the latest event
	moves      [2]int        // moves made by each side
	illegal    [2]int

	hist []mark // hist[0] is the start; hist[k] after the k-th move
}

// fallenFlag is the side whose flag fell and when.
type fallenFlag struct {
	side rules.Color
	when time.Time
}

// mark is the clock after a move, exactly (a Reading rounds to ms).
type mark struct {
	base [2]time.Duration
	at   time.Time
}

func (m mark) reading() Reading {
	return Reading{WhiteMS: m.base[rules.White].Milliseconds(), BlackMS: m.base[rules.Black].Milliseconds(), At: m.at.UTC()}
}

// New returns a stopped clock for ctl with each side at the control's
// initial time. It refuses no control (a game without a clock has no
// Clock) and a control that fails Check.
func New(ctl Control, opts *Opts) (*Clock, error) {
	if ctl.None() {
		return nil, errors.New("clock: new: no time control")
	}
	if err := ctl.Check(); err != nil {
		return nil, err
	}
	o := DefaultOpts()
	if opts != nil {
		o = *opts
	}
	if o.Penalty < 0 || o.Low < 0 {
		return nil, fmt.Errorf("clock: new: negative penalty %v or low-time threshold %v", o.Penalty, o.Low)
	}
	c := &Clock{ctl: ctl, opts: o}
	c.base = [2]time.Duration{ctl.Initial(), ctl.Initial()}
	c.hist = []mark{{base: c.base}}
	return c, nil
}

// Control is the clock's time control.
func (c *Clock) Control() Control { return c.ctl }

// Opts are the clock's options.
func (c *Clock) Opts() Opts { return c.opts }

// clamp makes at no earlier than the last event.
func (c *Clock) clamp(at time.Time) time.Time {
	if at.Before(c.last) {
		return c.last
	}
	return at
}

// turnTime is the time the running turn has used at at.
func (c *Clock) turnTime(at time.Time) time.Duration {
	u := c.used
	if c.started && !c.paused && !c.stopped && !c.blaming && at.After(c.since) {
		u += at.Sub(c.since)
	}
	return u
}

// bonus is the bonus of the period side is in.
func (c *Clock) bonus(side rules.Color) (Bonus, time.Duration) {
	i, _ := c.ctl.period(c.moves[side])
	p := c.ctl.Periods[i]
	return p.Bonus, p.Amount
}

// charged is what a turn time u takes off the clock while the turn runs.
func (c *Clock) charged(side rules.Color, u time.Duration) time.Duration {
	if b, d := c.bonus(side); b == Delay {
		return max(0, u-d)
	}
	return u
}

// flagTurn is the turn time at which side's flag falls.
func (c *Clock) flagTurn(side rules.Color) time.Duration {
	if b, d := c.bonus(side); b == Delay {
		return c.base[side] + d
	}
	return c.base[side]
}

// flagInstant is when the running side's flag falls, if it runs.
func (c *Clock) flagInstant() (time.Time, bool) {
	if !c.started || c.paused || c.stopped {
		return time.Time{}, false
	}
	if c.blaming {
		return c.blameSince.Add(c.base[c.blamed]), true
	}
	return c.since.Add(c.flagTurn(c.turn) - c.used), true
}

// runner is the side whose clock runs (or would): the blamed side during a
// Blame, else the side to move.
func (c *Clock) runner() rules.Color {
	if c.blaming {
		return c.blamed
	}
	return c.turn
}

// fallen reports whether the running side's flag has fallen by at.
func (c *Clock) fallen(at time.Time) bool {
	t, ok := c.flagInstant()
	return ok && !at.Before(t)
}

// flagged is the common check of the commands: the clock is not stopped
// and no flag stands at at.
func (c *Clock) flagged(what string, at time.Time) error {
	if c.stopped {
		return fmt.Errorf("clock: %s: %w", what, ErrStopped)
	}
	if c.fallen(at) {
		t, _ := c.flagInstant()
		return fmt.Errorf("clock: %s: %w: %s at %s", what, ErrFlag, c.runner(), t.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// Start starts side's clock at at (White's, from a start position).
func (c *Clock) Start(at time.Time, side rules.Color) error {
	if c.stopped {
		return fmt.Errorf("clock: start: %w", ErrStopped)
	}
	if c.started {
		return errors.New("clock: start: already started")
	}
	if side != rules.White && side != rules.Black {
		return fmt.Errorf("clock: start: side %d: want white or black", side)
	}
	c.started, c.turn, c.since, c.used, c.last = true, side, at, 0, at
	c.hist[0].at = at
	return nil
}

// Started reports whether the clock was started.
func (c *Clock) Started() bool { return c.started }

// Running is the side whose clock runs (or would run, when paused), and
// false before Start.
func (c *Clock) Running() (rules.Color, bool) { return c.turn, c.started }

// Paused reports whether the clock is paused (a stopped clock is not:
// Stopped).
func (c *Clock) Paused() bool { return c.paused && !c.stopped }

// Stopped reports whether the clock was stopped for good (Stop).
func (c *Clock) Stopped() bool { return c.stopped }

// Stop stops the clock at at because the game is over (mate, a dead
// position, a flag, a resignation, a draw): the times stand as they were at
// at, nothing runs, and every command but TakeBack is refused with
// ErrStopped. A flag that had fallen by at stays fallen (Flagged). A
// clock never started can be stopped too (a game that began over).
// Stopping a stopped clock does nothing.
func (c *Clock) Stop(at time.Time) {
	if c.stopped {
		return
	}
	at = c.clamp(at)
	if side, when, ok := c.Flagged(at); ok {
		c.fell = &fallenFlag{side: side, when: when}
	}
	c.endBlame(at)
	if c.started && !c.paused {
		c.used = c.turnTime(at)
	}
	c.stopped = true
	if c.started {
		c.last = at
	}
}

// Moves is the number of moves side has made.
func (c *Clock) Moves(side rules.Color) int { return c.moves[side&1] }

// Remaining is side's time at at: 0 once its flag has fallen.
func (c *Clock) Remaining(side rules.Color, at time.Time) time.Duration {
	side &= 1
	if c.blaming && side == c.blamed {
		return max(0, c.base[side]-max(0, c.clamp(at).Sub(c.blameSince)))
	}
	if !c.started || side != c.turn {
		return c.base[side]
	}
	return max(0, c.base[side]-c.charged(side, c.turnTime(c.clamp(at))))
}

// FlagAt is when the running side's flag falls if it does not move: the
// moment to arm a timer for (plus the recognizer's settle window, so that a
// move completed just before is reported first). False when no clock runs.
func (c *Clock) FlagAt() (time.Time, bool) { return c.flagInstant() }

// Flagged reports the side whose flag has fallen by at and when it fell.
func (c *Clock) Flagged(at time.Time) (side rules.Color, when time.Time, ok bool) {
	if c.fell != nil {
		return c.fell.side, c.fell.when, true
	}
	if !c.fallen(c.clamp(at)) {
		return 0, time.Time{}, false
	}
	t, _ := c.flagInstant()
	return c.runner(), t, true
}

// Moved stops the mover's clock at at, the moment the move was physically
// completed (not when it was recognized): the turn is charged up to at,
// the period's bonus applied, the next period's time added after the
// period's last move, and the opponent's clock runs from at. A move made
// while paused is charged nothing beyond the time used before the pause,
// gets its bonus, and the clock stays paused with the opponent to move.
// It returns the reading to journal. A move completed at or after the
// mover's flag fell is refused with ErrFlag (the flag stands).
func (c *Clock) Moved(at time.Time) (Reading, error) {
	if !c.started {
		return Reading{}, fmt.Errorf("clock: move: %w", ErrNotStarted)
	}
	at = c.clamp(at)
	if err := c.flagged("move", at); err != nil {
		return Reading{}, err
	}
	c.endBlame(at)
	side := c.turn
	u := c.turnTime(at)
	b, d := c.bonus(side)
	rem := c.base[side] - c.charged(side, u)
	switch b {
	case Increment:
		rem += d
	case Bronstein:
		rem += min(u, d)
	}
	i, in := c.ctl.period(c.moves[side])
	c.moves[side]++
	if p := c.ctl.Periods[i]; p.Moves > 0 && in+1 == p.Moves {
		next, _ := c.ctl.period(c.moves[side])
		rem += c.ctl.Periods[next].Time
	}
	c.base[side] = rem
	c.turn, c.since, c.used, c.last = side.Other(), at, 0, at
	m := mark{base: c.base, at: at}
	c.hist = append(c.hist, m)
	return m.reading(), nil
}

// Pause stops the running clock at at (an arbiter's pause, or the table's
// while the board is out of sync). Pausing a paused clock does nothing.
func (c *Clock) Pause(at time.Time) error {
	if !c.started {
		return fmt.Errorf("clock: pause: %w", ErrNotStarted)
	}
	at = c.clamp(at)
	if err := c.flagged("pause", at); err != nil {
		return err
	}
	c.endBlame(at)
	if !c.paused {
		c.used = c.turnTime(at)
		c.paused, c.last = true, at
	}
	return nil
}

// Resume restarts the paused clock at at. Resuming a running clock does
// nothing.
func (c *Clock) Resume(at time.Time) error {
	if !c.started {
		return fmt.Errorf("clock: resume: %w", ErrNotStarted)
	}
	at = c.clamp(at)
	if err := c.flagged("resume", at); err != nil {
		return err
	}
	if c.paused {
		c.paused, c.since, c.last = false, at, at
	}
	return nil
}

// Add adds d (negative to take time off) to side's clock at at, for the
// arbiter. The result must stay above zero: to end a game on time, record
// the result instead. Refused once a flag has fallen.
func (c *Clock) Add(at time.Time, side rules.Color, d time.Duration) error {
	return c.adjust("add", at, side, func(now time.Duration) time.Duration { return now + d })
}

// Set sets side's clock to d at at, for the arbiter (d > 0). A running
// side's turn keeps its delay: under a simple delay not yet used up, d
// shows until the delay ends.
func (c *Clock) Set(at time.Time, side rules.Color, d time.Duration) error {
	return c.adjust("set", at, side, func(time.Duration) time.Duration { return d })
}

func (c *Clock) adjust(what string, at time.Time, side rules.Color, to func(time.Duration) time.Duration) error {
	if side != rules.White && side != rules.Black {
		return fmt.Errorf("clock: %s: side %d: want white or black", what, side)
	}
	at = c.clamp(at)
	if err := c.flagged(what, at); err != nil {
		return err
	}
	now := c.Remaining(side, at)
	want := to(now)
	if want <= 0 || want > maxSeconds*time.Second {
		return fmt.Errorf("clock: %s %s: %v would leave %v: want more than 0 and at most %dh", what, side, now, want, maxSeconds/3600)
	}
	c.base[side] += want - now
	if c.started {
		c.last = at
	}
	return nil
}

// Illegal records a completed illegal move by side at at: the opponent gets
// Opts.Penalty. It returns how many illegal moves side has completed in
// this game (FIDE: the second loses; the table decides).
func (c *Clock) Illegal(at time.Time, side rules.Color) (int, error) {
	if side != rules.White && side != rules.Black {
		return 0, fmt.Errorf("clock: illegal move: side %d: want white or black", side)
	}
	if c.opts.Penalty > 0 {
		if err := c.Add(at, side.Other(), c.opts.Penalty); err != nil {
			return 0, fmt.Errorf("clock: illegal move by %s: %w", side, err)
		}
	} else if err := c.flagged("illegal move", c.clamp(at)); err != nil {
		return 0, err
	}
	c.illegal[side]++
	return c.illegal[side], nil
}

// TakeBack takes the last move back at at: both clocks show the reading
// they had before that move (the reading after the move before it, or the
// start), so the mover's thinking time for it is given back and arbiter
// adjustments since are undone; the mover's clock runs from at (or stays
// paused). A clock stopped by the end of the game runs again (the game
// goes on). Refused once a flag has fallen.
func (c *Clock) TakeBack(at time.Time) error {
	if !c.started {
		return fmt.Errorf("clock: take back: %w", ErrNotStarted)
	}
	at = c.clamp(at)
	if c.fell != nil {
		return fmt.Errorf("clock: take back: %w: %s at %s", ErrFlag, c.fell.side, c.fell.when.UTC().Format(time.RFC3339Nano))
	}
	if len(c.hist) >= 2 {
		c.stopped = false
	}
	if err := c.flagged("take back", at); err != nil {
		return err
	}
	c.endBlame(at)
	if len(c.hist) < 2 {
		return fmt.Errorf("clock: take back: %w", ErrNoMove)
	}
	c.hist = c.hist[:len(c.hist)-1]
	mover := c.turn.Other()
	c.moves[mover]--
	c.base = c.hist[len(c.hist)-1].base
	c.turn, c.since, c.used, c.last = mover, at, 0, at
	return nil
}

// Readings are the readings of the game so far: the start (at Start's
// time), then one after each move.
func (c *Clock) Readings() []Reading {
	out := make([]Reading, len(c.hist))
	for i, m := range c.hist {
		out[i] = m.reading()
	}
	return out
}
