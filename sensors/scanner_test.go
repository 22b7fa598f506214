package sensors_test

import (
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"reflect"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sim"
)

const ms = time.Millisecond

func TestStartPositionAllWirings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		board func() *sim.Board
		// bits on the wire of one steady scan
		bits uint64
	}{
		{"reference", func() *sim.Board { return sets.NewReference() }, 7 * 48},
		{"matrix", func() *sim.Board { return sets.NewMatrix(false) }, 14 * 48},
		{"matrix behind mux", func() *sim.Board { return sets.NewMatrix(true) }, 14 * 48},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.board(), nil)
			all := rules.CellSet{}
			for i := range st3d.CellNames() {
				all.Add(rules.Cell(i))
			}
			if got := r.sc.Snapshot(); got.Unknown != all || !got.Closed.Empty() {
				t.Fatalf("before the first scan: unknown %d closed %d", got.Unknown.Len(), got.Closed.Len())
			}
			// Known after the readings have been stable for 30 ms.
			for i := 0; i < 6; i++ {
				if ev := r.step(5 * ms); len(ev) != 0 {
					t.Fatalf("scan %d: events %v", i, ev)
				}
			}
			ev := r.step(5 * ms)
			if len(ev) != 108 {
				t.Fatalf("settling: %d events, want 108", len(ev))
			}
			snap := r.sc.Snapshot()
			if got := closedNames(snap); got != startNames() {
				t.Fatalf("closed %s\nwant   %s", got, startNames())
			}
			if !snap.Unknown.Empty() || snap.Time != r.board.Clock.Now() {
				t.Fatalf("unknown %v time %v", snap.Unknown.Names(st3d.CellNames()), snap.Time)
			}
			// An unchanged scan produces nothing, at the wire floor.
			r.board.Bus.ResetStats()
			if changed := r.sc.Scan(r.board.Clock.Advance(5 * ms)); changed || len(r.sc.Events()) != 0 {
				t.Fatalf("unchanged scan reported %v", r.sc.Events())
			}
			if st := r.board.Bus.Stats(); st.Bits != tc.bits {
				t.Fatalf("steady scan: %d bits, want %d", st.Bits, tc.bits)
			}
		})
	}
}

func TestDebounceEdges(t *testing.T) {
	r := newRig(t, sets.NewReference(), nil)
	r.run(40 * ms)
	// Lifted between two scans: seen by the next scan (+5 ms), committed
	// 30 ms later.
	r.do(r.board.Set.Lift("b2W"))
	if got, want := r.run(40*ms), []string{"35ms b2W closed -> open"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("lift: %v, want %v", got, want)
	}
	// A touch shorter than the window never shows.
	r.do(r.board.Set.Lift("c2W"))
	r.run(25 * ms)
	r.do(r.board.Set.Place("c2W"))
	if got := r.run(60 * ms); got != nil {
		t.Fatalf("25 ms glitch: %v", got)
	}
	// Exactly the window: 29.999 ms after the first scan that saw it,
	// nothing; at 30 ms, the change.
	r.do(r.board.Set.Place("b4W"))
	for i, tc := range []struct {
		d    time.Duration
		want []string
	}{
		{5 * ms, nil},
		{30*ms - time.Microsecond, nil},
		{time.Microsecond, []string{"b4W open -> closed"}},
		{5 * ms, nil},
	} {
		if got := r.step(tc.d); !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("window step %d: %v, want %v", i, got, tc.want)
		}
	}
	if snap := r.sc.Snapshot(); snap.Closed != cellSet(append(without(startNames(), "b2W"), "b4W")...) {
		t.Fatalf("closed %s", closedNames(snap))
	}
}

func without(names string, drop string) []string {
	var out []string
	for _, n := range splitFields(names) {
		if n != drop {
			out = append(out, n)
		}
	}
	return out
}

func splitFields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}

