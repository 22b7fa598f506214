package leds_test

import (
	"errors"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/sim"
)

// steady are views without blinking, so that frames change only with them.
func steadyViews(t *testing.T) (a, b leds.View) {
	a = leds.View{Targets: cells(t, "b3W", "b3N", "b4W", "b4N")}
	b = leds.View{Pins: cells(t, "QL2", "QL3")}
	return a, b
}

// simWriter is a writer of d on the reference layout with options o, on a
// simulated clock: nothing happens with time unless the test moves c.
func simWriter(t *testing.T, d leds.Driver, o leds.WriterOpts) (w *leds.Writer, c *sim.TimeSource) {
	t.Helper()
	c = sim.NewTimeSource(time.Time{})
	o.Now, o.NewTimer = c.Now, c.NewTimer
	w = leds.NewWriter(d, refLayout(t), &o)
	t.Cleanup(func() { w.Close() })
	w.Sync() // started and idle: each Show is then one wake
	return w, c
}

// timersAt checks that the clock's only timer is at want (none when want is
// zero): what the writer waits for next.
func timersAt(t *testing.T, c *sim.TimeSource, want time.Time) {
	t.Helper()
	var ws []time.Time
	if !want.IsZero() {
		ws = []time.Time{want}
	}
	if got := c.Timers(); !slices.Equal(got, ws) {
		t.Fatalf("timers at %v, want %v", got, ws)
	}
}

