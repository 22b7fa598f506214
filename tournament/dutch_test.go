package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// legalPairingExists tries every pairing of round no's players (small
// events only): true when one meets C1-C3.
func legalPairingExists(t *Tournament, no int) bool {
	d := newDutchRound(t, no)
	ps := t.toPair(no)
	used := map[int]bool{}
	var try func(byeLeft bool) bool
	try = func(byeLeft bool) bool {
		first := 0
		for _, p := range ps {
			if !used[p] {
				first = p
				break
			}
		}
		if first == 0 {
			return true
		}
		used[first] = true
		defer func() { used[first] = false }()
		if byeLeft && d.ps[first].canBye && try(false) {
			return true
		}
		for _, q := range ps {
			if !used[q] && d.compatible(first, q) {
				used[q] = true
				ok := try(byeLeft)
				used[q] = false
				if ok {
					return true
				}
			}
		}
		return false
	}
	return try(len(ps)%2 == 1)
}

// Over hundreds of random events (sizes 4 to 24, up to 9 rounds, draws,
// forfeits, requested byes, late entries and withdrawals) the Dutch
// pairing never breaks an absolute criterion: nobody meets twice, nobody
// has a second pairing-allocated bye or one after a win without playing,
// no non-topscorer ends with a colour difference beyond 2 or one colour
// three times running (topscorers may, in the final round only), every
// player in the round is paired once; and when it finds no pairing, none
// exists (checked by trying them all).
func TestDutchAbsoluteCriteriaProperty(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 99))
		n := 4 + r.IntN(21)
		rounds := 1 + r.IntN(min(9, n-1))
		ps := make([]Player, n)
		for i := range ps {
			ps[i] = Player{Name: fmt.Sprintf("P%d", i+1), Rating: 2000 - 10*i + r.IntN(30)}
		}
		tr, err := New(Opts{System: Swiss, Rounds: rounds}, ps)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= rounds; k++ {
			if r.IntN(8) == 0 {
				p := 1 + r.IntN(n)
				if tr.Players[p-1].Byes == nil {
					tr.Players[p-1].Byes = map[int]Result{}
				}
				tr.Players[p-1].Byes[k] = []Result{HalfBye, FullBye, ZeroBye}[r.IntN(3)]
			}
			if k > 1 && r.IntN(10) == 0 {
				_, _ = tr.AddPlayer(Player{Name: fmt.Sprintf("Late%d", k), Rating: 1500})
			}
			if k > 1 && r.IntN(12) == 0 {
				_ = tr.Withdraw(1 + r.IntN(len(tr.Players)))
			}
			rd, err := tr.NextRound()
			if errors.Is(err, ErrNoPairing) {
				if len(tr.Players) <= 14 && legalPairingExists(tr, k) {
					t.Fatalf("seed %d round %d: no pairing found, but one exists", seed, k)
				}
				break
			}
			if err != nil {
				t.Fatalf("seed %d round %d: %v", seed, k, err)
			}
			checkRound(t, tr, k, fmt.Sprintf("seed %d (%d players, %d rounds) round %d", seed, n, rounds, k))
			for _, g := range rd.Games {
				if g.IsBye() {
					continue
				}
				res := []Result{WhiteWins, BlackWins, Draw, WhiteWins, BlackWins}[r.IntN(5)]
				if r.IntN(15) == 0 {
					res = []Result{WhiteForfeit, BlackForfeit, DoubleForfeit}[r.IntN(3)]
				}
				if err := tr.SetResult(k, g.Board, res, ""); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// checkRound asserts the absolute criteria of round k as paired.
func checkRound(t *testing.T, tr *Tournament, k int, where string) {
	t.Helper()
	before := &Tournament{Opts: tr.Opts, Players: tr.Players, Rounds: tr.Rounds[:k-1]}
	d := newDutchRound(before, k)
	seen := map[int]int{}
	for _, g := range tr.Rounds[k-1].Games {
		seen[g.White]++
		if g.IsBye() {
			if g.Result == Bye && !d.ps[g.White].canBye {
				t.Errorf("%s: %d has a second pairing-allocated bye (or one after a win without playing)", where, g.White)
			}
			continue
		}
		seen[g.Black]++
		if d.met[key(g.White, g.Black)] {
			t.Errorf("%s: %d and %d meet again", where, g.White, g.Black)
		}
		for p, c := range map[int]Colour{g.White: White, g.Black: Black} {
			dp := d.ps[p]
			cd := dp.cd
			if c == White {
				cd++
			} else {
				cd--
			}
			three := len(dp.cs) >= 2 && dp.cs[len(dp.cs)-1] == c && dp.cs[len(dp.cs)-2] == c
			if (cd > 2 || cd < -2 || three) && !dp.top && !d.ps[g.White+g.Black-p].top {
				t.Errorf("%s: %d (colours %v) gets %v: difference %d or three in a row, and no topscorer is involved", where, p, dp.cs, c, cd)
			}
		}
	}
	for _, p := range tr.Players {
		want := 0
		if tr.plays(p, k) {
			want = 1
		}
		if seen[p.No] != want {
			t.Errorf("%s: %s is in %d games, want %d", where, p.Name, seen[p.No], want)
		}
	}
}

// In a large event a bracket is matched over the score groups it can
// reach and a reserve below them (largeEvent): rounds 2 and 3 of a
// 420-player event come out exactly as the matching over everyone pairs
// them.
func TestDutchLargeEventSameAsWhole(t *testing.T) {
	tr := randomEvent(t, 420, 9, 1, 3)
	r := rand.New(rand.NewPCG(8, 8))
	for k := 2; k <= 3; k++ {
		fast, err := tr.PairRound(k)
		if err != nil {
			t.Fatal(err)
		}
		saved := largeEvent
		largeEvent = 1 << 30
		whole, err := tr.PairRound(k)
		largeEvent = saved
		if err != nil {
			t.Fatal(err)
		}
		if a, b := formatGames(fast), formatGames(whole); a != b {
			t.Fatalf("round %d: over the reserve %s\nover everyone %s", k, a, b)
		}
		if err := tr.SetPairings(k, fast); err != nil {
			t.Fatal(err)
		}
		for _, g := range tr.Rounds[k-1].Games {
			if !g.IsBye() {
				_ = tr.SetResult(k, g.Board, []Result{WhiteWins, BlackWins, Draw}[r.IntN(3)], "")
			}
		}
	}
}
