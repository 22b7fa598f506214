package game

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
)

// ClockAction is an arbiter's change of a game's clock, as the journal
// keeps it.
type ClockAction string

// Clock actions.
const (
	ClockPause  ClockAction = "pause"
	ClockResume ClockAction = "resume"
	// ClockAdd adds D (negative: takes it off) to Side's clock.
	ClockAdd ClockAction = "add"
	// ClockSet sets Side's clock to D.
	ClockSet ClockAction = "set"
	// ClockPenalty is Side's completed illegal move: the opponent got D.
	ClockPenalty ClockAction = "penalty"
)

// ClockChange is one change of the clock made between moves: by the
// arbiter, or a penalty. The journal keeps them so that a game resumed
// after a restart has them back (Rebuild has only the readings after each
// move).
type ClockChange struct {
	Action ClockAction
	// Side is the side whose clock changed (add, set) or who completed an
	// illegal move (penalty); unused for pause and resume.
	Side rules.Color
	// D is the time added or set, or the penalty given.
	D time.Duration
	// Time is when it was made.
	Time time.Time
}

// clockState is the clock's part of a session: the control, the reading
// after each move of the line, and the changes since the last move.
type clockState struct {
	ctl      clock.Control
	readings []*clock.Reading // one per move of the line; nil for a move without
	changes  []ClockChange    // since the last move of the line
	// savedSize is the length of the clock checkpoint last written
	// (checkpoint.go), 0 when unknown.
	savedSize int64
}

func (c *clockState) moved(r *clock.Reading) {
	c.readings = append(c.readings, r)
	c.changes = nil
}

func (c *clockState) tookBack() {
	if n := len(c.readings); n > 0 {
		c.readings = c.readings[:n-1]
	}
	c.changes = nil // clock.TakeBack undoes them too
}

func (c *clockState) changed(e *entry) {
	side, _ := rules.ParseColor(e.Side)
	c.changes = append(c.changes, ClockChange{Action: e.Action, Side: side,
		D: time.Duration(e.MS) * time.Millisecond, Time: e.Time})
}

// ErrNoClock: the game has no time control.
var ErrNoClock = errors.New("the game has no clock (no time control)")

// Control is the game's time control (Tags.TimeControl); None for a game
// without a clock.
func (s *Session) Control() clock.Control { return s.clk.ctl }

// Readings are the clock's readings after each move of the game as it
// stands (moves taken back left out), as Moved returned them and PlayAt
// journaled them, ready for clock.Rebuild. ok is false when a move has no
// reading (a game without a clock, or moves journaled without one).
func (s *Session) Readings() (readings []clock.Reading, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]clock.Reading, 0, len(s.clk.readings))
	for _, r := range s.clk.readings {
		if r == nil {
			return nil, false
		}
		out = append(out, *r)
	}
	return out, true
}

// ClockChanges are the changes of the clock journaled since the last move
// of the game as it stands, in order.
func (s *Session) ClockChanges() []ClockChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.clk.changes)
}

// PlayAt plays m as Play does, completed at at (the move's Time; zero
// means now), with r, the clock's reading after it (nil in a game without a
// clock), journaled with the move.
func (s *Session) PlayAt(m rules.Move, at time.Time, r *clock.Reading) (Move, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return Move{}, err
	}
	pos := s.g.Position()
	if err := s.canMove(); err != nil {
		return Move{}, s.refuse("play", err)
	}
	var buf [256]rules.Move
	if !slices.Contains(pos.LegalMoves(buf[:0]), m) {
		return Move{}, s.refuse("play", fmt.Errorf("move %#x is not legal in %s", uint32(m), pos))
	}
	if r != nil {
		c := *r
		r = &c
	}
	return s.playAt(pos, m, at, r)
}

// Timed is a move for PlayAtMany: completed at At (zero: now), with the
// clock's reading after it (nil: none).
type Timed struct {
	Move  rules.Move
	At    time.Time
	Clock *clock.Reading
}

