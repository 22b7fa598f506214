package table_test

import (
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/ledsink"
)

// recorder is a sink that keeps every event.
type recorder struct {
	mu  sync.Mutex
	evs []table.Event
}

func (r *recorder) Handle(e table.Event) {
	r.mu.Lock()
	r.evs = append(r.evs, e)
	r.mu.Unlock()
}

func (r *recorder) events() []table.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.evs)
}

// kinds lists the kinds of the events recorded, leaving out the busy ones
// (lifts, placements, board status).
func (r *recorder) kinds() string {
	var out []string
	for _, e := range r.events() {
		switch e.Kind {
		case table.Lifted, table.Placed, table.BoardChanged:
			continue
		}
		s := e.Kind.String()
		if e.Move != nil {
			s += " " + e.Move.Move
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// moves lists the long forms of the Moved events.
func (r *recorder) moves() []string {
	var out []string
	for _, e := range r.events() {
		if e.Kind == table.Moved {
			out = append(out, e.Move.Move)
		}
	}
	return out
}

// ledShower composes views onto the simulated HT16K33 at once, so that the
// LEDs follow the table in simulated time.
type ledShower struct {
	drv    leds.Driver
	layout *leds.Layout
	style  leds.Style
	mu     sync.Mutex
	frame  leds.Frame
	views  int
	last   leds.View
}

func (s *ledShower) Show(v *leds.View) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = *v
	s.views++
	s.frame = leds.Frame{N: s.drv.NumLEDs()}
	leds.Compose(&s.frame, v, s.layout, &s.style, 0)
	_ = s.drv.Write(&s.frame)
}

func (s *ledShower) view() leds.View {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// rig is a whole table on the simulated reference set, in simulated time.
type rig struct {
	t     testing.TB
	b     *sim.Board
	tb    *table.Table
	rec   *recorder
	leds  *ledShower
	opts  table.Opts
	style sim.Style
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newRig(t testing.TB, edit ...func(*table.Opts)) *rig {
	t.Helper()
	cfg := config.Default()
	cfg.Buttons.Queen, cfg.Buttons.Knight = "button:queen", "button:knight"
	w, err := cfg.Wiring(st3d.CellNames())
	if err != nil {
		t.Fatal(err)
	}
	b, err := sim.New(w)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, b: b, rec: &recorder{}, style: sim.PlainStyle}
	r.style.Pause = 120 * time.Millisecond
	m, layout, err := cfg.LEDMapping(st3d.CellNames())
	if err != nil {
		t.Fatal(err)
	}
	drv, err := leds.NewDriver(m, b.Bus, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.leds = &ledShower{drv: drv, layout: layout, style: *m.StyleOf()}
	o := table.DefaultOpts()
	o.BoardID, o.StateDir, o.System = "rig", t.TempDir(), st3d.System
	o.Bus, o.Wiring, o.Now, o.Log = b.Bus, w, b.Clock.Now, quiet()
	o.Buttons = map[string]table.Button{
		"button:queen":  {Kind: table.ButtonPromote, Piece: 'Q'},
		"button:knight": {Kind: table.ButtonPromote, Piece: 'N'},
	}
	o.Sinks = []table.Sink{r.rec, ledsink.New(r.leds, nil)}
	for _, e := range edit {
		e(&o)
	}
	r.opts = o
	r.open()
	return r
}

// newRigUnread is newRig with its table built on the set as it expects,
// and not a scan made yet: as the daemon is when it starts.
func newRigUnread(t testing.TB, edit ...func(*table.Opts)) *rig {
	t.Helper()
	r := newRig(t, edit...)
	_ = r.tb.Close()
	r.opts.StateDir = t.TempDir()
	tb, err := table.New(&r.opts)
	if err != nil {
		t.Fatal(err)
	}
	r.tb = tb
	t.Cleanup(func() { _ = tb.Close() })
	r.setup()
	return r
}

// open builds the table on the rig's set, and stands the set as it expects.
func (r *rig) open() {
	r.t.Helper()
	tb, err := table.New(&r.opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.tb = tb
	r.t.Cleanup(func() { _ = tb.Close() })
	r.setup()
	r.run(time.Second) // the settle window and more
	if st := r.tb.Snapshot().Status.State; st.String() != "in sync" {
		r.t.Fatalf("the set is %s after setting it up", st)
	}
}

// setup stands the set in the position the table expects.
func (r *rig) setup() {
	pos := r.tb.Snapshot().Expected
	occ := pos.Occupancy()
	for i, n := range pos.System().Cells() {
		if err := r.b.Set.SetCell(n, occ.Has(rules.Cell(i))); err != nil {
			r.t.Fatal(err)
		}
	}
}

// run lets d of simulated time pass, a scan every period.
func (r *rig) run(d time.Duration) {
	period := r.opts.Sensors.Period
	for end := r.b.Clock.Now().Add(d); r.b.Clock.Now().Before(end); {
		r.b.Clock.Advance(period)
		r.tb.Tick()
	}
}

// drain waits for the journal and the sinks.
func (r *rig) drain() {
	r.t.Helper()
	if !r.tb.Drain(5 * time.Second) {
		r.t.Fatal("the table's journal or sinks did not finish within 5 s")
	}
}

// do carries out the hand's actions in simulated time (a tap step by
// step).
func (r *rig) do(acts ...sim.Action) {
	r.t.Helper()
	for _, act := range acts {
		for _, a := range act.Steps() {
			if a.Op == sim.OpWait {
				r.run(a.Wait)
				continue
			}
			if err := r.b.Set.Do(a); err != nil {
				r.t.Fatalf("%s: %v", a, err)
			}
			r.run(r.opts.Sensors.Period)
		}
	}
}

// act parses and does hand actions such as "lift b2W", "wait 100".
func (r *rig) act(lines ...string) {
	r.t.Helper()
	for _, l := range lines {
		a, ok, err := sim.ParseAction(l)
		if err != nil || !ok {
			r.t.Fatalf("action %q: %v", l, err)
		}
		r.do(a)
	}
}

// play makes the move long on the set, as a person would, and lets it
// settle.
func (r *rig) play(long string) {
	r.t.Helper()
	pos := r.tb.Snapshot().Expected
	m, _, err := pos.ParseMove(long)
	if err != nil {
		r.t.Fatalf("%s in %s: %v", long, pos, err)
	}
	r.do(sim.Gestures(pos, m, r.style)...)
	r.run(time.Second)
}
