package segment

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sim"
)

// Segments of the digits and a blank, for readable expectations.
const (
	d0 = 0x3F
	d1 = 0x06
	d2 = 0x5B
	d3 = 0x4F
	d4 = 0x66
	d5 = 0x6D
	d7 = 0x07
	d9 = 0x6F
	__ = 0x00
)

// ram is the display RAM of the four digits and the colon.
func ram(a, b, c, d byte, col bool) [16]byte {
	var r [16]byte
	r[0], r[2], r[6], r[8] = a, b, c, d
	if col {
		r[4] = colon
	}
	return r
}

func TestRender(t *testing.T) {
	const s, ms = time.Second, time.Millisecond
	for _, tc := range []struct {
		d    time.Duration
		want [16]byte
	}{
		{0, ram(__, __, d0|dp, d0, false)},
		{-s, ram(__, __, d0|dp, d0, false)},
		{5*s + 399*ms, ram(__, __, d5|dp, d3, false)},
		{19*s + 799*ms, ram(__, d1, d9|dp, d7, false)},
		{20 * s, ram(__, d0, d2, d0, true)},
		{4*time.Minute + 59*s + 999*ms, ram(__, d4, d5, d9, true)},
		{10 * time.Minute, ram(d1, d0, d0, d0, true)},
		{59*time.Minute + 59*s, ram(d5, d9, d5, d9, true)},
		{time.Hour + 5*time.Minute + 30*s, ram(__, d1, d0, d5|dp, true)},
		{12*time.Hour + 34*time.Minute, ram(d1, d2, d3, d4|dp, true)},
		{150 * time.Hour, ram(d9, d9, d5, d9|dp, true)},
	} {
		var got [16]byte
		r := Render(tc.d)
		copy(got[:], r[:])
		if got != tc.want {
			t.Errorf("Render(%v) = % x, want % x", tc.d, got[:10], tc.want)
		}
	}
}

