package table_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// newClockRig is the rig whose first game has the time control ctl.
func newClockRig(t *testing.T, ctl string, edit ...func(*table.Opts)) *rig {
	t.Helper()
	set := func(o *table.Opts) { o.Clock.Default = clock.MustParse(ctl) }
	return newRig(t, append([]func(*table.Opts){set}, edit...)...)
}

// event is the last recorded event of kind, and false when there is none.
func (r *rig) event(kind table.Kind) (table.Event, bool) {
	r.drain()
	evs := r.rec.events()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == kind {
			return evs[i], true
		}
	}
	return table.Event{}, false
}

// clockStarted is when the clock of the current game started (the last
// "started" event).
func (r *rig) clockStarted() time.Time {
	r.t.Helper()
	r.drain()
	evs := r.rec.events()
	for i := len(evs) - 1; i >= 0; i-- {
		if e := evs[i]; e.Kind == table.ClockChanged && e.Detail == "started" {
			return e.At
		}
	}
	r.t.Fatalf("the clock never started: %s", r.rec.kinds())
	return time.Time{}
}

// lastMove is the move of the last Moved event.
func (r *rig) lastMove() game.Move {
	r.t.Helper()
	e, ok := r.event(table.Moved)
	if !ok {
		r.t.Fatal("no move")
	}
	return *e.Move
}

func (r *rig) clk() *clock.Clock {
	r.t.Helper()
	c := table.ClockOf(r.tb)
	if c == nil {
		r.t.Fatal("the game has no clock")
	}
	return c
}

// model is the clock as the test computes it, from the control's
// definitions (issue 16, clock's doc), independently of package clock.
type model struct {
	ctl   clock.Control
	rem   [2]time.Duration
	moves [2]int
	turn  rules.Color
	since time.Time // when the running side's turn began
}

func newModel(ctl string, start time.Time) *model {
	c := clock.MustParse(ctl)
	return &model{ctl: c, rem: [2]time.Duration{c.Periods[0].Time, c.Periods[0].Time}, turn: rules.White, since: start}
}

// period is the period the side to move is in (at most two periods here).
func (m *model) period() clock.Period {
	p := m.ctl.Periods[0]
	if p.Moves > 0 && m.moves[m.turn] >= p.Moves {
		return m.ctl.Periods[1]
	}
	return p
}

// charge is what a turn of u takes off the running side's clock.
func (m *model) charge(u time.Duration) time.Duration {
	if p := m.period(); p.Bonus == clock.Delay {
		return max(0, u-p.Amount)
	}
	return u
}

// moved is the move completed at at.
func (m *model) moved(at time.Time) {
	side, u, p := m.turn, at.Sub(m.since), m.period()
	m.rem[side] -= m.charge(u)
	switch p.Bonus {
	case clock.Increment:
		m.rem[side] += p.Amount
	case clock.Bronstein:
		m.rem[side] += min(u, p.Amount)
	}
	m.moves[side]++
	if first := m.ctl.Periods[0]; first.Moves > 0 && m.moves[side] == first.Moves {
		m.rem[side] += m.ctl.Periods[1].Time
	}
	m.turn, m.since = side.Other(), at
}

// remaining is side's time at at.
func (m *model) remaining(side rules.Color, at time.Time) time.Duration {
	if side != m.turn {
		return m.rem[side]
	}
	return max(0, m.rem[side]-m.charge(at.Sub(m.since)))
}

// check compares the table's clock with the model, exactly, now.
func (r *rig) check(m *model, what string) {
	r.t.Helper()
	now := r.b.Clock.Now()
	c := r.clk()
	for _, side := range []rules.Color{rules.White, rules.Black} {
		if got, want := c.Remaining(side, now), m.remaining(side, now); got != want {
			r.t.Errorf("%s: %s has %v, want %v", what, side, got, want)
		}
	}
	if run, _ := c.Running(); run != m.turn {
		r.t.Errorf("%s: %s's clock runs, want %s's", what, run, m.turn)
	}
}
