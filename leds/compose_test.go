package leds_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
)

func TestComposeMono(t *testing.T) {
	l := refLayout(t)
	ms := time.Millisecond
	type view struct {
		targets, captures, pins, check, last, from, to, over, fix []string
		draw, noHints                                             bool
	}
	cases := []struct {
		name string
		v    view
		at   time.Duration
		want []string
	}{
		{"nothing", view{}, 0, nil},
		{"targets steady at start", view{targets: []string{"b3W", "b3N", "b4W", "b4N"}}, 0, []string{"b3N", "b3W", "b4N", "b4W"}},
		{"targets steady late in the cycle", view{targets: []string{"b3W", "b4N"}}, 1990 * ms, []string{"b3W", "b4N"}},
		{"captures lit at start", view{targets: []string{"b2W", "b3N"}, captures: []string{"b3N"}}, 0, []string{"b2W", "b3N"}},
		{"captures dark after 125 ms", view{targets: []string{"b2W", "b3N"}, captures: []string{"b3N"}}, 130 * ms, []string{"b2W"}},
		{"captures lit again at 250 ms", view{targets: []string{"b2W", "b3N"}, captures: []string{"b3N"}}, 260 * ms, []string{"b2W", "b3N"}},
		{"pins steady", view{pins: []string{"QL2", "QL3"}}, 700 * ms, []string{"QL2", "QL3"}},
		{"last move shown alone", view{last: []string{"a2W", "a4N"}}, 900 * ms, []string{"a2W", "a4N"}},
		{"last move hidden while a piece is lifted", view{last: []string{"a2W", "a4N"}, targets: []string{"c3W"}}, 0, []string{"c3W"}},
		{"last move hidden while a board is lifted", view{last: []string{"a2W", "a4N"}, pins: []string{"QL3"}}, 0, []string{"QL3"}},
		{"check lit at start", view{check: []string{"d9KL6"}}, 0, []string{"d9KL6"}},
		{"check dark after 500 ms", view{check: []string{"d9KL6"}}, 510 * ms, nil},
		{"remote from lit first", view{from: []string{"a7B"}, to: []string{"a5B"}}, 0, []string{"a7B"}},
		{"remote to lit next", view{from: []string{"a7B"}, to: []string{"a5B"}}, 260 * ms, []string{"a5B"}},
		{"game over beats", view{over: []string{"d9KL6"}}, 0, []string{"d9KL6"}},
		{"game over pause", view{over: []string{"d9KL6"}}, 130 * ms, nil},
		{"game over second beat", view{over: []string{"d9KL6"}}, 260 * ms, []string{"d9KL6"}},
		{"game over rest", view{over: []string{"d9KL6"}, draw: true}, 1000 * ms, nil},
		{"fix flicker on", view{fix: []string{"b2W", "b3W"}}, 0, []string{"b2W", "b3W"}},
		{"fix flicker off", view{fix: []string{"b2W", "b3W"}}, 70 * ms, nil},
		{"fix long on", view{fix: []string{"b2W", "b3W"}}, 1200 * ms, []string{"b2W", "b3W"}},
		{"fix long off", view{fix: []string{"b2W", "b3W"}}, 1700 * ms, nil},
		{"fix hides hints (mono)", view{fix: []string{"b2W"}, targets: []string{"c3W", "c4N"}, pins: []string{"QL2"}, check: []string{"d0KL1"}}, 0, []string{"b2W"}},
		{"the last move stays beside the cells to fix", view{fix: []string{"b2W"}, last: []string{"a2W", "a4N"}}, 0, []string{"a2W", "a4N", "b2W"}},
		{"fix wins a shared cell", view{fix: []string{"b3W"}, targets: []string{"b3W"}}, 70 * ms, nil},
		{"no hints: targets, captures, pins, check hidden", view{targets: []string{"c3W"}, captures: []string{"c3W"}, pins: []string{"QL2"}, check: []string{"d0KL1"}, noHints: true}, 0, nil},
		{"no hints: the last move shows", view{targets: []string{"c3W"}, last: []string{"a2W", "a4N"}, noHints: true}, 0, []string{"a2W", "a4N"}},
		{"no hints: fix stays", view{fix: []string{"b2W", "b3W"}, targets: []string{"c3W"}, noHints: true}, 0, []string{"b2W", "b3W"}},
		{"no hints: remote and game over stay", view{from: []string{"a7B"}, over: []string{"d9KL6"}, noHints: true}, 0, []string{"a7B", "d9KL6"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := leds.View{
				Targets: cells(t, tc.v.targets...), Captures: cells(t, tc.v.captures...), Pins: cells(t, tc.v.pins...),
				Check: cells(t, tc.v.check...), LastMove: cells(t, tc.v.last...),
				RemoteFrom: cells(t, tc.v.from...), RemoteTo: cells(t, tc.v.to...),
				GameOver: cells(t, tc.v.over...), Draw: tc.v.draw, Fix: cells(t, tc.v.fix...), NoTargets: tc.v.noHints,
			}
			var f leds.Frame
			leds.Compose(&f, &v, l, &leds.MonoStyle, tc.at)
			if f.N != 128 {
				t.Fatalf("N = %d, want 128", f.N)
			}
			got := litCells(l, f.Lit)
			if want := sorted(tc.want...); !sameNames(got, want) {
				t.Errorf("lit %v, want %v", got, want)
			}
			mapped := map[int]bool{}
			for c := range names {
				mapped[l.LED(rules.Cell(c))] = true
			}
			for i := range leds.MaxLEDs {
				if f.Lit(i) && !mapped[i] {
					t.Errorf("LED %d of no cell lit", i)
				}
			}
		})
	}
}