func TestBounceTrain(t *testing.T) {
	opts := sensors.DefaultOpts()
	opts.Debounce = 10 * ms
	r := newRig(t, sets.NewReference(), &opts)
	for i := 0; i < 3; i++ {
		r.step(5 * ms)
	}
	// A make with 6 ms of bounce, scanned every millisecond: the cell
	// closes 10 ms after the last edge the scanner saw (at 6 ms).
	r.do(r.board.Set.Place("a3W"))
	r.do(r.board.Set.Bounce("a3W", 0, 1500*time.Microsecond, 2500*time.Microsecond, 4*ms, 5*ms, 6*ms))
	var got []string
	for i := 1; i <= 20; i++ {
		for _, e := range r.step(ms) {
			got = append(got, time.Duration(i*int(ms)).String()+" "+e)
		}
	}
	if want := []string{"16ms a3W open -> closed"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("bounce: %v, want %v", got, want)
	}
}

func TestBoardMove(t *testing.T) {
	r := newRig(t, sets.NewReference(), nil)
	r.run(40 * ms)
	r.do(r.board.Set.LiftBoard("QL1"))
	got := r.run(100 * ms)
	want := []string{ // in wiring order: presence, then the squares
		"35ms QL1 closed -> open", "35ms z0QL1 closed -> open", "35ms a0QL1 closed -> open",
		"35ms z1QL1 closed -> open", "35ms a1QL1 closed -> open",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lift board:\n%v\nwant\n%v", got, want)
	}
	r.do(r.board.Set.PlaceBoard("QL3"))
	got = r.run(40 * ms)
	want = []string{
		"35ms QL3 open -> closed", "35ms z2QL3 open -> closed", "35ms a2QL3 open -> closed",
		"35ms z3QL3 open -> closed", "35ms a3QL3 open -> closed",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("place board:\n%v\nwant\n%v", got, want)
	}
}

func TestButtons(t *testing.T) {
	for _, b := range []*sim.Board{sets.NewReference("promote", "new"), mustBoard(t, sets.MatrixWiring("promote", "new"))} {
		r := newRig(t, b, nil)
		if got := r.sc.Buttons(); !reflect.DeepEqual(got, []string{"button:promote", "button:new"}) {
			t.Fatalf("buttons %v", got)
		}
		r.run(40 * ms)
		r.do(b.Set.Press("button:new"))
		if got, want := r.run(40*ms), []string{"35ms button:new open -> closed"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("press: %v, want %v", got, want)
		}
		snap := r.sc.Snapshot()
		if snap.Buttons != 2 || closedNames(snap) != startNames() {
			t.Fatalf("buttons %b closed %s", snap.Buttons, closedNames(snap))
		}
		if ev := r.sc.Events(); len(ev) != 0 {
			t.Fatalf("events %v", ev)
		}
	}
}

func mustBoard(t *testing.T, w *sensors.Wiring) *sim.Board {
	t.Helper()
	b, err := sim.New(w)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOptsNotShared (issue 23): DefaultOpts returns a fresh value each
// time, and New keeps a copy of the cell list: a caller that changes its
// options, or the slice it gave, changes neither the defaults, nor the
// game system's cell list, nor a scanner already made.
func TestOptsNotShared(t *testing.T) {
	want := st3d.CellNames()[0]
	o := sensors.DefaultOpts()
	o.Cells[0] = "changed"
	o.Debounce = time.Hour
	if d := sensors.DefaultOpts(); d.Cells[0] != want || d.Debounce != 30*ms {
		t.Fatalf("defaults changed by a caller: cell 0 %q, debounce %v", d.Cells[0], d.Debounce)
	}
	if got := st3d.CellNames()[0]; got != want {
		t.Fatalf("st3d's cell 0 is %q after a caller changed its options", got)
	}

	o = sensors.DefaultOpts()
	r := newRig(t, sets.NewReference(), &o)
	o.Cells[0] = "changed"
	if got := r.sc.Cells()[0]; got != want {
		t.Fatalf("the scanner's cell 0 is %q after the caller changed its slice", got)
	}
	r.run(40 * ms)
	r.do(r.board.Set.Lift(want))
	if got, wantEv := r.run(40*ms), []string{"35ms " + want + " closed -> open"}; !reflect.DeepEqual(got, wantEv) {
		t.Errorf("events %v, want %v", got, wantEv)
	}
}
