package opponent_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// snap is this set's game after the moves.
func snap(t *testing.T, moves ...string) *table.Snapshot { return opponent.SnapAfter(t, moves...) }

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
			theirs := &protocol.State{Variant: tc.variant, Start: tc.start, Moves: tc.theirs}
			move, problem := opponent.Next(snap(t, tc.ours...), theirs, rules.Black)
			if move != tc.move || !strings.Contains(problem, tc.problem) || (tc.problem == "") != (problem == "") {
				t.Errorf("Next = %q, %q; want %q, %q", move, problem, tc.move, tc.problem)
			}
		})
	}
}

// doer is a table that records the commands it gets.
type doer struct{ opponent.RecTable }

// waitPlayed waits until the engine has sent n moves.
func (d *doer) waitPlayed(t *testing.T, n int) []table.PlayMove {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(d.Played()) < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the engine sent %v, want %d moves", d.Played(), n)
		}
	}
	return d.Played()
}

// insync is snap with the set showing the position.
func insync(s *table.Snapshot) *table.Snapshot {
	s.Game = "g1"
	s.Status.State = recognize.InSync
	return s
}

// After a take-back, the engine replies again whenever it is its turn: of
// its move (it plays again in the same position), of the learner's move
// and its reply together (the learner's turn: nothing), and of the
// learner's move alone after that (its turn again) (issue 24).
func TestEngineRepliesAfterTakeBack(t *testing.T) {
	d := &doer{}
	e, err := opponent.NewEngine(game.Opponent{Side: rules.Black, Engine: 2}, nil, d, opponent.EngineOpts{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.Handle(table.Event{Kind: table.Moved, Snap: insync(snap(t, "b2W-b3W"))})
	first := d.waitPlayed(t, 1)[0]
	if first.Ply != 2 || first.Game != "g1" {
		t.Errorf("engine move %+v: want ply 2 of game g1", first)
	}
	// The table plays it; the learner makes it on the set.
	e.Handle(table.Event{Kind: table.Moved, Snap: insync(snap(t, "b2W-b3W", first.Move))})
	// A stale snapshot (from before its move) makes it play nothing more.
	e.Handle(table.Event{Kind: table.BoardChanged, Snap: insync(snap(t, "b2W-b3W"))})
	// Its move is taken back: it is its turn again, in the same position.
	e.Handle(table.Event{Kind: table.TookBack, Snap: insync(snap(t, "b2W-b3W"))})
	again := d.waitPlayed(t, 2)[1]
	if again.Ply != 2 {
		t.Errorf("engine move after the take-back %+v: want ply 2", again)
	}
	// Both moves taken back (plies 2): the learner's turn, nothing to play.
	e.Handle(table.Event{Kind: table.Moved, Snap: insync(snap(t, "b2W-b3W", again.Move))})
	e.Handle(table.Event{Kind: table.TookBack, Snap: insync(snap(t, "b2W-b3W"))})
	e.Handle(table.Event{Kind: table.TookBack, Snap: insync(snap(t))})
	// The learner plays another move: the engine replies to it.
	e.Handle(table.Event{Kind: table.Moved, Snap: insync(snap(t, "c2W-c3W"))})
	third := d.waitPlayed(t, 3)[2]
	if third.Ply != 2 {
		t.Errorf("engine reply to c2W-c3W %+v: want ply 2", third)
	}
	if got := d.Played(); len(got) != 3 {
		t.Errorf("engine moves %v: want 3", got)
	}
}
