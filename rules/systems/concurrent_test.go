package systems_test

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// A position is a value that goroutines share (a table hands snapshots to
// its outputs): reading it from several at once must give the same answers
// as reading it from one. Legality is tried by making moves, so this fails
// (and go test -race reports it) if a reader makes them on the shared
// position.
func TestPositionsAreSafeToShare(t *testing.T) {
	for _, name := range []string{"st3d", "st3d+V.A1,V.A2", "millennium", "first-contact"} {
		sys, err := systems.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 7))
		pos := sys.Start()
		for i := 0; i < 30; i++ {
			ms := pos.LegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			pos = pos.Play(ms[rng.IntN(len(ms))])
		}
		want := pos.LegalMoves(nil)
		var shorts []string
		for _, m := range want {
			shorts = append(shorts, pos.Short(m))
		}
		status := pos.Status()
		var wg sync.WaitGroup
		bad := make(chan string, 8)
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf []rules.Move
				for i := 0; i < 50; i++ {
					buf = pos.LegalMoves(buf[:0])
					if !slices.Equal(buf, want) || pos.Status() != status {
						bad <- "LegalMoves or Status"
						return
					}
					for j, m := range want {
						if pos.Short(m) != shorts[j] {
							bad <- "Short"
							return
						}
						if got, _, err := pos.ParseMove(shorts[j]); err != nil || got != m {
							bad <- "ParseMove"
							return
						}
						pos.Info(m)
						pos.InCheck()
					}
				}
			}()
		}
		wg.Wait()
		close(bad)
		for b := range bad {
			t.Errorf("%s %q: %s differs when read from several goroutines", name, pos, b)
		}
	}
}
