package table

import (
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/recognize"
)

// ClockOf is the table's chess clock (nil: none), for tests that compute
// times exactly.
func ClockOf(t *Table) *clock.Clock { return t.ck.clk }

// CompletedAt is the completion time the table charges a recognized move.
func CompletedAt(e recognize.Event) time.Time { return completedAt(e) }

// FlagGrace is how long after a flag's fall the table declares it.
func FlagGrace(t *Table) time.Duration { return t.flagGrace() }

// Penalty is what the opponent of a player's illegal move gets in the
// table's game.
func Penalty(t *Table) time.Duration { return t.penalty() }
