package recognize

import (
	"sort"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// rig is a simulated set read by the real scanner over the simulated I2C
// bus, feeding a recognizer, all in simulated time.
type rig struct {
	t     testing.TB
	board *sim.Board
	sc    *sensors.Scanner
	rec   *Recognizer
	moves []string // long forms of the recognized moves, "takeback" for take-backs
	log   []Event
	// lastChange is the simulated time of the last action on the set.
	lastChange time.Time
	// latencies of recognized moves: from the last action to the event.
	latencies []time.Duration
	// next is the time of the next scan: scans run every scanPeriod,
	// whatever the hand does in between.
	next time.Time
	// quietSince, when not zero, is when the hand finished a move and
	// did nothing since; silent is the longest the recognizer then stayed
	// out of sync without an event. unexplained is the longest it was in
	// play with readings no move explains.
	quietSince          time.Time
	silent, unexplained time.Duration
	// presses are clock presses to come: the rig calls Confirm at the
	// first scan after each button's debounce.
	presses []press
	// corrections counts the Corrected events.
	corrections int
}

// press is a clock button pressed at at by side.
type press struct {
	at   time.Time
	side rules.Color
}

// pressAt queues side's press of their clock at at.
func (r *rig) pressAt(at time.Time, side rules.Color) {
	r.presses = append(r.presses, press{at, side})
	sort.SliceStable(r.presses, func(i, j int) bool { return r.presses[i].at.Before(r.presses[j].at) })
}

const scanPeriod = 5 * time.Millisecond

func newRig(t testing.TB, pos string, opts Opts) *rig {
	t.Helper()
	p, err := st3d.System.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	return newRigAt(t, p, opts)
}

// newRigAt is newRig from a position of any system: on the reference set
// when its wiring serves the system (ST3D's, first-contact-up's), else on
// the set the system is played on (sets.Board).
func newRigAt(t testing.TB, p rules.Position, opts Opts) *rig {
	t.Helper()
	sys := p.System()
	var b *sim.Board
	w := sets.ReferenceWiring()
	_, err := w.ForCells(sys.Cells())
	if err == nil {
		b, err = sim.ForSystem(sys, w)
	} else {
		b, err = sets.Board(sys)
	}
	if err != nil {
		t.Fatal(err)
	}
	occ := p.Occupancy()
	for i, name := range sys.Cells() {
		if err := b.Set.SetCell(name, occ.Has(rules.Cell(i))); err != nil {
			t.Fatal(err)
		}
	}
	so := sensors.DefaultOpts()
	so.Cells = sys.Cells()
	sc, err := sensors.New(b.Bus, b.Wiring, &so)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, board: b, sc: sc, rec: New(p, opts)}
	r.next = b.Clock.Now().Add(scanPeriod)
	r.wait(opts.Settle + 200*time.Millisecond)
	if st := r.rec.Status().State; st != InSync {
		t.Fatalf("rig: board not in sync after start: %v", r.rec.Status())
	}
	r.log = nil
	return r
}

// wait runs the scan loop for d of simulated time: the clock ends exactly
// d later, the scans keep their period.
func (r *rig) wait(d time.Duration) {
	end := r.board.Clock.Now().Add(d)
	for !r.next.After(end) {
		now := r.next
		r.board.Clock.Set(now)
		r.next = now.Add(scanPeriod)
		r.sc.Scan(now)
		s := r.sc.Snapshot()
		for _, e := range r.rec.Observe(now, s.Closed, s.Unknown) {
			r.record(e, now)
		}
		for len(r.presses) > 0 && !now.Before(r.presses[0].at.Add(sensors.DefaultOpts().Debounce)) {
			p := r.presses[0]
			r.presses = r.presses[1:]
			for _, e := range r.rec.Confirm(now, p.side) {
				r.record(e, now)
			}
		}
		r.watch(now)
	}
	r.board.Clock.Set(end)
}

// watch measures silences and unexplained stretches.
func (r *rig) watch(now time.Time) {
	if rec := r.rec; rec.synced && !rec.unexplainedSince.IsZero() {
		r.unexplained = max(r.unexplained, now.Sub(rec.unexplainedSince))
	}
	if st := r.rec.Status().State; r.quietSince.IsZero() || st == InSync || st == NeedsChoice {
		return
	}
	r.silent = max(r.silent, now.Sub(r.quietSince))
}

// touch carries out one touch of a sim.Hand after its wait.
func (r *rig) touch(tc sim.Touch) {
	r.t.Helper()
	r.wait(tc.Wait)
	if err := r.board.Set.Apply(tc); err != nil {
		r.t.Fatal(err)
	}
	r.lastChange = r.board.Clock.Now()
	r.quietSince = time.Time{}
	if tc.LastOfMove {
		r.quietSince = r.lastChange
	}
}

func (r *rig) record(e Event, now time.Time) {
	r.log = append(r.log, e)
	r.quietSince = time.Time{}
	switch e.Kind {
	case Moved:
		r.moves = append(r.moves, e.Before.Long(e.Move))
		r.latencies = append(r.latencies, now.Sub(r.lastChange))
	case TookBack:
		r.moves = append(r.moves, "takeback")
	case Corrected:
		// The record never holds the withdrawn move.
		if n := len(r.moves); n > 0 && r.moves[n-1] == e.Before.Long(e.Withdrawn) {
			r.moves[n-1] = e.Before.Long(e.Move)
		} else {
			r.moves = append(r.moves, "bad correction of "+e.Before.Long(e.Withdrawn))
		}
		r.corrections++
	}
}

// do carries out actions; waits run the scan loop.
func (r *rig) do(actions ...sim.Action) {
	r.t.Helper()
	for _, a := range actions {
		if a.Op == sim.OpWait {
			r.wait(a.Wait)
			continue
		}
		if err := r.board.Set.Do(a); err != nil {
			r.t.Fatalf("%s: %v", a, err)
		}
		r.lastChange = r.board.Clock.Now()
	}
}

// script runs lines such as "lift b2W", "place b4N", "wait 100".
func (r *rig) script(lines ...string) {
	r.t.Helper()
	for _, l := range lines {
		a, ok, err := sim.ParseAction(l)
		if err != nil {
			r.t.Fatal(err)
		}
		if ok {
			r.do(a)
		}
	}
}

// play makes a move on the set the plain way, then lets it settle.
func (r *rig) play(long string) {
	r.t.Helper()
	p := r.rec.Position()
	m, _, err := p.ParseMove(long)
	if err != nil {
		r.t.Fatal(err)
	}
	r.do(sim.Gestures(p, m, sim.PlainStyle)...)
	r.wait(600 * time.Millisecond)
}

func (r *rig) wantMoves(want ...string) {
	r.t.Helper()
	if len(r.moves) != len(want) {
		r.t.Fatalf("recognized %q, want %q", r.moves, want)
	}
	for i := range want {
		if r.moves[i] != want[i] {
			r.t.Fatalf("recognized %q, want %q", r.moves, want)
		}
	}
}

func (r *rig) wantState(s State) {
	r.t.Helper()
	if got := r.rec.Status(); got.State != s {
		r.t.Fatalf("state %v (%+v), want %v", got.State, got, s)
	}
}

func names(s rules.CellSet) []string { return s.Names(st3d.CellNames()) }
