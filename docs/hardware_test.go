package docs

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

var update = flag.Bool("update", false, "rewrite the generated tables of hardware.md from the code")

// A generated table of hardware.md stands between the lines
//
//	<!-- generated: NAME (go test ./docs -update) -->
//	<!-- end: NAME -->
//
// and is exactly what its function below writes.
var hardwareTables = []struct {
	name string
	gen  func(t *testing.T) string
}{
	{"reference-wiring", referenceWiringTable},
	{"matrix-wiring", matrixWiringTable},
	{"reference-leds", referenceLEDTable},
	{"apa102-leds", apa102Table},
	{"bus-budget", busBudgetTable},
	{"millennium-wiring", millenniumWiringTable},
	{"first-contact-cells", firstContactTable},
}

const hardwareDoc = "hardware.md"

func TestHardwareTables(t *testing.T) {
	data, err := os.ReadFile(hardwareDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, tb := range hardwareTables {
		want := tb.gen(t) + "\n" // a blank line ends the table before the marker
		re := regexp.MustCompile(`(?s)(<!-- generated: ` + regexp.QuoteMeta(tb.name) + ` \(go test ./docs -update\) -->\n)(.*?)(<!-- end: ` + regexp.QuoteMeta(tb.name) + ` -->)`)
		m := re.FindStringSubmatchIndex(doc)
		if m == nil {
			t.Errorf("%s: no generated block %q", hardwareDoc, tb.name)
			continue
		}
		if got := doc[m[4]:m[5]]; got != want {
			if !*update {
				t.Errorf("%s: table %q differs from the code (go test ./docs -run TestHardwareTables -update rewrites it):\n got:\n%s\nwant:\n%s", hardwareDoc, tb.name, got, want)
				continue
			}
			doc = doc[:m[4]] + want + doc[m[5]:]
		}
	}
	if *update && doc != string(data) {
		if err := os.WriteFile(hardwareDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// table writes a Markdown table.
func table(head []string, rows [][]string) string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	line(head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

const free = "·"

// pinName names bit i of an MCP23017 (0..7 = GPA0..7, 8..15 = GPB0..7).
func pinName(bit int) string { return fmt.Sprintf("GP%c%d", "AB"[bit/8], bit%8) }

func referenceWiringTable(t *testing.T) string {
	w := sets.ReferenceWiring()
	if err := w.Validate(st3d.CellNames()); err != nil {
		t.Fatal(err)
	}
	head := []string{"pin"}
	for _, e := range w.Expanders {
		head = append(head, e.Name())
	}
	var rows [][]string
	for bit := 0; bit < 16; bit++ {
		row := []string{fmt.Sprintf("%s (bit %d)", pinName(bit), bit)}
		for _, e := range w.Expanders {
			cell := free
			for _, c := range e.Cells {
				if c.Bit == bit {
					cell = c.Cell
				}
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return table(head, rows)
}

// matrixTable draws one Matrix expander: rows GPA0..7, columns GPB0..7.
func matrixTable(e sensors.Expander) string {
	head := []string{e.Name() + ": row \\ column"}
	for col := 0; col < 8; col++ {
		head = append(head, fmt.Sprintf("GPB%d", col))
	}
	var rows [][]string
	for r := 0; r < 8; r++ {
		row := []string{fmt.Sprintf("GPA%d", r)}
		for col := 0; col < 8; col++ {
			cell := free
			for _, c := range e.Cells {
				if c.Row == r && c.Col == col {
					cell = c.Cell
				}
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return table(head, rows)
}

func matrixWiringTable(t *testing.T) string {
	w := sets.MatrixWiring()
	if err := w.Validate(st3d.CellNames()); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, e := range w.Expanders {
		parts = append(parts, matrixTable(e))
	}
	return strings.Join(parts, "\n")
}

func referenceLEDTable(t *testing.T) string {
	m := leds.ReferenceMapping()
	l, err := m.Layout(st3d.CellNames())
	if err != nil {
		t.Fatal(err)
	}
	byLED := map[int]string{}
	coms := 0
	for name, i := range m.Cells {
		byLED[i] = name
		coms = max(coms, i/16+1)
	}
	if len(byLED) != l.NumLEDs()-(leds.HT16K33LEDs-st3d.NumCells) {
		t.Fatalf("reference mapping: %d cells on %d LEDs", len(m.Cells), len(byLED))
	}
	head := []string{fmt.Sprintf("%s: row", m.Device())}
	for c := 0; c < coms; c++ {
		head = append(head, fmt.Sprintf("COM%d", c))
	}
	var rows [][]string
	for r := 0; r < 16; r++ {
		row := []string{fmt.Sprintf("ROW%d", r)}
		for c := 0; c < coms; c++ {
			cell, ok := byLED[16*c+r]
			if !ok {
				cell = free
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return table(head, rows)
}

// group is what a cell belongs to on the set: its main board or pin.
func group(cell string) string {
	if !strings.ContainsAny(cell[:1], "0123456789abcdez") {
		return "pins"
	}
	switch i := strings.IndexAny(cell, "QK"); {
	case i >= 0:
		return cell[i:]
	default:
		return cell[len(cell)-1:]
	}
}

func apa102Table(t *testing.T) string {
	c, err := config.Load("../deploy/apa102.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, l, err := c.LEDMapping(st3d.CellNames())
	if err != nil {
		t.Fatal(err)
	}
	byLED := make([]string, l.NumLEDs())
	for name, i := range m.Cells {
		byLED[i] = name
	}
	var rows [][]string
	for i := 0; i < len(byLED); {
		j := i
		for j < len(byLED) && byLED[j] != "" && group(byLED[j]) == group(byLED[i]) {
			j++
		}
		if j == i {
			t.Fatalf("deploy/apa102.yaml: LED %d has no cell", i)
		}
		rows = append(rows, []string{fmt.Sprintf("%d-%d", i, j-1), group(byLED[i]), strings.Join(byLED[i:j], " ")})
		i = j
	}
	return table([]string{fmt.Sprintf("%s LEDs", m.Device()), "on", "cells, in strip order"}, rows)
}

// millenniumMatrix is the reference wiring of the Millennium set: one
// Matrix expander per level at 0x20+level-1, row = rank, column = file.
func millenniumMatrix() *sensors.Wiring {
	w := &sensors.Wiring{}
	for lv := 0; lv < 3; lv++ {
		e := sensors.Expander{Address: 0x20 + uint16(lv), Mode: sensors.Matrix}
		for rank := 0; rank < 8; rank++ {
			for file := 0; file < 8; file++ {
				e.Cells = append(e.Cells, sensors.Wire{Cell: fmt.Sprintf("%d%c%d", lv+1, 'a'+file, rank+1), Row: rank, Col: file})
			}
		}
		w.Expanders = append(w.Expanders, e)
	}
	return w
}

// millenniumDirect is the direct-input alternative: four expanders per
// level (0x20..0x23, ranks 1-2, 3-4, 5-6, 7-8; GPA = files a-h of the lower
// rank, GPB of the upper one), level L behind channel L-1 of a PCA9548 at
// 0x70.
func millenniumDirect() *sensors.Wiring {
	w := &sensors.Wiring{}
	for lv := 0; lv < 3; lv++ {
		for i := 0; i < 4; i++ {
			e := sensors.Expander{Address: 0x20 + uint16(i), Mode: sensors.Direct, Mux: &sensors.MuxPort{Address: 0x70, Channel: lv}}
			for bit := 0; bit < 16; bit++ {
				e.Cells = append(e.Cells, sensors.Wire{Cell: fmt.Sprintf("%d%c%d", lv+1, 'a'+bit%8, 2*i+bit/8+1), Bit: bit})
			}
			w.Expanders = append(w.Expanders, e)
		}
	}
	return w
}

func millenniumWiringTable(t *testing.T) string {
	for _, w := range []*sensors.Wiring{millenniumMatrix(), millenniumDirect()} {
		if err := w.Validate(millennium.CellNames()); err != nil {
			t.Fatal(err)
		}
	}
	return matrixTable(millenniumMatrix().Expanders[0])
}

// scanBits is the number of bit times one steady scan of w takes on a
// simulated bus, measured with the real scanner.
func scanBits(t *testing.T, w *sensors.Wiring, cells []string) uint64 {
	t.Helper()
	bus := sim.NewBus("budget")
	muxes := map[uint16]*sim.PCA9548{}
	for _, e := range w.Expanders {
		chip := sim.NewMCP23017(e.Address)
		if e.Mux == nil {
			if err := bus.Attach(e.Address, chip); err != nil {
				t.Fatal(err)
			}
			continue
		}
		m := muxes[e.Mux.Address]
		if m == nil {
			m = sim.NewPCA9548(e.Mux.Address)
			muxes[e.Mux.Address] = m
			if err := bus.Attach(e.Mux.Address, m); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Attach(e.Mux.Channel, e.Address, chip); err != nil {
			t.Fatal(err)
		}
	}
	opts := sensors.DefaultOpts()
	opts.Cells, opts.Verify = cells, 0
	sc, err := sensors.New(bus, w, &opts)
	if err != nil {
		t.Fatal(err)
	}
	now := sim.Epoch
	for i := 0; i < 3; i++ { // configure, then settle
		now = now.Add(opts.Period)
		sc.Scan(now)
	}
	bus.ResetStats()
	const n = 10
	for i := 0; i < n; i++ {
		now = now.Add(opts.Period)
		sc.Scan(now)
	}
	st := bus.Stats()
	if st.NACKs != 0 || st.Bits%n != 0 {
		t.Fatalf("scan budget: %d NACKs, %d bits in %d scans", st.NACKs, st.Bits, n)
	}
	return st.Bits / n
}

func busBudgetTable(t *testing.T) string {
	muxed := sets.MatrixWiring().BehindMux(0x70, 0)
	builds := []struct {
		name  string
		w     *sensors.Wiring
		cells []string
	}{
		{"ST3D reference (7 expanders, direct)", sets.ReferenceWiring(), st3d.CellNames()},
		{"ST3D diode matrix (2 expanders, 14 rows)", sets.MatrixWiring(), st3d.CellNames()},
		{"ST3D diode matrix behind a PCA9548", muxed, st3d.CellNames()},
		{"Millennium reference (3 matrices, 24 rows)", millenniumMatrix(), millennium.CellNames()},
		{"Millennium direct (12 expanders, PCA9548)", millenniumDirect(), millennium.CellNames()},
	}
	var rows [][]string
	for _, b := range builds {
		bits := scanBits(t, b.w, b.cells)
		wire := time.Duration(bits) * time.Second / 400000
		rows = append(rows, []string{b.name, fmt.Sprint(bits), fmt.Sprintf("%.2f ms", float64(wire)/float64(time.Millisecond)),
			fmt.Sprintf("%d", int(time.Second/wire))})
	}
	return table([]string{"build", "bit times per scan", "on the wire at 400 kHz", "scans/s at most"}, rows)
}

func firstContactTable(t *testing.T) string {
	full, up := firstcontact.CellNames(), firstcontact.UpCellNames()
	st := st3d.CellNames()
	if len(up) != len(st) {
		t.Fatalf("first-contact-up has %d cells, st3d %d", len(up), len(st))
	}
	for i := range st {
		if up[i] != st[i] && up[i] != st[i]+"u" {
			t.Fatalf("first-contact-up cell %d is %s, st3d's %s", i, up[i], st[i])
		}
	}
	var rows [][]string
	for p := 0; p < st3d.NumPins; p++ {
		pin := st3d.Pin(p).String()
		row := []string{pin}
		for _, pos := range []string{pin + "u", pin + "d"} {
			cells := []string{pos}
			for _, c := range full {
				if strings.HasSuffix(c, pos) && c != pos {
					cells = append(cells, c)
				}
			}
			if len(cells) != 5 {
				t.Fatalf("first contact %s: %d cells %v", pos, len(cells), cells)
			}
			row = append(row, strings.Join(cells, " "))
		}
		rows = append(rows, row)
	}
	return table([]string{"pin", "up: presence, squares", "inverted: presence, squares"}, rows)
}
