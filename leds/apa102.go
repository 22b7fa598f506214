package leds

import (
	"fmt"

	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/apa102"
)

// APA102Opts are the options of an APA102 driver.
type APA102Opts struct {
	// NumLEDs is the length of the strip, 1..MaxLEDs.
	NumLEDs int
	// Intensity limits the brightness (and the current drawn), 0..255.
	Intensity uint8
	// Temperature is the white point in kelvin; apa102.NeutralTemp (6500)
	// shows colours as given.
	Temperature uint16
	// DisableGlobalPWM uses only the 8-bit colour PWM (see apa102.Opts).
	DisableGlobalPWM bool
}

// DefaultAPA102Opts returns one LED per cell of the set (108), half
// intensity, colours as given.
func DefaultAPA102Opts() APA102Opts {
	return APA102Opts{NumLEDs: 108, Intensity: 128, Temperature: apa102.NeutralTemp}
}

// APA102 drives a strip of APA102 RGB LEDs on an SPI port through periph's
// devices/v3/apa102; LED index i is the i-th LED of the strip.
type APA102 struct {
	dev  *apa102.Dev
	rgb  []byte
	name string
}

// NewAPA102 connects to the strip on port p (periph's apa102.New: 20 MHz,
// mode 3) and turns it off.
func NewAPA102(p spi.Port, opts *APA102Opts) (*APA102, error) {
	if opts.NumLEDs <= 0 || opts.NumLEDs > MaxLEDs {
		return nil, fmt.Errorf("leds: apa102 %s: %d LEDs outside 1..%d", p, opts.NumLEDs, MaxLEDs)
	}
	dev, err := apa102.New(p, &apa102.Opts{
		NumPixels:        opts.NumLEDs,
		Intensity:        opts.Intensity,
		Temperature:      opts.Temperature,
		DisableGlobalPWM: opts.DisableGlobalPWM,
	})
	if err != nil {
		return nil, fmt.Errorf("leds: apa102 %s: %w", p, err)
	}
	d := &APA102{dev: dev, rgb: make([]byte, 3*opts.NumLEDs), name: fmt.Sprintf("apa102 %s", p)}
	if err := d.Halt(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *APA102) String() string { return d.name }

// NumLEDs implements Driver.
func (d *APA102) NumLEDs() int { return len(d.rgb) / 3 }

// Write implements Driver: the whole strip in one SPI transfer.
func (d *APA102) Write(f *Frame) error {
	for i := 0; i < len(d.rgb)/3; i++ {
		c := Color{}
		if i < f.N {
			c = f.LED[i]
		}
		d.rgb[3*i], d.rgb[3*i+1], d.rgb[3*i+2] = c.R, c.G, c.B
	}
	if _, err := d.dev.Write(d.rgb); err != nil {
		return fmt.Errorf("leds: %s: writing %d LEDs: %w", d.name, len(d.rgb)/3, err)
	}
	return nil
}

// Halt implements Driver: every LED off.
func (d *APA102) Halt() error {
	if err := d.dev.Halt(); err != nil {
		return fmt.Errorf("leds: %s: turning off: %w", d.name, err)
	}
	return nil
}
