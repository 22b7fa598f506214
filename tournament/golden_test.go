package tournament

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// An endorsed engine's pairings, round by round: each round is paired
// from the rounds before it as the engine paired them, the higher-rated
// player winning every game, and must come out the same (pairs and
// colours).
func TestDutchMatchesEndorsedEngine(t *testing.T) {
	for _, tc := range []struct {
		file         string
		players, top int
	}{{"bbp-10-players-7-rounds.txt", 10, 2500}, {"bbp-9-players-5-rounds.txt", 9, 2400}, {"bbp-12-players-7-rounds.txt", 12, 2600}, {"bbp-20-players-9-rounds.txt", 20, 2800}, {"bbp-withdrawal.txt", 8, 2400}} {
		data, err := os.ReadFile("testdata/golden/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		var rounds []string
		withdraw := map[int][]int{} // before round -> players
		for _, l := range strings.Split(string(data), "\n") {
			var p int
			if _, err := fmt.Sscanf(l, "withdraw %d", &p); err == nil {
				withdraw[len(rounds)+1] = append(withdraw[len(rounds)+1], p)
				continue
			}
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				rounds = append(rounds, l)
			}
		}
		ps := make([]Player, tc.players)
		for i := range ps {
			ps[i] = Player{Name: fmt.Sprintf("P%d", i+1), Rating: tc.top - 100*i}
		}
		tr, err := New(Opts{System: Swiss, Rounds: len(rounds)}, ps)
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range rounds {
			for _, p := range withdraw[k+1] {
				if err := tr.Withdraw(p); err != nil {
					t.Fatal(err)
				}
			}
			games, err := tr.PairRound(k + 1)
			if err != nil {
				t.Fatalf("%s round %d: %v", tc.file, k+1, err)
			}
			if got := formatGames(games); got != want {
				t.Errorf("%s round %d: paired %s, the engine %s", tc.file, k+1, got, want)
			}
			var gs []Game
			for _, f := range strings.Fields(want) {
				var w, b int
				if strings.HasSuffix(f, "-bye") {
					fmt.Sscanf(f, "%d-bye", &w)
				} else {
					fmt.Sscanf(f, "%d-%d", &w, &b)
				}
				gs = append(gs, Game{White: w, Black: b})
			}
			if err := tr.SetPairings(k+1, gs); err != nil {
				t.Fatalf("%s round %d: %v", tc.file, k+1, err)
			}
			for i, g := range tr.Rounds[k].Games {
				if g.IsBye() {
					continue
				}
				res := WhiteWins
				if g.Black < g.White {
					res = BlackWins
				}
				_ = tr.SetResult(k+1, i+1, res, "")
			}
		}
	}
}
