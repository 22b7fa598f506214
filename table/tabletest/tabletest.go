// Package tabletest makes table snapshots for the tests of the table's
// sinks and of what converts the table's events (package protocol), without
// a set, a journal or a table running.
package tabletest

import (
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/table"
)

// Snapshots plays n moves of a game "g" of the default system (Star
// Trek; the first legal move each time) and returns the table's snapshot after each: the board in
// sync, no clock, no tags.
func Snapshots(n int) []*table.Snapshot {
	sys := systems.Default()
	pos := sys.Start()
	var moves []game.Move
	var out []*table.Snapshot
	for i := 0; i < n; i++ {
		m := pos.LegalMoves(nil)[0]
		moves = append(moves, game.Move{Seq: i + 1, Game: "g", Move: pos.Long(m), SAN: pos.Short(m), Position: pos.Play(m).String()})
		pos = pos.Play(m)
		out = append(out, &table.Snapshot{Game: "g", System: sys, Start: sys.Start(), Position: pos,
			Expected: pos, Moves: append([]game.Move(nil), moves...), Result: rules.NoResult})
	}
	return out
}
