package leds_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

const (
	// rookPos: a white rook on b1W that can take a pawn on b3N.
	rookPos = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,kd9KL6,Rb1W,pb3N w - - - 0 1"
	// boardPos: as rookPos, with a white pawn on the QL1 board, which
	// can move to QL2 or QL3 carrying it.
	boardPos = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,kd9KL6,Rb1W,pb3N,Pz0QL1 w - - - 0 1"
	// checkPos: the black king on d9KL6 is in check from the rook on d8B.
	checkPos = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,kd9KL6,Rd8B b - - - 0 1"
)

// TestLiftLightsLegalTargets: in scripted positions, lifting a piece lights
// exactly its legal targets (captures blinking), lifting a board exactly
// its legal pins, all through the HT16K33 driver and the sim's emulation of
// its display RAM.
func TestLiftLightsLegalTargets(t *testing.T) {
	const fastOff = 130 * time.Millisecond // captures are dark, targets lit
	cases := []struct {
		name   string
		pos    string // "" is the start position
		lifted []string
		at     time.Duration
		want   []string
	}{
		{"start: pawn b2W", "", []string{"b2W"}, 0, []string{"b3W", "b3N", "b4W", "b4N"}},
		{"start: knight a1W", "", []string{"a1W"}, 0, []string{"b3W", "b3N"}},
		{"start: knight d1W on every level", "", []string{"d1W"}, fastOff, []string{"c3W", "c3N"}},
		{"start: nothing lifted", "", nil, 0, nil},
		{"start: a black piece, white to move", "", []string{"a7B"}, 0, nil},
		{"rook: targets and the capture", rookPos, []string{"b1W"}, 0,
			[]string{"b2W", "b3W", "b3N", "c1W", "d1W", "d1KL1", "e1KL1", "a1W", "a1QL1", "z1QL1"}},
		{"rook: the capture blinks", rookPos, []string{"b1W"}, fastOff,
			[]string{"b2W", "b3W", "c1W", "d1W", "d1KL1", "e1KL1", "a1W", "a1QL1", "z1QL1"}},
		{"board with a pawn: pins only", boardPos, []string{"QL1", "z0QL1"}, 0, []string{"QL2", "QL3"}},
		{"board on KL1 carrying the king", boardPos, []string{"KL1", "d0KL1"}, 0, []string{"KL2", "KL3"}},
		{"the pawn alone", boardPos, []string{"z0QL1"}, 0, []string{"z1QL1"}},
		{"king in check, lifted", checkPos, []string{"d9KL6"}, 0, []string{"d8B", "d8KL6", "e9KL6"}},
		{"king in check, capture dark", checkPos, []string{"d9KL6"}, fastOff, []string{"d8KL6", "e9KL6"}},
		{"king in check, nothing lifted", checkPos, nil, 0, []string{"d9KL6"}},
	}
	d, chip, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	l := refLayout(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := st3d.Start()
			if tc.pos != "" {
				p = position(t, tc.pos)
			}
			v := leds.ViewFor(p, cells(t, tc.lifted...))
			v.LastMove = cells(t, "a2W", "a4N") // hidden by the lift
			if len(tc.lifted) == 0 {
				v.LastMove = rules.CellSet{}
			}
			var f leds.Frame
			leds.Compose(&f, &v, l, &leds.MonoStyle, tc.at)
			if err := d.Write(&f); err != nil {
				t.Fatal(err)
			}
			if got, want := litCells(l, chip.LED), sorted(tc.want...); !sameNames(got, want) {
				t.Errorf("lit %v, want %v", got, want)
			}
		})
	}
}

// TestMismatchShowsDifferingCells: a pawn knocked from b2W to b3W shows
// exactly those two cells, with hints on or off, and in the Alarm pattern
// (dark at 70 ms, when no hint is dark).
func TestMismatchShowsDifferingCells(t *testing.T) {
	d, chip, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	l := refLayout(t)
	p := st3d.Start()
	sensed := p.Occupancy()
	sensed.Remove(cell(t, "b2W"))
	sensed.Add(cell(t, "b3W"))
	for _, tc := range []struct {
		name    string
		noHints bool
		lifted  []string
		at      time.Duration
		want    []string
	}{
		{"hints on", false, nil, 0, []string{"b2W", "b3W"}},
		{"hints on, a piece lifted meanwhile", false, []string{"a1W"}, 0, []string{"b2W", "b3W"}},
		{"hints off", true, []string{"a1W"}, 0, []string{"b2W", "b3W"}},
		{"hints off, flicker dark", true, nil, 70 * time.Millisecond, nil},
		{"hints off, long on", true, nil, 1100 * time.Millisecond, []string{"b2W", "b3W"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := leds.ViewFor(p, cells(t, tc.lifted...))
			v.Fix = p.Occupancy().Xor(sensed)
			v.NoTargets = tc.noHints
			var f leds.Frame
			leds.Compose(&f, &v, l, &leds.MonoStyle, tc.at)
			if err := d.Write(&f); err != nil {
				t.Fatal(err)
			}
			if got, want := litCells(l, chip.LED), sorted(tc.want...); !sameNames(got, want) {
				t.Errorf("lit %v, want %v", got, want)
			}
		})
	}
}

// fakePos is a rules.Position that only answers what ViewFor asks.
type fakePos struct {
	rules.Position
	check  bool
	king   rules.Cell
	status rules.Status
}

func (f fakePos) InCheck() (bool, rules.Cell)              { return f.check, f.king }
func (f fakePos) Status() rules.Status                     { return f.status }
func (f fakePos) LegalMoves(buf []rules.Move) []rules.Move { return buf }

func TestViewForGameOver(t *testing.T) {
	k := rules.Cell(94)
	for _, tc := range []struct {
		p           fakePos
		check, over rules.CellSet
		draw        bool
	}{
		{fakePos{check: true, king: k, status: rules.Ongoing}, rules.CellSetOf(k), rules.CellSet{}, false},
		{fakePos{check: true, king: k, status: rules.Checkmate}, rules.CellSet{}, rules.CellSetOf(k), false},
		{fakePos{check: false, king: k, status: rules.Stalemate}, rules.CellSet{}, rules.CellSetOf(k), true},
		{fakePos{check: false, king: k, status: rules.DeadPosition}, rules.CellSet{}, rules.CellSetOf(k), true},
		{fakePos{check: false, king: rules.NoCell, status: rules.DeadPosition}, rules.CellSet{}, rules.CellSet{}, true},
	} {
		v := leds.ViewFor(tc.p, rules.CellSetOf(3))
		if v.Check != tc.check || v.GameOver != tc.over || v.Draw != tc.draw || !v.Targets.Empty() {
			t.Errorf("%v: check %v, over %v, draw %t", tc.p.status, v.Check.Names(names), v.GameOver.Names(names), v.Draw)
		}
	}
}

// TestNoAllocs: deriving the hints (with a kept buffer), composing and
// writing a frame through the sim allocate nothing.
func TestNoAllocs(t *testing.T) {
	d, _, _ := newSimHT16K33(t, leds.HT16K33Opts{Addr: 0x71, Dimming: 15})
	l := refLayout(t)
	p := position(t, rookPos)
	lifted := cells(t, "b1W")
	var v leds.View
	var f leds.Frame
	buf := v.SetPosition(p, lifted, nil)
	var i int
	if n := testing.AllocsPerRun(100, func() {
		buf = v.SetPosition(p, lifted, buf)
		i++
		leds.Compose(&f, &v, l, &leds.MonoStyle, time.Duration(i)*leds.Slot)
		if err := d.Write(&f); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per frame", n)
	}
}
