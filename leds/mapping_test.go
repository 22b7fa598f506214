package leds_test

import (
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
)

func TestReferenceMapping(t *testing.T) {
	m := leds.ReferenceMapping()
	if m.Driver != "ht16k33" || m.Addr != 0x71 || len(m.Cells) != 108 || m.Device() != "ht16k33 0x71" || m.NumLEDs() != 128 {
		t.Fatalf("reference mapping %+v", m)
	}
	l, err := m.Layout(names)
	if err != nil {
		t.Fatal(err)
	}
	if l.NumLEDs() != 128 {
		t.Errorf("NumLEDs %d", l.NumLEDs())
	}
	for c, n := range names {
		if got := l.LED(rules.Cell(c)); got != c {
			t.Errorf("cell %s on LED %d, want %d", n, got, c)
		}
	}
	if l.LED(108) != -1 || l.LED(rules.NoCell) != -1 {
		t.Error("LED of a cell beyond the list")
	}
	if m.StyleOf() != &leds.MonoStyle {
		t.Error("the reference build is single-colour")
	}
}

func TestMappingErrors(t *testing.T) {
	ref := leds.ReferenceMapping
	cases := []struct {
		name string
		edit func(m *leds.Mapping)
		want []string // the lines of the error
	}{
		{"index beyond the driver", func(m *leds.Mapping) { m.Cells["b2W"] = 130 },
			[]string{"leds: cell b2W: index 130 beyond the 128 LEDs of ht16k33 0x71"}},
		{"negative index", func(m *leds.Mapping) { m.Cells["QL3"] = -1 },
			[]string{"leds: cell QL3: index -1 is negative"}},
		{"unknown cell", func(m *leds.Mapping) { m.Cells["b9W"] = 120 },
			[]string{"leds: cell b9W: not a cell of the set"}},
		{"two cells on one LED", func(m *leds.Mapping) { m.Cells["b2W"] = 0 },
			[]string{"leds: cells a1W and b2W: both on LED 0"}},
		{"missing cells", func(m *leds.Mapping) { delete(m.Cells, "c5N"); delete(m.Cells, "KL6") },
			[]string{"leds: 2 cells without an LED: c5N KL6"}},
		{"all at once, sorted by cell", func(m *leds.Mapping) {
			delete(m.Cells, "z0QL1")
			m.Cells["zz"] = 3
			m.Cells["a1W"] = 200
		}, []string{
			"leds: cell a1W: index 200 beyond the 128 LEDs of ht16k33 0x71",
			"leds: cell zz: not a cell of the set",
			"leds: 1 cell without an LED: z0QL1",
		}},
		{"bad address", func(m *leds.Mapping) { m.Addr = 0x20 },
			[]string{"leds: ht16k33 0x20: address 0x20 outside the HT16K33 range 0x70..0x77"}},
		{"bad brightness and style", func(m *leds.Mapping) { m.Brightness = 101; m.Style = "neon" }, []string{
			"leds: ht16k33 0x71: brightness 101 outside 0..100 (percent)",
			`leds: ht16k33 0x71: style "neon" unknown (want mono or rgb)`,
		}},
		{"unknown driver", func(m *leds.Mapping) { m.Driver = "ws2812" },
			[]string{`leds: driver "ws2812" unknown (want ht16k33, apa102, memory or multi)`}},
		{"strip too short", func(m *leds.Mapping) { m.Driver, m.Port, m.LEDs = "apa102", "SPI0.0", 100 }, []string{
			"leds: cell KL1: index 102 beyond the 100 LEDs of apa102 SPI0.0",
			"leds: cell KL2: index 103 beyond the 100 LEDs of apa102 SPI0.0",
			"leds: cell KL3: index 104 beyond the 100 LEDs of apa102 SPI0.0",
			"leds: cell KL4: index 105 beyond the 100 LEDs of apa102 SPI0.0",
			"leds: cell KL5: index 106 beyond the 100 LEDs of apa102 SPI0.0",
			"leds: cell KL6: index 107 beyond the 100 LEDs of apa102 SPI0.0",
			"leds: cell QL5: index 100 beyond the 100 LEDs of apa102 SPI0.0",
			"leds: cell QL6: index 101 beyond the 100 LEDs of apa102 SPI0.0",
		}},
		{"strip without length", func(m *leds.Mapping) { m.Driver = "apa102"; m.Cells = map[string]int{} }, []string{
			"leds: apa102: leds 0 outside 1..512",
			"leds: 108 cells without an LED: " + strings.Join(names, " "),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := ref()
			tc.edit(m)
			l, err := m.Layout(names)
			if err == nil {
				t.Fatalf("accepted: %+v", l)
			}
			if got, want := err.Error(), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("error\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestMappingYAML(t *testing.T) {
	src := `
driver: apa102
port: SPI0.0
leds: 110
brightness: 40
cells:
`
	ref := leds.ReferenceMapping()
	for _, n := range names {
		src += "  " + n + ": " + strconv.Itoa(ref.Cells[n]+2) + "\n"
	}
	var m leds.Mapping
	if err := yaml.UnmarshalWithOptions([]byte(src), &m, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	if m.Driver != "apa102" || m.Port != "SPI0.0" || m.LEDs != 110 || m.Brightness != 40 || len(m.Cells) != 108 || m.Cells["KL6"] != 109 {
		t.Fatalf("decoded %+v", m)
	}
	if _, err := m.Layout(names); err != nil {
		t.Fatal(err)
	}
	if m.StyleOf() != &leds.RGBStyle {
		t.Error("an APA102 strip defaults to the RGB style")
	}
	// The reference mapping goes through YAML unchanged, address included.
	out, err := yaml.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	var back leds.Mapping
	if err := yaml.UnmarshalWithOptions(out, &back, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	if back.Driver != ref.Driver || back.Addr != 0x71 || !maps.Equal(back.Cells, ref.Cells) {
		t.Errorf("round trip: %+v", back)
	}
	if err := yaml.UnmarshalWithOptions([]byte("driver: ht16k33\naddr: 0x71\n"), &back, yaml.Strict()); err != nil || back.Addr != 0x71 {
		t.Errorf("hex address: %v, %#x", err, back.Addr)
	}
	if err := yaml.UnmarshalWithOptions([]byte("driver: ht16k33\nadr: 0x71\n"), &back, yaml.Strict()); err == nil {
		t.Error("a misspelt key is accepted")
	}
}
