package tournament

import (
	"fmt"
	"strings"
	"testing"
)

// handEvent builds an event of n players numbered as pairing numbers
// (ByNumber) from rounds written "w-b:res ..." (res 1, 0, =, +, -, or a
// bye "p-bye", "p-half", "p-zero"), for rounds total.
func handEvent(t *testing.T, n, total int, rounds ...string) *Tournament {
	t.Helper()
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{Name: fmt.Sprintf("P%d", i+1), Rating: 2000 - i}
	}
	tr, err := New(Opts{System: Swiss, Rounds: total, ByNumber: true}, ps)
	if err != nil {
		t.Fatal(err)
	}
	for k, rd := range rounds {
		var games []Game
		var results []Result
		for _, f := range strings.Fields(rd) {
			var w, b int
			var tail string
			if i := strings.Index(f, "-bye"); i > 0 {
				fmt.Sscan(f[:i], &w)
				games = append(games, Game{White: w, Result: Bye})
				results = append(results, None)
				continue
			}
			for _, kind := range []struct {
				s string
				r Result
			}{{"-half", HalfBye}, {"-zero", ZeroBye}, {"-full", FullBye}} {
				if i := strings.Index(f, kind.s); i > 0 {
					fmt.Sscan(f[:i], &w)
					games = append(games, Game{White: w, Result: kind.r})
					results = append(results, None)
				}
			}
			if w != 0 {
				continue
			}
			if _, err := fmt.Sscanf(strings.Replace(f, ":", " ", 1), "%d-%d %s", &w, &b, &tail); err != nil {
				t.Fatalf("%q: %v", f, err)
			}
			games = append(games, Game{White: w, Black: b})
			results = append(results, map[string]Result{"1": WhiteWins, "0": BlackWins, "=": Draw, "+": WhiteForfeit, "-": BlackForfeit}[tail])
		}
		if err := tr.SetPairings(k+1, games); err != nil {
			t.Fatalf("round %d: %v", k+1, err)
		}
		for i, res := range results {
			if res != None {
				if err := tr.SetResult(k+1, i+1, res, ""); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return tr
}

// One example per criterion, each worked by hand from C.04.3's text.
func TestDutchCriteriaExamples(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n, tot int
		rounds []string
		want   string
	}{{
		// Round 1 (5.2.5): 1 (odd pairing number) has the initial colour,
		// White; 2 (even) Black; S1 1-4 meets S2 5-8 in order.
		name: "round 1: S1 meets S2 in order, colours alternate", n: 8, tot: 5,
		want: "1-5 6-2 3-7 8-4",
	}, {
		// The odd player out of round 1 is the lowest-ranked (C5 with
		// everyone on 0, then art. 4's order).
		name: "round 1 odd: the bye to the lowest-ranked", n: 7, tot: 5,
		want: "1-4 5-2 3-6 7-bye",
	}, {
		// C12: 1-3 and 2-4 would leave two players without their colour
		// (1 and 3 both want Black, 2 and 4 White): the transposition 1-4,
		// 2-3 meets all four; likewise 5-8, 6-7 below.
		name: "C12: a transposition for colours", n: 8, tot: 5,
		rounds: []string{"1-5:1 6-2:0 3-7:1 8-4:0"},
		want:   "4-1 2-3 5-8 7-6",
	}, {
		// C1: 2 and 5 drew and meet no more; each floats down (C6 leaves
		// the half-point bracket no pair), 2 meets 4, 5 meets 6.
		name: "C1: no rematch, both float", n: 6, tot: 3,
		rounds: []string{"1-4:1 5-2:= 3-6:1"},
		want:   "3-1 2-4 6-5",
	}, {
		// C2: 5 had the pairing-allocated bye; 4 (lowest of the lowest
		// score) has it now.
		name: "C2: no second pairing-allocated bye", n: 5, tot: 3,
		rounds: []string{"1-3:1 4-2:0 5-bye"},
		want:   "5-1 2-3 4-bye",
	}, {
		// C2: 4 won by forfeit (a win's points without playing): the bye
		// goes to 3, the other player on 0.
		name: "C2: no bye after a forfeit win", n: 5, tot: 3,
		rounds: []string{"1-3:1 4-2:+ 5-bye"},
		// 1, 4, 5 on 1 point, 2 and 3 on 0: 3 has the bye (C2, C5). The
		// 1-point bracket floats one player: 4 and 5 floated down in round
		// 1 (a forfeit win and a bye score without playing: art. 1.4), 1
		// did not, so C14 floats 1 (to 2: 1 met 3). 4 and 5 have no colour
		// preference (a forfeit is no game): 4, higher-ranked with an even
		// number, has Black (5.2.5); 2 has none, 1 gets Black.
		want: "5-4 2-1 3-bye",
	}, {
		// C3 and its exception: in the final round 1 and 2 (topscorers,
		// both due Black absolutely) may meet; 2 gets White a third time
		// (5.2.2, 5.2.4). 4 and 6 (non-topscorers, both due White
		// absolutely) may not: 3 and 5 (who met) float to them.
		name: "C3: topscorers may meet, others not", n: 6, tot: 3,
		rounds: []string{"1-4:1 2-5:1 3-6:1", "1-6:1 2-4:1 5-3:="},
		want:   "2-1 4-3 6-5",
	}, {
		// C4: 3 (0 points) has the bye (4 and 5 had one). 5 (2 points)
		// floats to 1 and 2 (who met): 5-1 comes first, but then 2 must
		// meet 4 again; only 5-2 lets 1 and 4 be paired. 5 (one game, with
		// Black) has White; 1 (W, B) White against 4 (W, then its bye).
		name: "C4: the pairing that completes the round", n: 5, tot: 4,
		rounds: []string{"1-3:1 4-2:0 5-bye", "2-1:= 3-5:0 4-bye"},
		want:   "5-2 1-4 3-bye",
	}, {
		// C5: the bye to the lowest score: 6 (lowest-ranked) has a point,
		// 5 has none: 5 has the bye, though 6 ranks below. Then 1-6 and
		// 2-7 (S1 meets S2; 1 due Black, 6 and 2 due White, 7 without a
		// preference), 4-3 (each due the other colour).
		name: "C5: the bye to the lowest score", n: 7, tot: 4,
		rounds: []string{"1-4:1 5-2:0 3-6:0 7-bye"},
		want:   "6-1 2-7 4-3 5-bye",
	}, {
		// C9: 4 and 5 (no points) may both have the bye; 5 ranks lower but
		// lost round 1 by forfeit (an unplayed game): 4 has it. 2 (a
		// forfeit win: no game, no colour) has White against 1 (due Black);
		// 3 (half-point bye) floats to 5: neither played, 3 (odd number)
		// has the initial colour.
		name: "C9: the bye to the fewest unplayed games", n: 5, tot: 3,
		rounds: []string{"1-4:1 5-2:- 3-half"},
		want:   "2-1 3-5 4-bye",
	}, {
		// C13: 1 to 4 on a point. 1 and 3 played one game each, with Black
		// (their second was forfeited): strong preferences for White; 2
		// (W, B) mildly wants White, 4 (B, W) Black. 1-3 and 2-4 deny 3 its
		// strong preference; 1-4 and 2-3 deny only 2 its mild one: as many
		// unmet preferences (C12), fewer strong ones (C13). Above, 8 and 6
		// meet (their forfeits were no games); below, 7-5 (5 had White twice).
		name: "C13: a mild preference denied rather than a strong one", n: 8, tot: 5,
		rounds: []string{"5-1:0 2-6:= 7-3:0 8-4:1", "6-1:+ 8-3:+ 5-2:= 4-7:1"},
		want:   "6-8 1-4 3-2 7-5",
	}, {
		// C7: 1 (2 points) and 2 (1.5), both due Black absolutely, may not
		// meet (C3): both float to 3 (1 point), who can meet one of them.
		// Pairing 1 leaves the PSD [1.5, 1] (2 floats), pairing 2 [2, 0.5]:
		// 1 meets 3 (C7), 2 meets 6 below, and 4-5; every choice completes
		// the round and meets the same colours. Colours by the absolute
		// preferences.
		name: "C7: the higher MDP paired, the lower floats", n: 6, tot: 5,
		rounds: []string{"1-4:1 2-5:1 6-3:=", "1-6:1 2-4:= 5-3:="},
		want:   "3-1 6-2 4-5",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tr := handEvent(t, tc.n, tc.tot, tc.rounds...)
			games, err := tr.PairRound(len(tc.rounds) + 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := formatGames(games); got != tc.want {
				t.Errorf("paired %s, want %s", got, tc.want)
			}
		})
	}
}

// Acceleration (C.04.7; TRF 250): players 1-4 pair round 1 with a
// fictitious point, so they form a bracket of their own: 1-3, 4-2 above,
// 5-7, 8-6 below (colours by pairing number, 5.2.5).
func TestDutchAcceleration(t *testing.T) {
	tr := handEvent(t, 8, 5)
	tr.Opts.Accel = []Accel{{Half: 2, FromRound: 1, ToRound: 2, First: 1, Last: 4}}
	games, err := tr.PairRound(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := formatGames(games); got != "1-3 4-2 5-7 8-6" {
		t.Errorf("accelerated round 1: %s", got)
	}
}

// A TRF's numbers (pairing numbers) map back to the players' own.
func TestByPairingNumber(t *testing.T) {
	ps := []Player{{Name: "Low", Rating: 1500}, {Name: "High", Rating: 2500}}
	tr, _ := New(Opts{System: Swiss, Rounds: 1}, ps)
	got, err := tr.ByPairingNumber([]Game{{White: 1, Black: 2}})
	if err != nil || got[0].White != 2 || got[0].Black != 1 {
		t.Errorf("%+v %v", got, err)
	}
	if _, err := tr.ByPairingNumber([]Game{{White: 3, Black: 1}}); err == nil {
		t.Error("pairing number 3 mapped")
	}
}
