package sim

import (
	"errors"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

func TestTxBits(t *testing.T) {
	for _, tc := range []struct {
		nw, nr int
		want   uint64
	}{
		{0, 0, 11},
		{1, 2, 48}, // 2-byte register read, hardware.md
		{1, 0, 20},
		{0, 2, 29},
		{17, 0, 164}, // HT16K33 frame
		{2, 1, 48},   // matrix row: write row, read columns
	} {
		if got := TxBits(tc.nw, tc.nr); got != tc.want {
			t.Errorf("TxBits(%d, %d) = %d, want %d", tc.nw, tc.nr, got, tc.want)
		}
	}
}

func TestBusStatsAndSpeed(t *testing.T) {
	b := NewBus("")
	h := NewHT16K33(0x71)
	if err := b.Attach(0x71, h); err != nil {
		t.Fatal(err)
	}
	if err := b.Attach(0x71, h); err == nil || err.Error() != "sim: attach at 0x71: address already taken" {
		t.Fatalf("second attach: %v", err)
	}
	d := i2c.Dev{Bus: b, Addr: 0x71}
	r := make([]byte, 2)
	if err := d.Tx([]byte{0x00}, r); err != nil {
		t.Fatal(err)
	}
	if got, want := b.Stats(), (Stats{Transactions: 1, Bits: 48, WireTime: 120 * time.Microsecond}); got != want {
		t.Fatalf("stats %+v, want %+v", got, want)
	}
	if err := b.Tx(0x20, []byte{0}, r); !errors.Is(err, ErrNACK) || err.Error() != "sim: sim: address 0x20: no acknowledge" {
		t.Fatalf("tx to nobody: %v", err)
	}
	if got, want := b.Stats(), (Stats{Transactions: 2, NACKs: 1, Bits: 59, WireTime: 147500 * time.Nanosecond}); got != want {
		t.Fatalf("stats %+v, want %+v", got, want)
	}
	b.ResetStats()
	if err := b.SetSpeed(100 * physic.KiloHertz); err != nil {
		t.Fatal(err)
	}
	if err := b.SetSpeed(0); err == nil {
		t.Fatal("SetSpeed(0) accepted")
	}
	c := NewTimeSource(time.Time{})
	b.SetTimeSource(c)
	if err := d.Tx([]byte{0x00}, r); err != nil {
		t.Fatal(err)
	}
	if got, want := b.Stats(), (Stats{Transactions: 1, Bits: 48, WireTime: 480 * time.Microsecond}); got != want {
		t.Fatalf("stats at 100 kHz %+v, want %+v", got, want)
	}
	if got := c.Now().Sub(Epoch); got != 480*time.Microsecond {
		t.Fatalf("clock advanced %v, want 480µs", got)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Tx([]byte{0}, nil); err == nil {
		t.Fatal("tx on closed bus succeeded")
	}
}

func TestPCA9548Routing(t *testing.T) {
	b := NewBus("i2c-sim")
	m := NewPCA9548(0x70)
	if err := b.Attach(0x70, m); err != nil {
		t.Fatal(err)
	}
	h1, h2, h3 := NewHT16K33(0x71), NewHT16K33(0x71), NewHT16K33(0x71)
	if err := m.Attach(1, 0x71, h1); err != nil {
		t.Fatal(err)
	}
	if err := m.Attach(2, 0x71, h2); err != nil {
		t.Fatal(err)
	}
	if err := m.Attach(8, 0x71, h3); err == nil {
		t.Fatal("channel 8 accepted")
	}
	write := func(v byte) error { return b.Tx(0x71, []byte{0x00, v}, nil) }
	if err := write(1); !errors.Is(err, ErrNACK) {
		t.Fatalf("no channel selected: %v", err)
	}
	if err := b.Tx(0x70, []byte{1 << 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := write(0xAA); err != nil {
		t.Fatal(err)
	}
	if err := b.Tx(0x70, []byte{1 << 2}, nil); err != nil {
		t.Fatal(err)
	}
	if err := write(0x55); err != nil {
		t.Fatal(err)
	}
	if h1.RAM()[0] != 0xAA || h2.RAM()[0] != 0x55 {
		t.Fatalf("RAM h1 %#x h2 %#x", h1.RAM()[0], h2.RAM()[0])
	}
	var r [1]byte
	if err := b.Tx(0x70, nil, r[:]); err != nil || r[0] != 1<<2 {
		t.Fatalf("read control %#x %v", r[0], err)
	}
	if err := b.Tx(0x70, []byte{1<<1 | 1<<2}, nil); err != nil {
		t.Fatal(err)
	}
	if err := write(0); err == nil || err.Error() != "sim: i2c-sim: address 0x71: 2 devices answer (bus clash)" {
		t.Fatalf("clash: %v", err)
	}
	m.PowerCycle()
	if m.Channels() != 0 {
		t.Fatalf("channels after power cycle %#x", m.Channels())
	}
}
