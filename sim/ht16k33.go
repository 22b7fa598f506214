package sim

import "fmt"

// HT16K33 emulates the LED side of a Holtek HT16K33 (16 x 8 LED matrix
// driver) at command level:
//
//   - 0x00..0x0F sets the display RAM pointer; the bytes that follow in the
//     same write are stored from there, the pointer wrapping 0x0F -> 0x00.
//     A read after it returns RAM from the pointer the same way.
//   - 0x20 | S: system setup, S=1 starts the oscillator (0x20 is standby).
//   - 0x80 | B<<1 | D: display setup, D=1 display on, B = blink (0 off,
//     1 = 2 Hz, 2 = 1 Hz, 3 = 0.5 Hz).
//   - 0xE0 | P: dimming, duty (P+1)/16.
//   - 0x40..0x45 (key RAM) and 0x60 (interrupt flag) read as zeros; other
//     commands are acknowledged and ignored.
//
// Power-on: standby, display off, no blink, dimming 15 (16/16), RAM zero
// (the real RAM is undefined at power-on; drivers must write it).
type HT16K33 struct {
	chip
	ram    [16]byte
	ptr    uint8
	keys   bool // the pointer addresses key RAM / flags (reads give zeros)
	osc    bool
	on     bool
	blink  uint8
	dim    uint8
	writes uint64
}

// NewHT16K33 returns a chip in its power-on state; addr is used in error
// messages.
func NewHT16K33(addr uint16) *HT16K33 {
	h := &HT16K33{}
	h.name = fmt.Sprintf("ht16k33 0x%02x", addr)
	h.reset = h.powerOn
	h.powerOn()
	return h
}

func (h *HT16K33) powerOn() {
	h.ram = [16]byte{}
	h.ptr, h.keys = 0, false
	h.osc, h.on, h.blink, h.dim = false, false, 0, 15
}

// Tx implements Device.
func (h *HT16K33) Tx(w, r []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, err := h.fault(len(r))
	if err != nil && n == 0 {
		return err
	}
	if len(w) > 0 {
		cmd := w[0]
		switch cmd & 0xF0 {
		case 0x00:
			h.ptr, h.keys = cmd&0x0F, false
			if len(w) > 1 {
				h.writes++
			}
			for _, v := range w[1:] {
				h.ram[h.ptr] = v
				h.ptr = (h.ptr + 1) & 0x0F
			}
		case 0x20:
			h.osc = cmd&1 != 0
		case 0x80:
			h.on = cmd&1 != 0
			h.blink = (cmd >> 1) & 3
		case 0xE0:
			h.dim = cmd & 0x0F
		case 0x40, 0x60:
			h.keys = true
		}
	}
	for i := range r {
		switch {
		case i >= n:
			r[i] = 0xFF
		case h.keys:
			r[i] = 0
		default:
			r[i] = h.ram[h.ptr]
			h.ptr = (h.ptr + 1) & 0x0F
		}
	}
	return err
}

// RAM returns the 16 bytes of display RAM. Byte 2*c + k holds rows
// 8*k..8*k+7 of common c.
func (h *HT16K33) RAM() [16]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ram
}

// LED reports whether RAM bit i (byte i/8, bit i%8; 0..127) is set.
func (h *HT16K33) LED(i int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ram[(i/8)&15]&(1<<(i%8)) != 0
}

// Oscillator reports whether the system oscillator runs (0x21 was sent).
func (h *HT16K33) Oscillator() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.osc
}

// DisplayOn reports whether the display is on. LEDs light only while the
// display is on and the oscillator runs; see Lit.
func (h *HT16K33) DisplayOn() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.on
}

// Lit reports whether the LEDs show the RAM: oscillator running and display
// on.
func (h *HT16K33) Lit() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.on && h.osc
}

// Blink is the blink setting: 0 off, 1 = 2 Hz, 2 = 1 Hz, 3 = 0.5 Hz.
func (h *HT16K33) Blink() uint8 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.blink
}

// Brightness is the dimming setting P, 0..15 (duty (P+1)/16).
func (h *HT16K33) Brightness() uint8 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dim
}

// RAMWrites counts the transactions that wrote display RAM (frames).
func (h *HT16K33) RAMWrites() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.writes
}
