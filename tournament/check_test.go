package tournament

import (
	"errors"
	"strings"
	"testing"
)

// Hand-made pairings that break an absolute criterion are refused, naming
// the board and the rule; the arbiter's override imposes them and the
// reason stays with the round.
func TestHandPairingsAbsoluteCriteria(t *testing.T) {
	// After two rounds: 1 had White twice, 3 Black twice, 5 had the
	// pairing-allocated bye, then a zero-point bye; 1 met 3 and 4.
	tr := handEvent(t, 5, 4, "1-3:1 4-2:0 5-bye", "1-4:= 2-3:1 5-zero")
	tr.Players[4].Byes = nil
	for _, tc := range []struct {
		games []Game
		want  string
	}{
		{[]Game{{White: 1, Black: 3}, {White: 2, Black: 4}, {White: 5}}, "board 1: P1 and P3 have played each other (C1)"},
		{[]Game{{White: 2, Black: 1}, {White: 3, Black: 4}, {White: 5}}, "board 3: P5 cannot have the pairing-allocated bye"},
		{[]Game{{White: 1, Black: 2}, {White: 5, Black: 4}, {White: 3}}, "board 1: P1 would have a colour difference of +3 (C3)"},
	} {
		err := tr.SetPairings(3, tc.games)
		if !errors.Is(err, ErrAbsolute) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.games, err, tc.want)
		}
		if len(tr.Rounds) != 2 {
			t.Fatal("a refused pairing changed the event")
		}
	}
	if err := tr.OverridePairings(3, []Game{{White: 1, Black: 3}, {White: 2, Black: 4}, {White: 5}}, " "); err == nil {
		t.Error("an override without a reason was taken")
	}
	if err := tr.OverridePairings(3, []Game{{White: 1, Black: 3}, {White: 2, Black: 4}, {White: 5}}, "a replayed game ordered by the appeals committee"); err != nil {
		t.Fatal(err)
	}
	if r := tr.Rounds[2]; r.Override != "a replayed game ordered by the appeals committee" || r.Games[0].White != 1 {
		t.Errorf("round 3 %+v", r)
	}
	// A legal pairing, then a swap that would give 1 White a third time.
	tr.Rounds = tr.Rounds[:2]
	if err := tr.SetPairings(3, []Game{{White: 2, Black: 1}, {White: 3, Black: 5}, {White: 4}}); err != nil {
		t.Fatal(err)
	}
	if err := tr.SwapColours(3, 1); !errors.Is(err, ErrAbsolute) || !strings.Contains(err.Error(), "board 1: P1 would have a colour difference of +3") {
		t.Errorf("swap to a third White: %v", err)
	}
	if err := tr.SwapColoursOverride(3, 1, "1 asked, 2 agreed"); err != nil {
		t.Fatal(err)
	}
	if g, _ := tr.Game(3, 1); g.White != 1 || tr.Rounds[2].Override != "1 asked, 2 agreed" {
		t.Errorf("after the override: %+v, %q", g, tr.Rounds[2].Override)
	}
}
