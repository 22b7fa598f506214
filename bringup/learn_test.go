package bringup

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// learnOn learns the wiring of b, a simulated set whose builder follows
// the LEDs (lit through the real HT16K33 driver on the simulated bus).
func learnOn(t *testing.T, b *sim.Board, cells []string, edit ...func(*LearnOpts)) (*sensors.Wiring, []Finding, []string) {
	t.Helper()
	o, lamp, shows := learnOpts(t, b, cells)
	for _, e := range edit {
		e(&o)
	}
	w, fs, err := Learn(o)
	if err != nil {
		t.Fatal(err)
	}
	if lamp.Errors > 0 {
		t.Errorf("%d LED writes failed", lamp.Errors)
	}
	return w, fs, *shows
}

// learnOpts are the options learnOn learns with, its lamp, and the cells
// shown ("learn b2W") as they are.
func learnOpts(t *testing.T, b *sim.Board, cells []string) (LearnOpts, *Lamp, *[]string) {
	t.Helper()
	b.Set.SetUp(rules.CellSet{})
	m, err := leds.Preset(leds.PresetHT16K33, cells)
	if err != nil {
		t.Fatal(err)
	}
	layout, err := m.Layout(cells)
	if err != nil {
		t.Fatal(err)
	}
	d, err := leds.NewDriver(m, b.Bus, nil)
	if err != nil {
		t.Fatal(err)
	}
	index := make([]int, len(cells))
	for i := range cells {
		index[i] = layout.LED(rules.Cell(i))
	}
	stays := Sockets(b.Set.System())
	u := sim.NewBuilder(b, index, stays)
	lamp := NewLamp(d, layout, cells)
	o := DefaultLearnOpts()
	o.Bus, o.Expanders, o.Cells = b.Bus, b.Wiring.Expanders, LearnOrder(b.Set.System())
	o.Stays = func(c string) bool { return stays[c] }
	shows := []string{}
	o.Show = func(cell, pass string) {
		lamp.Light(cell)
		if cell != "" {
			shows = append(shows, pass+" "+cell)
		}
	}
	o.Now, o.Wait = b.Clock.Now, u.Wait
	return o, lamp, &shows
}

// byCell is a wiring as cell -> "expander slot", to compare two wirings
// whatever their order.
func byCell(w *sensors.Wiring) map[string]string {
	out := map[string]string{}
	for _, e := range w.Expanders {
		for _, c := range e.Cells {
			out[c.Cell] = fmt.Sprintf("%s %d", e.Name(), e.Slot(c))
		}
	}
	return out
}

// On a set wired at random, learning finds the true wiring, every cell
// checked, the pins before the squares they carry.
func TestLearnFindsTheTrueWiring(t *testing.T) {
	for _, tc := range []struct {
		name  string
		w     *sensors.Wiring
		cells []string
	}{
		{"st3d reference, scrambled", sim.Scramble(sets.ReferenceWiring(), 1), st3d.System.Cells()},
		{"st3d matrix, scrambled", sim.Scramble(sets.MatrixWiring(), 2), st3d.System.Cells()},
		{"millennium matrix, scrambled", sim.Scramble(sets.MillenniumMatrixWiring(), 3), millennium.System.Cells()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sys rules.System = st3d.System
			if tc.cells[0] != st3d.System.Cells()[0] {
				sys = millennium.System
			}
			b, err := sim.ForSystem(sys, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			got, fs, shows := learnOn(t, b, tc.cells)
			if len(fs) != 1 || fs[0].Problem {
				t.Fatalf("findings %v", fs)
			}
			if want := byCell(tc.w); !reflect.DeepEqual(byCell(got), want) {
				t.Errorf("learned a wiring that differs from the set's")
			}
			if err := got.Validate(tc.cells); err != nil {
				t.Errorf("the learned wiring: %v", err)
			}
			if want := 2 * len(tc.cells); len(shows) != want {
				t.Errorf("%d cells shown, want %d (learn and check)", len(shows), want)
			}
			if sys == st3d.System && !strings.HasPrefix(strings.Join(shows, ","), "learn a1W") {
				t.Errorf("first shown %v", shows[:2])
			}
		})
	}
}

