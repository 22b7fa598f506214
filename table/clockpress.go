package table

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

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
		if _, err := t.exec(now, AdjustClock{Action: ClockResume}); err != nil {
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
	p := t.ck.idleDue(now, t.o.Recognize.PressGrace+2*t.o.Sensors.Period)
	if p == nil {
		return
	}
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

// clockCommand carries out an arbiter's AdjustClock command; refused, it changes
// nothing.
func (t *Table) clockCommand(now time.Time, cmd AdjustClock) (Reply, error) {
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
