package table

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// The clock session's own state (issue 38): when a move counts, the
// low-time warnings' edges, a press without a move waiting for its grace,
// and the snapshot of a game without a clock.
func TestClockState(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

	t.Run("moveTime", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			press  time.Time // choicePress
			ev     recognize.Event
			want   time.Time
			forgot bool
		}{
			{"settled: its completion", time.Time{}, recognize.Event{At: at(900), CompletedAt: at(400), By: recognize.BySettle}, at(400), true},
			{"pressed: the press", time.Time{}, recognize.Event{At: at(900), CompletedAt: at(400), By: recognize.ByPress}, at(900), true},
			{"no completion (a take-back): its time", time.Time{}, recognize.Event{At: at(700)}, at(700), true},
			{"a piece chosen after the press: the press", at(500), recognize.Event{At: at(3000), CompletedAt: at(3000), By: recognize.ByChoice}, at(500), true},
			{"a piece chosen, no press: the choice", time.Time{}, recognize.Event{At: at(3000), CompletedAt: at(3000), By: recognize.ByChoice}, at(3000), true},
			{"a settled move forgets a press", at(500), recognize.Event{At: at(900), CompletedAt: at(400), By: recognize.BySettle}, at(400), true},
		} {
			c := clockState{choicePress: tc.press}
			if got := c.moveTime(tc.ev); !got.Equal(tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, got.Sub(t0), tc.want.Sub(t0))
			}
			if !c.choicePress.IsZero() {
				t.Errorf("%s: the press is kept", tc.name)
			}
		}
	})

	t.Run("wentLow", func(t *testing.T) {
		k, err := clock.New(clock.MustParse("30"), &clock.Opts{Low: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		c := clockState{clk: k}
		if err := k.Start(t0, rules.White); err != nil {
			t.Fatal(err)
		}
		for _, step := range []struct {
			ms   int
			want [2]bool
			do   func()
		}{
			{ms: 5000},
			{ms: 10001, want: [2]bool{true, false}}, // White under 20 s
			{ms: 12000},                             // still low: no second warning
			{ms: 12000, do: func() { _ = k.Add(at(12000), rules.White, 10*time.Second) }}, // back over it: no warning
			{ms: 20001, want: [2]bool{true, false}},                                       // under again
		} {
			if step.do != nil {
				step.do()
			}
			if got := c.wentLow(at(step.ms)); got != step.want {
				t.Errorf("at %d ms: %v, want %v", step.ms, got, step.want)
			}
		}
	})

	t.Run("idleDue", func(t *testing.T) {
		c := clockState{idle: &idlePress{at: at(1000), side: rules.White, moves: 4}}
		if p := c.idleDue(at(1099), 100*time.Millisecond); p != nil {
			t.Errorf("in its grace: %+v", p)
		}
		p := c.idleDue(at(1100), 100*time.Millisecond)
		if p == nil || p.side != rules.White || p.moves != 4 {
			t.Fatalf("after its grace: %+v", p)
		}
		if p := c.idleDue(at(5000), 100*time.Millisecond); p != nil {
			t.Errorf("given twice: %+v", p)
		}
	})

	t.Run("snapshot", func(t *testing.T) {
		if s := (&clockState{}).snapshot(t0); s != nil {
			t.Errorf("no clock: %+v", s)
		}
	})
}
