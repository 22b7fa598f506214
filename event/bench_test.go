package event

import (
	"fmt"
	"testing"

	"github.com/tridboard/tridboard/tournament"
)

// BenchmarkObserveMove measures what a move costs the event: the set's
// state read, the record's difference journaled and fsync'd, in a round of
// 20 games of a 40-player Swiss after 6 rounds.
func BenchmarkObserveMove(b *testing.B) {
	var ps []tournament.Player
	for i := 0; i < 40; i++ {
		ps = append(ps, tournament.Player{Name: fmt.Sprintf("P%02d", i+1), Rating: 2000 - 5*i})
	}
	r, err := Create(testOpts(b, b.TempDir()), Config{Name: "Bench", System: tournament.Swiss, Rounds: 7,
		Boards: []string{"s1"}, Tables: []string{"T1"}}, ps, &fakeLink{})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for n := 1; n <= 6; n++ {
		r.PairNext()
		r.StartRound(n)
		for _, g := range r.Snapshot().Paired[n-1].Games {
			if !g.IsBye() {
				r.SetResult(n, g.Board, "1/2-1/2", "arbiter: bench")
			}
		}
	}
	r.PairNext()
	r.StartRound(7)
	g, _ := r.t.Game(7, 1)
	st := state("Bench", "7", "1", ps[g.White-1].Name, ps[g.Black-1].Name, "g1", "*", "")
	mv := line(b, 2, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Observe("s1", playing(st, mv[:1+i%2], true))
	}
}
