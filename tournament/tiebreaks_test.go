package tournament

import (
	"fmt"
	"testing"
)

// The event's own order of tie-breaks decides: two players level on points
// are ranked by the first tie-break that separates them, in the order set.
func TestChosenTiebreaks(t *testing.T) {
	tr, err := New(Opts{System: Swiss, Rounds: 2, Tiebreaks: []string{TBWins, TBSonneborn}}, names("A", "B", "C", "D"))
	if err != nil {
		t.Fatal(err)
	}
	// R1: A-B 1-0, C-D ½-½. R2: C-A 1-0, D-B ½-½.
	tr.SetPairings(1, []Game{{White: 1, Black: 2}, {White: 3, Black: 4}})
	tr.SetResult(1, 1, WhiteWins, "")
	tr.SetResult(1, 2, Draw, "")
	tr.SetPairings(2, []Game{{White: 3, Black: 1}, {White: 4, Black: 2}})
	tr.SetResult(2, 1, WhiteWins, "")
	tr.SetResult(2, 2, Draw, "")
	// A 1 (1 win), C 1.5 (1 win), D 1 (0 wins), B 0.5.
	got := ""
	for _, s := range tr.Standings() {
		got += fmt.Sprintf("%d %s %v %v; ", s.Rank, s.Player.Name, s.Points, s.Tiebreaks)
	}
	// SB: C beat A (1) and drew D (1 x ½) = 1.5; A beat B (0.5) = 0.5;
	// D drew C (1.5 x ½) and B (0.5 x ½) = 1; B drew D (1 x ½) = 0.5.
	// A and D are level on points: A won a game, D none.
	if want := "1 C 1.5 [1 1.5]; 2 A 1 [1 0.5]; 3 D 1 [0 1]; 4 B 0.5 [0 0.5]; "; got != want {
		t.Errorf("standings\n got %s\nwant %s", got, want)
	}
	if fmt.Sprint(tr.TiebreakNames()) != "[WIN SB]" {
		t.Errorf("names %v", tr.TiebreakNames())
	}
	for _, bad := range [][]string{{"XX"}, {TBWins, TBWins}} {
		if CheckTiebreaks(bad) == nil {
			t.Errorf("%v taken", bad)
		}
	}
	if err := CheckTiebreaks([]string{TBBuchholz, TBDirect}); err != nil {
		t.Error(err)
	}
}
