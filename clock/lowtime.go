package clock

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Low reports whether side is under the low-time threshold at at (for the
// LEDs' and displays' warning).
func (c *Clock) Low(side rules.Color, at time.Time) bool { return c.low(side&1, at) }
