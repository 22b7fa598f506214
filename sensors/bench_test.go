package sensors_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// benchScan measures one full scan of a settled board through the
// simulator, every 5 ms of simulated time (so the periodic configuration
// check is included at its real rate), and reports the wire time per scan
// at the bus's 400 kHz.
func benchScan(b *testing.B, board *sim.Board) {
	sc, err := sensors.New(board.Bus, board.Wiring, nil)
	if err != nil {
		b.Fatal(err)
	}
	now := board.Clock.Now()
	for i := 0; i < 20; i++ {
		now = now.Add(5 * time.Millisecond)
		sc.Scan(now)
	}
	if !sc.Snapshot().Unknown.Empty() {
		b.Fatal("board did not settle")
	}
	steadyScans(b, board, sc, now)
}

func BenchmarkScanReference(b *testing.B) { benchScan(b, sets.NewReference()) }

func BenchmarkScanMatrix(b *testing.B) { benchScan(b, sets.NewMatrix(false)) }

func BenchmarkScanMatrixMux(b *testing.B) { benchScan(b, sets.NewMatrix(true)) }

// TestScanAllocs pins the zero-allocation hot path, changes included.
func TestScanAllocs(t *testing.T) {
	board := sets.NewReference()
	sc, err := sensors.New(board.Bus, board.Wiring, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := board.Clock.Now()
	for i := 0; i < 20; i++ {
		now = now.Add(5 * time.Millisecond)
		sc.Scan(now)
	}
	i := 0
	allocs := testing.AllocsPerRun(400, func() {
		i++
		if i%50 == 0 { // a piece lifted or put back every 250 ms
			if board.Set.Closed().Has(9) {
				_ = board.Set.Lift("b3W")
			} else {
				_ = board.Set.Place("b3W")
			}
		}
		now = now.Add(5 * time.Millisecond)
		board.Clock.Set(now)
		sc.Scan(now)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per scan", allocs)
	}
	if sc.Stats().Changes == 0 {
		t.Fatal("no change seen")
	}
}
