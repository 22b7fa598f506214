package sensors_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// setBoard is the simulated set of a wiring preset and a scanner over its
// system's cells, settled.
func setBoard(tb testing.TB, preset string) (*sim.Board, *sensors.Scanner, time.Time) {
	w, err := sets.Preset(preset)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := sim.New(w)
	if err != nil {
		tb.Fatal(err)
	}
	opts := sensors.DefaultOpts()
	opts.Cells = b.Set.System().Cells()
	sc, err := sensors.New(b.Bus, b.Wiring, &opts)
	if err != nil {
		tb.Fatal(err)
	}
	now := b.Clock.Now()
	for i := 0; i < 20; i++ {
		now = now.Add(5 * time.Millisecond)
		sc.Scan(now)
	}
	if !sc.Snapshot().Unknown.Empty() {
		tb.Fatal("board did not settle")
	}
	return b, sc, now
}

// millenniumRowBits is one row of the Millennium matrix as the scanner reads
// it: one transaction writing [GPIOA, row] and reading GPIOB after a
// repeated start.
var millenniumRowBits = sim.TxBits(2, 1)

// TestMillenniumScanBusFloor pins the bus traffic of the Millennium matrix
// build (hardware.md: 24 row selections per scan): 24 transactions of 48
// bits per scan, 2.88 ms at 400 kHz, plus the round-robin check of one
// expander's IOCON/GPPU (66 bits) per second and expander. hardware.md's
// "about 4 ms" counts a separate write and register read per row (29 + 39
// bits); the scanner's combined transaction is under that.
func TestMillenniumScanBusFloor(t *testing.T) {
	b, sc, now := setBoard(t, sets.PresetMillenniumMatrix)
	b.Bus.ResetStats()
	const scans = 200 // one second at 5 ms
	for i := 0; i < scans; i++ {
		now = now.Add(5 * time.Millisecond)
		if sc.Scan(now) {
			t.Fatal("steady board changed")
		}
	}
	st := b.Bus.Stats()
	checks := sim.TxBits(1, 4) // IOCON..GPPUB read back
	if want := scans*24*millenniumRowBits + 3*checks; st.Bits != want || st.Transactions != scans*24+3 {
		t.Fatalf("%d bits in %d transactions over %d scans, want %d bits in %d", st.Bits, st.Transactions, scans, want, scans*24+3)
	}
	if millenniumRowBits != 48 || 24*millenniumRowBits*1e6/400000 != 2880 {
		t.Fatalf("row %d bits", millenniumRowBits)
	}
	if spec := 24 * (sim.TxBits(2, 0) + sim.TxBits(1, 1)); spec != 1632 { // 4.08 ms at 400 kHz
		t.Fatalf("hardware.md's reckoning: %d bits", spec)
	}
}

// TestMillenniumScanAllocs: no allocation per scan of the Millennium matrix
// in steady state, nor while pieces are lifted and put back.
func TestMillenniumScanAllocs(t *testing.T) {
	b, sc, now := setBoard(t, sets.PresetMillenniumMatrix)
	c, _ := b.Set.Cell("2e4")
	i := 0
	allocs := testing.AllocsPerRun(400, func() {
		i++
		if i%50 == 0 {
			if b.Set.Closed().Has(c) {
				_ = b.Set.Lift("2e4")
			} else {
				_ = b.Set.Place("2e4")
			}
		}
		now = now.Add(5 * time.Millisecond)
		b.Clock.Set(now)
		sc.Scan(now)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per scan", allocs)
	}
	if sc.Stats().Changes < 7 {
		t.Fatal("changes not seen")
	}
}

// benchSet measures a steady scan of a preset's simulated set every 5 ms of
// simulated time, with the wire time per scan and the floor of the matrix
// rows (24 * 48 bits for the Millennium matrix) as metrics.
func benchSet(b *testing.B, preset string) {
	board, sc, now := setBoard(b, preset)
	steadyScans(b, board, sc, now)
}

// steadyScans times b.N scans of a settled board, one every 5 ms of
// simulated time from now, and reports the bus's wire time, bits and
// transactions per scan.
func steadyScans(b *testing.B, board *sim.Board, sc *sensors.Scanner, now time.Time) {
	board.Bus.ResetStats()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(5 * time.Millisecond)
		if sc.Scan(now) {
			b.Fatal("steady board changed")
		}
	}
	b.StopTimer()
	st := board.Bus.Stats()
	b.ReportMetric(float64(st.WireTime.Nanoseconds())/1e3/float64(b.N), "bus-us/scan")
	b.ReportMetric(float64(st.Bits)/float64(b.N), "bits/scan")
	b.ReportMetric(float64(st.Transactions)/float64(b.N), "tx/scan")
}

func BenchmarkScanMillenniumMatrix(b *testing.B) { benchSet(b, sets.PresetMillenniumMatrix) }

func BenchmarkScanMillenniumDirect(b *testing.B) { benchSet(b, sets.PresetMillenniumDirect) }

func BenchmarkScanFirstContact(b *testing.B) { benchSet(b, sets.PresetFirstContact) }
