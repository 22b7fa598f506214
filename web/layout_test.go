package web

import (
	"testing"

	"github.com/tridboard/tridboard/rules/systems"
)

// Every square of every system has its own place in the flat view (a
// column of the map holds several squares: a1W and a1QL1, QL1u and QL1d)
// and in 3D, inside its panel; st3d D3 colours: a1 is dark.
func TestLayoutPlacesEverySquareOnce(t *testing.T) {
	for _, tc := range []struct {
		name           string
		squares, w, hh int
	}{
		{"st3d", 96, 8, 10}, {"millennium", 192, 8, 8}, {"first-contact", 144, 12, 10}, {"first-contact-up", 96, 12, 10},
	} {
		sys, err := systems.ByName(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		l, err := LayoutOf(sys)
		if err != nil {
			t.Fatal(err)
		}
		flat := map[[3]int]string{}
		space := map[[3]float64]string{}
		n := 0
		for _, g := range l.Cells {
			if g.IsSocket {
				continue
			}
			n++
			p := l.Panels[g.Panel]
			if p.W != tc.w || p.H != tc.hh || g.PX < 0 || g.PX >= p.W || g.PY < 0 || g.PY >= p.H {
				t.Errorf("%s %s: at %d,%d of a %dx%d panel", tc.name, g.Name, g.PX, g.PY, p.W, p.H)
			}
			k := [3]int{g.Panel, g.PX, g.PY}
			if o, ok := flat[k]; ok {
				t.Errorf("%s: %s and %s share a flat square", tc.name, o, g.Name)
			}
			flat[k] = g.Name
			s := [3]float64{g.X, g.Y, g.H}
			if o, ok := space[s]; ok {
				t.Errorf("%s: %s and %s share a place in 3D", tc.name, o, g.Name)
			}
			space[s] = g.Name
		}
		if n != tc.squares {
			t.Errorf("%s: %d squares, want %d", tc.name, n, tc.squares)
		}
	}
	// Millennium: colours as on a chess board, the same on every level.
	m, _ := LayoutOf(mustSys(t, "millennium"))
	for _, g := range m.Cells {
		if want := g.Name[1:] == "a1" || g.Name[1:] == "b2" || g.Name[1:] == "h8"; want && !g.Dark || (g.Name[1:] == "h1" || g.Name[1:] == "a8") && g.Dark {
			t.Errorf("millennium %s: dark %v", g.Name, g.Dark)
		}
	}
	l, _ := LayoutOf(mustSys(t, "st3d"))
	for _, g := range l.Cells {
		switch g.Name {
		case "a1W", "z0QL1", "b2W":
			if !g.Dark {
				t.Errorf("%s light, D3 says dark", g.Name)
			}
		case "b1W", "a0QL1":
			if g.Dark {
				t.Errorf("%s dark, D3 says light", g.Name)
			}
		}
	}
}
