package sensors_test

import (
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/sensors"
)

func TestReferenceWiringTable(t *testing.T) {
	w := sets.ReferenceWiring("promote", "new", "back")
	if err := w.Validate(st3d.CellNames()); err != nil {
		t.Fatal(err)
	}
	// Spot checks of hardware.md's table, expander by expander.
	for _, tc := range []struct {
		exp  int
		addr uint16
		bits string // cells at bits 0..15
	}{
		{0, 0x20, "a1W b1W c1W d1W a2W b2W c2W d2W a3W b3W c3W d3W a4W b4W c4W d4W"},
		{1, 0x21, "a3N b3N c3N d3N a4N b4N c4N d4N a5N b5N c5N d5N a6N b6N c6N d6N"},
		{2, 0x22, "a5B b5B c5B d5B a6B b6B c6B d6B a7B b7B c7B d7B a8B b8B c8B d8B"},
		{3, 0x23, "QL1 z0QL1 a0QL1 z1QL1 a1QL1 QL2 z4QL2 a4QL2 z5QL2 a5QL2 QL3 z2QL3 a2QL3 z3QL3 a3QL3 button:promote"},
		{4, 0x24, "QL4 z6QL4 a6QL4 z7QL4 a7QL4 QL5 z4QL5 a4QL5 z5QL5 a5QL5 QL6 z8QL6 a8QL6 z9QL6 a9QL6 button:new"},
		{5, 0x25, "KL1 d0KL1 e0KL1 d1KL1 e1KL1 KL2 d4KL2 e4KL2 d5KL2 e5KL2 KL3 d2KL3 e2KL3 d3KL3 e3KL3 button:back"},
		{6, 0x26, "KL4 d6KL4 e6KL4 d7KL4 e7KL4 KL5 d4KL5 e4KL5 d5KL5 e5KL5 KL6 d8KL6 e8KL6 d9KL6 e9KL6"},
	} {
		e := w.Expanders[tc.exp]
		var got []string
		for bit, c := range e.Cells {
			if c.Bit != bit {
				t.Fatalf("0x%02x: wire %d on bit %d", e.Address, bit, c.Bit)
			}
			got = append(got, c.Cell)
		}
		if e.Address != tc.addr || e.Mode != sensors.Direct || e.Mux != nil || strings.Join(got, " ") != tc.bits {
			t.Errorf("expander %d: 0x%02x %s %s\nwant 0x%02x %s", tc.exp, e.Address, e.Mode, strings.Join(got, " "), tc.addr, tc.bits)
		}
	}
	if len(w.Expanders) != 7 {
		t.Fatalf("%d expanders", len(w.Expanders))
	}
	m := sets.MatrixWiring("promote")
	if err := m.Validate(st3d.CellNames()); err != nil {
		t.Fatal(err)
	}
	if len(m.Expanders) != 2 || len(m.Expanders[0].Cells) != 64 || len(m.Expanders[1].Cells) != 45 {
		t.Fatalf("matrix wiring: %d expanders", len(m.Expanders))
	}
	if last := m.Expanders[1].Cells[44]; last != (sensors.Wire{Cell: "button:promote", Row: 5, Col: 4}) {
		t.Fatalf("matrix button %+v", last)
	}
}