func TestLearnOrderPutsPinsFirst(t *testing.T) {
	order := LearnOrder(st3d.System)
	at := map[string]int{}
	for i, c := range order {
		at[c] = i
	}
	if len(order) != len(st3d.System.Cells()) {
		t.Fatalf("%d cells ordered, want %d", len(order), len(st3d.System.Cells()))
	}
	for _, sq := range []string{"z0QL1", "a1QL1", "e9KL6", "z4QL5"} {
		if at[sq[2:]] > at[sq] {
			t.Errorf("%s learned before its pin %s", sq, sq[2:])
		}
	}
	s := Sockets(st3d.System)
	var names []string
	for k := range s {
		names = append(names, k)
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "KL1 KL2 KL3 KL4 KL5 KL6 QL1 QL2 QL3 QL4 QL5 QL6" {
		t.Errorf("sockets %v", names)
	}
}

// Two cells soldered to one input, and a cell whose switch is not wired:
// each is a finding, and neither is put in the wiring.
func TestLearnFindsSharedAndDeadInputs(t *testing.T) {
	w := sets.ReferenceWiring()
	b, err := sim.ForSystem(st3d.System, w)
	if err != nil {
		t.Fatal(err)
	}
	// The hardware: b2W is wired to a1W's input (bit 0 of 0x20), and c2W's
	// switch to nothing.
	hw := w.Clone()
	e := &hw.Expanders[0]
	for i := range e.Cells {
		switch e.Cells[i].Cell {
		case "b2W":
			e.Cells[i].Bit = 0
		case "c2W":
			e.Cells[i].Cell = "none"
		}
	}
	b.Expanders[0].SetPins(b.Set.Pins(e))
	// Found hears each finding as it is made: both before the check pass
	// lights its first cell.
	var heard []string
	var shown *[]string
	got, fs, _ := learnOn(t, b, st3d.System.Cells(), func(o *LearnOpts) {
		show := o.Show
		var n []string
		shown = &n
		o.Show = func(cell, pass string) { n = append(n, pass); show(cell, pass) }
		o.Found = func(f Finding) { heard = append(heard, fmt.Sprintf("%s (%d shown)", f.Text, len(n))) }
	})
	firstCheck := slices.Index(*shown, "check")
	if len(heard) != 2 {
		t.Fatalf("Found heard %d findings: %q", len(heard), heard)
	}
	for _, h := range heard {
		var n int
		fmt.Sscanf(h[strings.LastIndex(h, "(")+1:], "%d", &n)
		if n > firstCheck {
			t.Errorf("heard %q after the check began (at show %d)", h, firstCheck)
		}
	}
	var ps []string
	for _, f := range fs {
		if f.Problem {
			ps = append(ps, f.Text)
		}
	}
	if len(ps) != 2 || !strings.Contains(ps[0], "b2W closes expander 0x20 GPA0 (bit 0), as a1W did: two cells share a switch input") ||
		!strings.Contains(ps[1], "c2W: no switch closed within 1m0s") {
		t.Fatalf("findings:\n%s", strings.Join(ps, "\n"))
	}
	m := byCell(got)
	if _, ok := m["b2W"]; ok {
		t.Error("b2W was wired")
	}
	if m["a1W"] != "0x20 0" {
		t.Errorf("a1W learned at %q", m["a1W"])
	}
}

// A set still not empty after Timeout is refused before anything is
// learned, nothing lit.
func TestLearnNeedsAnEmptySet(t *testing.T) {
	b := sets.NewReference()
	o := DefaultLearnOpts()
	o.Bus, o.Expanders, o.Cells = b.Bus, b.Wiring.Expanders, st3d.System.Cells()
	lit := 0
	o.Show, o.Now = func(c, _ string) {
		if c != "" {
			lit++
		}
	}, b.Clock.Now
	o.Wait = func(d time.Duration) { b.Clock.Advance(d) }
	start := b.Clock.Now()
	if _, _, err := Learn(o); err == nil || !strings.Contains(err.Error(), "the set is not empty") || lit != 0 {
		t.Fatalf("learning on the start position: %v, %d cells lit", err, lit)
	}
	if waited := b.Clock.Now().Sub(start); waited < o.Timeout {
		t.Errorf("refused after %s, before the timeout of %s", waited, o.Timeout)
	}
}

// A builder who starts learning with the pieces on (from the setup page)
// takes them off within Timeout: learning then goes on as on an empty set.
func TestLearnWaitsForTheSetToBeEmptied(t *testing.T) {
	b, err := sim.ForSystem(st3d.System, sets.ReferenceWiring())
	if err != nil {
		t.Fatal(err)
	}
	o, _, _ := learnOpts(t, b, st3d.System.Cells())
	b.Set.Start() // the pieces on, as after a game
	wait := o.Wait
	start := b.Clock.Now()
	emptied := false
	o.Wait = func(d time.Duration) {
		if !emptied && b.Clock.Now().Sub(start) > 20*time.Second {
			b.Set.SetUp(rules.CellSet{}) // 20 s on, all taken off
			emptied = true
		}
		wait(d)
	}
	w, fs, err := Learn(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Problem || !reflect.DeepEqual(byCell(w), byCell(b.Wiring)) {
		t.Errorf("findings %v; learned the reference wiring: %v", fs, reflect.DeepEqual(byCell(w), byCell(b.Wiring)))
	}
}

// Cancelled (the setup page's cancel), learning stops at its next reading
// with the context's error, and the LEDs go out.
func TestLearnStopsWhenCancelled(t *testing.T) {
	b, err := sim.ForSystem(st3d.System, sets.ReferenceWiring())
	if err != nil {
		t.Fatal(err)
	}
	o, _, shows := learnOpts(t, b, st3d.System.Cells())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	show := o.Show
	o.Show = func(cell, pass string) {
		show(cell, pass)
		if len(*shows) == 3 {
			cancel() // while the third cell is lit
		}
	}
	o.Ctx = ctx
	w, _, err := Learn(o)
	if !errors.Is(err, context.Canceled) || w != nil {
		t.Fatalf("Learn cancelled = %v, %v; want context.Canceled and no wiring", w, err)
	}
	if len(*shows) != 3 {
		t.Errorf("%d cells shown after the cancel at the third: %q", len(*shows), *shows)
	}
	for i := 0; i < 128; i++ {
		if b.LEDs.LED(i) {
			t.Fatalf("LED %d still lit after the cancel", i)
		}
	}
}
