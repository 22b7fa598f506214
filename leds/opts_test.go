package leds_test

import (
	"testing"

	"github.com/tridboard/tridboard/leds"
)

// TestOptsValidate: the defaults are valid and light the reference
// mapping on the ST3D cells; a bad preset, a preset beside a mapping and a
// mapping that misses cells are each named by their yaml key.
func TestOptsValidate(t *testing.T) {
	o := leds.DefaultOpts()
	if err := o.Validate(); err != nil || !o.ShowTargets {
		t.Fatalf("defaults: %v, targets shown %v", err, o.ShowTargets)
	}
	m, l, err := o.Layout(names)
	if err != nil || m.Driver != leds.DriverHT16K33 || m.Addr != 0x71 || l == nil {
		t.Fatalf("default layout: %+v, %v", m, err)
	}
	for _, tc := range []struct {
		name string
		o    leds.Opts
		want string
	}{
		{"unknown preset", leds.Opts{Preset: "neon"}, `leds: preset: "neon": want one of ht16k33, apa102`},
		{"preset and mapping", leds.Opts{Preset: "apa102", Mapping: leds.ReferenceMapping()}, `leds: preset: "apa102" and a mapping: give one`},
	} {
		if err := tc.o.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.want)
		}
	}
	short := leds.Opts{Mapping: &leds.Mapping{Driver: leds.DriverHT16K33, Addr: 0x71, Cells: map[string]int{"a1W": 0}}}
	if _, _, err := short.Layout(names); err == nil || err.Error()[:15] != "leds: mapping: " {
		t.Errorf("a mapping missing cells: err = %v", err)
	}
	strip := leds.Opts{Preset: leds.PresetAPA102, SPIPort: "SPI1.0"}
	if m, _, err := strip.Layout(names); err != nil || m.Driver != leds.DriverAPA102 || m.Port != "SPI1.0" {
		t.Errorf("apa102 preset on spi_port SPI1.0: %+v, %v", m, err)
	} else if p, ok := m.SPIPort(); !ok || p != "SPI1.0" {
		t.Errorf("the strip's port: %q %v", p, ok)
	}
	off := leds.Opts{Mapping: &leds.Mapping{Driver: "none"}}
	if m, l, err := off.Layout(names); m != nil || l != nil || err != nil {
		t.Errorf("driver none: %v %v %v", m, l, err)
	}
}
