package leds

import (
	"slices"
	"strings"

	"github.com/tridboard/tridboard/internal/setting"
)

// Opts are the configuration file's "leds" section (the yaml names): which
// LED lights each cell, and whether the targets are shown.
type Opts struct {
	// ShowTargets lights the legal targets and pins of what is lifted and
	// the king in check (off for tournament play: View.NoTargets; the other
	// signals stay). Its yaml name is "hints".
	ShowTargets bool `yaml:"hints"`
	// Mapping is the driver and the cell -> LED table; nil: Preset. Driver
	// "none" turns the LEDs off.
	Mapping *Mapping `yaml:"mapping"`
	// Preset, without a Mapping, lights cell i of the game system on LED i
	// of: "ht16k33" (the default: one HT16K33 per 128 cells from 0x71, the
	// reference build on the ST3D set, two chips for the Millennium set) or
	// "apa102" (one strip on SPI0.0).
	Preset string `yaml:"preset"`
	// SPIPort is the SPI port of the apa102 preset's strip ("" = the
	// preset's, SPI0.0); a mapping names its strip's own (its port).
	SPIPort string `yaml:"spi_port"`
}

// DefaultOpts returns the defaults: the targets shown, the LEDs of the
// ht16k33 preset.
func DefaultOpts() Opts { return Opts{ShowTargets: true} }

// Validate checks what can be checked without the game system's cells: a
// preset's name, and a preset not given beside a mapping. Its error is
// setting.Problems, keyed by the yaml names.
func (o *Opts) Validate() error {
	var ps setting.Problems
	if p := o.Preset; p != "" {
		if !slices.Contains(PresetNames(), p) {
			ps.Add("preset", "%q: want one of %s", p, strings.Join(PresetNames(), ", "))
		} else if o.Mapping != nil {
			ps.Add("preset", "%q and a mapping: give one", p)
		}
	}
	return ps.Err("leds")
}

// Layout is the mapping for the cells of a game system (the configured
// one, or the preset: ht16k33 by default, the reference one on the ST3D
// set) and its layout, checked against the cells; nil, nil when the LEDs
// are off ("driver: none"). Its error is setting.Problems, keyed "preset"
// or "mapping".
func (o *Opts) Layout(cells []string) (*Mapping, *Layout, error) {
	var ps setting.Problems
	m := o.Mapping
	if m == nil {
		p := o.Preset
		if p == "" {
			p = PresetHT16K33
		}
		var err error
		if m, err = Preset(p, cells); err != nil {
			ps.Add("preset", "%s", err.Error())
			return nil, nil, ps.Err("leds")
		}
		if m.Driver == DriverAPA102 && o.SPIPort != "" {
			m.Port = o.SPIPort
		}
	}
	if m.Driver == "none" {
		return nil, nil, nil
	}
	l, err := m.Layout(cells)
	if err != nil {
		ps.Add("mapping", "%s", err.Error())
		return nil, nil, ps.Err("leds")
	}
	return m, l, nil
}
