package leds

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Slot is the time step of blink patterns: a Pattern has 32 slots, so every
// pattern repeats every 2 s.
const Slot = 62500 * time.Microsecond

// Cycle is the period of every Pattern.
const Cycle = 32 * Slot

// Pattern is a blink pattern: bit i says whether the LED is lit during slot
// i of the 2 s cycle (bit 0 first). Patterns used by a Style should light
// slot 0, so that a signal shows as soon as the view changes.
type Pattern uint32

// Blink patterns of the default styles.
const (
	Steady Pattern = 0xFFFFFFFF
	// Fast blinks at 4 Hz (125 ms on, 125 ms off).
	Fast Pattern = 0x33333333
	// Slow blinks at 1 Hz (500 ms on, 500 ms off).
	Slow Pattern = 0x00FF00FF
	// Alternate blinks at 2 Hz; AlternateOpposite lights when it is dark, so
	// two cells with these patterns seem to chase each other.
	Alternate         Pattern = 0x0F0F0F0F
	AlternateOpposite Pattern = 0xF0F0F0F0
	// Heartbeat is a double blink every 2 s.
	Heartbeat Pattern = 0x00000033
	// Alarm flickers at 8 Hz for 1 s, then stays on for 500 ms and off for
	// 500 ms: no other pattern looks like it.
	Alarm Pattern = 0x00FF5555
	// Warning blinks twice, twice a cycle: low time on the clock.
	Warning Pattern = 0x00330033
)

// On reports whether the pattern is lit at time t after it started.
func (p Pattern) On(t time.Duration) bool {
	if t < 0 {
		t = 0
	}
	return p>>(uint64(t/Slot)%32)&1 != 0
}

// Color is the colour of an LED. Single-colour LEDs are lit when any
// component is non-zero.
type Color struct{ R, G, B uint8 }

// Lit reports whether c lights a single-colour LED.
func (c Color) Lit() bool { return c.R|c.G|c.B != 0 }

// Look is how a signal shows: a colour and a blink pattern.
type Look struct {
	Color   Color
	Pattern Pattern
}

// Style says how each signal looks.
type Style struct {
	// Looks is indexed by Signal; Looks[None] is not used.
	Looks [NumSignals]Look
	// FixHidesTargets hides the target signals while any cell is to be fixed, so that
	// nothing else blinks beside the cells to fix.
	FixHidesTargets bool
}

// blinks reports whether the style blinks any of the given signals.
func (s *Style) blinks(layers *[NumSignals]rules.CellSet) bool {
	for sig := Signal(1); sig < NumSignals; sig++ {
		if p := s.Looks[sig].Pattern; p != Steady && p != 0 && !layers[sig].Empty() {
			return true
		}
	}
	return false
}

var white = Color{255, 255, 255}

// MonoStyle is the default for single-colour LEDs (HT16K33): targets and
// pins steady, captures blink fast, check blinks slowly, the last move is
// steady (hidden while a piece is lifted), a remote move chases from its
// from cell to its to cell, the end of the game beats like a heart and the
// cells to fix flicker in the Alarm pattern, with the target signals hidden meanwhile.
var MonoStyle = Style{
	Looks: [NumSignals]Look{
		LastMove:   {white, Steady},
		Target:     {white, Steady},
		Pin:        {white, Steady},
		Capture:    {white, Fast},
		Check:      {white, Slow},
		LowTime:    {white, Warning},
		GameOver:   {white, Heartbeat},
		Draw:       {white, Heartbeat},
		RemoteTo:   {white, AlternateOpposite},
		RemoteFrom: {white, Alternate},
		Fix:        {white, Alarm},
	},
	FixHidesTargets: true,
}

// RGBStyle is the default for RGB LEDs (APA102): signals differ by colour,
// in colours that stay apart under protanopia, deuteranopia and tritanopia
// (the displays' Okabe-Ito marks), and where two colours could still be
// confused by blink pattern too: targets steady amber, captures vermillion
// blinking fast, check vermillion blinking slowly, the cells to fix
// magenta in the Alarm pattern, a remote move blue chasing from its from
// cell to its to cell.
var RGBStyle = Style{
	Looks: [NumSignals]Look{
		LastMove:   {Color{64, 64, 64}, Steady},
		Target:     {Color{255, 176, 0}, Steady},
		Pin:        {Color{0, 120, 255}, Steady},
		Capture:    {Color{255, 40, 0}, Fast},
		Check:      {Color{255, 40, 0}, Slow},
		LowTime:    {Color{255, 120, 0}, Warning},
		GameOver:   {Color{255, 40, 0}, Heartbeat},
		Draw:       {Color{255, 176, 0}, Heartbeat},
		RemoteTo:   {Color{0, 60, 255}, AlternateOpposite},
		RemoteFrom: {Color{0, 60, 255}, Alternate},
		Fix:        {Color{255, 0, 255}, Alarm},
	},
	FixHidesTargets: true,
}
