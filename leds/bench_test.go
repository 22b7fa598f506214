package leds_test

import (
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// benchViews alternates a lifted rook (targets and a blinking capture) and a
// lifted board, so that every frame differs from the one before.
func benchViews(b *testing.B) [2]leds.View {
	p := position(b, boardPos)
	return [2]leds.View{leds.ViewFor(p, cells(b, "b1W")), leds.ViewFor(p, cells(b, "QL1", "z0QL1"))}
}

// BenchmarkCompose: one frame from a view, in memory.
func BenchmarkCompose(b *testing.B) {
	l := refLayout(b)
	vs := benchViews(b)
	var f leds.Frame
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		leds.Compose(&f, &vs[i&1], l, &leds.MonoStyle, time.Duration(i)*leds.Slot)
		i++
	}
}

// BenchmarkFrameHT16K33: compose one frame and write it (one 17-byte I²C
// write) to the sim's HT16K33; wire-µs/frame is the time the write takes
// on a 400 kHz bus.
func BenchmarkFrameHT16K33(b *testing.B) {
	d, chip, bus := newSimHT16K33(b, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	l := refLayout(b)
	vs := benchViews(b)
	var f leds.Frame
	bus.ResetStats()
	w0 := chip.RAMWrites()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		leds.Compose(&f, &vs[i&1], l, &leds.MonoStyle, 0)
		if err := d.Write(&f); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if n := chip.RAMWrites() - w0; n != uint64(i) {
		b.Fatalf("%d RAM writes for %d frames", n, i)
	}
	b.ReportMetric(float64(bus.Stats().WireTime.Microseconds())/float64(i), "wire-µs/frame")
}

// BenchmarkHints: the hints of a lifted piece in the start position, from
// the legal moves (rules interface), with a kept move buffer.
func BenchmarkHints(b *testing.B) {
	p := st3d.Start()
	lifted := cells(b, "b2W")
	var v leds.View
	var buf []rules.Move
	b.ReportAllocs()
	for b.Loop() {
		buf = v.SetPosition(p, lifted, buf)
	}
}

// BenchmarkShowToLED: from Writer.Show to the frame in the sim's display
// RAM, through the writer's goroutine (the latency a lift sees once it is
// recognized).
func BenchmarkShowToLED(b *testing.B) {
	d, chip, _ := newSimHT16K33(b, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	w := leds.NewWriter(d, refLayout(b), &leds.WriterOpts{})
	defer w.Close()
	vs := benchViews(b)
	lat := make([]time.Duration, 0, 1<<20)
	i := 0
	for b.Loop() {
		n := chip.RAMWrites()
		start := time.Now()
		w.Show(&vs[i&1])
		for chip.RAMWrites() == n {
			runtime.Gosched()
		}
		if len(lat) < cap(lat) {
			lat = append(lat, time.Since(start))
		}
		i++
	}
	slices.Sort(lat)
	pct := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(pct(0.5), "p50-µs")
	b.ReportMetric(pct(0.999), "p99.9-µs")
	b.ReportMetric(pct(1), "max-µs")
	over := len(lat) - sort.Search(len(lat), func(i int) bool { return lat[i] > 5*time.Millisecond })
	b.ReportMetric(float64(over), "over-5ms")
}
