package sensors_test

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// Scanning the simulated reference board in simulated time: the cells are
// known once their readings have been stable for the debounce window, and
// a lifted piece shows 30 ms after the scan that first saw it.
func ExampleScanner() {
	board := sets.NewReference()
	sc, err := sensors.New(board.Bus, board.Wiring, nil) // DefaultOpts: ST3D cells, 30 ms debounce
	if err != nil {
		panic(err)
	}
	scan := func(d time.Duration) {
		for end := board.Clock.Now().Add(d); board.Clock.Now().Before(end); {
			if sc.Scan(board.Clock.Advance(5 * time.Millisecond)) {
				snap := sc.Snapshot()
				fmt.Printf("+%v: %d events, %d closed, %d unknown\n",
					snap.Time.Sub(sim.Epoch), len(sc.Events()), snap.Closed.Len(), snap.Unknown.Len())
				for _, e := range sc.Events() {
					if e.From != sensors.Unknown {
						fmt.Println(" ", e)
					}
				}
			}
		}
	}
	scan(50 * time.Millisecond)
	if err := board.Set.Move("c2W", "c4W"); err != nil {
		panic(err)
	}
	scan(50 * time.Millisecond)
	if err := board.Set.MoveBoard("KL1", "KL3"); err != nil {
		panic(err)
	}
	scan(50 * time.Millisecond)
	// Output:
	// +35ms: 108 events, 36 closed, 0 unknown
	// +85ms: 2 events, 36 closed, 0 unknown
	//   c2W closed -> open
	//   c4W open -> closed
	// +135ms: 10 events, 36 closed, 0 unknown
	//   KL1 closed -> open
	//   d0KL1 closed -> open
	//   e0KL1 closed -> open
	//   d1KL1 closed -> open
	//   e1KL1 closed -> open
	//   KL3 open -> closed
	//   d2KL3 open -> closed
	//   e2KL3 open -> closed
	//   d3KL3 open -> closed
	//   e3KL3 open -> closed
}
