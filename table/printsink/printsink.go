// Package printsink prints a table's game on a terminal, a line a move, as
// `tridboard run` and `demo` show it.
package printsink

import (
	"fmt"
	"io"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// Sink prints moves (with both sides' times in a game with a clock),
// take-backs, new games and results.
type Sink struct {
	w io.Writer
}

// New returns a sink printing to w.
func New(w io.Writer) *Sink { return &Sink{w: w} }

// Handle prints e when it is worth a line.
func (s *Sink) Handle(e table.Event) {
	switch e.Kind {
	case table.Moved, table.Corrected:
		if e.Kind == table.Corrected {
			fmt.Fprintf(s.w, "     correction: %s taken back\n", e.Withdrawn.Move)
		}
		num := ""
		if e.Before != nil {
			num = fmt.Sprintf("%d.", e.Before.FullmoveNumber())
			if e.Before.Turn() == rules.Black {
				num += ".."
			}
		}
		remote := ""
		if e.Remote {
			remote = " (remote)"
		}
		fmt.Fprintf(s.w, "%6s %-14s %-14s seq %d%s%s\n", num, e.Move.Move, e.Move.SAN, e.Move.Seq, remote, times(e))
	case table.TookBack:
		fmt.Fprintf(s.w, "     take-back of %s\n", e.Move.Move)

	case table.GameOver:
		fmt.Fprintf(s.w, "     %s (%s)\n", e.Result, e.Reason)
	case table.GameBegan:
		fmt.Fprintf(s.w, "     new game %s (%s)\n", e.Snap.Game, e.Snap.System.Name())
	}
}

// times is "  white 0:02:58 black 0:03:00", both sides' times as the
// move's snapshot has them, in a game with a clock; "" without one.
func times(e table.Event) string { return Times(e.Snap.Clock) }

// Times is "  white 0:02:58 black 0:03:00", both sides' times in c, or ""
// for no clock (nil).
func Times(c *clock.Snapshot) string {
	if c == nil {
		return ""
	}
	ms := func(v int64) string { return clock.FormatClk(time.Duration(v) * time.Millisecond) }
	return fmt.Sprintf("  white %s black %s", ms(c.WhiteMS), ms(c.BlackMS))
}
