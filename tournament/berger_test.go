package tournament

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The Berger tables as FIDE's Handbook (C.05 Annex 1) prints them, for 4 to
// 12 players: round by round, White first.
var publishedBerger = map[int]string{
	4: `1-4 2-3 | 4-3 1-2 | 2-4 3-1`,
	6: `1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1`,
	8: `1-8 2-7 3-6 4-5 | 8-5 6-4 7-3 1-2 | 2-8 3-1 4-7 5-6 | 8-6 7-5 1-4 2-3 |
	    3-8 4-2 5-1 6-7 | 8-7 1-6 2-5 3-4 | 4-8 5-3 6-2 7-1`,
	10: `1-10 2-9 3-8 4-7 5-6 | 10-6 7-5 8-4 9-3 1-2 | 2-10 3-1 4-9 5-8 6-7 |
	     10-7 8-6 9-5 1-4 2-3 | 3-10 4-2 5-1 6-9 7-8 | 10-8 9-7 1-6 2-5 3-4 |
	     4-10 5-3 6-2 7-1 8-9 | 10-9 1-8 2-7 3-6 4-5 | 5-10 6-4 7-3 8-2 9-1`,
	12: `1-12 2-11 3-10 4-9 5-8 6-7 | 12-7 8-6 9-5 10-4 11-3 1-2 | 2-12 3-1 4-11 5-10 6-9 7-8 |
	     12-8 9-7 10-6 11-5 1-4 2-3 | 3-12 4-2 5-1 6-11 7-10 8-9 | 12-9 10-8 11-7 1-6 2-5 3-4 |
	     4-12 5-3 6-2 7-1 8-11 9-10 | 12-10 11-9 1-8 2-7 3-6 4-5 | 5-12 6-4 7-3 8-2 9-1 10-11 |
	     12-11 1-10 2-9 3-8 4-7 5-6 | 6-12 7-5 8-4 9-3 10-2 11-1`,
}

func formatRound(pairs [][2]int) string {
	var b []string
	for _, p := range pairs {
		b = append(b, fmt.Sprintf("%d-%d", p[0], p[1]))
	}
	return strings.Join(b, " ")
}

func TestBergerRoundMatchesPublishedTables(t *testing.T) {
	for n, table := range publishedBerger {
		rounds := strings.Split(table, "|")
		if len(rounds) != n-1 {
			t.Fatalf("%d players: the table has %d rounds", n, len(rounds))
		}
		for r, want := range rounds {
			want = strings.Join(strings.Fields(want), " ")
			if got := formatRound(BergerRound(n, r+1)); got != want {
				t.Errorf("%d players, round %d: got %s, want %s", n, r+1, got, want)
			}
		}
	}
}

// Every table from 4 to 16 players: each round pairs everybody once, every
// two players meet exactly once, and each player has White n/2 or n/2-1 times.
func TestBergerTablesAreRoundRobins(t *testing.T) {
	for n := 4; n <= 16; n += 2 {
		met := map[[2]int]int{}
		whites := make([]int, n+1)
		for r := 1; r < n; r++ {
			seen := map[int]bool{}
			for _, p := range BergerRound(n, r) {
				for _, x := range p {
					if seen[x] || x < 1 || x > n {
						t.Fatalf("%d players, round %d: player %d twice or out of range", n, r, x)
					}
					seen[x] = true
				}
				met[key(p[0], p[1])]++
				whites[p[0]]++
			}
			if len(seen) != n {
				t.Fatalf("%d players, round %d: %d paired", n, r, len(seen))
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Errorf("%d players: %d distinct pairs, want %d", n, len(met), n*(n-1)/2)
		}
		for p := 1; p <= n; p++ {
			if whites[p] != n/2 && whites[p] != n/2-1 {
				t.Errorf("%d players: player %d has %d whites", n, p, whites[p])
			}
		}
	}
	if BergerRound(5, 1) != nil || BergerRound(4, 0) != nil || BergerRound(4, 4) != nil {
		t.Error("BergerRound answered for an odd size or a round out of range")
	}
}

// An odd number plays the next even table; whoever meets the extra number
// has a free round, worth nothing, listed last.
func TestRoundRobinOddGivesByes(t *testing.T) {
	tr, err := New(Opts{System: RoundRobin}, names("A", "B", "C", "D", "E"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Opts.Rounds != 5 {
		t.Fatalf("5 players: %d rounds, want 5", tr.Opts.Rounds)
	}
	byes := map[int]int{}
	for r := 1; r <= 5; r++ {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		last := rd.Games[len(rd.Games)-1]
		if !last.IsBye() || last.Result != FreeRound || len(rd.Games) != 3 {
			t.Fatalf("round %d: %+v, want two games and the free round last", r, rd.Games)
		}
		byes[last.White]++
		for b := range rd.Games[:2] {
			if err := tr.SetResult(r, b+1, Draw, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Round 1 of the 6 table: 1-6 is the bye for 1; round 2: 6-4, bye for 4 ...
	want := map[int]int{1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
	if fmt.Sprint(byes) != fmt.Sprint(want) {
		t.Errorf("byes %v, want one each", byes)
	}
	if _, err := tr.NextRound(); err != ErrNoMoreRounds {
		t.Errorf("a sixth round: %v, want ErrNoMoreRounds", err)
	}
}

// The free round of an odd round robin scores nothing: with every game
// drawn, each of five players has 2 points from 4 games (not 3), the
// Sonneborn-Berger is the sum of half the opponents' scores (4 x 2 / 2 = 4,
// not inflated by a bye), and TRF writes the round as a zero-point bye
// ("0000 - Z") that reads back as a free round.
func TestRoundRobinFreeRoundIsWorthNothing(t *testing.T) {
	tr, _ := New(Opts{Name: "odd", System: RoundRobin}, names("A", "B", "C", "D", "E"))
	for r := 1; r <= 5; r++ {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rd.Games {
			if !g.IsBye() {
				if err := tr.SetResult(r, g.Board, Draw, ""); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, s := range tr.Standings() {
		if s.Points != 2 {
			t.Errorf("%s: %v points, want 2 (four draws and a free round)", s.Player.Name, s.Points)
		}
		if sb := s.Tiebreaks[1]; sb != 4 {
			t.Errorf("%s: SB %v, want 4", s.Player.Name, sb)
		}
	}
	var b bytes.Buffer
	if err := tr.WriteTRF(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "0000 - Z"); n != 5 {
		t.Errorf("%d free rounds written as 0000 - Z, want 5:\n%s", n, b.String())
	}
	if strings.Contains(b.String(), " U") {
		t.Errorf("a free round written as a pairing-allocated bye:\n%s", b.String())
	}
	back, err := ReadTRF(strings.NewReader(b.String()), "odd.trf")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range back.Standings() {
		if s.Points != 2 {
			t.Errorf("read back: %s has %v points, want 2", s.Player.Name, s.Points)
		}
	}
	if g := back.Rounds[0].Games[2]; g.Result != FreeRound {
		t.Errorf("read back, round 1's free round is %+v", g)
	}
}

func names(ns ...string) []Player {
	ps := make([]Player, len(ns))
	for i, n := range ns {
		ps[i] = Player{Name: n, Rating: 2400 - 10*i}
	}
	return ps
}
