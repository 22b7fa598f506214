package leds_test

import (
	"testing"

	"github.com/tridboard/tridboard/internal/cvd"
	"github.com/tridboard/tridboard/leds"
)

var signalNames = [...]string{"none", "last move", "target", "pin", "capture", "check", "low time", "game over", "draw", "remote to", "remote from", "fix"}

// minApart is how far apart (cvd.Distance, sRGB units) two signals' colours
// must stay for every eye when they blink alike.
const minApart = 70

// Issue 25: on RGB LEDs every two signals differ for every eye (normal
// vision, protanopia, deuteranopia, tritanopia): by their blink pattern,
// or else by colours that stay apart under each deficiency. (Green targets
// and orange captures, both steady, ran together under deuteranopia.)
func TestRGBStyleColourBlindSafe(t *testing.T) {
	st := leds.RGBStyle
	rgb := func(c leds.Color) cvd.RGB { return cvd.RGB{float64(c.R), float64(c.G), float64(c.B)} }
	for a := leds.Signal(1); a < leds.NumSignals; a++ {
		for b := a + 1; b < leds.NumSignals; b++ {
			la, lb := st.Looks[a], st.Looks[b]
			if la.Pattern != lb.Pattern {
				continue
			}
			if d, k := cvd.Worst(rgb(la.Color), rgb(lb.Color)); d < minApart {
				t.Errorf("signals %s and %s blink alike (%#x) and look alike under %s: %v and %v, %.0f apart", signalNames[a], signalNames[b], uint32(la.Pattern), k, la.Color, lb.Color, d)
			}
		}
	}
}
