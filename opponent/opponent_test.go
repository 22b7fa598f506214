package opponent_test

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

func TestSpec(t *testing.T) {
	for _, tc := range []struct {
		in, err string
		want    opponent.Spec
	}{
		{"black=set:klingon", "", opponent.Spec{Side: rules.Black, Set: "klingon"}},
		{"white=engine:3", "", opponent.Spec{Side: rules.White, Engine: 3}},
		{"red=set:x", "side", opponent.Spec{}},
		{"black=engine:0", "level", opponent.Spec{}},
		{"black=set:a/b", "topic level", opponent.Spec{}},
		{"black=robot:1", "want set", opponent.Spec{}},
		{"black", "want SIDE", opponent.Spec{}},
	} {
		got, ok, err := opponent.Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !ok || got != tc.want || got.String() != tc.in {
			t.Errorf("Parse(%q) = %+v, %v, %v", tc.in, got, ok, err)
		}
	}
	if _, ok, err := opponent.Parse(""); ok || err != nil {
		t.Errorf("Parse(\"\") = %v, %v: want no opponent", ok, err)
	}
}

// snap is this set's game after the moves.
func snap(t *testing.T, moves ...string) *table.Snapshot {
	pos := st3d.Start()
	s := &table.Snapshot{System: st3d.System, Start: pos, Result: rules.NoResult}
	for i, long := range moves {
		m, _, err := pos.ParseMove(long)
		if err != nil {
			t.Fatal(err)
		}
		s.Moves = append(s.Moves, game.Move{Seq: i + 1, Move: long})
		pos = pos.Play(m)
	}
	s.Position, s.Expected = pos, pos
	return s
}

func TestNext(t *testing.T) {
	for _, tc := range []struct {
		name           string
		ours, theirs   []string
		variant, start string
		move, problem  string
	}{
		{"their move to play", []string{"b2W-b3W"}, []string{"b2W-b3W", "b7B-b6B"}, "st3d", "", "b7B-b6B", ""},
		{"nothing new", []string{"b2W-b3W"}, []string{"b2W-b3W"}, "st3d", "", "", ""},
		{"ours in transit", []string{"b2W-b3W", "b7B-b6B", "c2W-c3W"}, []string{"b2W-b3W", "b7B-b6B"}, "st3d", "", "", ""},
		{"a move differs", []string{"b2W-b3W", "b7B-b6B"}, []string{"b2W-b3W", "c7B-c6B"}, "st3d", "", "",
			"desync at move 2: b7B-b6B here, c7B-c6B on the other set"},
		{"they played our side", []string{"b2W-b3W", "b7B-b6B"}, []string{"b2W-b3W", "b7B-b6B", "c2W-c3W"}, "st3d", "", "",
			"the other set played c2W-c3W for this set's side"},
		{"another variant", nil, nil, "millennium", "", "", "the other set's game is millennium"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			theirs := &mqtt.State{Variant: tc.variant, Start: tc.start, Moves: tc.theirs}
			move, problem := opponent.Next(snap(t, tc.ours...), theirs, rules.Black)
			if move != tc.move || !strings.Contains(problem, tc.problem) || (tc.problem == "") != (problem == "") {
				t.Errorf("Next = %q, %q; want %q, %q", move, problem, tc.move, tc.problem)
			}
		})
	}
}
