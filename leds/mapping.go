package leds

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// Driver names of a Mapping.
const (
	DriverHT16K33 = "ht16k33"
	DriverAPA102  = "apa102"
	DriverMemory  = "memory"
	// DriverMulti spans several drivers (Mapping.Drivers).
	DriverMulti = "multi"
)

// HT16K33LEDs is the number of LEDs an HT16K33 drives (16 rows x 8 commons).
const HT16K33LEDs = 128

// Mapping is the LED part of the configuration: the driver and the LED index
// of every cell.
type Mapping struct {
	// Driver is "ht16k33", "apa102" or "memory".
	Driver string `yaml:"driver"`
	// Addr is the I²C address of an HT16K33 (0x70..0x77).
	Addr uint16 `yaml:"addr,omitempty"`
	// Port is the SPI port of an APA102 strip, as periph names it
	// ("SPI0.0"); empty means the first port.
	Port string `yaml:"port,omitempty"`
	// LEDs is the number of LEDs of the driver: the length of an APA102
	// strip or of a memory display. An HT16K33 always has 128.
	LEDs int `yaml:"leds,omitempty"`
	// Brightness is in percent, 1..100; 0 means 100.
	Brightness int `yaml:"brightness,omitempty"`
	// Style is "mono" or "rgb"; empty means mono for an HT16K33 and rgb
	// for the others.
	Style string `yaml:"style,omitempty"`
	// Drivers, with driver "multi", are the drivers the mapping spans, in
	// LED index order: the first one's LEDs are indexes 0..n-1, the next
	// one's follow, and so on (two HT16K33 are 0..127 and 128..255). Each
	// is given as a Mapping without cells; a brightness of 0 takes the
	// mapping's.
	Drivers []Mapping `yaml:"drivers,omitempty"`
	// Cells gives the LED index (0-based) of each cell, by cell name.
	Cells map[string]int `yaml:"cells"`
}

// ReferenceMapping is the reference build (hardware.md): one HT16K33 at 0x71
// with the LED of cell i of the default system (rules/systems: ST3D) on
// index i, that is COM i/16, row i%16: W on COM0, N on COM1, B on COM2,
// the attack-board squares on COM3..COM5 and the 12 pins on COM6.
func ReferenceMapping() *Mapping {
	return CellOrderMapping(systems.Default().Cells(), Mapping{Driver: DriverHT16K33, Addr: 0x71})
}

// Device names the driver for messages, such as "ht16k33 0x71", or
// "ht16k33 0x71 + ht16k33 0x72" for a multi mapping.
func (m *Mapping) Device() string {
	switch m.Driver {
	case DriverMulti:
		names := make([]string, len(m.Drivers))
		for i := range m.Drivers {
			names[i] = m.Drivers[i].Device()
		}
		if len(names) == 0 {
			return DriverMulti
		}
		return strings.Join(names, " + ")
	case DriverHT16K33:
		return fmt.Sprintf("%s %#x", m.Driver, m.Addr)
	case DriverAPA102:
		if m.Port != "" {
			return DriverAPA102 + " " + m.Port
		}
	}
	return m.Driver
}

// NumLEDs is the number of LEDs of the driver (of all its drivers, for a
// multi mapping).
func (m *Mapping) NumLEDs() int {
	if m.Driver == DriverMulti {
		n := 0
		for i := range m.Drivers {
			n += m.Drivers[i].NumLEDs()
		}
		return n
	}
	if m.Driver == DriverHT16K33 && m.LEDs == 0 {
		return HT16K33LEDs
	}
	return m.LEDs
}

// StyleOf is the style the mapping asks for: mono by default when every
// driver is an HT16K33, rgb otherwise.
func (m *Mapping) StyleOf() *Style {
	if m.Style == "rgb" || (m.Style == "" && !m.mono()) {
		return &RGBStyle
	}
	return &MonoStyle
}

// mono reports whether the mapping's LEDs are all single-colour.
func (m *Mapping) mono() bool {
	if m.Driver != DriverMulti {
		return m.Driver == DriverHT16K33
	}
	for i := range m.Drivers {
		if !m.Drivers[i].mono() {
			return false
		}
	}
	return len(m.Drivers) > 0
}

// Layout is a checked Mapping: the LED index of each cell of one game
// system.
type Layout struct {
	n     int
	cells int
	led   [256]int16 // by rules.Cell; -1: no LED
}

// NumLEDs is the number of LEDs of the driver.
func (l *Layout) NumLEDs() int { return l.n }

