package leds

import (
	"errors"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
)

func TestMultiSplitsFrames(t *testing.T) {
	a, b := NewMemory(128), NewMemory(64)
	d, err := NewMulti(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if d.NumLEDs() != 192 || d.String() != "memory + memory" {
		t.Fatalf("%s: %d LEDs", d, d.NumLEDs())
	}
	var f Frame
	f.N = 192
	red := Color{R: 255}
	for _, i := range []int{0, 127, 128, 191} {
		f.LED[i] = red
	}
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	fa, _ := a.Frame()
	fb, _ := b.Frame()
	if fa.N != 128 || !fa.Lit(0) || !fa.Lit(127) || fa.Lit(1) || fb.N != 64 || !fb.Lit(0) || !fb.Lit(63) || fb.Lit(1) {
		t.Fatalf("parts: a %v %v %v, b %v %v %v", fa.Lit(0), fa.Lit(127), fa.Lit(1), fb.Lit(0), fb.Lit(63), fb.Lit(1))
	}
	// A failing part reports its error; the other part is still written.
	b.Fail(errors.New("leds: memory: gone"))
	f.LED[5] = red
	if err := d.Write(&f); err == nil || err.Error() != "leds: memory: gone" {
		t.Fatalf("write with a failing part: %v", err)
	}
	if fa, n := a.Frame(); !fa.Lit(5) || n != 2 {
		t.Fatalf("healthy part not written (%d writes)", n)
	}
	if err := d.Halt(); err == nil {
		t.Fatal("halt with a failing part succeeded")
	}
	if !a.Halted() {
		t.Fatal("healthy part not halted")
	}
	if _, err := NewMulti(); err == nil {
		t.Fatal("empty multi accepted")
	}
	if _, err := NewMulti(NewMemory(300), NewMemory(300)); err == nil || err.Error() != "leds: memory + memory: 600 LEDs in all, more than 512" {
		t.Fatalf("600 LEDs: %v", err)
	}
}

func TestPresets(t *testing.T) {
	for _, tc := range []struct {
		preset string
		cells  []string
		device string
		n      int
		style  *Style
	}{
		{PresetHT16K33, st3d.CellNames(), "ht16k33 0x71", 128, &MonoStyle},
		{PresetHT16K33, millennium.CellNames(), "ht16k33 0x71 + ht16k33 0x72", 256, &MonoStyle},
		{PresetHT16K33, firstcontact.CellNames(), "ht16k33 0x71 + ht16k33 0x72", 256, &MonoStyle},
		{PresetAPA102, st3d.CellNames(), "apa102 SPI0.0", 108, &RGBStyle},
		{PresetAPA102, millennium.CellNames(), "apa102 SPI0.0", 192, &RGBStyle},
	} {
		m, err := Preset(tc.preset, tc.cells)
		if err != nil {
			t.Fatal(err)
		}
		l, err := m.Layout(tc.cells)
		if err != nil {
			t.Fatalf("%s: %v", tc.preset, err)
		}
		if m.Device() != tc.device || l.NumLEDs() != tc.n || m.StyleOf() != tc.style {
			t.Errorf("%s over %d cells: %s, %d LEDs", tc.preset, len(tc.cells), m.Device(), l.NumLEDs())
		}
		for c := range tc.cells {
			if l.LED(rules.Cell(c)) != c {
				t.Fatalf("%s: cell %d on LED %d", tc.preset, c, l.LED(rules.Cell(c)))
			}
		}
	}
	// The ST3D HT16K33 preset is the reference mapping.
	m, _ := Preset(PresetHT16K33, st3d.CellNames())
	ref := ReferenceMapping()
	if m.Driver != ref.Driver || m.Addr != ref.Addr || len(m.Cells) != len(ref.Cells) {
		t.Fatalf("preset %+v, reference %+v", m, ref)
	}
	for c, i := range ref.Cells {
		if m.Cells[c] != i {
			t.Fatalf("%s: preset LED %d, reference %d", c, m.Cells[c], i)
		}
	}
	if _, err := Preset("neon", st3d.CellNames()); err == nil || err.Error() != `leds: LED preset "neon" unknown (want ht16k33, apa102)` {
		t.Fatalf("unknown preset: %v", err)
	}
	if _, err := Preset(PresetHT16K33, make([]string, 1100)); err == nil {
		t.Fatal("1100 cells on HT16K33s accepted")
	}
}

func TestMultiMappingErrors(t *testing.T) {
	cells := millennium.CellNames()
	good, _ := Preset(PresetHT16K33, cells)
	for _, tc := range []struct {
		name string
		edit func(m *Mapping)
		want string
	}{
		{"no drivers", func(m *Mapping) { m.Drivers = nil }, "leds: multi: no drivers given"},
		{"same address", func(m *Mapping) { m.Drivers[1].Addr = 0x71 }, "leds: ht16k33 0x71 + ht16k33 0x71: two HT16K33 at 0x71"},
		{"nested", func(m *Mapping) { m.Drivers[1] = Mapping{Driver: DriverMulti} },
			"leds: ht16k33 0x71 + multi: driver 1: a multi driver cannot hold another"},
		{"cells in a part", func(m *Mapping) { m.Drivers[0].Cells = map[string]int{"1a1": 0} },
			"leds: ht16k33 0x71 + ht16k33 0x72: driver 0 (ht16k33 0x71): cells and drivers belong to the mapping, not to its drivers"},
		{"bad part", func(m *Mapping) { m.Drivers[1].Driver = "neon" },
			`leds: ht16k33 0x71 + neon: driver 1: leds: driver "neon" unknown (want ht16k33, apa102, memory or multi)`},
		{"beyond the LEDs", func(m *Mapping) { m.Cells["3h8"] = 256 }, "leds: cell 3h8: index 256 beyond the 256 LEDs of ht16k33 0x71 + ht16k33 0x72"},
	} {
		m := *good
		m.Drivers = append([]Mapping(nil), good.Drivers...)
		m.Cells = map[string]int{}
		for k, v := range good.Cells {
			m.Cells[k] = v
		}
		tc.edit(&m)
		_, err := m.Layout(cells)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestSPIPortAndSimulated(t *testing.T) {
	strip, _ := Preset(PresetAPA102, millennium.CellNames())
	multi := &Mapping{Driver: DriverMulti, Drivers: []Mapping{{Driver: DriverHT16K33, Addr: 0x71}, {Driver: DriverAPA102, Port: "SPI1.0", LEDs: 64}}}
	chips, _ := Preset(PresetHT16K33, millennium.CellNames())
	for _, tc := range []struct {
		m      *Mapping
		port   string
		ok     bool
		device string
	}{
		{strip, "SPI0.0", true, "memory"},
		{multi, "SPI1.0", true, "ht16k33 0x71 + memory"},
		{chips, "", false, "ht16k33 0x71 + ht16k33 0x72"},
	} {
		if p, ok := tc.m.SPIPort(); p != tc.port || ok != tc.ok {
			t.Errorf("%s: SPI port %q %v", tc.m.Device(), p, ok)
		}
		s := tc.m.Simulated()
		if s.Device() != tc.device || s.NumLEDs() != tc.m.NumLEDs() {
			t.Errorf("%s simulated: %s, %d LEDs", tc.m.Device(), s.Device(), s.NumLEDs())
		}
	}
	if multi.Drivers[1].Driver != DriverAPA102 || strip.Driver != DriverAPA102 {
		t.Fatal("Simulated changed its receiver")
	}
	// The simulated strip keeps its colours.
	if strip.Simulated().StyleOf() != &RGBStyle {
		t.Fatal("simulated strip lost its style")
	}
}
