package printsink_test

import (
	"bytes"
	"testing"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/printsink"
)

func TestMoveLineWithTheClock(t *testing.T) {
	mv := &game.Move{Seq: 1, Move: "b2W-b3W", SAN: "b3W"}
	for _, tc := range []struct {
		clk  *clock.Snapshot
		want string
	}{
		{nil, "    1. b2W-b3W        b3W            seq 1\n"},
		{&clock.Snapshot{Control: "180+2", WhiteMS: 178500, BlackMS: 42375},
			"    1. b2W-b3W        b3W            seq 1  white 0:02:58 black 0:00:42.3\n"},
	} {
		var b bytes.Buffer
		printsink.New(&b).Handle(table.Event{Kind: table.Moved, Move: mv, Before: st3d.Start(),
			Snap: &table.Snapshot{Clock: tc.clk}})
		if b.String() != tc.want {
			t.Errorf("printed %q, want %q", b.String(), tc.want)
		}
	}
}
