package leds

import (
	"math/bits"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// MaxLEDs is the largest number of LEDs a driver may have.
const MaxLEDs = 512

// Frame is one picture of the LEDs: the colour of each LED index. It is a
// value (compare with ==); LEDs at N and beyond are always off.
type Frame struct {
	// N is the number of LEDs of the driver.
	N int
	// LED is the colour of each LED.
	LED [MaxLEDs]Color
}

// Lit reports whether LED i is lit.
func (f *Frame) Lit(i int) bool { return i >= 0 && i < f.N && f.LED[i].Lit() }

// Clear turns every LED off.
func (f *Frame) Clear() { clear(f.LED[:f.N]) }

// Compose paints into dst the frame that shows v under layout l and style s,
// at time t after v was first shown (patterns start at t = 0). It does not
// allocate.
func Compose(dst *Frame, v *View, l *Layout, s *Style, t time.Duration) {
	layers := v.layers(s.FixHidesTargets)
	paint(dst, &layers, l, s, t)
}

func paint(dst *Frame, layers *[NumSignals]rules.CellSet, l *Layout, s *Style, t time.Duration) {
	dst.N = l.n
	clear(dst.LED[:])
	for sig := Signal(1); sig < NumSignals; sig++ {
		look := &s.Looks[sig]
		if !look.Pattern.On(t) || !look.Color.Lit() {
			continue
		}
		for w, word := range layers[sig] {
			for word != 0 {
				c := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if i := l.led[c]; i >= 0 {
					dst.LED[i] = look.Color
				}
			}
		}
	}
}
