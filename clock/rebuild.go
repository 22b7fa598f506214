package clock

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Rebuild is the clock of a game resumed after a restart: ctl, the
// readings after every move of the game so far in order (as Moved returned
// them and the journal kept them; none before the first move), and the side
// to move. The clock comes back started and paused with the side to move's
// clock about to run, each side at its last reading: the time the set was
// off is nobody's. The thinking time between the last move and the stop is
// not in the readings: Restore takes it from a Checkpoint (without one the
// side to move gets it back). Resume restarts it. Take-backs work across the restart: the readings are
// its history.
//
// It refuses a negative reading or readings whose times go back.
func Rebuild(ctl Control, readings []Reading, toMove rules.Color, opts *Opts) (*Clock, error) {
	if toMove != rules.White && toMove != rules.Black {
		return nil, fmt.Errorf("clock: rebuild: side to move %d: want white or black", toMove)
	}
	c, err := New(ctl, opts)
	if err != nil {
		return nil, fmt.Errorf("clock: rebuild: %w", err)
	}
	n := len(readings)
	first := toMove
	if n%2 == 1 {
		first = toMove.Other()
	}
	c.moves[first], c.moves[first.Other()] = (n+1)/2, n/2
	var last time.Time
	for i, r := range readings {
		if r.WhiteMS < 0 || r.BlackMS < 0 {
			return nil, fmt.Errorf("clock: rebuild: reading %d (%d/%d ms): negative time", i+1, r.WhiteMS, r.BlackMS)
		}
		if r.At.Before(last) {
			return nil, fmt.Errorf("clock: rebuild: reading %d at %s: before the one before it (%s)",
				i+1, r.At.Format(TimeLayout), last.Format(TimeLayout))
		}
		last = r.At
		c.hist = append(c.hist, mark{base: [2]time.Duration{
			time.Duration(r.WhiteMS) * time.Millisecond, time.Duration(r.BlackMS) * time.Millisecond}, at: r.At})
	}
	c.base = c.hist[len(c.hist)-1].base
	// since and last stay zero: a paused clock charges nothing, and Resume's
	// time need not come after the journal's (a Raspberry Pi without a
	// real-time clock may boot into the past until NTP steps it).
	c.started, c.paused, c.turn = true, true, toMove
	return c, nil
}
