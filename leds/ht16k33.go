package leds

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/i2c"
)

// HT16K33 commands (Holtek HT16K33 datasheet).
const (
	htRAM          = 0x00 // display RAM address pointer, 16 bytes follow
	htSystemSetup  = 0x20 // | 1: oscillator on
	htDisplaySetup = 0x80 // | 1: display on; bits 1-2: blink (off here)
	htDimming      = 0xE0 // | 0..15
)

// HT16K33Opts are the options of an HT16K33 driver.
type HT16K33Opts struct {
	// Addr is the I²C address, 0x70..0x77.
	Addr uint16
	// Dimming is the brightness, 0 (1/16 duty) to 15 (full).
	Dimming uint8
	// Resetup makes Write set the chip up again (three 1-byte writes)
	// when its last setup is older, so that a chip reset by a brown-out
	// (standby, display off) lights again; 0 never does.
	Resetup time.Duration
	// Now is the clock of Resetup; nil means time.Now.
	Now func() time.Time
}

// DefaultHT16K33Opts returns the reference build: address 0x71, full
// brightness, set up again every 10 s on the real clock.
func DefaultHT16K33Opts() HT16K33Opts {
	return HT16K33Opts{Addr: 0x71, Dimming: 15, Resetup: 10 * time.Second, Now: time.Now}
}

// HT16K33 drives the 128 single-colour LEDs of a Holtek HT16K33 (16 rows x
// 8 commons). LED index i is row i%16 of COM i/16, that is bit i%8 of
// display RAM byte i/8. Every frame is one I²C write of the whole 16-byte
// display RAM.
//
// periph's devices/v3/ht16k33 writes columns one by one and its Halt clears
// only half of the display RAM, so this driver talks to the chip itself.
type HT16K33 struct {
	bus   i2c.Bus
	opts  HT16K33Opts
	buf   [17]byte  // htRAM + 16 bytes of display RAM
	one   [1]byte   // a command
	setup bool      // the chip is set up (oscillator, display on, dimming)
	setAt time.Time // when it was set up
	name  string
}

// NewHT16K33 sets up the HT16K33 on bus and clears its display RAM.
func NewHT16K33(bus i2c.Bus, opts *HT16K33Opts) (*HT16K33, error) {
	if opts.Addr < 0x70 || opts.Addr > 0x77 {
		return nil, fmt.Errorf("leds: ht16k33: address %#x outside 0x70..0x77", opts.Addr)
	}
	if opts.Dimming > 15 {
		return nil, fmt.Errorf("leds: ht16k33 %#x: dimming %d beyond 15", opts.Addr, opts.Dimming)
	}
	d := &HT16K33{bus: bus, opts: *opts, name: fmt.Sprintf("ht16k33 %#x", opts.Addr)}
	if d.opts.Now == nil {
		d.opts.Now = time.Now
	}
	if err := d.init(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *HT16K33) String() string { return d.name }

// NumLEDs implements Driver: 128.
func (d *HT16K33) NumLEDs() int { return HT16K33LEDs }

// init turns the oscillator on, clears the display RAM, then turns the
// display on and sets the dimming.
func (d *HT16K33) init() error {
	d.setup = false
	if err := d.cmd(htSystemSetup|1, "oscillator on"); err != nil {
		return err
	}
	clear(d.buf[:])
	if err := d.tx(d.buf[:], "clearing the display RAM"); err != nil {
		return err
	}
	if err := d.cmd(htDisplaySetup|1, "display on"); err != nil {
		return err
	}
	if err := d.cmd(htDimming|d.opts.Dimming, "dimming"); err != nil {
		return err
	}
	d.setup, d.setAt = true, d.opts.Now()
	return nil
}

// resetup sends the setup commands again, without clearing the RAM (the
// frame that follows rewrites it).
func (d *HT16K33) resetup() error {
	for _, c := range [...]struct {
		b    byte
		what string
	}{{htSystemSetup | 1, "oscillator on"}, {htDisplaySetup | 1, "display on"}, {htDimming | d.opts.Dimming, "dimming"}} {
		d.one[0] = c.b
		if err := d.tx(d.one[:], c.what); err != nil {
			return err
		}
	}
	d.setAt = d.opts.Now()
	return nil
}

func (d *HT16K33) cmd(c byte, what string) error {
	d.one[0] = c
	return d.tx(d.one[:], what)
}

func (d *HT16K33) tx(w []byte, what string) error {
	if err := d.bus.Tx(d.opts.Addr, w, nil); err != nil {
		d.setup = false
		return fmt.Errorf("leds: %s: %s: %w", d.name, what, err)
	}
	return nil
}

// Write implements Driver: one write of the 16 bytes of display RAM.
func (d *HT16K33) Write(f *Frame) error {
	if !d.setup {
		if err := d.init(); err != nil {
			return err
		}
	} else if d.opts.Resetup > 0 && d.opts.Now().Sub(d.setAt) >= d.opts.Resetup {
		if err := d.resetup(); err != nil {
			return err
		}
	}
	d.buf[0] = htRAM
	ram := d.buf[1:]
	clear(ram)
	n := min(f.N, HT16K33LEDs)
	for i := 0; i < n; i++ {
		if f.LED[i].Lit() {
			ram[i>>3] |= 1 << (i & 7)
		}
	}
	return d.tx(d.buf[:], "writing the display RAM")
}

// Halt implements Driver: it clears all 16 bytes of display RAM and turns
// the display and the oscillator off (standby). The next Write sets the
// chip up again.
func (d *HT16K33) Halt() error {
	clear(d.buf[:])
	if err := d.tx(d.buf[:], "clearing the display RAM"); err != nil {
		return err
	}
	if err := d.cmd(htDisplaySetup, "display off"); err != nil {
		return err
	}
	if err := d.cmd(htSystemSetup, "oscillator off"); err != nil {
		return err
	}
	d.setup = false
	return nil
}
