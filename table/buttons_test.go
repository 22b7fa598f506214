package table_test

import (
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// clockButtons makes the rig's queen and knight buttons White's and
// Black's clock buttons.
func clockButtons(o *table.Opts) {
	o.Buttons = map[string]table.Button{"button:queen": {Kind: table.ButtonClockWhite},
		"button:knight": {Kind: table.ButtonClockBlack}}
}

// presses are the ButtonPressed events so far, as "name side".
func (r *rig) presses() []table.Event {
	r.drain()
	var out []table.Event
	for _, e := range r.rec.events() {
		if e.Kind == table.ButtonPressed {
			out = append(out, e)
		}
	}
	return out
}

// Every press of a wired button is reported once (issue 29), by its name,
// before what it does, also when it does nothing; a clock button's event
// names its side.
func TestButtonPressedEvents(t *testing.T) {
	r := newRig(t, func(o *table.Opts) {
		o.Buttons = map[string]table.Button{"button:knight": {Kind: table.ButtonClockBlack}}
	})
	start := r.b.Clock.Now()
	r.act("tap queen", "wait 100", "press knight", "wait 300", "release knight", "wait 100")
	got := r.presses()
	if len(got) != 2 {
		t.Fatalf("%d press events, want 2: %s", len(got), r.rec.kinds())
	}
	for i, want := range []struct {
		name string
		side rules.Color
		at   time.Duration // after start, within the debounce and a scan
	}{{"queen", rules.White, 0}, {"knight", rules.Black, 80*time.Millisecond + 100*time.Millisecond}} {
		e := got[i]
		lag := e.At.Sub(start.Add(want.at))
		if e.Detail != want.name || e.Side != want.side || lag < 0 || lag > r.opts.Sensors.Debounce+3*r.opts.Sensors.Period {
			t.Errorf("press %d: %q %s at +%v, want %q %s at +%v", i, e.Detail, e.Side, e.At.Sub(start), want.name, want.side, want.at)
		}
	}
}

// With clock buttons but no time control there is no clock to press:
// settling completes the move, as on a set without buttons.
func TestClockButtonsWithoutAClockSettle(t *testing.T) {
	r := newRig(t, clockButtons)
	r.play("b2W-b3W")
	r.drain()
	if got := r.rec.moves(); len(got) != 1 || got[0] != "b2W-b3W" {
		t.Fatalf("moves %v: with no clock to press, settling completes a move", got)
	}
}

// On the clock with clock buttons a move set down waits for its mover's
// press, and the snapshot says so: Held once the move has stood the settle
// window, with no move recorded; the press records it.
func TestClockPressHoldsTheMove(t *testing.T) {
	r := newClockRig(t, "180+2", clockButtons)
	r.act("tap knight", "wait 500") // Black starts White's clock
	r.act("lift b2W", "wait 100", "place b3W", "wait 100")
	if st := r.tb.Snapshot().Status; st.State != recognize.MoveInProgress || st.Held {
		t.Fatalf("100 ms after the placement: status %+v, want a move in progress not yet held", st)
	}
	r.act("wait 2000")
	r.drain()
	if s := r.tb.Snapshot(); s.Status.State != recognize.MoveInProgress || !s.Status.Held || len(s.Moves) != 0 {
		t.Fatalf("2 s after the placement: status %+v, moves %v: want the move held for the press", s.Status, s.Moves)
	}
	r.act("tap queen", "wait 200")
	r.drain()
	if s := r.tb.Snapshot(); s.Status.Held || len(s.Moves) != 1 || s.Moves[0].Move != "b2W-b3W" {
		t.Fatalf("after the press: status %+v, moves %v", s.Status, s.Moves)
	}
}

// A move a clock press completes is charged to the press, not to the
// placement: the mover's time runs until the press, however long after
// letting go, as on any chess clock (issue 29); the move's time is the
// press's.
func TestClockPressChargesTheTimeToThePress(t *testing.T) {
	r := newClockRig(t, "180+2", clockButtons)
	r.act("tap knight", "wait 500") // Black starts White's clock
	m := newModel("180+2", r.clockStarted())
	r.play("b2W-b3W") // and a second more
	r.act("wait 2000", "tap queen", "wait 500")
	r.drain()
	p := r.presses()
	if len(p) != 2 || p[1].Detail != "queen" {
		t.Fatalf("presses %+v", p)
	}
	if mv := r.lastMove(); !mv.Time.Equal(p[1].At) {
		t.Fatalf("the move's time %s, its press %s: want the press's", mv.Time.Format(time.RFC3339Nano), p[1].At.Format(time.RFC3339Nano))
	}
	m.moved(p[1].At)
	r.check(m, "after White's move and a press 3 s after letting go")
}

// A promotion's piece is chosen by its button (issue 29): before the move
// is completed (the settle window without a clock, its player's press with
// one) it is chosen once it is; after a press that completed it, whenever
// the player chooses. On the clock the move counts at the press, not at the
// choice.
func TestPromotionChosenByItsButton(t *testing.T) {
	promo := "QL1:w,QL6:b,KL1:w Kb1W,kc5N,pd6N,Pb7B w - - - 0 30"
	for _, tc := range []struct {
		name    string
		onClock bool
		hand    []string
	}{
		{"chosen before it settles", false, []string{"lift b7B", "wait 100", "place b8B", "wait 100", "tap knight", "wait 1000"}},
		{"chosen before the press", true, []string{"lift b7B", "wait 100", "place b8B", "wait 100", "tap knight", "wait 1000", "tap clock_white", "wait 300"}},
		{"chosen after the press", true, []string{"lift b7B", "wait 100", "place b8B", "wait 100", "tap clock_white", "wait 2000", "tap knight", "wait 300"}},
	} {
		r := newSystemRigWith(t, st3d.System, []string{"knight", "clock_white", "clock_black"}, func(o *table.Opts) {
			o.Buttons = map[string]table.Button{"button:knight": {Kind: table.ButtonPromote, Piece: 'N'},
				"button:clock_white": {Kind: table.ButtonClockWhite}, "button:clock_black": {Kind: table.ButtonClockBlack}}
			if tc.onClock {
				o.Clock.Default = clock.MustParse("180+2")
			}
		})
		if _, err := r.tb.Exec(table.NewGame{Position: promo, DefaultClock: true}); err != nil {
			t.Fatal(err)
		}
		r.setup()
		r.run(time.Second)
		if tc.onClock {
			r.act("tap clock_black", "wait 300")
		}
		r.act(tc.hand...)
		r.drain()
		if got := r.rec.moves(); len(got) != 1 || got[0] != "b7B-b8B=N" {
			t.Fatalf("%s: moves %v, want b7B-b8B=N", tc.name, got)
		}
		if !tc.onClock {
			continue
		}
		var press time.Time
		for _, p := range r.presses() {
			if p.Detail == "clock_white" {
				press = p.At
			}
		}
		if got := r.lastMove().Time; !got.Equal(press) {
			t.Errorf("%s: the promotion counts at %s, White's press was at %s", tc.name, got.Format(time.RFC3339Nano), press.Format(time.RFC3339Nano))
		}
	}
}

// A press is never used up (issue 33): a press with its mover's move on the
// board records the move also when it is the press that starts the clock (a
// new game on a set already standing in its position: the clock starts
// with White's move, charged nothing) or resumes it after a restart (the
// mover is charged nothing for the pause). The move's time is the press's,
// and the opponent's clock runs from it.
func TestClockPressNeverUsedUp(t *testing.T) {
	ms := func(d time.Duration) time.Duration { return d.Truncate(time.Millisecond) }
	for _, tc := range []struct {
		name    string
		restart bool
	}{{"the press that starts the clock", false}, {"the press that resumes it after a restart", true}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newClockRig(t, "180+2", clockButtons)
			var m *model
			want := []string{"b2W-b3W"}
			if tc.restart {
				r.act("tap knight", "wait 500")
				m = newModel("180+2", r.clockStarted())
				for _, mv := range []struct{ long, tap string }{{"b2W-b3W", "tap queen"}, {"b7B-b6B", "tap knight"}} {
					r.play(mv.long)
					r.act("wait 700", mv.tap, "wait 300")
					r.drain()
					m.moved(r.lastMove().Time)
				}
				r.act("wait 1500")
				closed := r.b.Clock.Now()
				if err := r.tb.Close(); err != nil {
					t.Fatal(err)
				}
				m.rem[rules.White] = ms(m.remaining(rules.White, closed))
				m.rem[rules.Black] = ms(m.rem[rules.Black])
				r.b.Clock.Advance(time.Hour) // the set was off
				r.open()
				if s := r.tb.Snapshot().Clock; s == nil || !s.Paused {
					t.Fatalf("after the restart: clock %+v, want paused", s)
				}
				want = []string{"b2W-b3W", "b7B-b6B", "c2W-c3W"}
			} else if r.clk().Started() {
				t.Fatal("the clock started without a press")
			}
			r.play(want[len(want)-1])
			r.act("wait 1200", "tap queen", "wait 300")
			r.drain()
			if got := r.rec.moves(); !slices.Equal(got, want) {
				t.Fatalf("moves %v, want %v: the press was used up (status %+v)", got, want, r.tb.Snapshot().Status)
			}
			p := r.presses()
			press := p[len(p)-1].At
			if mv := r.lastMove(); !mv.Time.Equal(press) {
				t.Errorf("the move's time %s, its press %s", mv.Time.Format(time.RFC3339Nano), press.Format(time.RFC3339Nano))
			}
			if m == nil {
				if start := r.clockStarted(); !start.Equal(press) {
					t.Errorf("the clock started at %s, want at the press %s", start.Format(time.RFC3339Nano), press.Format(time.RFC3339Nano))
				}
				m = newModel("180+2", press)
			}
			m.since = press // started or resumed by the press: nothing charged before it
			m.moved(press)
			r.check(m, "after the press")
			if c := r.clk(); c.Paused() {
				t.Error("the clock is still paused after the press")
			}
		})
	}
}

