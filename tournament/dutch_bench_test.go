package tournament

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// randomEvent returns a Swiss of n players with played rounds of random
// results (a draw in five), the next round not yet paired.
func randomEvent(tb testing.TB, n, rounds, played int, seed uint64) *Tournament {
	tb.Helper()
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{Name: fmt.Sprintf("P%04d", i+1), Rating: 2800 - i}
	}
	tr, err := New(Opts{System: Swiss, Rounds: rounds}, ps)
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	for k := 1; k <= played; k++ {
		rd, err := tr.NextRound()
		if err != nil {
			tb.Fatalf("round %d: %v", k, err)
		}
		for _, g := range rd.Games {
			if g.IsBye() {
				continue
			}
			res := []Result{WhiteWins, BlackWins, WhiteWins, BlackWins, Draw}[r.IntN(5)]
			if err := tr.SetResult(k, g.Board, res, ""); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return tr
}

// The time to pair a round of a 9-round Swiss: round 5 (four rounds
// played, many score groups) and round 2 (three large score groups).
func BenchmarkPair(b *testing.B) {
	for _, c := range []struct{ n, round int }{{50, 5}, {200, 5}, {200, 2}, {1000, 2}} {
		n, round := c.n, c.round
		b.Run(fmt.Sprintf("players=%d/round=%d", n, round), func(b *testing.B) {
			tr := randomEvent(b, n, 9, round-1, 1)
			// CPU time too: the wall clock of a shared machine says little.
			before := cpuTime()
			runs := 0
			for b.Loop() {
				if _, err := tr.PairRound(round); err != nil {
					b.Fatal(err)
				}
				runs++
			}
			b.ReportMetric(float64((cpuTime()-before).Milliseconds())/float64(runs), "cpu-ms/op")
		})
	}
}
