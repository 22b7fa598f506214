package sim

import (
	"strings"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
)

// Builder is a person at the simulated set who follows its LEDs, as a
// builder does while the wiring is learned: when one cell's LED is lit,
// they put a piece (or a board) there after a moment, and take a piece off
// again a second later; a board on a socket (Stays) stays. Drive the set's
// time through Wait.
type Builder struct {
	Board *Board
	// LED gives the LED index (over all of the board's HT16K33s, 128 a
	// chip) of each of the set's cells by index, -1 for none.
	LED []int
	// Stays names the cells whose board stays put (sockets).
	Stays map[string]bool
	// React is how long they take to put a piece down once the LED is
	// lit; Hold how long a piece stays before they take it off again.
	React, Hold time.Duration

	target   rules.Cell
	has      bool
	since    time.Time
	placed   bool
	placedAt time.Time
	lifted   bool
}

// NewBuilder returns a builder at b, reacting in 400 ms and holding a
// piece down for a second.
func NewBuilder(b *Board, led []int, stays map[string]bool) *Builder {
	return &Builder{Board: b, LED: led, Stays: stays, React: 400 * time.Millisecond, Hold: time.Second}
}

// lit returns the one cell whose LED is lit, if exactly one is.
func (u *Builder) lit() (rules.Cell, bool) {
	found, n := rules.NoCell, 0
	for c, i := range u.LED {
		if i < 0 || i/128 >= len(u.Board.LEDChips) {
			continue
		}
		if u.Board.LEDChips[i/128].LED(i % 128) {
			found, n = rules.Cell(c), n+1
		}
	}
	return found, n == 1
}

// Wait lets d pass on the set's clock and does what the builder does by
// then.
func (u *Builder) Wait(d time.Duration) {
	now := u.Board.Clock.Advance(d)
	c, ok := u.lit()
	if !ok {
		u.has = false
		return
	}
	if !u.has || c != u.target {
		u.target, u.has, u.since, u.placed, u.lifted = c, true, now, false, false
	}
	closed := u.Board.Set.Closed()
	name := u.Board.Set.Cells()[c]
	switch {
	case !u.placed && now.Sub(u.since) >= u.React:
		closed.Add(c)
		u.Board.Set.SetUp(closed)
		u.placed, u.placedAt = true, now
	case u.placed && !u.lifted && !u.Stays[name] && now.Sub(u.placedAt) >= u.Hold:
		closed.Remove(c)
		u.Board.Set.SetUp(closed)
		u.lifted = true
	}
}

// Scramble returns w with its cells wired to its pins in an order drawn
// from seed (buttons stay): a set soldered anywhere, for rehearsing
// tridboard wiring learn.
func Scramble(w *sensors.Wiring, seed uint64) *sensors.Wiring {
	out := w.Clone()
	var places []*sensors.Wire
	var names []string
	for i := range out.Expanders {
		for j := range out.Expanders[i].Cells {
			if strings.HasPrefix(out.Expanders[i].Cells[j].Cell, sensors.ButtonPrefix) {
				continue
			}
			places = append(places, &out.Expanders[i].Cells[j])
			names = append(names, out.Expanders[i].Cells[j].Cell)
		}
	}
	x := seed | 1
	for i := len(names) - 1; i > 0; i-- { // Fisher-Yates, xorshift64
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i+1))
		names[i], names[j] = names[j], names[i]
	}
	for i, p := range places {
		p.Cell = names[i]
	}
	return out
}
