package sim

import (
	"errors"
	"testing"
)

func TestHT16K33(t *testing.T) {
	b := NewBus("")
	h := NewHT16K33(0x71)
	if err := b.Attach(0x71, h); err != nil {
		t.Fatal(err)
	}
	if h.Oscillator() || h.DisplayOn() || h.Lit() || h.Blink() != 0 || h.Brightness() != 15 {
		t.Fatalf("power-on state: osc %v on %v blink %d dim %d", h.Oscillator(), h.DisplayOn(), h.Blink(), h.Brightness())
	}
	tx := func(w ...byte) {
		t.Helper()
		if err := b.Tx(0x71, w, nil); err != nil {
			t.Fatal(err)
		}
	}
	tx(0x21)
	tx(0x80 | 2<<1 | 1)
	tx(0xE0 | 7)
	if !h.Oscillator() || !h.DisplayOn() || !h.Lit() || h.Blink() != 2 || h.Brightness() != 7 {
		t.Fatalf("after setup: osc %v on %v blink %d dim %d", h.Oscillator(), h.DisplayOn(), h.Blink(), h.Brightness())
	}
	// A full frame in one write, then a write that wraps around 0x0F.
	frame := []byte{0x00}
	for i := 0; i < 16; i++ {
		frame = append(frame, byte(i+1))
	}
	tx(frame...)
	tx(0x0E, 0xA0, 0xA1, 0xA2)
	want := [16]byte{0xA2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xA0, 0xA1}
	if got := h.RAM(); got != want {
		t.Fatalf("RAM % x, want % x", got, want)
	}
	if h.RAMWrites() != 2 {
		t.Fatalf("RAMWrites %d", h.RAMWrites())
	}
	if !h.LED(1*8+1) || h.LED(1*8+2) {
		t.Fatal("LED bits of byte 1 (0x02)")
	}
	r := make([]byte, 3)
	if err := b.Tx(0x71, []byte{0x0F}, r); err != nil || r[0] != 0xA1 || r[1] != 0xA2 || r[2] != 2 {
		t.Fatalf("read back % x %v", r, err)
	}
	if err := b.Tx(0x71, []byte{0x40}, r); err != nil || r[0]|r[1]|r[2] != 0 {
		t.Fatalf("key RAM % x %v", r, err)
	}
	tx(0x20)
	tx(0x80)
	if h.Lit() || h.Oscillator() || h.DisplayOn() {
		t.Fatal("standby and display off not applied")
	}

	// Faults.
	h.FailNext(1)
	if err := b.Tx(0x71, []byte{0x21}, nil); !errors.Is(err, ErrNACK) || err.Error() != "sim: ht16k33 0x71: no acknowledge" {
		t.Fatalf("FailNext: %v", err)
	}
	h.Vanish()
	if err := b.Tx(0x71, []byte{0x21}, nil); !errors.Is(err, ErrNACK) {
		t.Fatalf("vanished: %v", err)
	}
	h.Return()
	if got := h.RAM(); got != ([16]byte{}) || h.Brightness() != 15 || h.Blink() != 0 {
		t.Fatalf("after Return: RAM % x dim %d", got, h.Brightness())
	}
	tx(0x00, 0x11, 0x22)
	h.ShortReadNext(1)
	r = make([]byte, 2)
	if err := b.Tx(0x71, []byte{0x00}, r); !errors.Is(err, ErrShortRead) || r[0] != 0x11 || r[1] != 0xFF {
		t.Fatalf("short read % x %v", r, err)
	}
}
