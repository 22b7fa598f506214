package clock

import (
	"errors"
	"time"
)

// Sync makes the times after the last move white and black: in a game
// between two sets, the reading of the set whose player made the move,
// which is authoritative for it, replaces this clock's own. The running
// side's clock goes on from the move. It returns the reading to journal.
func (c *Clock) Sync(white, black time.Duration) (Reading, error) {
	if len(c.hist) < 2 {
		return Reading{}, errors.New("clock: sync: no move to sync")
	}
	if white <= 0 || black <= 0 {
		return Reading{}, errors.New("clock: sync: a side without time")
	}
	c.base = [2]time.Duration{white, black}
	c.hist[len(c.hist)-1].base = c.base
	return c.hist[len(c.hist)-1].reading(), nil
}
