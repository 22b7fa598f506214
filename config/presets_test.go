package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
)

// TestSetExampleFiles: the Millennium and First Contact examples of
// deploy/ give their set's wiring preset and LEDs for their system's cells.
func TestSetExampleFiles(t *testing.T) {
	must := func(w *sensors.Wiring, err error) *sensors.Wiring {
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, tc := range []struct {
		file   string
		cells  []string
		wiring *sensors.Wiring
		device string
		leds   int
	}{
		{"../deploy/millennium-matrix.yaml", millennium.CellNames(), sets.MillenniumMatrixWiring("queen", "knight"), "ht16k33 0x71 + ht16k33 0x72", 256},
		{"../deploy/millennium-direct.yaml", millennium.CellNames(), sets.MillenniumDirectWiring("queen", "rook", "bishop", "knight"), "apa102 SPI0.0", 192},
		{"../deploy/firstcontact.yaml", firstcontact.CellNames(), sets.FirstContactWiring("queen", "knight"), "ht16k33 0x71 + ht16k33 0x72", 256},
		{"../deploy/firstcontact-up.yaml", firstcontact.UpCellNames(), must(sets.Preset(sets.PresetFirstContactUp)), "ht16k33 0x71", 128},
		// F6: the reference set plays first-contact-up as it is.
		{"../deploy/tridboard.yaml", firstcontact.UpCellNames(), must(sets.Preset(sets.PresetFirstContactUp)), "ht16k33 0x71", 128},
	} {
		c, err := Load(tc.file)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		w, err := c.Wiring(tc.cells)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if !reflect.DeepEqual(w, tc.wiring) {
			t.Errorf("%s: wiring differs from the one it documents", tc.file)
		}
		m, l, err := c.LEDMapping(tc.cells)
		if err != nil || m.Device() != tc.device || l.NumLEDs() != tc.leds {
			t.Errorf("%s: LEDs %v, %v; want %s", tc.file, m, err, tc.device)
		}
	}
}

func TestSetPresetKeys(t *testing.T) {
	for _, tc := range []struct{ name, text, err string }{
		{"wiring preset", "sensors:\n  preset: millennium-direct\n", ""},
		{"led preset", "leds:\n  preset: apa102\n", ""},
		{"bad led preset", "leds:\n  preset: neon\n", `config t.yaml:2: leds.preset: "neon": want one of ht16k33, apa102`},
		{"led preset and mapping", "leds:\n  preset: apa102\n  mapping:\n    driver: memory\n    leds: 1\n", `config t.yaml:2: leds.preset: "apa102" and a mapping: give one`},
	} {
		_, err := Parse("t.yaml", []byte(tc.text))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.err)
		}
	}
	// A Millennium game on the default configuration gets two HT16K33.
	m, _, err := Default().LEDMapping(millennium.CellNames())
	if err != nil || !strings.HasPrefix(m.Device(), "ht16k33 0x71 + ht16k33 0x72") {
		t.Fatalf("default LEDs for Millennium: %v, %v", m, err)
	}
}
