package main

// Drawing the scan: every cell laid out like the set, and each expander's health.

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/web"
)

// renderScan prints one frame: the three main boards, the twelve pins, the
// buttons and the health of each expander.
func renderScan(out io.Writer, title string, rate float64, sys rules.System, sc *sensors.Scanner) {
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

	if l, err := web.LayoutOf(sys); err == nil {
		renderLayout(&b, l, mark)
	} else {
		fmt.Fprintf(&b, "(no drawing of %s: %v)\n\n", sys.Name(), err)
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

// renderLayout draws the set as the pages' flat view lays it out
// (web.LayoutOf): each level a panel, side by side, its squares where
// they stand (an attack board's beside its main board), ranks on the left
// and files below; then the presence cells (the pins, the platforms'
// positions) in the system's order, six a line.
func renderLayout(b *strings.Builder, l *web.Layout, mark func(string) byte) {
	type at struct{ p, x, y int }
	grid := map[at]string{}
	rows := 0
	for _, p := range l.Panels {
		rows = max(rows, p.H)
	}
	var sockets []string
	for _, g := range l.Cells {
		if g.IsSocket {
			sockets = append(sockets, g.Name)
			continue
		}
		grid[at{g.Panel, g.PX, g.PY}] = g.Name
	}
	// Each panel is 4 characters of rank, then 2 a column; 3 between.
	line := func(cells func(i int, p web.Panel) string) {
		var row strings.Builder
		for i, p := range l.Panels {
			if i > 0 {
				row.WriteString("   ")
			}
			row.WriteString(cells(i, p))
		}
		b.WriteString(strings.TrimRight(row.String(), " ") + "\n")
	}
	line(func(_ int, p web.Panel) string {
		w := 4 + 2*p.W
		pad := (w - len(p.Name)) / 2
		return fmt.Sprintf("%*s%-*s", pad, "", w-pad, p.Name)
	})
	for y := 0; y < rows; y++ {
		line(func(i int, p web.Panel) string {
			var c strings.Builder
			fmt.Fprintf(&c, "  %1s ", labelAt(p.Ranks, y))
			for x := 0; x < p.W; x++ {
				if n, ok := grid[at{i, x, y}]; ok {
					fmt.Fprintf(&c, " %c", mark(n))
				} else {
					c.WriteString("  ")
				}
			}
			return c.String()
		})
	}
	line(func(_ int, p web.Panel) string {
		var c strings.Builder
		c.WriteString("    ")
		for x := 0; x < p.W; x++ {
			fmt.Fprintf(&c, " %1s", labelAt(p.Files, x))
		}
		return c.String()
	})
	b.WriteByte('\n')
	for i := 0; i < len(sockets); i += 6 {
		var row strings.Builder
		for _, n := range sockets[i:min(i+6, len(sockets))] {
			fmt.Fprintf(&row, "  %s %c ", n, mark(n))
		}
		b.WriteString(strings.TrimRight(row.String(), " ") + "\n")
	}
	if len(sockets) > 0 {
		b.WriteByte('\n')
	}
}

func labelAt(labels []string, i int) string {
	if i < len(labels) {
		return labels[i]
	}
	return ""
}
