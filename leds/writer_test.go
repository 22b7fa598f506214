package leds_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/leds"
)

// steady are views without blinking, so that frames change only with them.
func steadyViews(t *testing.T) (a, b leds.View) {
	a = leds.View{Targets: cells(t, "b3W", "b3N", "b4W", "b4N")}
	b = leds.View{Pins: cells(t, "QL2", "QL3")}
	return a, b
}

func TestWriterUnchangedNotRewritten(t *testing.T) {
	d, chip, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	l := refLayout(t)
	w := leds.NewWriter(d, l, &leds.WriterOpts{RetryMin: time.Millisecond, RetryMax: 10 * time.Millisecond})
	defer w.Close()
	base := chip.RAMWrites()
	a, b := steadyViews(t)

	w.Show(&a)
	eventually(t, "the first frame", func() bool { return w.Stats().Writes == 1 })
	for range 5 {
		w.Show(&a)
	}
	// Nothing blinks and nothing changed: no further write.
	time.Sleep(50 * time.Millisecond)
	if st := w.Stats(); st.Writes != 1 {
		t.Fatalf("unchanged views written: %+v", st)
	}
	if n := chip.RAMWrites() - base; n != 1 {
		t.Fatalf("%d RAM writes for one view", n)
	}
	if got, want := litCells(l, chip.LED), sorted("b3W", "b3N", "b4W", "b4N"); !sameNames(got, want) {
		t.Errorf("lit %v, want %v", got, want)
	}
	w.Show(&b)
	eventually(t, "the second frame", func() bool { return w.Stats().Writes == 2 })
	if got, want := litCells(l, chip.LED), sorted("QL2", "QL3"); !sameNames(got, want) {
		t.Errorf("lit %v, want %v", got, want)
	}
	if n := chip.RAMWrites() - base; n != 2 {
		t.Errorf("%d RAM writes for two views", n)
	}
	if st := w.Stats(); st.Errors != 0 || st.Failing || st.Latency <= 0 || st.MaxLatency < st.Latency {
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
}

func TestWriterRetriesAndReports(t *testing.T) {
	mem := leds.NewMemory(128)
	l := refLayout(t)
	var mu sync.Mutex
	var reported []error
	w := leds.NewWriter(mem, l, &leds.WriterOpts{
		RetryMin: time.Millisecond, RetryMax: 4 * time.Millisecond,
		OnError: func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() },
	})
	defer w.Close()
	a, b := steadyViews(t)
	broken := errors.New("bus gone")
	mem.Fail(broken)
	w.Show(&a)
	eventually(t, "three tries", func() bool { return w.Stats().Errors >= 3 })
	st := w.Stats()
	if !st.Failing || st.LastError != broken || st.LastErrorAt.IsZero() || st.Writes != 0 {
		t.Fatalf("stats while failing: %+v", st)
	}
	// The latest view wins: b replaces a while the driver is down.
	w.Show(&b)
	mem.Fail(nil)
	eventually(t, "recovery", func() bool { s := w.Stats(); return s.Writes >= 1 && !s.Failing })
	eventually(t, "the latest view", func() bool {
		f, _ := mem.Frame()
		return sameNames(litCells(l, f.Lit), sorted("QL2", "QL3"))
	})
	mu.Lock()
	n := len(reported)
	mu.Unlock()
	if st := w.Stats(); n == 0 || uint64(n) != st.Errors || st.LastError != broken {
		t.Errorf("%d errors reported, stats %+v", n, st)
	}
}

// TestWriterSimVanish: the LED driver chip drops off the bus and comes back
// in its power-on state; the writer keeps trying and the LEDs come back.
func TestWriterSimVanish(t *testing.T) {
	d, chip, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	l := refLayout(t)
	w := leds.NewWriter(d, l, &leds.WriterOpts{RetryMin: time.Millisecond, RetryMax: 2 * time.Millisecond})
	defer w.Close()
	a, _ := steadyViews(t)
	chip.Vanish()
	w.Show(&a)
	eventually(t, "errors", func() bool { return w.Stats().Errors >= 2 })
	if err := w.Stats().LastError; err == nil || err.Error()[:19] != "leds: ht16k33 0x71:" {
		t.Fatalf("last error %v", err)
	}
	chip.Return()
	eventually(t, "the frame", func() bool { return !w.Stats().Failing && w.Stats().Writes > 0 })
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

func TestWriterShowNeverBlocks(t *testing.T) {
	d := &blockingDriver{leds.NewMemory(128), make(chan struct{})}
	l := refLayout(t)
	w := leds.NewWriter(d, l, nil)
	a, b := steadyViews(t)
	start := time.Now()
	for i := range 10000 {
		if i%2 == 0 {
			w.Show(&a)
		} else {
			w.Show(&b)
		}
	}
	if el := time.Since(start); el > 500*time.Millisecond {
		t.Errorf("10000 Show calls against a stuck driver took %v", el)
	}
	close(d.release)
	eventually(t, "the last view", func() bool {
		f, _ := d.Frame()
		return sameNames(litCells(l, f.Lit), sorted("QL2", "QL3"))
	})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !d.Halted() {
		t.Error("not halted")
	}
}

// TestWriterBlinks: a capture blinks, so frames keep changing without new
// views: on, off, on...
func TestWriterBlinks(t *testing.T) {
	mem := leds.NewMemory(128)
	l := refLayout(t)
	w := leds.NewWriter(mem, l, nil)
	defer w.Close()
	v := leds.View{Targets: cells(t, "b3N", "c3W"), Captures: cells(t, "b3N")}
	w.Show(&v)
	eventually(t, "three frames", func() bool { return w.Stats().Writes >= 3 })
	f, _ := mem.Frame()
	if !f.Lit(l.LED(cell(t, "c3W"))) {
		t.Error("the steady target went dark")
	}
	if st := w.Stats(); st.Unchanged == 0 {
		t.Errorf("no unchanged slot skipped: %+v", st)
	}
}

// TestWriterShowFrame shows a frame as it is, until the next view.
func TestWriterShowFrame(t *testing.T) {
	mem := leds.NewMemory(128)
	l := refLayout(t)
	w := leds.NewWriter(mem, l, nil)
	defer w.Close()
	var all leds.Frame
	for i := range leds.MaxLEDs {
		all.LED[i] = leds.Color{R: 1}
	}
	w.ShowFrame(&all)
	eventually(t, "lamp test", func() bool { f, _ := mem.Frame(); return f.Lit(0) && f.Lit(127) })
	f, _ := mem.Frame()
	if f.N != 128 || f.LED[128] != (leds.Color{}) {
		t.Errorf("frame beyond the driver: N %d, LED 128 %v", f.N, f.LED[128])
	}
	a, _ := steadyViews(t)
	w.Show(&a)
	eventually(t, "the view", func() bool {
		f, _ := mem.Frame()
		return sameNames(litCells(l, f.Lit), sorted("b3W", "b3N", "b4W", "b4N")) && !f.Lit(120)
	})
}

// TestWriterRefresh rewrites an unchanged frame after Refresh.
func TestWriterRefresh(t *testing.T) {
	mem := leds.NewMemory(128)
	w := leds.NewWriter(mem, refLayout(t), &leds.WriterOpts{Refresh: 5 * time.Millisecond})
	defer w.Close()
	a, _ := steadyViews(t)
	w.Show(&a)
	eventually(t, "refreshes", func() bool { _, n := mem.Frame(); return n >= 3 })
}