// rig is a bus with the two backpacks of DefaultOpts.
func rig(t testing.TB) (*sim.Bus, *sim.HT16K33, *sim.HT16K33, *Display) {
	t.Helper()
	bus := sim.NewBus("")
	w, b := sim.NewHT16K33(0x74), sim.NewHT16K33(0x75)
	bus.Attach(0x74, w)
	bus.Attach(0x75, b)
	o := DefaultOpts()
	d, err := New(bus, &o)
	if err != nil {
		t.Fatal(err)
	}
	return bus, w, b, d
}

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// A blitz game on the two displays, at register level: set-up, the
// running side counting down from the snapshot, tenths in low time, only
// changed RAM written, the flag blinking at 0.0.
func TestShowGame(t *testing.T) {
	_, w, b, d := rig(t)
	for _, chip := range []*sim.HT16K33{w, b} {
		if !chip.Lit() || chip.Brightness() != 15 || chip.Blink() != 0 || chip.RAM() != ram(0, 0, 0, 0, false) {
			t.Fatalf("after New: lit %v dim %d blink %d ram % x", chip.Lit(), chip.Brightness(), chip.Blink(), chip.RAM())
		}
	}
	c, _ := clock.New(clock.MustParse("180+2"), nil)
	c.Start(t0, rules.White)
	sn := c.Snapshot(t0)
	for _, tc := range []struct {
		at           time.Duration
		white, black [16]byte
		writes       uint64 // white's RAM writes so far
	}{
		{0, ram(__, d3, d0, d0, true), ram(__, d3, d0, d0, true), 2},
		{500 * time.Millisecond, ram(__, d2, d5, d9, true), ram(__, d3, d0, d0, true), 3},
		{900 * time.Millisecond, ram(__, d2, d5, d9, true), ram(__, d3, d0, d0, true), 3}, // unchanged: no write
		{160*time.Second + 300*time.Millisecond, ram(__, d1, d9|dp, d7, false), ram(__, d3, d0, d0, true), 4},
	} {
		if err := d.Show(sn, t0.Add(tc.at)); err != nil {
			t.Fatal(err)
		}
		if w.RAM() != tc.white || b.RAM() != tc.black || w.RAMWrites() != tc.writes {
			t.Errorf("+%v: white % x (%d writes), black % x; want % x (%d), % x",
				tc.at, w.RAM(), w.RAMWrites(), b.RAM(), tc.white, tc.writes, tc.black)
		}
	}
	flag := c.Snapshot(t0.Add(181 * time.Second))
	if err := d.Show(flag, t0.Add(181*time.Second)); err != nil {
		t.Fatal(err)
	}
	if w.RAM() != ram(__, __, d0|dp, d0, false) || w.Blink() != 2 || !w.Lit() || b.Blink() != 0 {
		t.Errorf("flag: white % x blink %d, black blink %d", w.RAM(), w.Blink(), b.Blink())
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if w.Lit() || w.Oscillator() || w.RAM() != ram(0, 0, 0, 0, false) {
		t.Errorf("after Halt: lit %v ram % x", w.Lit(), w.RAM())
	}
	d.Show(flag, t0.Add(182*time.Second))
	if !w.Lit() || w.Blink() != 2 || w.RAM() != ram(__, __, d0|dp, d0, false) {
		t.Errorf("after Halt and Show: lit %v blink %d ram % x", w.Lit(), w.Blink(), w.RAM())
	}
}

// A backpack that fails is reported by name, the other still shows, and
// the failed one is set up and written again once it answers.
func TestShowFailingBackpack(t *testing.T) {
	_, w, b, d := rig(t)
	sn := clock.Snapshot{Control: "300", WhiteMS: 300000, BlackMS: 245000, At: clock.Stamp{Time: t0}}
	w.FailNext(1)
	err := d.Show(sn, t0)
	if !errors.Is(err, sim.ErrNACK) || !strings.HasPrefix(err.Error(), "segment: ht16k33 0x74 (white): writing the display RAM") {
		t.Errorf("Show with white failing: %v", err)
	}
	if b.RAM() != ram(__, d4, d0, d5, true) {
		t.Errorf("black did not show: % x", b.RAM())
	}
	w.Reset() // and it lost its setup
	if err := d.Show(sn, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if !w.Lit() || w.RAM() != ram(__, d5, d0, d0, true) {
		t.Errorf("white after recovery: lit %v ram % x", w.Lit(), w.RAM())
	}
}

// A backpack reset by a brown-out without a failed transaction lights
// again at the next resetup.
func TestResetup(t *testing.T) {
	_, w, _, d := rig(t)
	sn := clock.Snapshot{Control: "300", WhiteMS: 300000, BlackMS: 300000, At: clock.Stamp{Time: t0}}
	d.Show(sn, t0)
	w.Reset()
	d.Show(sn, t0.Add(9*time.Second))
	if w.Lit() {
		t.Fatal("resetup before its period")
	}
	d.Show(sn, t0.Add(10*time.Second))
	if !w.Lit() || w.RAM() != ram(__, d5, d0, d0, true) {
		t.Errorf("after resetup: lit %v ram % x", w.Lit(), w.RAM())
	}
}

func TestNewRefusesBadOpts(t *testing.T) {
	bus := sim.NewBus("")
	for _, o := range []Opts{
		{White: 0x74, Black: 0x74}, {White: 0x20, Black: 0x75}, {White: 0x74, Black: 0x75, Dimming: 16},
		{White: 0x74, Black: 0x75, Resetup: -1},
	} {
		if _, err := New(bus, &o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
	o := DefaultOpts()
	if _, err := New(bus, &o); !errors.Is(err, sim.ErrNACK) {
		t.Errorf("New without backpacks: %v", err)
	}
}

// A refresh allocates nothing: it runs ten times a second for hours.
func TestShowAllocatesNothing(t *testing.T) {
	_, _, _, d := rig(t)
	sn := clock.Snapshot{Control: "180+2", WhiteMS: 15000, BlackMS: 180000, Running: "white", At: clock.Stamp{Time: t0}}
	at := t0
	if n := testing.AllocsPerRun(100, func() {
		at = at.Add(100 * time.Millisecond)
		d.Show(sn, at)
	}); n != 0 {
		t.Errorf("Show allocates %v times", n)
	}
}

// TestOptsValidate: the defaults are valid; the clock.displays settings
// are checked under their yaml keys, all at once, and New refuses the
// same.
func TestOptsValidate(t *testing.T) {
	o := DefaultOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, tc := range []struct {
		name string
		f    func(*Opts)
		want string
	}{
		{"address", func(o *Opts) { o.White = 0x20 }, "segment: addresses 0x20 and 0x75: want 0x70 to 0x77"},
		{"same", func(o *Opts) { o.Black = 0x74 }, "segment: white and black both at 0x74"},
		{"dimming and address", func(o *Opts) { o.Dimming, o.Black = 16, 0x78 },
			"segment: addresses 0x74 and 0x78: want 0x70 to 0x77; dimming: 16: want 0 to 15"},
		{"resetup", func(o *Opts) { o.Resetup = -time.Second }, "segment: resetup: -1s: want 0 (never) or more"},
	} {
		o := DefaultOpts()
		tc.f(&o)
		if err := o.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
		if _, err := New(sim.NewBus(""), &o); err == nil || err.Error() != tc.want {
			t.Errorf("%s: New: %v", tc.name, err)
		}
	}
}
