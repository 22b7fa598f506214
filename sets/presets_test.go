package sets_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// TestPresetsValidate: every preset wires exactly the cells of the systems
// DefaultPreset gives it to, with and without buttons.
func TestPresetsValidate(t *testing.T) {
	for _, tc := range []struct {
		preset  string
		variant string
		cells   []string
		exps    int
	}{
		{sets.PresetReference, "st3d", st3d.CellNames(), 7},
		{sets.PresetMatrix, "st3d", st3d.CellNames(), 2},
		{sets.PresetMillenniumMatrix, "millennium", millennium.CellNames(), 3},
		{sets.PresetMillenniumDirect, "millennium", millennium.CellNames(), 12},
		{sets.PresetFirstContact, "first-contact", firstcontact.CellNames(), 11},
		{sets.PresetFirstContactUp, "first-contact-up", firstcontact.UpCellNames(), 7},
		{sets.PresetFirstContactMatrix, "first-contact", firstcontact.CellNames(), 3},
	} {
		w, err := sets.Preset(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Validate(tc.cells); err != nil {
			t.Errorf("%s: %v", tc.preset, err)
		}
		if len(w.Expanders) != tc.exps {
			t.Errorf("%s: %d expanders, want %d", tc.preset, len(w.Expanders), tc.exps)
		}
		wb, err := sets.Preset(tc.preset, "queen", "new")
		if err != nil {
			t.Fatal(err)
		}
		if err := wb.Validate(tc.cells); err != nil {
			t.Errorf("%s with buttons: %v", tc.preset, err)
		}
		if got := strings.Join(wb.Buttons(), " "); got != "button:queen button:new" {
			t.Errorf("%s: buttons %q", tc.preset, got)
		}
		if got := sets.DefaultPreset(tc.variant); tc.preset != sets.PresetMatrix && tc.preset != sets.PresetMillenniumDirect &&
			tc.preset != sets.PresetFirstContactMatrix && got != tc.preset {
			t.Errorf("DefaultPreset(%s) = %q, want %q", tc.variant, got, tc.preset)
		}
	}
	if _, err := sets.Preset("bogus"); err == nil || !strings.HasPrefix(err.Error(), `sets: wiring preset "bogus" unknown (want reference, matrix, millennium-matrix`) {
		t.Fatalf("unknown preset: %v", err)
	}
	if got := sets.DefaultPreset("chess"); got != "" {
		t.Fatalf("DefaultPreset(chess) = %q", got)
	}
	// Every system of the registry has a preset.
	for _, n := range systems.Names() {
		if sets.DefaultPreset(n) == "" {
			t.Errorf("system %s has no default preset", n)
		}
	}
}

// TestMillenniumWiringTables spot-checks hardware.md's Millennium builds:
// level L's matrix at 0x20+L-1 with the ranks on GPA (rows) and the files
// on GPB (columns); the direct build's level L on mux channel L-1.
func TestMillenniumWiringTables(t *testing.T) {
	find := func(w *sensors.Wiring, cell string) (sensors.Expander, sensors.Wire) {
		for _, e := range w.Expanders {
			for _, c := range e.Cells {
				if c.Cell == cell {
					return e, c
				}
			}
		}
		t.Fatalf("%s not wired", cell)
		return sensors.Expander{}, sensors.Wire{}
	}
	m := sets.MillenniumMatrixWiring()
	for _, tc := range []struct {
		cell     string
		addr     uint16
		row, col int
	}{
		{"1a1", 0x20, 0, 0}, {"1h1", 0x20, 0, 7}, {"1e2", 0x20, 1, 4}, {"2d5", 0x21, 4, 3}, {"3e8", 0x22, 7, 4}, {"3h8", 0x22, 7, 7},
	} {
		e, c := find(m, tc.cell)
		if e.Address != tc.addr || e.Mode != sensors.Matrix || e.Mux != nil || c.Row != tc.row || c.Col != tc.col {
			t.Errorf("matrix %s: %s row %d col %d, want 0x%02x row %d col %d", tc.cell, e.Name(), c.Row, c.Col, tc.addr, tc.row, tc.col)
		}
	}
	d := sets.MillenniumDirectWiring()
	for _, tc := range []struct {
		cell string
		name string
		bit  int
	}{
		{"1a1", "0x20 (mux 0x70 channel 0)", 0}, {"1h2", "0x20 (mux 0x70 channel 0)", 15}, {"1a3", "0x21 (mux 0x70 channel 0)", 0},
		{"2d5", "0x22 (mux 0x70 channel 1)", 3}, {"3h8", "0x23 (mux 0x70 channel 2)", 15},
	} {
		e, c := find(d, tc.cell)
		if e.Name() != tc.name || e.Mode != sensors.Direct || c.Bit != tc.bit {
			t.Errorf("direct %s: %s bit %d, want %s bit %d", tc.cell, e.Name(), c.Bit, tc.name, tc.bit)
		}
	}
	e, c := find(sets.MillenniumMatrixWiring("queen"), "button:queen")
	if e.Name() != "0x27" || c.Bit != 0 {
		t.Errorf("button on %s bit %d", e.Name(), c.Bit)
	}
	f := sets.FirstContactWiring("a", "b", "c", "d", "e")
	for _, tc := range []struct{ cell, name string }{
		{"QL1u", "0x23"}, {"z0QL1u", "0x23"}, {"QL1d", "0x27 (mux 0x70 channel 0)"}, {"a1QL1d", "0x27 (mux 0x70 channel 0)"},
		{"KL6d", "0x27 (mux 0x70 channel 3)"}, {"button:e", "0x27 (mux 0x70 channel 0)"}, {"button:d", "0x26"},
	} {
		if e, _ := find(f, tc.cell); e.Name() != tc.name {
			t.Errorf("first contact %s on %s, want %s", tc.cell, e.Name(), tc.name)
		}
	}
	if w, err := sensors.MatrixWiringFor(make([]string, 500), 0x20, "x"); err != nil || len(w.Expanders) != 8 || w.Expanders[7].Address != 0x27 {
		t.Fatalf("500 cells in matrices: %v", err)
	}
	if _, err := sensors.MatrixWiringFor(make([]string, 520), 0x20); err == nil || err.Error() != "sensors: 520 cells and buttons need 9 matrix expanders from 0x20, beyond 0x27" {
		t.Fatalf("520 cells: %v", err)
	}
}

// TestFirstContactUpSameOrder: the F6 up-only cell list is st3d's in the
// same order, so Renamed keeps every wire where it is.
func TestFirstContactUpSameOrder(t *testing.T) {
	a, b := st3d.CellNames(), firstcontact.UpCellNames()
	if len(a) != len(b) {
		t.Fatalf("%d and %d cells", len(a), len(b))
	}
	for i := range a {
		if want := strings.TrimSuffix(b[i], "u"); a[i] != want {
			t.Fatalf("cell %d: st3d %s, first-contact-up %s", i, a[i], b[i])
		}
	}
}

// TestPresetsScanThroughSim: each preset's simulated set, scanned at
// register level, reads its system's start position, then a piece lifted.
func TestPresetsScanThroughSim(t *testing.T) {
	for _, tc := range []struct {
		preset string
		sys    rules.System
		lift   string
	}{
		{sets.PresetMillenniumMatrix, millennium.System, "1e2"},
		{sets.PresetMillenniumDirect, millennium.System, "3d8"},
		{sets.PresetFirstContact, firstcontact.System, ""},
		{sets.PresetFirstContactMatrix, firstcontact.System, ""},
		{sets.PresetFirstContactUp, firstcontact.UpOnly, ""},
		{sets.PresetMatrix, st3d.System, "a1W"},
	} {
		w, _ := sets.Preset(tc.preset, "queen")
		b, err := sim.New(w)
		if err != nil {
			t.Fatalf("%s: %v", tc.preset, err)
		}
		if b.Set.System() != tc.sys {
			t.Fatalf("%s: simulated as %s", tc.preset, b.Set.System().Name())
		}
		_, opts, scan := simScanner(t, b, tc.sys)
		want := tc.sys.Start().Occupancy()
		if s := scan(); s.Closed != want || !s.Unknown.Empty() {
			t.Errorf("%s: start reads %v (unknown %v), want %v", tc.preset, s.Closed.Names(opts.Cells), s.Unknown.Names(opts.Cells), want.Names(opts.Cells))
		}
		if tc.lift == "" {
			// First Contact starts empty: put a platform and a king on.
			if err := b.Set.Do(sim.Action{Op: sim.OpPlace, Cell: "QL3u"}); err != nil {
				t.Fatal(err)
			}
			if err := b.Set.Place("a3QL3u"); err != nil {
				t.Fatal(err)
			}
			want = rules.CellSetOf(cell(t, tc.sys, "QL3u"), cell(t, tc.sys, "a3QL3u"))
		} else {
			if err := b.Set.Lift(tc.lift); err != nil {
				t.Fatal(err)
			}
			want.Remove(cell(t, tc.sys, tc.lift))
		}
		if err := b.Set.Press("button:queen"); err != nil {
			t.Fatal(err)
		}
		if s := scan(); s.Closed != want || s.Buttons != 1 {
			t.Errorf("%s: after the change reads %v buttons %b, want %v", tc.preset, s.Closed.Names(opts.Cells), s.Buttons, want.Names(opts.Cells))
		}
	}
}

func cell(t *testing.T, sys rules.System, name string) rules.Cell {
	t.Helper()
	c, ok := rules.CellByName(sys, name)
	if !ok {
		t.Fatalf("%s: no cell %s", sys.Name(), name)
	}
	return c
}

// TestForCells: the reference ST3D wiring serves first-contact-up (F6) and
// the first-contact-up wiring st3d; neither serves first-contact's 168.
func TestForCells(t *testing.T) {
	ref := sets.ReferenceWiring("queen")
	w, err := ref.ForCells(firstcontact.UpCellNames())
	if err != nil {
		t.Fatal(err)
	}
	if want := sets.FirstContactUpWiring("queen"); !reflect.DeepEqual(w, want) {
		t.Fatal("reference wiring for first-contact-up differs from FirstContactUpWiring")
	}
	if w, err := sets.FirstContactUpWiring().ForCells(st3d.CellNames()); err != nil || !reflect.DeepEqual(w, sets.ReferenceWiring()) {
		t.Fatalf("first-contact-up wiring for st3d: %v", err)
	}
	if w, err := ref.ForCells(st3d.CellNames()); err != nil || w != ref {
		t.Fatalf("st3d wiring for st3d: %v", err)
	}
	if _, err := ref.ForCells(firstcontact.CellNames()); err == nil || !strings.Contains(err.Error(), "cells not wired: ") {
		t.Fatalf("reference wiring for first-contact: %v", err)
	}
	if _, err := sets.MillenniumMatrixWiring().ForCells(st3d.CellNames()); err == nil {
		t.Fatal("millennium wiring for st3d accepted")
	}
}

// TestPresetsWireEveryButton: every preset wires the eleven buttons of a
// simulated set (issue 29) on free expander bits, without taking a cell's:
// the reference builds four on bit 15 of 0x23..0x26 and the rest on an
// expander at 0x27 (behind the PCA9548's channel 4 with First Contact's
// inverted contacts, whose expanders are at 0x27 on channels 0..3); each
// press reads as its own button, and the set's cells still read.
func TestPresetsWireEveryButton(t *testing.T) {
	names := []string{"queen", "rook", "bishop", "knight", "new_game", "take_back", "clock_white", "clock_black", "hint", "pawn", "king"}
	for _, tc := range []struct {
		preset string
		sys    rules.System
		// where is the expander of the fifth button and the last one.
		fifth, last string
	}{
		{sets.PresetReference, st3d.System, "0x27", "0x27"},
		{sets.PresetMatrix, st3d.System, "0x21", "0x21"},
		{sets.PresetMillenniumMatrix, millennium.System, "0x27", "0x27"},
		{sets.PresetMillenniumDirect, millennium.System, "0x27", "0x27"},
		{sets.PresetFirstContact, firstcontact.System, "0x27 (mux 0x70 channel 0)", "0x27 (mux 0x70 channel 4)"},
		{sets.PresetFirstContactUp, firstcontact.UpOnly, "0x27", "0x27"},
		{sets.PresetFirstContactMatrix, firstcontact.System, "0x22", "0x22"},
	} {
		w, err := sets.Preset(tc.preset, names...)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Validate(tc.sys.Cells()); err != nil {
			t.Errorf("%s with %d buttons: %v", tc.preset, len(names), err)
			continue
		}
		where := map[string]string{}
		for _, e := range w.Expanders {
			for _, c := range e.Cells {
				where[c.Cell] = e.Name()
			}
		}
		if got := where["button:new_game"] + ", " + where["button:king"]; got != tc.fifth+", "+tc.last {
			t.Errorf("%s: new_game and king on %s, want %s, %s", tc.preset, got, tc.fifth, tc.last)
		}
		b, err := sim.ForSystem(tc.sys, w)
		if err != nil {
			t.Fatalf("%s: %v", tc.preset, err)
		}
		sc, opts, scan := simScanner(t, b, tc.sys)
		start := tc.sys.Start().Occupancy()
		for i, n := range sc.Buttons() {
			if err := b.Set.Press(n); err != nil {
				t.Fatal(err)
			}
			if s := scan(); s.Buttons != 1<<i || s.Closed != start {
				t.Errorf("%s: %s pressed reads buttons %b, cells %v", tc.preset, n, s.Buttons, s.Closed.Names(opts.Cells))
			}
			if err := b.Set.Release(n); err != nil {
				t.Fatal(err)
			}
		}
		if len(sc.Buttons()) != len(names) {
			t.Errorf("%s: %d buttons scanned, want %d", tc.preset, len(sc.Buttons()), len(names))
		}
	}
}

// simScanner is a scanner of the cells of sys on the simulated board b,
// and a scan of ten periods in b's time that returns its snapshot.
func simScanner(t *testing.T, b *sim.Board, sys rules.System) (*sensors.Scanner, sensors.Opts, func() sensors.Snapshot) {
	t.Helper()
	opts := sensors.DefaultOpts()
	opts.Cells = sys.Cells()
	sc, err := sensors.New(b.Bus, b.Wiring, &opts)
	if err != nil {
		t.Fatal(err)
	}
	return sc, opts, func() sensors.Snapshot {
		for i := 0; i < 10; i++ {
			sc.Scan(b.Clock.Advance(5 * time.Millisecond))
		}
		return sc.Snapshot()
	}
}
