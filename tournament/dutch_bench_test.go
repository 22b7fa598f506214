package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

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

// The time to pair round 5 of a 9-round Swiss (four rounds played).
func BenchmarkPair(b *testing.B) {
	for _, n := range []int{50, 200, 1000} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			tr := randomEvent(b, n, 9, 4, 1)
			for b.Loop() {
				if _, err := tr.PairRound(5); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
