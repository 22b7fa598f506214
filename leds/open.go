package leds

import (
	"fmt"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
)

// NewDriver opens the driver m describes: an HT16K33 on bus, an APA102 strip
// on port, a Memory, or a Multi of several of them (all HT16K33 on bus, an
// APA102 on port). m should have passed Layout. The caller opens the
// bus or the port (periph's i2creg, spireg) and keeps ownership of it.
func NewDriver(m *Mapping, bus i2c.Bus, port spi.Port) (Driver, error) {
	pct := m.Brightness
	if pct <= 0 || pct > 100 {
		pct = 100
	}
	switch m.Driver {
	case DriverMulti:
		parts := make([]Driver, 0, len(m.Drivers))
		for i := range m.Drivers {
			part := m.Drivers[i]
			if part.Driver == DriverMulti {
				return nil, fmt.Errorf("leds: %s: driver %d: a multi driver cannot hold another", m.Device(), i)
			}
			if part.Brightness == 0 {
				part.Brightness = m.Brightness
			}
			d, err := NewDriver(&part, bus, port)
			if err != nil {
				return nil, err
			}
			parts = append(parts, d)
		}
		return NewMulti(parts...)
	case DriverHT16K33:
		if bus == nil {
			return nil, fmt.Errorf("leds: %s: no I²C bus", m.Device())
		}
		o := DefaultHT16K33Opts()
		o.Addr = m.Addr
		o.Dimming = uint8((pct*16+99)/100 - 1)
		return NewHT16K33(bus, &o)
	case DriverAPA102:
		if port == nil {
			return nil, fmt.Errorf("leds: %s: no SPI port", m.Device())
		}
		o := DefaultAPA102Opts()
		o.NumLEDs, o.Intensity = m.NumLEDs(), uint8(pct*255/100)
		return NewAPA102(port, &o)
	case DriverMemory:
		if n := m.NumLEDs(); n < 0 || n > MaxLEDs {
			return nil, fmt.Errorf("leds: %s: %d LEDs outside 0..%d", m.Device(), n, MaxLEDs)
		}
		return NewMemory(m.NumLEDs()), nil
	}
	return nil, fmt.Errorf("leds: driver %q unknown (want %s, %s, %s or %s)", m.Driver, DriverHT16K33, DriverAPA102, DriverMemory, DriverMulti)
}
