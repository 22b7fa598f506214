package websink_test

import (
	"slices"
	"testing"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/tabletest"
	"github.com/tridboard/tridboard/table/websink"
	"github.com/tridboard/tridboard/web"
)

// The pages get the table's game typed, and the lifted piece's targets as
// the set's LEDs show them: all its legal targets with full assistance,
// none under the teacher's lock or for a side without assistance.
func TestPagesShowWhatTheSetShows(t *testing.T) {
	snaps := tabletest.Snapshots(2)
	hub := web.NewHub(web.DefaultOpts())
	s := websink.New(hub, "b1")
	s.Handle(table.Event{Kind: table.Started, Snap: snaps[1]})
	v, ok := hub.View("b1")
	if !ok || !v.Online || len(v.Moves) != 2 || v.Moves[1].Long != snaps[1].Moves[1].Move {
		t.Fatalf("after Started: %+v", v)
	}

	// A piece of the side to move lifted: its legal targets, worked out
	// here from the rules.
	pos := snaps[1].Position
	from := pos.Info(pos.LegalMoves(nil)[0]).From
	var want []string
	for _, m := range pos.LegalMoves(nil) {
		if in := pos.Info(m); in.From == from && in.To != rules.NoCell {
			want = append(want, snaps[1].CellName(in.To))
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	lifted := func(edit func(*table.Snapshot)) *web.BoardView {
		t.Helper()
		snap := *snaps[1]
		snap.Status = table.BoardStatus{State: recognize.MoveInProgress, FirstLifted: from}
		snap.Status.Lifted.Add(from)
		edit(&snap)
		s.Handle(table.Event{Kind: table.Lifted, Cells: snap.Status.Lifted, Cell: from, Snap: &snap})
		v, _ := hub.View("b1")
		if !slices.Equal(v.Lifted, []string{snap.CellName(from)}) {
			t.Fatalf("lifted %v, want %s", v.Lifted, snap.CellName(from))
		}
		return v
	}
	for _, tc := range []struct {
		name string
		edit func(*table.Snapshot)
		want []string
	}{
		{"full assistance", func(*table.Snapshot) {}, want},
		{"the teacher's lock", func(s *table.Snapshot) { s.HintsLocked, s.Teaching.Locked = true, true }, nil},
		{"no assistance for the side to move", func(s *table.Snapshot) { s.Teaching.Assist[s.Position.Turn()] = game.AssistNone }, nil},
		{"no assistance for the other side", func(s *table.Snapshot) { s.Teaching.Assist[s.Position.Turn().Other()] = game.AssistNone }, want},
	} {
		v := lifted(tc.edit)
		got := slices.Sorted(slices.Values(v.Targets))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: targets %v, want %v", tc.name, got, tc.want)
		}
	}
}
