package leds

import (
	"errors"
	"fmt"
	"strings"
)

// Multi is a Driver made of several drivers side by side: LED index i of
// its frames is LED i of the first driver while i is below that driver's
// NumLEDs, then the LEDs of the next one follow (a Millennium set's 192
// cells on two HT16K33: indexes 0..127 on the first, 128..255 on the
// second). Write splits each frame and writes every part, in order; a part
// that fails does not stop the others, and the next Write writes it again
// (each part sets its device up again after its own failure).
type Multi struct {
	parts []Driver
	first []int // LED index of each part's LED 0
	n     int
	sub   Frame
	name  string
}

// NewMulti joins the drivers parts, in LED index order. It refuses no
// parts and more than MaxLEDs LEDs in all.
func NewMulti(parts ...Driver) (*Multi, error) {
	if len(parts) == 0 {
		return nil, errors.New("leds: multi: no drivers")
	}
	d := &Multi{parts: parts}
	names := make([]string, len(parts))
	for i, p := range parts {
		d.first = append(d.first, d.n)
		d.n += p.NumLEDs()
		names[i] = p.String()
	}
	d.name = strings.Join(names, " + ")
	if d.n > MaxLEDs {
		return nil, fmt.Errorf("leds: %s: %d LEDs in all, more than %d", d.name, d.n, MaxLEDs)
	}
	return d, nil
}

func (d *Multi) String() string { return d.name }

// NumLEDs implements Driver: the LEDs of all parts.
func (d *Multi) NumLEDs() int { return d.n }

// Parts are the drivers, in LED index order.
func (d *Multi) Parts() []Driver { return d.parts }

// Write implements Driver: each part gets its share of f. The error joins
// those of the parts that failed; it allocates only then.
func (d *Multi) Write(f *Frame) error {
	var errs []error
	for i, p := range d.parts {
		n, lo := p.NumLEDs(), d.first[i]
		d.sub.N = n
		for j := 0; j < n; j++ {
			if k := lo + j; k < f.N {
				d.sub.LED[j] = f.LED[k]
			} else {
				d.sub.LED[j] = Color{}
			}
		}
		if err := p.Write(&d.sub); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Halt implements Driver: every part off, whatever the others do.
func (d *Multi) Halt() error {
	var errs []error
	for _, p := range d.parts {
		if err := p.Halt(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// SPIPort is the SPI port of the mapping's APA102 strip ("" means the
// first port), and whether it has one (itself, or one of a multi mapping's
// drivers): the port NewDriver must be given.
func (m *Mapping) SPIPort() (string, bool) {
	if m.Driver == DriverAPA102 {
		return m.Port, true
	}
	for i := range m.Drivers {
		if p, ok := m.Drivers[i].SPIPort(); ok {
			return p, true
		}
	}
	return "", false
}

// Simulated is a copy of m whose APA102 strips (itself, or drivers of a
// multi mapping) are Memory drivers of the same length, for a simulated
// set that has I²C chips but no SPI port; other drivers are kept.
func (m *Mapping) Simulated() *Mapping {
	out := *m
	out.Drivers = append([]Mapping(nil), m.Drivers...)
	if out.Driver == DriverAPA102 {
		out.Driver, out.LEDs, out.Port = DriverMemory, m.NumLEDs(), ""
	}
	for i := range out.Drivers {
		out.Drivers[i] = *out.Drivers[i].Simulated()
	}
	return &out
}
