package leds_test

import (
	"slices"
	"testing"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// names is the ST3D cell list, as the daemon gets it (System.Cells).
var names = st3d.System.Cells()

// cells is the set of the named cells.
func cells(t testing.TB, list ...string) rules.CellSet {
	t.Helper()
	var s rules.CellSet
	for _, n := range list {
		i := slices.Index(names, n)
		if i < 0 {
			t.Fatalf("no cell %q", n)
		}
		s.Add(rules.Cell(i))
	}
	return s
}

// cell is the named cell.
func cell(t testing.TB, name string) rules.Cell {
	t.Helper()
	i := slices.Index(names, name)
	if i < 0 {
		t.Fatalf("no cell %q", name)
	}
	return rules.Cell(i)
}

// refLayout is the layout of the reference mapping.
func refLayout(t testing.TB) *leds.Layout {
	t.Helper()
	l, err := leds.ReferenceMapping().Layout(names)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// litCells lists, sorted by name, the cells whose LED is lit for which
// lit(i) is true under layout l.
func litCells(l *leds.Layout, lit func(i int) bool) []string {
	var out []string
	for c, n := range names {
		if i := l.LED(rules.Cell(c)); i >= 0 && lit(i) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// sorted returns the names sorted (a copy).
func sorted(list ...string) []string {
	out := slices.Clone(list)
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}

func sameNames(got, want []string) bool {
	if len(got) == 0 && len(want) == 0 {
		return true
	}
	return slices.Equal(got, want)
}

// position parses an ST3D position string.
func position(t testing.TB, s string) rules.Position {
	t.Helper()
	p, err := st3d.System.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
