package sensors_test

import (
	"math/rand"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// TestGamesThroughRegisters plays random games of every system on its own
// simulated set (sets.Board and the other presets), by the gestures
// of each move with contact bounce, scanning every 5 ms at register level:
// once the hand is done and the debounce window has passed, the scanner
// reads exactly the occupancy of the position after the move.
func TestGamesThroughRegisters(t *testing.T) {
	for _, tc := range []struct{ system, preset string }{
		{"st3d+V.A2,V.A3", "reference"},
		{"st3d+V.P6", "matrix"},
		{"millennium", "millennium-matrix"},
		{"millennium", "millennium-direct"},
		{"first-contact", "firstcontact"},
		{"first-contact", "firstcontact-matrix"},
		{"first-contact-up", "reference"},
	} {
		sys, err := systems.ByName(tc.system)
		if err != nil {
			t.Fatal(err)
		}
		w, err := sets.Preset(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		b, err := sim.ForSystem(sys, w)
		if err != nil {
			t.Fatal(err)
		}
		opts := sensors.DefaultOpts()
		opts.Cells = sys.Cells()
		sc, err := sensors.New(b.Bus, b.Wiring, &opts)
		if err != nil {
			t.Fatal(err)
		}
		scanFor := func(d time.Duration) {
			for end := b.Clock.Now().Add(d); b.Clock.Now().Before(end); {
				sc.Scan(b.Clock.Advance(5 * time.Millisecond))
			}
		}
		scanFor(50 * time.Millisecond)
		rng := rand.New(rand.NewSource(7))
		style := sim.Style{Pause: 20 * time.Millisecond, Rand: rng, Quirks: true, Brief: 10 * time.Millisecond}
		p := sys.Start()
		plies := 0
		for ply := 0; ply < 24; ply++ {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.Intn(len(moves))]
			for _, a := range sim.Gestures(p, m, style) {
				if a.Op == sim.OpWait {
					scanFor(a.Wait)
					continue
				}
				if err := b.Set.Do(a); err != nil {
					t.Fatalf("%s on %s: %s: %s: %v", tc.system, tc.preset, p.Long(m), a, err)
				}
			}
			long := p.Long(m)
			p = p.Play(m)
			plies++
			scanFor(50 * time.Millisecond)
			if s := sc.Snapshot(); s.Closed != p.Occupancy() || !s.Unknown.Empty() {
				t.Fatalf("%s on %s after %s: reads %v, want %v", tc.system, tc.preset, long,
					s.Closed.Names(sys.Cells()), p.Occupancy().Names(sys.Cells()))
			}
		}
		t.Logf("%s on %s: %d plies, %d scans, %d changes", tc.system, tc.preset, plies, sc.Stats().Scans, sc.Stats().Changes)
		if plies < 20 || sc.Stats().Changes < uint64(plies) {
			t.Errorf("%s on %s: %d plies, %d changes", tc.system, tc.preset, plies, sc.Stats().Changes)
		}
	}
}
