package leds_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/sim"
)

// ram is the write of the display RAM with the given LEDs lit.
func ram(lit ...int) []byte {
	out := make([]byte, 17)
	for _, i := range lit {
		out[1+i/8] |= 1 << (i % 8)
	}
	return out
}

// TestHT16K33Playback pins the exact bytes on the bus: setup, one write of
// the 16 bytes of display RAM per frame, and a Halt that clears all 16
// bytes and turns the display and oscillator off.
func TestHT16K33Playback(t *testing.T) {
	bus := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x71, W: []byte{0x21}},   // oscillator on
		{Addr: 0x71, W: ram()},          // clear the display RAM
		{Addr: 0x71, W: []byte{0x81}},   // display on, no blink
		{Addr: 0x71, W: []byte{0xE7}},   // dimming 8/16
		{Addr: 0x71, W: ram(0, 9, 127)}, // LEDs 0, 9, 127
		{Addr: 0x71, W: ram()},          // Halt: clear all 16 bytes
		{Addr: 0x71, W: []byte{0x80}},   // display off
		{Addr: 0x71, W: []byte{0x20}},   // oscillator off (standby)
		{Addr: 0x71, W: []byte{0x21}},   // a Write after Halt sets up again
		{Addr: 0x71, W: ram()},
		{Addr: 0x71, W: []byte{0x81}},
		{Addr: 0x71, W: []byte{0xE7}},
		{Addr: 0x71, W: ram(52)}, // LED 52
	}}
	d, err := leds.NewHT16K33(bus, &leds.HT16K33Opts{Addr: 0x71, Dimming: 7})
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "ht16k33 0x71" || d.NumLEDs() != 128 {
		t.Errorf("%s, %d LEDs", d, d.NumLEDs())
	}
	f := leds.Frame{N: 128}
	on := leds.Color{R: 1}
	f.LED[0], f.LED[9], f.LED[127] = on, on, on
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	f.Clear()
	f.LED[52] = on
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestHT16K33Opts(t *testing.T) {
	bus := &i2ctest.Record{}
	for _, tc := range []struct {
		o    leds.HT16K33Opts
		want string
	}{
		{leds.HT16K33Opts{Addr: 0x20}, "leds: ht16k33: address 0x20 outside 0x70..0x77"},
		{leds.HT16K33Opts{Addr: 0x70, Dimming: 16}, "leds: ht16k33 0x70: dimming 16 beyond 15"},
	} {
		if _, err := leds.NewHT16K33(bus, &tc.o); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %s", tc.o, err, tc.want)
		}
	}
	if len(bus.Ops) != 0 {
		t.Errorf("bad options reached the bus: %v", bus.Ops)
	}
}

// newSimHT16K33 is an HT16K33 driver on a simulated bus.
func newSimHT16K33(t testing.TB, o leds.HT16K33Opts) (*leds.HT16K33, *sim.HT16K33, *sim.Bus) {
	t.Helper()
	bus := sim.NewBus("i2c-sim")
	chip := sim.NewHT16K33(0x71)
	if err := bus.Attach(0x71, chip); err != nil {
		t.Fatal(err)
	}
	d, err := leds.NewHT16K33(bus, &o)
	if err != nil {
		t.Fatal(err)
	}
	return d, chip, bus
}

func TestHT16K33Sim(t *testing.T) {
	d, chip, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 3})
	if !chip.Lit() || chip.Blink() != 0 || chip.Brightness() != 3 {
		t.Fatalf("after setup: lit %t, blink %d, dimming %d", chip.Lit(), chip.Blink(), chip.Brightness())
	}
	f := leds.Frame{N: 128}
	for _, i := range []int{0, 7, 8, 15, 16, 100, 127} {
		f.LED[i] = leds.Color{G: 9}
	}
	writes := chip.RAMWrites()
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	want := [16]byte{0: 0x81, 1: 0x81, 2: 0x01, 12: 0x10, 15: 0x80}
	if got := chip.RAM(); got != want {
		t.Errorf("RAM % x, want % x", got, want)
	}
	if n := chip.RAMWrites() - writes; n != 1 {
		t.Errorf("%d RAM writes for one frame", n)
	}
	// Halt clears the whole RAM, not only its first half as periph's
	// ht16k33.Dev.Halt does, and turns the display off.
	for i := range 128 {
		f.LED[i] = leds.Color{R: 1}
	}
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if got := chip.RAM(); got != [16]byte{} {
		t.Errorf("RAM after Halt % x", got)
	}
	if chip.DisplayOn() || chip.Oscillator() {
		t.Error("display still on after Halt")
	}
}

func TestHT16K33Recovers(t *testing.T) {
	d, chip, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	f := leds.Frame{N: 128}
	f.LED[5] = leds.Color{B: 1}

	// A NACK is reported with the device and what was being done.
	chip.FailNext(1)
	err := d.Write(&f)
	if err == nil || !errors.Is(err, sim.ErrNACK) || !strings.HasPrefix(err.Error(), "leds: ht16k33 0x71: writing the display RAM: ") {
		t.Fatalf("error %v", err)
	}
	// The chip lost power meanwhile: the next Write sets it up again.
	chip.PowerCycle()
	if err := d.Write(&f); err != nil {
		t.Fatal(err)
	}
	if !chip.Lit() || !chip.LED(5) {
		t.Errorf("after recovery: lit %t, LED 5 %t", chip.Lit(), chip.LED(5))
	}

	// A silent brown-out: Resetup brings the display back with the first
	// frame once the last setup is Resetup old, on the driver's clock.
	c := sim.NewTimeSource(time.Time{})
	d2, chip2, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15, Resetup: 10 * time.Second, Now: c.Now})
	chip2.PowerCycle()
	c.Advance(10*time.Second - 1)
	if err := d2.Write(&f); err != nil {
		t.Fatal(err)
	}
	if chip2.Lit() {
		t.Fatal("set up again before Resetup")
	}
	c.Advance(1)
	if err := d2.Write(&f); err != nil {
		t.Fatal(err)
	}
	if !chip2.Lit() || !chip2.LED(5) {
		t.Errorf("after brown-out: lit %t, LED 5 %t", chip2.Lit(), chip2.LED(5))
	}
}