func TestValidate(t *testing.T) {
	cells := []string{"a1W", "b1W", "c1W"}
	direct := func(addr uint16, ws ...sensors.Wire) sensors.Expander {
		return sensors.Expander{Address: addr, Mode: sensors.Direct, Cells: ws}
	}
	for _, tc := range []struct {
		name string
		w    sensors.Wiring
		err  string
	}{
		{"ok", sensors.Wiring{Expanders: []sensors.Expander{direct(0x20, sensors.Wire{Cell: "a1W"}, sensors.Wire{Cell: "b1W", Bit: 1}, sensors.Wire{Cell: "c1W", Bit: 15}, sensors.Wire{Cell: "button:x", Bit: 14})}}, ""},
		{"empty", sensors.Wiring{}, "sensors: no expander\nsensors: cells not wired: a1W b1W c1W"},
		{"bit twice", sensors.Wiring{Expanders: []sensors.Expander{direct(0x21, sensors.Wire{Cell: "a1W"}, sensors.Wire{Cell: "b1W", Bit: 5}, sensors.Wire{Cell: "c1W", Bit: 5})}},
			"sensors: expander 0x21: bit 5 wired twice: b1W and c1W\nsensors: cells not wired: c1W"},
		{"cell twice", sensors.Wiring{Expanders: []sensors.Expander{
			direct(0x20, sensors.Wire{Cell: "a1W"}, sensors.Wire{Cell: "b1W", Bit: 1}, sensors.Wire{Cell: "c1W", Bit: 2}),
			direct(0x21, sensors.Wire{Cell: "b1W", Bit: 3})}},
			"sensors: cell b1W wired twice: expander 0x20 bit 1 and expander 0x21 bit 3"},
		{"unknown and missing", sensors.Wiring{Expanders: []sensors.Expander{direct(0x20, sensors.Wire{Cell: "a1W"}, sensors.Wire{Cell: "x9W", Bit: 1}, sensors.Wire{Cell: "button:", Bit: 2})}},
			"sensors: expander 0x20: unknown cell \"x9W\"\nsensors: expander 0x20: unknown cell \"button:\"\nsensors: cells not wired: b1W c1W"},
		{"ranges", sensors.Wiring{Expanders: []sensors.Expander{
			{Address: 0x28, Mode: sensors.Direct, Mux: &sensors.MuxPort{Address: 0x69, Channel: 8}, Cells: []sensors.Wire{{Cell: "a1W", Bit: 16}}},
			{Address: 0x20, Mode: sensors.Matrix, Cells: []sensors.Wire{{Cell: "b1W", Row: 8}, {Cell: "c1W", Bit: 3}}},
			{Address: 0x21, Mode: "diode"},
		}},
			"sensors: expander 0x28 (mux 0x69 channel 8): address not in 0x20..0x27 (MCP23017)\n" +
				"sensors: expander 0x28 (mux 0x69 channel 8): mux address not in 0x70..0x77 (PCA9548)\n" +
				"sensors: expander 0x28 (mux 0x69 channel 8): mux channel not in 0..7\n" +
				"sensors: expander 0x28 (mux 0x69 channel 8): a1W: bit 16 not in 0..15\n" +
				"sensors: expander 0x20: b1W: row 8 col 0 not in 0..7\n" +
				"sensors: expander 0x20: c1W: bit given in matrix mode\n" +
				"sensors: expander 0x21: mode \"diode\" is neither \"direct\" nor \"matrix\"\n" +
				"sensors: cells not wired: a1W b1W"},
		{"matrix twice", sensors.Wiring{Expanders: []sensors.Expander{{Address: 0x20, Mode: sensors.Matrix, Cells: []sensors.Wire{{Cell: "a1W", Row: 1, Col: 2}, {Cell: "b1W", Row: 1, Col: 2}, {Cell: "c1W"}}}}},
			"sensors: expander 0x20: row 1 col 2 wired twice: a1W and b1W\nsensors: cells not wired: b1W"},
		{"expander twice and clash", sensors.Wiring{Expanders: []sensors.Expander{
			direct(0x20, sensors.Wire{Cell: "a1W"}),
			direct(0x20, sensors.Wire{Cell: "b1W"}),
			{Address: 0x20, Mode: sensors.Direct, Mux: &sensors.MuxPort{Address: 0x70, Channel: 1}, Cells: []sensors.Wire{{Cell: "c1W"}}},
		}},
			"sensors: expander 0x20 listed twice\n" +
				"sensors: expander 0x20 on the main bus clashes with expander 0x20 (mux 0x70 channel 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if err := tc.w.Validate(cells); err != nil {
				got = err.Error()
			}
			if got != tc.err {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.err)
			}
		})
	}
}

func TestLoadWiring(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, yaml string
		want       *sensors.Wiring
		err        string
	}{
		{"ok", "expanders:\n  - address: 0x21\n    mux: {address: 0x70, channel: 2}\n    mode: matrix\n    cells:\n      - {cell: a1W, row: 1, col: 3}\n      - {cell: button:go, col: 4}\n",
			&sensors.Wiring{Expanders: []sensors.Expander{{Address: 0x21, Mux: &sensors.MuxPort{Address: 0x70, Channel: 2}, Mode: sensors.Matrix,
				Cells: []sensors.Wire{{Cell: "a1W", Row: 1, Col: 3}, {Cell: "button:go", Col: 4}}}}}, ""},
		{"unknown key", "expanders:\n  - address: 0x21\n    mode: direct\n    cells:\n      - cell: b1W\n        bti: 4\n",
			nil, "sensors: wiring unknownkey.yaml: [6:9] unknown field \"bti\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "")+".yaml")
			if err := os.WriteFile(p, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			w, err := sensors.LoadWiring(p)
			got := ""
			if err != nil {
				got = strings.ReplaceAll(err.Error(), dir+"/", "")
			}
			if got != tc.err {
				t.Fatalf("error %q, want %q", got, tc.err)
			}
			if tc.want != nil && !equalWiring(w, tc.want) {
				t.Fatalf("got %+v", w)
			}
		})
	}
	if _, err := sensors.LoadWiring(filepath.Join(dir, "none.yaml")); err == nil || !strings.HasPrefix(err.Error(), "sensors: wiring: open ") {
		t.Fatalf("missing file: %v", err)
	}
}

func equalWiring(a, b *sensors.Wiring) bool {
	if len(a.Expanders) != len(b.Expanders) {
		return false
	}
	for i := range a.Expanders {
		x, y := a.Expanders[i], b.Expanders[i]
		if x.Address != y.Address || x.Mode != y.Mode || (x.Mux == nil) != (y.Mux == nil) || x.Mux != nil && *x.Mux != *y.Mux || len(x.Cells) != len(y.Cells) {
			return false
		}
		for j := range x.Cells {
			if x.Cells[j] != y.Cells[j] {
				return false
			}
		}
	}
	return true
}