// PlayAtMany plays moves in order as PlayAt would, one after the other,
// and journals them with one fsync: a slow disk costs one fsync for every
// move waiting, not one each. It plays the moves up to the first that
// PlayAt would refuse (not legal after the ones before it, or the game
// over), returns those played, and the refusal, or the journal's error
// (then none is played).
func (s *Session) PlayAtMany(moves []Timed) ([]Move, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return nil, err
	}
	var buf [256]rules.Move
	pos := s.g.Position()
	var refused error
	var es []*entry
	var ms []rules.Move
	for k, t := range moves {
		if k == 0 {
			refused = s.canMove()
		} else if pos.Status() != rules.Ongoing {
			refused = fmt.Errorf("%w (%s)", ErrGameOver, pos.Status())
		}
		if refused == nil && !slices.Contains(pos.LegalMoves(buf[:0]), t.Move) {
			refused = fmt.Errorf("move %#x is not legal in %s", uint32(t.Move), pos)
		}
		if refused != nil {
			refused = s.refuse("play", refused)
			break
		}
		at, r := t.At, t.Clock
		if at.IsZero() {
			at = s.opts.now()
		}
		if r != nil {
			c := *r
			r = &c
		}
		next := pos.Play(t.Move)
		es = append(es, &entry{T: kindMove, Seq: s.lastSeq() + 1 + k, Move: pos.Long(t.Move), SAN: pos.Short(t.Move),
			Pos: next.String(), Time: at.UTC(), Clock: r})
		ms = append(ms, t.Move)
		pos = next
	}
	if len(es) == 0 {
		return nil, refused
	}
	if err := s.j.appendAll(es); err != nil {
		return nil, fmt.Errorf("game %s: %w", s.id, err)
	}
	out := make([]Move, len(es))
	for k, e := range es {
		s.apply(e, ms[k])
		out[k] = s.all[len(s.all)-1]
	}
	return out, refused
}

// canFlag checks a result on time for side: the game goes on, it has a
// clock, and res is side's loss or a draw.
func (s *Session) canFlag(side rules.Color, res rules.Result) error {
	if err := s.canLose(side, res, "on time"); err != nil {
		return err
	}
	if s.clk.ctl.None() {
		return ErrNoClock
	}
	return nil
}

// FlagFell ends the game on time: side's flag fell at at, and res is the
// result clock.FlagResult gave (side's loss, or a draw when its opponent
// cannot mate). The termination is ReasonTime.
func (s *Session) FlagFell(side rules.Color, res rules.Result, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return err
	}
	if side != rules.White && side != rules.Black {
		return s.refuse("flag", fmt.Errorf("side %d: want white or black", side))
	}
	if err := s.canFlag(side, res); err != nil {
		return s.refuse(side.String()+": flag", err)
	}
	if at.IsZero() {
		at = s.opts.now()
	}
	return s.do(&entry{T: kindResult, Side: side.String(), Result: string(res), Reason: ReasonTime, Time: at.UTC()}, 0)
}

// canChangeClock checks a clock record.
func (s *Session) canChangeClock(e *entry) error {
	if err := s.canMove(); err != nil {
		return err
	}
	if s.clk.ctl.None() {
		return ErrNoClock
	}
	switch e.Action {
	case ClockPause, ClockResume:
		return nil
	case ClockAdd, ClockSet, ClockPenalty:
		if _, err := rules.ParseColor(e.Side); err != nil {
			return err
		}
		if e.Action != ClockAdd && e.MS <= 0 {
			return fmt.Errorf("%s of %d ms: want more than 0", e.Action, e.MS)
		}
		return nil
	}
	return fmt.Errorf("clock action %q: want pause, resume, add, set or penalty", e.Action)
}

// ChangeClock journals a change of the clock (the table has made it on its
// clock.Clock). It is refused in a game without a clock or over.
func (s *Session) ChangeClock(c ClockChange) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return err
	}
	e := &entry{T: kindClock, Action: c.Action, MS: c.D.Milliseconds(), Time: c.Time.UTC()}
	if c.Action != ClockPause && c.Action != ClockResume {
		if c.Side != rules.White && c.Side != rules.Black {
			return s.refuse("clock "+string(c.Action), fmt.Errorf("side %d: want white or black", c.Side))
		}
		e.Side = c.Side.String()
	}
	if e.Time.IsZero() {
		e.Time = s.opts.now()
	}
	if err := s.canChangeClock(e); err != nil {
		return s.refuse("clock "+string(c.Action), err)
	}
	return s.do(e, 0)
}
