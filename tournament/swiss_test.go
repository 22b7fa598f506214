package tournament

import (
	"fmt"
	"strings"
	"testing"
)

func formatGames(gs []Game) string {
	var b []string
	for _, g := range gs {
		if g.IsBye() {
			b = append(b, fmt.Sprintf("%d-bye", g.White))
			continue
		}
		b = append(b, fmt.Sprintf("%d-%d", g.White, g.Black))
	}
	return strings.Join(b, " ")
}

// Worked examples, paired by hand from the rules in swiss.go (C.04.3), with
// players numbered in rating order.
func TestSwissWorkedExamples(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		// rounds: what each round must pair, then the results played in it
		rounds []string
		res    [][]Result
	}{{
		// Round 1: S1 = 1,2,3 meets S2 = 4,5,6; board 1's top player has
		// White, alternating. Round 2: 1 and 3 (1 point) meet, both had
		// White and neither had different colours, so the higher-ranked (1)
		// gets its preference, Black. 2 and 5 (half a point) drew already:
		// both float down, 2 meets 4 (both had Black: 2, higher, gets
		// White), 5 meets 6 (6 had Black). Boards by score, then rank.
		name: "six players, a rematch avoided by floating", players: 6,
		rounds: []string{"1-4 5-2 3-6", "3-1 2-4 6-5"},
		res:    [][]Result{{WhiteWins, Draw, WhiteWins}},
	}, {
		// Round 1: the lowest (5) has the bye; 1-3, 4-2. Round 2: 1, 2
		// and 5 have a point; the bye goes to the lowest-ranked of the
		// lowest score without one, 4 (C2, C5). The 1-point bracket {1,2,5}
		// floats one player: 1-2 with 5 floating comes first in art. 4's
		// order, but 5 floated down in round 1 (its bye: art. 1.4), and C14
		// (no resident downfloater who floated down the round before) ranks
		// 1-5 with 2 floating better. 5 has no colour preference: 1 gets
		// its own, Black. 2 and 3 both had Black: the higher-ranked (2) has
		// White (5.2.4).
		name: "five players, the bye moves down, C14 floats another", players: 5,
		rounds: []string{"1-3 4-2 5-bye", "5-1 2-3 4-bye"},
		res:    [][]Result{{WhiteWins, BlackWins}},
	}, {
		// Four players, three rounds. Round 2: 1 and 2 won (1 had White, 2
		// Black): 2-1; 3 and 4 lost: 3-4. Round 3 is forced: 1-4 and 2-3.
		// 1 (W, B) and 4 (W, B) had the same colours every round, so the
		// higher-ranked 1 gets its preference, White; 2 and 3 (both B, W)
		// likewise: 2 gets its preference, Black.
		name: "four players, three rounds, forced last round", players: 4,
		rounds: []string{"1-3 4-2", "2-1 3-4", "1-4 3-2"},
		res:    [][]Result{{WhiteWins, BlackWins}, {Draw, Draw}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var ns []string
			for i := 0; i < tc.players; i++ {
				ns = append(ns, fmt.Sprintf("P%d", i+1))
			}
			tr, err := New(Opts{System: Swiss, Rounds: len(tc.rounds)}, names(ns...))
			if err != nil {
				t.Fatal(err)
			}
			for r, want := range tc.rounds {
				rd, err := tr.NextRound()
				if err != nil {
					t.Fatalf("round %d: %v", r+1, err)
				}
				if got := formatGames(rd.Games); got != want {
					t.Fatalf("round %d: paired %s, want %s", r+1, got, want)
				}
				if r < len(tc.res) {
					for b, res := range tc.res[r] {
						if err := tr.SetResult(r+1, b+1, res, ""); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		})
	}
}

func TestColourPreference(t *testing.T) {
	W, B := White, Black
	for _, tc := range []struct {
		cs   []Colour
		want colourPref
	}{
		{nil, colourPref{}},
		{[]Colour{W}, colourPref{B, 2}},
		{[]Colour{W, B}, colourPref{W, 1}},
		{[]Colour{B, W}, colourPref{B, 1}},
		{[]Colour{W, W}, colourPref{B, 3}},          // twice in a row: absolute
		{[]Colour{W, B, W, W}, colourPref{B, 3}},    // difference 2
		{[]Colour{B, W, B}, colourPref{W, 2}},       // difference -1
		{[]Colour{W, B, B, W, W}, colourPref{B, 3}}, // last two the same
	} {
		var es []entry
		for i, c := range tc.cs {
			es = append(es, entry{round: i + 1, colour: c, played: true})
		}
		if got := prefOf(es); got != tc.want {
			t.Errorf("%v: preference %+v, want %+v", tc.cs, got, tc.want)
		}
	}
}

// Over many random events nobody meets twice, nobody gets one colour three
// times running, nobody gets two byes, and every active player is paired.
func TestSwissAbsoluteCriteria(t *testing.T) {
	for seed := 0; seed < 40; seed++ {
		n := 6 + seed%9
		var ns []string
		for i := 0; i < n; i++ {
			ns = append(ns, fmt.Sprintf("P%d", i+1))
		}
		// Fewer rounds than half the players: with more, a Swiss can run out
		// of legal pairings, and the arbiter pairs by hand (SetPairings).
		rounds := min(5, n/2)
		tr, _ := New(Opts{System: Swiss, Rounds: rounds}, names(ns...))
		rng := uint32(seed*7919 + 1)
		for r := 1; r <= rounds; r++ {
			rd, err := tr.NextRound()
			if err != nil {
				t.Fatalf("seed %d, %d players, round %d: %v", seed, n, r, err)
			}
			for b, g := range rd.Games {
				if g.IsBye() {
					continue
				}
				rng = rng*1103515245 + 12345
				res := []Result{WhiteWins, Draw, BlackWins}[(rng>>16)%3]
				_ = tr.SetResult(r, b+1, res, "")
			}
		}
		h := tr.history()
		for p := 1; p <= n; p++ {
			opp := map[int]bool{}
			byes := 0
			cs := colours(h[p])
			for _, e := range h[p] {
				if e.opp == 0 {
					byes++
				} else if opp[e.opp] {
					t.Errorf("seed %d: %d met %d twice", seed, p, e.opp)
				}
				opp[e.opp] = true
			}
			if byes > 1 {
				t.Errorf("seed %d: %d had %d byes", seed, p, byes)
			}
			for i := 2; i < len(cs); i++ {
				if cs[i] == cs[i-1] && cs[i] == cs[i-2] {
					t.Errorf("seed %d: %d had one colour three times running: %v", seed, p, cs)
				}
			}
			if len(h[p]) != rounds {
				t.Errorf("seed %d: %d paired in %d of %d rounds", seed, p, len(h[p]), rounds)
			}
		}
	}
}

func TestSwissLateEntryAndWithdrawal(t *testing.T) {
	tr, _ := New(Opts{System: Swiss, Rounds: 3}, names("A", "B", "C", "D"))
	rd, _ := tr.NextRound()
	for b := range rd.Games {
		_ = tr.SetResult(1, b+1, Draw, "")
	}
	if _, err := tr.AddPlayer(Player{Name: "E", Rating: 1500}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.AddPlayer(Player{Name: "e"}); err == nil {
		t.Error("a second player named e/E was entered")
	}
	if err := tr.Withdraw(2); err != nil {
		t.Fatal(err)
	}
	rd, err := tr.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	paired := map[int]bool{}
	for _, g := range rd.Games {
		paired[g.White], paired[g.Black] = true, true
	}
	if paired[2] || !paired[5] || len(rd.Games) != 2 {
		t.Errorf("round 2 %s: want B (2) out, E (5) in, two boards", formatGames(rd.Games))
	}
	if _, err := tr.NextRound(); err != ErrRoundNotOver {
		t.Errorf("pairing before the round is over: %v", err)
	}
}

func TestSetPairingsChecks(t *testing.T) {
	tr, _ := New(Opts{System: Swiss, Rounds: 2}, names("A", "B", "C", "D"))
	for _, tc := range []struct {
		games []Game
		want  string
	}{
		{[]Game{{White: 1, Black: 2}}, "C is not paired in round 1"},
		{[]Game{{White: 1, Black: 2}, {White: 2, Black: 3}, {White: 4}}, "B is paired twice"},
		{[]Game{{White: 1, Black: 9}}, "no player 9"},
		{[]Game{{White: 1, Black: 1}}, "A is paired twice"},
	} {
		err := tr.SetPairings(1, tc.games)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.games, err, tc.want)
		}
		if len(tr.Rounds) != 0 {
			t.Fatalf("a refused pairing changed the event")
		}
	}
	if err := tr.SetPairings(1, []Game{{White: 4, Black: 1}, {White: 2, Black: 3}}); err != nil {
		t.Fatal(err)
	}
	if err := tr.SwapColours(1, 1); err != nil {
		t.Fatal(err)
	}
	if g, _ := tr.Game(1, 1); g.White != 1 || g.Black != 4 {
		t.Errorf("swapped board 1: %+v", g)
	}
	tr.Rounds[0].Started = true
	if err := tr.SwapColours(1, 1); err != ErrStarted {
		t.Errorf("swap after the start: %v", err)
	}
}