// A clock tap pressed and let go between two scans (the scan loop starved
// for 400 ms by a busy machine, the tap 150 ms) is not missed: the
// expander latched it (sensors), the table sees it once, and it completes
// the move on the board (issue 33).
func TestClockTapBetweenTwoScans(t *testing.T) {
	r := newClockRig(t, "180+2", clockButtons)
	r.act("tap knight", "wait 500") // Black starts White's clock
	r.play("b2W-b3W")
	r.b.Clock.Advance(100 * time.Millisecond)
	if err := r.b.Set.Press("button:queen"); err != nil {
		t.Fatal(err)
	}
	r.b.Clock.Advance(150 * time.Millisecond)
	if err := r.b.Set.Release("button:queen"); err != nil {
		t.Fatal(err)
	}
	r.b.Clock.Advance(150 * time.Millisecond)
	r.tb.Tick()
	r.run(time.Second)
	r.drain()
	p := r.presses()
	if len(p) != 2 || p[0].Detail != "knight" || p[1].Detail != "queen" {
		t.Fatalf("presses %+v, want knight's and queen's once each", p)
	}
	if s := r.tb.Snapshot(); len(s.Moves) != 1 || s.Moves[0].Move != "b2W-b3W" {
		t.Fatalf("moves %v, want b2W-b3W completed by the tap", s.Moves)
	}
	if mv := r.lastMove(); !mv.Time.Equal(p[1].At) {
		t.Errorf("the move's time %s, its press %s", mv.Time.Format(time.RFC3339Nano), p[1].At.Format(time.RFC3339Nano))
	}
}