func TestWriterUnchangedNotRewritten(t *testing.T) {
	d, chip, bus := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	w, c := simWriter(t, d, leds.WriterOpts{RetryMin: time.Millisecond, RetryMax: 10 * time.Millisecond})
	bus.SetTimeSource(c) // each write takes its wire time
	l := refLayout(t)
	base := chip.RAMWrites()
	a, b := steadyViews(t)

	t0 := c.Now()
	w.Show(&a)
	w.Sync()
	wire := c.Now().Sub(t0)
	if st := w.Stats(); st.Writes != 1 || wire <= 0 || st.Latency != wire || st.MaxLatency != wire {
		t.Fatalf("after the first view: stats %+v, want 1 write of latency %v (its wire time)", st, wire)
	}
	for range 5 {
		w.Show(&a)
	}
	w.Sync()
	// Nothing blinks, nothing changed and no refresh is set: no further
	// write, and the writer waits for no time at all.
	if st := w.Stats(); st.Writes != 1 || st.Unchanged == 0 {
		t.Fatalf("unchanged views: stats %+v, want 1 write and the rest unchanged", st)
	}
	timersAt(t, c, time.Time{})
	if n := chip.RAMWrites() - base; n != 1 {
		t.Fatalf("%d RAM writes for one view", n)
	}
	if got, want := litCells(l, chip.LED), sorted("b3W", "b3N", "b4W", "b4N"); !sameNames(got, want) {
		t.Errorf("lit %v, want %v", got, want)
	}
	w.Show(&b)
	w.Sync()
	if got, want := litCells(l, chip.LED), sorted("QL2", "QL3"); !sameNames(got, want) {
		t.Errorf("lit %v, want %v", got, want)
	}
	if n := chip.RAMWrites() - base; n != 2 {
		t.Errorf("%d RAM writes for two views", n)
	}
	if st := w.Stats(); st.Writes != 2 || st.Errors != 0 || st.Failing || st.Latency != wire {
		t.Errorf("stats %+v", st)
	}
	// Close turns everything off.
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if chip.RAM() != [16]byte{} || chip.DisplayOn() {
		t.Error("LEDs still on after Close")
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	w.Sync() // returns at once on a closed writer
}

// TestWriterRetriesAndReports: a failing driver is tried again after
// RetryMin, then after twice as long each time up to RetryMax, exactly; a
// view shown meanwhile waits for the next try, and the latest view wins.
func TestWriterRetriesAndReports(t *testing.T) {
	mem := leds.NewMemory(128)
	l := refLayout(t)
	var mu sync.Mutex
	var reported []error
	w, c := simWriter(t, mem, leds.WriterOpts{
		RetryMin: 50 * time.Millisecond, RetryMax: 200 * time.Millisecond,
		OnError: func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() },
	})
	a, b := steadyViews(t)
	broken := errors.New("bus gone")
	mem.Fail(broken)
	w.Show(&a)
	w.Sync()
	var tries []time.Time // when the writer tried
	tries = append(tries, c.Now())
	for i, backoff := range []time.Duration{50, 100, 200, 200} {
		backoff *= time.Millisecond
		timersAt(t, c, c.Now().Add(backoff))
		st := w.Stats()
		if st.Errors != uint64(i+1) || !st.Failing || st.LastError != broken || !st.LastErrorAt.Equal(tries[i]) || st.Writes != 0 {
			t.Fatalf("after try %d: stats %+v", i+1, st)
		}
		if i == 2 {
			// The latest view wins: b replaces a while the driver is down,
			// and waits for the next try.
			w.Show(&b)
			w.Sync()
			if st := w.Stats(); st.Errors != 3 {
				t.Fatalf("a view shown while failing tried at once: %+v", st)
			}
			timersAt(t, c, c.Now().Add(backoff))
		}
		c.Advance(backoff - 1)
		w.Sync()
		if n := w.Stats().Errors; n != uint64(i+1) {
			t.Fatalf("tried again %v after try %d, before the backoff %v", backoff-1, i+1, backoff)
		}
		tries = append(tries, c.Advance(1))
		w.Sync()
	}
	// The fifth try fails too; then the driver comes back.
	mem.Fail(nil)
	c.Advance(200 * time.Millisecond)
	w.Sync()
	st := w.Stats()
	if st.Writes != 1 || st.Failing || st.Errors != 5 || st.LastError != broken || !st.LastErrorAt.Equal(tries[4]) {
		t.Fatalf("after recovery: stats %+v", st)
	}
	if f, n := mem.Frame(); n != 1 || !sameNames(litCells(l, f.Lit), sorted("QL2", "QL3")) {
		t.Errorf("%d writes, lit %v: want the latest view once", n, litCells(l, f.Lit))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 5 {
		t.Errorf("%d errors reported, want 5", len(reported))
	}
}

// TestWriterSimVanish: the LED driver chip drops off the bus and comes back
// in its power-on state; the writer keeps trying and the LEDs come back.
func TestWriterSimVanish(t *testing.T) {
	d, chip, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	l := refLayout(t)
	w, c := simWriter(t, d, leds.WriterOpts{RetryMin: time.Millisecond, RetryMax: 2 * time.Millisecond})
	a, _ := steadyViews(t)
	chip.Vanish()
	w.Show(&a)
	w.Sync()
	c.Advance(time.Millisecond)
	w.Sync()
	if st := w.Stats(); st.Errors != 2 || st.Writes != 0 || st.LastError == nil || !strings.HasPrefix(st.LastError.Error(), "leds: ht16k33 0x71:") {
		t.Fatalf("stats %+v: want 2 errors of leds: ht16k33 0x71", st)
	}
	chip.Return()
	c.Advance(2 * time.Millisecond)
	w.Sync()
	if st := w.Stats(); st.Failing || st.Writes != 1 || st.Errors != 2 {
		t.Fatalf("after the chip came back: stats %+v", st)
	}
	if !chip.Lit() {
		t.Error("display not set up again")
	}
	if got, want := litCells(l, chip.LED), sorted("b3W", "b3N", "b4W", "b4N"); !sameNames(got, want) {
		t.Errorf("lit %v, want %v", got, want)
	}
}

// blockingDriver blocks every Write until release is closed.
type blockingDriver struct {
	*leds.Memory
	release chan struct{}
}

func (b *blockingDriver) Write(f *leds.Frame) error {
	<-b.release
	return b.Memory.Write(f)
}

// TestWriterShowNeverBlocks: Show returns while the driver is stuck in a
// write; once it comes back, the latest view is shown.
func TestWriterShowNeverBlocks(t *testing.T) {
	d := &blockingDriver{leds.NewMemory(128), make(chan struct{})}
	l := refLayout(t)
	w, _ := simWriter(t, d, leds.WriterOpts{})
	a, b := steadyViews(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 10000 {
			if i%2 == 0 {
				w.Show(&a)
			} else {
				w.Show(&b)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		close(d.release)
		t.Fatal("Show blocked behind a stuck driver")
	}
	close(d.release)
	w.Sync()
	if f, _ := d.Frame(); !sameNames(litCells(l, f.Lit), sorted("QL2", "QL3")) {
		t.Errorf("lit %v, want the last view", litCells(l, f.Lit))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !d.Halted() {
		t.Error("not halted")
	}
}

// TestWriterBlinks: each blinking signal follows its pattern slot by slot
// over a whole cycle and into the next, in simulated time: the frame is
// written when the cell changes, and the slots where it does not are
// composed but not written. A steady target beside it stays lit.
func TestWriterBlinks(t *testing.T) {
	tests := []struct {
		signal string
		view   func(v *leds.View)
		want   leds.Pattern
	}{
		{"capture", func(v *leds.View) { v.Captures = cells(t, "b3N") }, leds.Fast},
		{"check", func(v *leds.View) { v.Check = cells(t, "b3N") }, leds.Slow},
		{"low time", func(v *leds.View) { v.LowTime = cells(t, "b3N") }, leds.Warning},
		{"game over", func(v *leds.View) { v.GameOver = cells(t, "b3N") }, leds.Heartbeat},
		{"remote from", func(v *leds.View) { v.RemoteFrom = cells(t, "b3N") }, leds.Alternate},
		{"remote to", func(v *leds.View) { v.RemoteTo = cells(t, "b3N") }, leds.AlternateOpposite},
	}
	for _, tt := range tests {
		t.Run(tt.signal, func(t *testing.T) {
			mem := leds.NewMemory(128)
			l := refLayout(t)
			w, c := simWriter(t, mem, leds.DefaultWriterOpts())
			v := leds.View{Targets: cells(t, "c3W")}
			tt.view(&v)
			t0 := c.Now()
			w.Show(&v)
			var got leds.Pattern
			for slot := range 33 {
				w.Sync()
				f, _ := mem.Frame()
				if !f.Lit(l.LED(cell(t, "c3W"))) {
					t.Fatalf("slot %d: the steady target went dark", slot)
				}
				if on := f.Lit(l.LED(cell(t, "b3N"))); on != tt.want.On(time.Duration(slot)*leds.Slot) {
					t.Fatalf("slot %d: b3N lit %t, want %t (pattern %#x)", slot, on, !on, uint32(tt.want))
				} else if on && slot < 32 {
					got |= 1 << slot
				}
				timersAt(t, c, t0.Add(time.Duration(slot+1)*leds.Slot))
				if slot < 32 {
					c.Advance(leds.Slot)
				}
			}
			// One write per change of the cell (slot 32 is slot 0 again).
			changes := bits.OnesCount32(uint32(got ^ (got<<1 | got>>31)))
			if st := w.Stats(); st.Writes != uint64(1+changes) || st.Unchanged != uint64(32-changes) {
				t.Errorf("stats %+v, want %d writes and %d unchanged", st, 1+changes, 32-changes)
			}
		})
	}
}

// TestWriterBlinkStartsLit: a new view starts its patterns at slot 0, so a
// capture shown in the middle of another blink lights at once.
func TestWriterBlinkStartsLit(t *testing.T) {
	mem := leds.NewMemory(128)
	l := refLayout(t)
	w, c := simWriter(t, mem, leds.DefaultWriterOpts())
	v := leds.View{Captures: cells(t, "b3N")}
	w.Show(&v)
	c.Advance(2*leds.Slot + leds.Slot/2) // Fast is dark in slot 2
	w.Sync()
	if f, _ := mem.Frame(); f.Lit(l.LED(cell(t, "b3N"))) {
		t.Fatal("b3N lit in slot 2 of Fast")
	}
	v.Captures = cells(t, "b3N", "c3W")
	w.Show(&v)
	w.Sync()
	if f, _ := mem.Frame(); !sameNames(litCells(l, f.Lit), sorted("b3N", "c3W")) {
		t.Errorf("lit %v after a new view, want both captures", litCells(l, f.Lit))
	}
}

// TestWriterShowFrame shows a frame as it is, until the next view.
func TestWriterShowFrame(t *testing.T) {
	mem := leds.NewMemory(128)
	l := refLayout(t)
	w, _ := simWriter(t, mem, leds.DefaultWriterOpts())
	var all leds.Frame
	for i := range leds.MaxLEDs {
		all.LED[i] = leds.Color{R: 1}
	}
	w.ShowFrame(&all)
	w.Sync()
	f, _ := mem.Frame()
	if !f.Lit(0) || !f.Lit(127) {
		t.Error("lamp test not shown")
	}
	if f.N != 128 || f.LED[128] != (leds.Color{}) {
		t.Errorf("frame beyond the driver: N %d, LED 128 %v", f.N, f.LED[128])
	}
	a, _ := steadyViews(t)
	w.Show(&a)
	w.Sync()
	if f, n := mem.Frame(); n != 2 || !sameNames(litCells(l, f.Lit), sorted("b3W", "b3N", "b4W", "b4N")) || f.Lit(120) {
		t.Errorf("%d writes, lit %v: want the view", n, litCells(l, f.Lit))
	}
}

// TestWriterRefresh rewrites an unchanged frame every Refresh, exactly.
func TestWriterRefresh(t *testing.T) {
	mem := leds.NewMemory(128)
	w, c := simWriter(t, mem, leds.WriterOpts{Refresh: 5 * time.Second})
	a, _ := steadyViews(t)
	w.Show(&a)
	for i := 1; i <= 3; i++ {
		w.Sync()
		if _, n := mem.Frame(); n != i {
			t.Fatalf("%d writes at %v, want %d", n, c.Now().Sub(sim.Epoch), i)
		}
		timersAt(t, c, c.Now().Add(5*time.Second))
		c.Advance(5*time.Second - 1)
		w.Sync()
		if _, n := mem.Frame(); n != i {
			t.Fatalf("refreshed early, %v after the last write", 5*time.Second-1)
		}
		c.Advance(1)
	}
}

// Lit is what the view shown lights over its blinking, under the style's
// rules: the cells to fix hide the hints (MonoStyle), a signal the style
// leaves dark lights nothing, a frame of its own lights no cell.
func TestWriterLit(t *testing.T) {
	dark := leds.MonoStyle
	dark.Looks[leds.Capture] = leds.Look{}
	for _, tc := range []struct {
		name  string
		style *leds.Style
		v     leds.View
		want  []string
	}{
		{"targets", &leds.MonoStyle, leds.View{Targets: cells(t, "b3W", "b4W"), Lifted: cells(t, "b2W")}, []string{"b3W", "b4W"}},
		{"a remote move blinks", &leds.MonoStyle, leds.View{RemoteFrom: cells(t, "b2W"), RemoteTo: cells(t, "b4N")}, []string{"b2W", "b4N"}},
		{"fix hides the hints", &leds.MonoStyle, leds.View{Fix: cells(t, "c2W"), Targets: cells(t, "b3W")}, []string{"c2W"}},
		{"no hints", &leds.MonoStyle, leds.View{NoTargets: true, Targets: cells(t, "b3W"), LastMove: cells(t, "a2W", "a3W")}, []string{"a2W", "a3W"}},
		{"a dark signal", &dark, leds.View{Captures: cells(t, "c3W"), Targets: cells(t, "b3W"), Lifted: cells(t, "b2W")}, []string{"b3W"}},
	} {
		w, _ := simWriter(t, leds.NewMemory(refLayout(t).NumLEDs()), leds.WriterOpts{Style: tc.style})
		w.Show(&tc.v)
		var got []string
		for _, c := range w.Lit().Cells(nil) {
			got = append(got, names[c])
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: lit %v, want %v", tc.name, got, tc.want)
		}
	}
}