// LED is the LED index of cell c, or -1 when c is not a cell of the
// system.
func (l *Layout) LED(c rules.Cell) int {
	if int(c) >= l.cells {
		return -1
	}
	return int(l.led[c])
}

// checkDriver checks the settings of a single driver through bad, and
// returns an error for a driver it does not know.
func (m *Mapping) checkDriver(bad func(format string, a ...any)) error {
	dev, n := m.Device(), m.NumLEDs()
	switch m.Driver {
	case DriverHT16K33:
		if m.Addr < 0x70 || m.Addr > 0x77 {
			bad("%s: address %#x outside the HT16K33 range 0x70..0x77", dev, m.Addr)
		}
		if n != HT16K33LEDs {
			bad("%s: has %d LEDs, not %d", dev, HT16K33LEDs, n)
		}
	case DriverAPA102, DriverMemory:
		if n <= 0 || n > MaxLEDs {
			bad("%s: leds %d outside 1..%d", dev, n, MaxLEDs)
		}
	default:
		return fmt.Errorf("leds: driver %q unknown (want %s, %s, %s or %s)", m.Driver, DriverHT16K33, DriverAPA102, DriverMemory, DriverMulti)
	}
	if m.Brightness < 0 || m.Brightness > 100 {
		bad("%s: brightness %d outside 0..100 (percent)", dev, m.Brightness)
	}
	return nil
}

// Layout checks m against the cell list of a game system (rules.System's
// Cells) and returns the LED index of each cell. It refuses an unknown
// driver, bad settings, unknown cell names, indexes out of the driver's
// range, two cells on one LED and cells without an LED, naming each.
func (m *Mapping) Layout(cells []string) (*Layout, error) {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("leds: "+format, a...)) }
	dev := m.Device()
	n := m.NumLEDs()
	if m.Driver == DriverMulti {
		if len(m.Drivers) == 0 {
			bad("%s: no drivers given", dev)
		}
		addrs := map[uint16]bool{}
		for i := range m.Drivers {
			d := &m.Drivers[i]
			switch {
			case d.Driver == DriverMulti:
				bad("%s: driver %d: a multi driver cannot hold another", dev, i)
				continue
			case len(d.Cells) > 0 || len(d.Drivers) > 0:
				bad("%s: driver %d (%s): cells and drivers belong to the mapping, not to its drivers", dev, i, d.Device())
			case d.Driver == DriverHT16K33 && addrs[d.Addr]:
				bad("%s: two HT16K33 at %#x", dev, d.Addr)
			}
			addrs[d.Addr] = d.Driver == DriverHT16K33
			if err := d.checkDriver(bad); err != nil {
				return nil, fmt.Errorf("leds: %s: driver %d: %w", dev, i, err)
			}
		}
		if n > MaxLEDs {
			bad("%s: %d LEDs in all, more than %d", dev, n, MaxLEDs)
		}
	} else if err := m.checkDriver(bad); err != nil {
		return nil, err
	}
	if m.Style != "" && m.Style != "mono" && m.Style != "rgb" {
		bad("%s: style %q unknown (want mono or rgb)", dev, m.Style)
	}
	if len(cells) > 256 {
		return nil, fmt.Errorf("leds: %d cells, more than 256", len(cells))
	}
	l := &Layout{n: n, cells: len(cells)}
	for i := range l.led {
		l.led[i] = -1
	}
	index := make(map[string]int, len(cells))
	for i, c := range cells {
		index[c] = i
	}
	names := make([]string, 0, len(m.Cells))
	for name := range m.Cells {
		names = append(names, name)
	}
	sort.Strings(names)
	byLED := map[int]string{}
	for _, name := range names {
		i := m.Cells[name]
		c, ok := index[name]
		switch {
		case !ok:
			bad("cell %s: not a cell of the set", name)
			continue
		case i < 0:
			bad("cell %s: index %d is negative", name, i)
			continue
		case i >= n:
			bad("cell %s: index %d beyond the %d LEDs of %s", name, i, n, dev)
			continue
		}
		if other, dup := byLED[i]; dup {
			bad("cells %s and %s: both on LED %d", other, name, i)
			continue
		}
		byLED[i] = name
		l.led[c] = int16(i)
	}
	var missing []string
	for i, c := range cells {
		if _, ok := m.Cells[c]; !ok {
			missing = append(missing, cells[i])
		}
	}
	if len(missing) > 0 {
		noun := "cells"
		if len(missing) == 1 {
			noun = "cell"
		}
		bad("%d %s without an LED: %s", len(missing), noun, strings.Join(missing, " "))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}
