package systems_test

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/systems"
)

// Every registered system places each of its cells once: a square at its
// own place in 3D and in the flat view, inside its panel, a socket beside
// the squares its board carries.
func TestGeometryOfEverySystem(t *testing.T) {
	for _, tc := range []struct {
		name             string
		squares, sockets int
		step             float64
	}{
		{"st3d", 96, 12, 0}, {"st3d+V.A1", 96, 12, 0}, {"millennium", 192, 0, 1.5},
		{"first-contact", 144, 24, 0}, {"first-contact-up", 96, 12, 0},
	} {
		sys, err := systems.ByName(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		g, err := systems.GeometryOf(sys)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if g.Step != tc.step {
			t.Errorf("%s: step %v, want %v", tc.name, g.Step, tc.step)
		}
		names := sys.Cells()
		flat, space := map[[3]int]string{}, map[[3]float64]string{}
		squares, sockets := 0, 0
		for i, c := range g.Cells {
			if c.Name != names[i] {
				t.Fatalf("%s: cell %d is %s in the geometry, %s in the system", tc.name, i, c.Name, names[i])
			}
			if c.IsSocket {
				sockets++
				continue
			}
			squares++
			p := g.Panels[c.Panel]
			if c.PX < 0 || c.PX >= p.W || c.PY < 0 || c.PY >= p.H || c.File == "" || c.Rank == "" {
				t.Errorf("%s %s: at %d,%d (%q %q) of a %dx%d panel", tc.name, c.Name, c.PX, c.PY, c.File, c.Rank, p.W, p.H)
			}
			if o, ok := flat[[3]int{c.Panel, c.PX, c.PY}]; ok {
				t.Errorf("%s: %s and %s share a flat square", tc.name, o, c.Name)
			}
			flat[[3]int{c.Panel, c.PX, c.PY}] = c.Name
			if o, ok := space[[3]float64{c.X, c.Y, float64(c.Z)}]; ok {
				t.Errorf("%s: %s and %s share a place", tc.name, o, c.Name)
			}
			space[[3]float64{c.X, c.Y, float64(c.Z)}] = c.Name
			if c.Socket != "" && !strings.HasSuffix(c.Name, c.Socket) {
				t.Errorf("%s %s: carried by %s", tc.name, c.Name, c.Socket)
			}
		}
		if squares != tc.squares || sockets != tc.sockets {
			t.Errorf("%s: %d squares and %d sockets, want %d and %d", tc.name, squares, sockets, tc.squares, tc.sockets)
		}
	}
}

// The capabilities the layers above ask for instead of names.
func TestCaps(t *testing.T) {
	for _, tc := range []struct {
		name                                     string
		placement, boards, long, needs, fallback bool
	}{
		{"st3d", false, true, true, false, false},
		{"st3d+V.P3", false, true, true, true, false},
		{"millennium", false, false, true, false, false},
		{"first-contact", true, true, false, false, true},
		{"first-contact-up", true, true, false, false, false},
	} {
		sys, err := systems.ByName(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		c := systems.CapsOf(sys)
		if c.Placement != tc.placement || c.BoardMoves != tc.boards || c.LongGames != tc.long ||
			systems.NeedsPosition(sys) != tc.needs || (c.Fallback != "") != tc.fallback || c.Set == "" {
			t.Errorf("%s: caps %+v, needs position %v", tc.name, c, systems.NeedsPosition(sys))
		}
	}
	for _, tc := range []struct {
		variant, options string
		want             bool
	}{
		{"st3d", "V.P5", true}, {"st3d", "V.P5:random", true}, {"st3d", "V.P5:12", false}, {"st3d", "", false}, {"millennium", "V.P5", false},
	} {
		if got := systems.DrawsSetup(tc.variant, tc.options); got != tc.want {
			t.Errorf("DrawsSetup(%q, %q) = %v", tc.variant, tc.options, got)
		}
	}
}

// Registering twice under one name, or without a system, is the
// program's mistake: Register panics with what is wrong.
func TestRegisterRefusesMistakes(t *testing.T) {
	st3d, _ := systems.Find("st3d")
	for _, tc := range []struct {
		e    systems.Entry
		want string
	}{
		{*st3d, "the name is taken"},
		{systems.Entry{Name: "toy"}, "no system"},
		{systems.Entry{Name: "a+b", System: st3d.System, Geometry: st3d.Geometry}, "without '+'"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), tc.want) {
					t.Errorf("Register(%s): %v, want a panic saying %q", tc.e.Name, r, tc.want)
				}
			}()
			systems.Register(tc.e)
		}()
	}
}

// The words a listener hears for a cell, as the pages say them.
func TestGeometryWords(t *testing.T) {
	for _, tc := range []struct{ system, cell, words string }{
		{"st3d", "b2W", "b2 White"}, {"st3d", "c5N", "c5 Neutral"}, {"st3d", "z0QL1", "z0 attack board QL1"},
		{"st3d", "KL6", "attack board KL6"}, {"millennium", "2e4", "e4 level 2"},
		{"first-contact", "a2QL3u", "a2 platform QL3 up"}, {"first-contact", "QL3d", "platform QL3 inverted"},
		{"first-contact-up", "d9KL6u", "d9 platform KL6 up"},
	} {
		sys, _ := systems.ByName(tc.system)
		g, err := systems.GeometryOf(sys)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range g.Cells {
			if c.Name == tc.cell {
				found = true
				if c.Words != tc.words {
					t.Errorf("%s %s: %q, want %q", tc.system, tc.cell, c.Words, tc.words)
				}
			}
		}
		if !found {
			t.Errorf("%s: no cell %s", tc.system, tc.cell)
		}
	}
}
