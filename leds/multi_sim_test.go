package leds_test

import (
	"testing"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// TestMillenniumLEDsOnTwoChips: the Millennium set's 192 LEDs on the two
// simulated HT16K33 of its board, through NewDriver of the ht16k33 preset:
// level 1 and 2 on 0x71, level 3 on 0x72.
func TestMillenniumLEDsOnTwoChips(t *testing.T) {
	b, err := sim.New(sets.MillenniumMatrixWiring())
	if err != nil {
		t.Fatal(err)
	}
	cells := millennium.CellNames()
	m, err := leds.Preset(leds.PresetHT16K33, cells)
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.Layout(cells)
	if err != nil {
		t.Fatal(err)
	}
	d, err := leds.NewDriver(m, b.Bus, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "ht16k33 0x71 + ht16k33 0x72" || d.NumLEDs() != 256 || len(b.LEDChips) != 2 {
		t.Fatalf("%s, %d LEDs, %d chips", d, d.NumLEDs(), len(b.LEDChips))
	}
	var v leds.View
	for _, sq := range []string{"1a1", "2h8", "3a1", "3h8"} {
		c, _ := rules.CellByName(millennium.System, sq)
		v.Targets.Add(c)
	}
	var f leds.Frame
	leds.Compose(&f, &v, l, m.StyleOf(), 0)
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	// 1a1 = LED 0 (0x71 byte 0 bit 0), 2h8 = LED 127 (0x71 byte 15 bit 7),
	// 3a1 = LED 128 (0x72 byte 0 bit 0), 3h8 = LED 191 (0x72 byte 7 bit 7).
	want := [2][16]byte{{0: 0x01, 15: 0x80}, {0: 0x01, 7: 0x80}}
	for i, h := range b.LEDChips {
		if got := h.RAM(); got != want[i] {
			t.Errorf("chip %d RAM % x, want % x", i, got, want[i])
		}
	}
}