func TestComposeRGB(t *testing.T) {
	m := &leds.Mapping{Driver: leds.DriverMemory, LEDs: 120, Cells: map[string]int{}}
	for i, n := range names {
		m.Cells[n] = 119 - i // reversed: the frame is in LED order
	}
	l, err := m.Layout(names)
	if err != nil {
		t.Fatal(err)
	}
	v := leds.View{
		Targets:    cells(t, "b3W", "b3N"),
		Captures:   cells(t, "b3N"),
		Pins:       cells(t, "QL2"),
		Check:      cells(t, "d0KL1"),
		RemoteFrom: cells(t, "a7B"),
		RemoteTo:   cells(t, "a5B"),
		GameOver:   cells(t, "d9KL6"),
		Fix:        cells(t, "c2W"),
	}
	s := leds.RGBStyle
	s.FixHidesTargets = false
	var f leds.Frame
	leds.Compose(&f, &v, l, &s, 0)
	want := map[string]leds.Color{
		"b3W":   leds.RGBStyle.Looks[leds.Target].Color,
		"b3N":   leds.RGBStyle.Looks[leds.Capture].Color,
		"QL2":   leds.RGBStyle.Looks[leds.Pin].Color,
		"d0KL1": leds.RGBStyle.Looks[leds.Check].Color,
		"a7B":   leds.RGBStyle.Looks[leds.RemoteFrom].Color,
		"d9KL6": leds.RGBStyle.Looks[leds.GameOver].Color,
		"c2W":   leds.RGBStyle.Looks[leds.Fix].Color,
	}
	for c, n := range names {
		i := l.LED(rules.Cell(c))
		if i != 119-c {
			t.Fatalf("cell %s on LED %d, want %d", n, i, 119-c)
		}
		if got := f.LED[i]; got != want[n] {
			t.Errorf("cell %s (LED %d): colour %v, want %v", n, i, got, want[n])
		}
	}
	for i := 0; i < 12; i++ {
		if f.LED[i] != (leds.Color{}) {
			t.Errorf("LED %d of no cell: %v", i, f.LED[i])
		}
	}
	// Draw shows in its own colour; with FixHidesTargets the hints go.
	v.Draw = true
	leds.Compose(&f, &v, l, &leds.RGBStyle, 0)
	if got, want := f.LED[l.LED(cell(t, "d9KL6"))], leds.RGBStyle.Looks[leds.Draw].Color; got != want {
		t.Errorf("draw: %v, want %v", got, want)
	}
	if f.LED[l.LED(cell(t, "b3W"))] != (leds.Color{}) {
		t.Error("a target is lit while a cell is to be fixed")
	}
}

// TestPatternsDistinct checks that in the mono style the cells to fix blink
// in a pattern no other signal uses, that every pattern lights at the start
// (a change shows at once; RemoteTo answers RemoteFrom), and that hints are told apart from each other
// and from the remote move and the end of the game.
func TestPatternsDistinct(t *testing.T) {
	st := &leds.MonoStyle
	same := map[[2]leds.Signal]bool{ // signals allowed to look alike
		{leds.LastMove, leds.Target}: true, {leds.LastMove, leds.Pin}: true, {leds.Target, leds.Pin}: true,
		{leds.GameOver, leds.Draw}: true,
	}
	for a := leds.Signal(1); a < leds.NumSignals; a++ {
		// RemoteTo answers RemoteFrom, which lights at once.
		if !st.Looks[a].Pattern.On(0) && a != leds.RemoteTo {
			t.Errorf("%v: dark at the start of its pattern", a)
		}
		for b := a + 1; b < leds.NumSignals; b++ {
			if st.Looks[a] == st.Looks[b] && !same[[2]leds.Signal{a, b}] {
				t.Errorf("%v and %v look the same", a, b)
			}
		}
	}
	for s := range leds.NumSignals {
		if s != leds.None && s != leds.Fix && st.Looks[s].Pattern == st.Looks[leds.Fix].Pattern {
			t.Errorf("%v blinks like fix", s)
		}
	}
	if leds.Signal(200).String() != "Signal(200)" || leds.Fix.String() != "fix" {
		t.Error("Signal.String")
	}
}

func TestPatternOn(t *testing.T) {
	for _, tc := range []struct {
		p    leds.Pattern
		at   time.Duration
		want bool
	}{
		{leds.Steady, 0, true},
		{leds.Steady, 5 * time.Hour, true},
		{leds.Fast, -time.Second, true},
		{leds.Fast, leds.Slot, true},
		{leds.Fast, 2 * leds.Slot, false},
		{leds.Slow, 8 * leds.Slot, false},
		{leds.Slow, 16 * leds.Slot, true},
		{leds.Slow, leds.Cycle + 8*leds.Slot, false},
		{0, 0, false},
	} {
		if got := tc.p.On(tc.at); got != tc.want {
			t.Errorf("%#x.On(%v) = %t, want %t", uint32(tc.p), tc.at, got, tc.want)
		}
	}
}
