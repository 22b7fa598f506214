// Package segment shows the chess clock on two 4-digit 7-segment displays,
// one per side, each an HT16K33 backpack (Adafruit's layout) on the same
// I²C bus at its own address.
//
// The backpack's HT16K33 drives the digits from display RAM bytes 0, 2, 6
// and 8 (left to right; bit 0 is segment A ... bit 6 segment G, bit 7 the
// decimal point) and the colon from byte 4 (bit 1). A side's time shows as
//
//	m:ss     from 20 s up to an hour (" 4:59", "59:59")
//	s.t      under 20 s, with tenths (" 19.7", "  0.0")
//	h:mm.    from an hour (" 1:05."): the decimal point after the minutes
//	         tells hours from minutes; up to 99:59.
//
// Times are truncated, like the clock's own readings. A flagged side's
// display blinks (the chip's 1 Hz blink) at 0.0. Each refresh writes a
// display only when its RAM changed: one 11-byte transaction.
package segment

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/internal/setting"
	"github.com/tridboard/tridboard/rules"
)

// HT16K33 commands (Holtek HT16K33 datasheet).
const (
	cmdRAM     = 0x00 // display RAM pointer; the bytes that follow are stored from it
	cmdSystem  = 0x20 // | 1: oscillator on
	cmdDisplay = 0x80 // | 1: display on; | blink<<1
	cmdDimming = 0xE0 // | 0..15
	blink1Hz   = 2 << 1
)

// Opts are the options of New. They are the configuration file's
// "clock.displays" section (the yaml names; those tagged "-" are not
// settings), checked by Validate.
type Opts struct {
	// White and Black are the two backpacks' I²C addresses, 0x70..0x77,
	// not the same.
	White uint16 `yaml:"white"`
	Black uint16 `yaml:"black"`
	// Dimming is the brightness, 0 (1/16 duty) to 15 (full).
	Dimming uint8 `yaml:"dimming"`
	// Resetup makes Show set a chip up again (and rewrite its RAM) when its
	// last setup is older, so that a backpack reset by a brown-out lights
	// again; 0 never does.
	Resetup time.Duration `yaml:"-"`
}

// Validate checks the options: both addresses 0x70 to 0x77 and not the
// same, dimming 0 to 15, no negative resetup period. Its error is
// setting.Problems, keyed by the yaml names ("" for the addresses, which
// go together).
func (o *Opts) Validate() error {
	var ps setting.Problems
	switch {
	case o.White < 0x70 || o.White > 0x77 || o.Black < 0x70 || o.Black > 0x77:
		ps.Add("", "addresses %#x and %#x: want 0x70 to 0x77", o.White, o.Black)
	case o.White == o.Black:
		ps.Add("", "white and black both at %#x", o.White)
	}
	if o.Dimming > 15 {
		ps.Add("dimming", "%d: want 0 to 15", o.Dimming)
	}
	if o.Resetup < 0 {
		ps.Add("resetup", "%v: want 0 (never) or more", o.Resetup)
	}
	return ps.Err("segment")
}

// DefaultOpts returns the defaults: White at 0x74 and Black at 0x75 (the
// LEDs' HT16K33s take 0x71 and 0x72), full brightness, set up again every
// 10 s.
func DefaultOpts() Opts {
	return Opts{White: 0x74, Black: 0x75, Dimming: 15, Resetup: 10 * time.Second}
}

// font is the segments of the digits 0..9.
var font = [10]byte{0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F}

const (
	dp    = 0x80 // decimal point of a digit
	colon = 0x02 // the colon, in RAM byte 4
)

// RAM is what a time puts in display RAM bytes 0..9 (digits at 0, 2, 6, 8,
// the colon at 4; odd bytes stay 0).
type RAM [10]byte

// Render is the display RAM that shows d (see the package doc). A negative
// d shows as 0.0.
func Render(d time.Duration) RAM {
	d = max(0, d)
	var dig [4]byte
	var ram RAM
	two := func(i int, v int64, blankZero bool) {
		if v >= 10 || !blankZero {
			dig[i] = font[v/10%10]
		}
		dig[i+1] = font[v%10]
	}
	switch {
	case d < 20*time.Second:
		t := int64(d / (100 * time.Millisecond))
		two(1, t/10, true)
		dig[2] |= dp
		dig[3] = font[t%10]
	case d < time.Hour:
		two(0, int64(d/time.Minute), true)
		two(2, int64(d%time.Minute/time.Second), false)
		ram[4] = colon
	default:
		h, m := int64(d/time.Hour), int64(d%time.Hour/time.Minute)
		if h > 99 {
			h, m = 99, 59
		}
		two(0, h, true)
		two(2, m, false)
		dig[3] |= dp
		ram[4] = colon
	}
	ram[0], ram[2], ram[6], ram[8] = dig[0], dig[1], dig[2], dig[3]
	return ram
}

