package web

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
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
	// Words say the cell to a listener ("b1 White"); "" says its name.
	Words string `json:"w,omitempty"`
}

// LayoutOf is the layout of sys from its geometry (rules/systems): the
// flat view's panels labelled by the files and ranks of their squares, and
// every cell's place, its height drawn at the geometry's step.
func LayoutOf(sys rules.System) (*Layout, error) {
	geo, err := systems.GeometryOf(sys)
	if err != nil {
		return nil, fmt.Errorf("web: layout of %s: %w", sys.Name(), err)
	}
	step := geo.Step
	if step == 0 {
		step = 1
	}
	l := &Layout{System: sys.Name(), Cells: make([]Geo, 0, len(geo.Cells))}
	for _, p := range geo.Panels {
		l.Panels = append(l.Panels, Panel{Name: p.Name, W: p.W, H: p.H})
	}
	for _, c := range geo.Cells {
		if c.Panel < 0 || c.Panel >= len(l.Panels) {
			return nil, fmt.Errorf("web: layout of %s: cell %s on panel %d of %d", sys.Name(), c.Name, c.Panel, len(l.Panels))
		}
		l.Cells = append(l.Cells, Geo{Name: c.Name, X: c.X, Y: c.Y, H: float64(c.Z) * step, Panel: c.Panel, PX: c.PX, PY: c.PY,
			Socket: c.Socket, IsSocket: c.IsSocket, Dark: c.Dark, Inverted: c.Inverted, Words: c.Words})
		if !c.IsSocket {
			l.label(c.Panel, c.PX, c.PY, c.File, c.Rank)
		}
	}
	return l, nil
}
