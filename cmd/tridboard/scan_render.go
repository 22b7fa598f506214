package main

// Drawing the scan: every cell laid out like the set, and each expander's health.

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
)

// renderScan prints one frame: the three main boards, the twelve pins, the
// buttons and the health of each expander.
func renderScan(out io.Writer, title string, rate float64, sc *sensors.Scanner) {
	snap := sc.Snapshot()
	index := map[string]rules.Cell{}
	for i, n := range sc.Cells() {
		index[n] = rules.Cell(i)
	}
	mark := func(name string) byte {
		c, ok := index[name]
		switch {
		case !ok || snap.Unknown.Has(c):
			return '?'
		case snap.Closed.Has(c):
			return '#'
		}
		return '.'
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tridboard scan: %s", title)
	if rate > 0 {
		fmt.Fprintf(&b, ", %.0f scans/s", rate)
	}
	fmt.Fprintf(&b, "  (# closed  . open  ? unknown)\n\n")

	if _, ok := index["1a1"]; ok {
		renderLevels(&b, mark)
	} else {
		renderST3D(&b, mark, index)
	}

	if buttons := sc.Buttons(); len(buttons) > 0 {
		b.WriteString("buttons:")
		for i, n := range buttons {
			state := "up"
			if snap.Buttons&(1<<i) != 0 {
				state = "DOWN"
			}
			fmt.Fprintf(&b, "  %s %s", strings.TrimPrefix(n, sensors.ButtonPrefix), state)
		}
		b.WriteString("\n\n")
	}

	b.WriteString("expanders:\n")
	for _, h := range sc.Health(nil) {
		state := "ok"
		if !h.OK {
			state = "FAIL"
		}
		fmt.Fprintf(&b, "  %-26s %-4s  reads %-8d errors %-4d resets %d", h.Expander, state, h.Reads, h.Failures, h.Resets)
		if !h.OK && !h.Retry.IsZero() {
			fmt.Fprintf(&b, "  retry in %v", h.Retry.Sub(snap.Time).Round(time.Millisecond))
		}
		b.WriteByte('\n')
		if h.LastErr != nil {
			fmt.Fprintf(&b, "      last error: %v\n", h.LastErr)
		}
	}
	// No trailing blanks: the frame is also compared in tests.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	io.WriteString(out, strings.Join(lines, "\n"))
}

// renderLevels draws the Millennium set: levels 1, 2, 3 side by side, rank
// 8 on top.
func renderLevels(b *strings.Builder, mark func(string) byte) {
	b.WriteString("        level 1                level 2                level 3\n")
	for rank := 8; rank >= 1; rank-- {
		for lv := 1; lv <= 3; lv++ {
			fmt.Fprintf(b, "  %d ", rank)
			for f := 'a'; f <= 'h'; f++ {
				fmt.Fprintf(b, " %c", mark(fmt.Sprintf("%d%c%d", lv, f, rank)))
			}
			if lv < 3 {
				b.WriteString("   ")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("     a b c d e f g h       a b c d e f g h       a b c d e f g h\n\n")
}

// renderST3D draws the ST3D set, for st3d and First Contact: the three main
// boards, then the twelve pins, once for each kind of position the cells
// have (st3d's pins; First Contact's up positions, and the inverted ones
// when sensed).
func renderST3D(b *strings.Builder, mark func(string) byte, index map[string]rules.Cell) {
	b.WriteString("       W             N             B\n")
	for row := 3; row >= 0; row-- {
		for lv, level := range []string{"W", "N", "B"} {
			rank := 1 + 2*lv + row
			fmt.Fprintf(b, "  %d ", rank)
			for _, f := range "abcd" {
				fmt.Fprintf(b, " %c", mark(fmt.Sprintf("%c%d%s", f, rank, level)))
			}
			if lv < 2 {
				b.WriteString("   ")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("     a b c d       a b c d       a b c d\n\n")

	// Pins: name and presence, then the 2x2 board, upper rank on top.
	var kinds []string
	for _, k := range []string{"", "u", "d"} {
		if _, ok := index["QL1"+k]; ok {
			kinds = append(kinds, k)
		}
	}
	for _, k := range kinds {
		for side := 0; side < 2; side++ {
			pins := make([]st3d.Pin, 6)
			for i := range pins {
				pins[i] = st3d.Pin(6*side + i)
			}
			for _, p := range pins {
				fmt.Fprintf(b, "  %s %c ", p.String()+k, mark(p.String()+k))
			}
			b.WriteByte('\n')
			for _, half := range [][2]int{{2, 3}, {0, 1}} {
				for _, p := range pins {
					sq := p.Squares()
					fmt.Fprintf(b, "   %c %c  %s", mark(sq[half[0]].String()+k), mark(sq[half[1]].String()+k), strings.Repeat(" ", len(k)))
				}
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
	}
}