// backpack is one side's display.
type backpack struct {
	addr  uint16
	name  string
	setup bool
	setAt time.Time
	blink bool
	shown RAM
	dirty bool // shown is not known to be on the chip
	buf   [1 + len(RAM{})]byte
	one   [1]byte
}

// Display drives the two backpacks. It is not safe for concurrent use: one
// goroutine refreshes it (every 100 ms or faster, for the tenths).
type Display struct {
	bus  i2c.Bus
	opts Opts
	side [2]backpack
}

// New sets up both backpacks on bus and blanks them.
func New(bus i2c.Bus, opts *Opts) (*Display, error) {
	o := DefaultOpts()
	if opts != nil {
		o = *opts
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	d := &Display{bus: bus, opts: o}
	for i, a := range []uint16{o.White, o.Black} {
		b := &d.side[i]
		b.addr, b.name, b.dirty = a, fmt.Sprintf("ht16k33 %#x (%s)", a, rules.Color(i)), true
		if err := d.init(b, time.Time{}); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// init turns b's oscillator on, writes its RAM, turns the display on
// (blinking or not) and sets the dimming.
func (d *Display) init(b *backpack, at time.Time) error {
	b.setup = false
	if err := d.cmd(b, cmdSystem|1, "oscillator on"); err != nil {
		return err
	}
	if err := d.write(b); err != nil {
		return err
	}
	if err := d.cmd(b, d.displayCmd(b.blink), "display on"); err != nil {
		return err
	}
	if err := d.cmd(b, cmdDimming|d.opts.Dimming, "dimming"); err != nil {
		return err
	}
	b.setup, b.setAt = true, at
	return nil
}

func (d *Display) displayCmd(blink bool) byte {
	if blink {
		return cmdDisplay | blink1Hz | 1
	}
	return cmdDisplay | 1
}

func (d *Display) cmd(b *backpack, c byte, what string) error {
	b.one[0] = c
	return d.tx(b, b.one[:], what)
}

func (d *Display) tx(b *backpack, w []byte, what string) error {
	if err := d.bus.Tx(b.addr, w, nil); err != nil {
		b.setup = false
		return fmt.Errorf("segment: %s: %s: %w", b.name, what, err)
	}
	return nil
}

// write writes b.shown to the chip's RAM.
func (d *Display) write(b *backpack) error {
	b.buf[0] = cmdRAM
	copy(b.buf[1:], b.shown[:])
	if err := d.tx(b, b.buf[:], "writing the display RAM"); err != nil {
		b.dirty = true
		return err
	}
	b.dirty = false
	return nil
}

// Show shows both sides' times at at, as a display computes them from the
// snapshot (clock.Snapshot.Remaining): the running side counts down. A
// flagged side blinks. A backpack that failed is set up again at the next
// Show; the error names it, and the other backpack is still written.
func (d *Display) Show(s clock.Snapshot, at time.Time) error {
	var first error
	for i := range d.side {
		side := rules.Color(i)
		if err := d.show(&d.side[i], Render(s.Remaining(side, at)), s.Flag == side.String(), at); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (d *Display) show(b *backpack, ram RAM, blink bool, at time.Time) error {
	changed := ram != b.shown || b.dirty
	b.shown = ram
	if b.setup && b.setAt.IsZero() {
		b.setAt = at // set up by New: the first Show's time is its reference
	}
	if !b.setup || (d.opts.Resetup > 0 && at.Sub(b.setAt) >= d.opts.Resetup) {
		b.blink = blink
		return d.init(b, at)
	}
	if changed {
		if err := d.write(b); err != nil {
			return err
		}
	}
	if blink != b.blink {
		if err := d.cmd(b, d.displayCmd(blink), "blink"); err != nil {
			return err
		}
		b.blink = blink
	}
	return nil
}

// Halt blanks both displays and puts the chips in standby. The next Show
// sets them up again.
func (d *Display) Halt() error {
	var first error
	for i := range d.side {
		b := &d.side[i]
		b.shown, b.blink = RAM{}, false
		err := d.write(b)
		if err == nil {
			err = d.cmd(b, cmdDisplay, "display off")
		}
		if err == nil {
			err = d.cmd(b, cmdSystem, "oscillator off")
		}
		b.setup = false
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}
