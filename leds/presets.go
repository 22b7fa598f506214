package leds

import (
	"fmt"
	"strings"
)

// The LED presets (leds.preset in the configuration): one LED per cell of
// the game system, LED index = cell index, so any system's set gets them.
const (
	// PresetHT16K33 is one HT16K33 per 128 cells, from 0x71 up: the ST3D
	// reference (108 cells on 0x71, ReferenceMapping), the Millennium set's
	// two chips (cells 0..127, levels 1 and 2, on 0x71; 128..191, level 3,
	// on 0x72) and First Contact's 168 cells on two.
	PresetHT16K33 = "ht16k33"
	// PresetAPA102 is one APA102 strip on SPI0.0 running cell by cell in
	// the system's cell order (108 LEDs on the ST3D set, 192 on the
	// Millennium set), colour hints.
	PresetAPA102 = "apa102"
)

// HT16K33First is the address of the first HT16K33 of PresetHT16K33.
const HT16K33First = 0x71

// PresetNames lists the LED presets.
func PresetNames() []string { return []string{PresetHT16K33, PresetAPA102} }

// Preset is the LED preset called name for the cells of a game system
// (rules.System's Cells()). It refuses an unknown name, and more cells
// than the preset's drivers can light.
func Preset(name string, cells []string) (*Mapping, error) {
	switch name {
	case PresetHT16K33:
		n := (len(cells) + HT16K33LEDs - 1) / HT16K33LEDs
		if n == 0 || HT16K33First+n-1 > 0x77 {
			return nil, fmt.Errorf("leds: preset %s: %d cells need %d HT16K33 from %#x, beyond 0x77", name, len(cells), n, HT16K33First)
		}
		chips := make([]Mapping, n)
		for i := range chips {
			chips[i] = Mapping{Driver: DriverHT16K33, Addr: uint16(HT16K33First + i)}
		}
		return CellOrderMapping(cells, chips...), nil
	case PresetAPA102:
		if len(cells) == 0 || len(cells) > MaxLEDs {
			return nil, fmt.Errorf("leds: preset %s: %d cells, want 1..%d", name, len(cells), MaxLEDs)
		}
		m := CellOrderMapping(cells, Mapping{Driver: DriverAPA102, Port: "SPI0.0", LEDs: len(cells)})
		m.Style = "rgb"
		return m, nil
	}
	return nil, fmt.Errorf("leds: LED preset %q unknown (want %s)", name, strings.Join(PresetNames(), ", "))
}

// CellOrderMapping lights cell i of cells on LED i of the drivers given,
// side by side in that order: one driver gives a mapping of that driver,
// several a multi mapping (DriverMulti) spanning them.
func CellOrderMapping(cells []string, drivers ...Mapping) *Mapping {
	var m Mapping
	if len(drivers) == 1 {
		m = drivers[0]
	} else {
		m = Mapping{Driver: DriverMulti, Drivers: append([]Mapping(nil), drivers...)}
	}
	m.Cells = make(map[string]int, len(cells))
	for i, c := range cells {
		m.Cells[c] = i
	}
	return &m
}
