package rules_test

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

func TestCellSet(t *testing.T) {
	s := rules.CellSetOf(0, 63, 64, 200)
	if !s.Has(63) || !s.Has(200) || s.Has(1) || s.Len() != 4 {
		t.Fatalf("%v", s)
	}
	s.Remove(63)
	u := s.Union(rules.CellSetOf(5)).Minus(rules.CellSetOf(0))
	if got := u.Cells(nil); len(got) != 3 || got[0] != 5 || got[1] != 64 || got[2] != 200 {
		t.Fatalf("cells %v", got)
	}
	if x := u.Xor(u); !x.Empty() {
		t.Fatalf("xor with itself: %v", x)
	}
	if got := rules.CellSetOf(0, 96).Names(st3d.CellNames()); len(got) != 2 || got[0] != "a1W" || got[1] != "QL1" {
		t.Fatalf("names %v", got)
	}
}

func TestThreefoldRepetition(t *testing.T) {
	g := rules.NewGame(st3d.Start())
	shuffle := []string{"a1W-b3W", "a8B-b6B", "b3W-a1W", "b6B-a8B"}
	for round := 0; round < 2; round++ {
		for _, m := range shuffle {
			if g.CanClaimThreefold() {
				t.Fatalf("claim offered too early, after %d moves", g.Len())
			}
			if _, _, err := g.PlayNotation(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if g.Repetitions() != 3 || !g.CanClaimThreefold() {
		t.Fatalf("repetitions %d, claim %v; want 3, true", g.Repetitions(), g.CanClaimThreefold())
	}
	if !g.TakeBack() || g.CanClaimThreefold() || g.Len() != 7 {
		t.Fatalf("after a take-back: len %d, claim %v", g.Len(), g.CanClaimThreefold())
	}
}

func TestFiftyMoveRule(t *testing.T) {
	p, err := st3d.System.ParsePosition("QL1:w,QL6:b,KL1:w,KL6:b Kb1W,Ra2W,kc8B w - - - 99 80")
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(p)
	if g.CanClaimFiftyMoves() {
		t.Fatal("claim at 99 half-moves")
	}
	g.PlayNotation("Kb2W")
	if !g.CanClaimFiftyMoves() {
		t.Fatal("no claim at 100 half-moves")
	}
	// A board move counts as a move for the clock (docs/rules.md).
	p, _ = st3d.System.ParsePosition("QL1:w,QL6:b,KL1:w,KL6:b Kb1W,Ra2W,kc8B w - - - 99 80")
	g = rules.NewGame(p)
	g.PlayNotation("QL1-QL3")
	if !g.CanClaimFiftyMoves() {
		t.Fatal("no claim after a board move at 99")
	}
}

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		pos    string
		result rules.Result
		why    string
	}{
		{"QL5:w,QL6:b,KL1:w,KL6:b Kd1W,ba3W,pb3W,pz8QL6,kz9QL6,Re0KL1,Pe1KL1,pe8KL6,rd9KL6 w - - z8QL6,e1KL1,e8KL6 2 38", rules.BlackWins, "checkmate"},
		{"QL4:w,KL2:w,KL3:b,KL6:b Kd3W,ra6QL4,pe5KL2,kd3KL3 w - - - 6 57", rules.Draw, "stalemate"},
		{"QL1:w Kb2W,kc7B w - - - 0 10", rules.Draw, "dead position"},
		{st3d.StartString, rules.NoResult, ""},
	} {
		p, err := st3d.System.ParsePosition(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		if r, why := rules.NewGame(p).Outcome(); r != tc.result || why != tc.why {
			t.Errorf("%s: %s (%s), want %s (%s)", tc.pos, r, why, tc.result, tc.why)
		}
	}
}

func TestReplayLong(t *testing.T) {
	g, err := rules.ReplayLong(st3d.Start(), []string{"b2W-b4N", "c7B-c5B", "b4N-c5B"})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Short(); len(got) != 3 || got[2] != "bNxc5B" {
		t.Fatalf("short %q", got)
	}
	if _, err := rules.ReplayLong(st3d.Start(), []string{"b2W-b4N", "b4N-b5N"}); err == nil || err.Error()[:6] != "move 2" {
		t.Fatalf("err = %v, want move 2", err)
	}
}
