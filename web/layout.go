package web

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Layout is where a system's cells are drawn: in 3D (X, Y on the map, H the
// height) and in the flat view (a panel per level, a grid in each).
type Layout struct {
	System string  `json:"system"`
	Panels []Panel `json:"panels"`
	Cells  []Geo   `json:"cells"`
}

// Panel is one level of the flat view: a grid of W x H squares. Files
// names each column by the file of its squares, Ranks each row (PY) by
// their rank; "" where the panel has no square.
type Panel struct {
	Name  string   `json:"name"`
	W     int      `json:"w"`
	H     int      `json:"h"`
	Files []string `json:"files"`
	Ranks []string `json:"ranks"`
}

// label names column px and row py of panel p after the square n's file
// and rank.
func (l *Layout) label(p, px, py int, file, rank string) {
	pn := &l.Panels[p]
	if pn.Files == nil {
		pn.Files, pn.Ranks = make([]string, pn.W), make([]string, pn.H)
	}
	if px >= 0 && px < pn.W && py >= 0 && py < pn.H {
		pn.Files[px], pn.Ranks[py] = file, rank
	}
}

// Geo is where one cell is drawn.
type Geo struct {
	Name string  `json:"n"`
	X    float64 `json:"x"` // map file (0 = leftmost file)
	Y    float64 `json:"y"` // map rank (0 = White's side)
	H    float64 `json:"h"` // height in 3D
	// Panel, PX and PY place the cell in the flat view (PY 0 is the top
	// row, Black's side).
	Panel int `json:"p"`
	PX    int `json:"px"`
	PY    int `json:"py"`
	// Socket is the presence cell whose board (attack board, platform)
	// carries this square: the square exists only while it is closed.
	Socket string `json:"s,omitempty"`
	// IsSocket marks a presence cell (a pin, a platform socket).
	IsSocket bool `json:"k,omitempty"`
	Dark     bool `json:"d,omitempty"`
	Inverted bool `json:"i,omitempty"` // on an inverted platform (First Contact)
}

// LayoutOf computes the layout of sys from its cell names: st3d and First
// Contact cells ("b2W", "z0QL1", "a0QL1u", "QL1"), Millennium's ("1a1").
func LayoutOf(sys rules.System) (*Layout, error) {
	cells := sys.Cells()
	l := &Layout{System: sys.Name(), Cells: make([]Geo, 0, len(cells))}
	if len(cells) > 0 && cells[0] != "" && cells[0][0] >= '1' && cells[0][0] <= '9' {
		for i := 1; i <= 3; i++ {
			l.Panels = append(l.Panels, Panel{Name: fmt.Sprintf("Level %d", i), W: 8, H: 8})
		}
		for _, n := range cells {
			if len(n) != 3 || n[0] < '1' || n[0] > '3' || n[1] < 'a' || n[1] > 'h' || n[2] < '1' || n[2] > '8' {
				return nil, fmt.Errorf("web: layout of %s: cell %q: want level, file, rank", sys.Name(), n)
			}
			lv, f, r := int(n[0]-'1'), int(n[1]-'a'), int(n[2]-'1')
			l.Cells = append(l.Cells, Geo{Name: n, X: float64(f), Y: float64(r), H: float64(lv) * 3,
				Panel: lv, PX: f, PY: 7 - r, Dark: (f+r)%2 == 0})
			l.label(lv, f, 7-r, n[1:2], n[2:3])
		}
		return l, nil
	}
	fc := false
	for _, n := range cells {
		if strings.HasSuffix(n, "u") || strings.HasSuffix(n, "d") {
			fc = true
			break
		}
	}
	// The flat view puts the attack boards (platforms) beside their main
	// board, the QL ones left of it and the KL ones right, the inverted
	// platforms further out: a1W and a1QL1 are one column of the map.
	w := 8
	if fc {
		w = 12
	}
	for _, name := range []string{"W", "N", "B"} {
		l.Panels = append(l.Panels, Panel{Name: name, W: w, H: 10})
	}
	for _, n := range cells {
		g, err := tridGeo(n, fc)
		if err != nil {
			return nil, fmt.Errorf("web: layout of %s: %w", sys.Name(), err)
		}
		l.Cells = append(l.Cells, g)
		if !g.IsSocket {
			l.label(g.Panel, g.PX, g.PY, n[0:1], n[1:2])
		}
	}
	return l, nil
}

// levelHeight is the height of the fixed levels W, N, B.
var levelHeight = map[byte]float64{'W': 0, 'N': 2, 'B': 4}

// pin parses "QL3", "KL6u", "QL1d": the side ('Q' or 'K'), the pin number,
// the orientation ('u', 'd' or 0).
func pin(s string) (side byte, n int, orient byte, ok bool) {
	if len(s) < 3 || (s[0] != 'Q' && s[0] != 'K') || s[1] != 'L' || s[2] < '1' || s[2] > '6' {
		return 0, 0, 0, false
	}
	switch rest := s[3:]; rest {
	case "":
	case "u", "d":
		orient = rest[0]
	default:
		return 0, 0, 0, false
	}
	return s[0], int(s[2] - '0'), orient, true
}

// pinCenter is the map centre (file, rank) of a pin's 2x2 board.
func pinCenter(side byte, n int) (float64, float64) {
	x := 0.5
	if side == 'K' {
		x = 4.5
	}
	// Rear and front corners of W, N, B: ranks 0-1, 4-5, 2-3, 6-7, 4-5, 8-9.
	y := [...]float64{0, 0.5, 4.5, 2.5, 6.5, 4.5, 8.5}[n]
	return x, y
}

func tridGeo(n string, fc bool) (Geo, error) {
	bad := fmt.Errorf("cell %q: want file, rank and level", n)
	if side, p, orient, ok := pin(n); ok {
		x, y := pinCenter(side, p)
		g := Geo{Name: n, X: x, Y: y, IsSocket: true, Panel: (p - 1) / 2, PY: 9 - int(y)}
		g.H = levelHeight["WNB"[(p-1)/2]] + 1
		if orient == 'd' {
			g.H -= 2
			g.Inverted = true
		}
		g.PX = -1
		return g, nil
	}
	if len(n) < 3 {
		return Geo{}, bad
	}
	f := strings.IndexByte("zabcde", n[0])
	r := int(n[1] - '0')
	if f < 0 || n[1] < '0' || n[1] > '9' {
		return Geo{}, bad
	}
	g := Geo{Name: n, X: float64(f), Y: float64(r), PX: f + 1, PY: 9 - r, Dark: (f+r)%2 == 0}
	if fc {
		g.PX = f + 3
	}
	lv := n[2:]
	if h, ok := levelHeight[lv[0]]; ok && len(lv) == 1 {
		g.H = h
		g.Panel = strings.IndexByte("WNB", lv[0])
		return g, nil
	}
	side, p, orient, ok := pin(lv)
	if !ok {
		return Geo{}, bad
	}
	g.Socket = lv
	g.Panel = (p - 1) / 2
	g.H = levelHeight["WNB"[g.Panel]] + 1
	if orient == 'd' {
		g.H -= 2
		g.Inverted = true
	}
	// Columns: st3d QL z a, main a-d, KL d e; First Contact QLd z a,
	// QLu z a, main a-d, KLu d e, KLd d e.
	switch {
	case !fc && side == 'Q', fc && side == 'Q' && orient == 'd':
		g.PX = f
	case !fc, fc && side == 'Q':
		g.PX = f + 2
	case orient == 'd':
		g.PX = f + 6
	default:
		g.PX = f + 4
	}
	return g, nil
}
