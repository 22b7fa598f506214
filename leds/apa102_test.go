package leds_test

import (
	"bytes"
	"testing"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/spi/spitest"
	"periph.io/x/devices/v3/apa102"

	"github.com/tridboard/tridboard/leds"
)

// apaStream is the SPI transfer of an APA102 strip: a zero start frame, one
// 4-byte frame per LED (0xFF: full global brightness, then blue, green,
// red), and the end frame: n/16+1 bytes of 0xFF.
func apaStream(px ...[4]byte) []byte {
	out := []byte{0, 0, 0, 0}
	for _, p := range px {
		out = append(out, p[:]...)
	}
	return append(out, bytes.Repeat([]byte{0xFF}, len(px)/16+1)...)
}

func TestAPA102(t *testing.T) {
	port := &spitest.Record{}
	d, err := leds.NewAPA102(port, &leds.APA102Opts{NumLEDs: 3, Intensity: 255, Temperature: apa102.NeutralTemp, DisableGlobalPWM: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "apa102 record" || d.NumLEDs() != 3 {
		t.Errorf("%s, %d LEDs", d, d.NumLEDs())
	}
	f := leds.Frame{N: 3}
	f.LED[0] = leds.Color{R: 255}
	f.LED[2] = leds.Color{R: 1, G: 2, B: 3}
	f.LED[3] = leds.Color{R: 9} // beyond the strip: ignored
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	want := []conntest.IO{
		{W: apaStream([4]byte{0xE1, 0, 0, 0}, [4]byte{0xE1, 0, 0, 0}, [4]byte{0xE1, 0, 0, 0})}, // off at start
		{W: apaStream([4]byte{0xFF, 0, 0, 255}, [4]byte{0xFF, 0, 0, 0}, [4]byte{0xFF, 3, 2, 1})},
		{W: apaStream([4]byte{0xE1, 0, 0, 0}, [4]byte{0xE1, 0, 0, 0}, [4]byte{0xE1, 0, 0, 0})}, // Halt
	}
	if len(port.Ops) != len(want) {
		t.Fatalf("%d transfers, want %d: %v", len(port.Ops), len(want), port.Ops)
	}
	for i := range want {
		if !bytes.Equal(port.Ops[i].W, want[i].W) || len(port.Ops[i].R) != 0 {
			t.Errorf("transfer %d:\n% x\nwant\n% x", i, port.Ops[i].W, want[i].W)
		}
	}
}

// TestAPA102Frame shows a composed RGB frame on a strip through the
// mapping: LED i is the i-th LED of the strip.
func TestAPA102Frame(t *testing.T) {
	m := &leds.Mapping{Driver: leds.DriverAPA102, LEDs: 108, Cells: leds.ReferenceMapping().Cells}
	l, err := m.Layout(names)
	if err != nil {
		t.Fatal(err)
	}
	port := &spitest.Record{}
	d, err := leds.NewAPA102(port, &leds.APA102Opts{NumLEDs: 108, Intensity: 255, Temperature: apa102.NeutralTemp, DisableGlobalPWM: true})
	if err != nil {
		t.Fatal(err)
	}
	v := leds.View{Targets: cells(t, "b3W", "b3N"), Captures: cells(t, "b3N")}
	var f leds.Frame
	leds.Compose(&f, &v, l, m.StyleOf(), 0)
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	px := make([][4]byte, 108)
	for i := range px {
		px[i] = [4]byte{0xFF, 0, 0, 0}
	}
	g, c := leds.RGBStyle.Looks[leds.Target].Color, leds.RGBStyle.Looks[leds.Capture].Color
	px[l.LED(cell(t, "b3W"))] = [4]byte{0xFF, g.B, g.G, g.R}
	px[l.LED(cell(t, "b3N"))] = [4]byte{0xFF, c.B, c.G, c.R}
	if got, want := port.Ops[len(port.Ops)-1].W, apaStream(px...); !bytes.Equal(got, want) {
		t.Errorf("transfer\n% x\nwant\n% x", got, want)
	}
}

func TestAPA102Opts(t *testing.T) {
	if _, err := leds.NewAPA102(&spitest.Record{}, &leds.APA102Opts{NumLEDs: 600}); err == nil || err.Error() != "leds: apa102 record: 600 LEDs outside 1..512" {
		t.Errorf("600 LEDs: %v", err)
	}
}
