package systems

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// levelsGeometry places Millennium's cells ("1a1": level, file, rank):
// three 8x8 levels, one panel each, drawn 3 apart.
func levelsGeometry(sys rules.System) (*rules.Geometry, error) {
	g := &rules.Geometry{Step: 1.5}
	for i := 1; i <= 3; i++ {
		g.Panels = append(g.Panels, rules.Panel{Name: fmt.Sprintf("Level %d", i), W: 8, H: 8})
	}
	for _, n := range sys.Cells() {
		if len(n) != 3 || n[0] < '1' || n[0] > '3' || n[1] < 'a' || n[1] > 'h' || n[2] < '1' || n[2] > '8' {
			return nil, fmt.Errorf("cell %q: want level, file, rank", n)
		}
		lv, f, r := int(n[0]-'1'), int(n[1]-'a'), int(n[2]-'1')
		g.Cells = append(g.Cells, rules.Geo{Name: n, X: float64(f), Y: float64(r), Z: 2 * lv,
			File: n[1:2], Rank: n[2:3], Panel: lv, PX: f, PY: 7 - r, Dark: (f+r)%2 == 0,
			Words: n[1:] + " level " + n[:1]})
	}
	return g, nil
}

// tridGeometry places the cells of a Star Trek 3D set: st3d's and First
// Contact's ("b2W", "z0QL1", "a0QL1u", "QL1", "QL1d"). The flat view puts
// the attack boards (platforms) beside their main board, the QL ones left
// of it and the KL ones right, the inverted platforms further out: a1W and
// a1QL1 are one column of the map.
func tridGeometry(sys rules.System) (*rules.Geometry, error) {
	cells := sys.Cells()
	fc := false
	for _, n := range cells {
		if strings.HasSuffix(n, "u") || strings.HasSuffix(n, "d") {
			fc = true
			break
		}
	}
	w := 8
	if fc {
		w = 12
	}
	g := &rules.Geometry{}
	for _, name := range []string{"W", "N", "B"} {
		g.Panels = append(g.Panels, rules.Panel{Name: name, W: w, H: 10})
	}
	for _, n := range cells {
		c, err := tridGeo(n, fc)
		if err != nil {
			return nil, err
		}
		g.Cells = append(g.Cells, c)
	}
	return g, nil
}

// levelZ is the height of the fixed levels W, N, B.
var levelZ = map[byte]int{'W': 0, 'N': 2, 'B': 4}

// levelWords say the fixed levels.
var levelWords = map[byte]string{'W': "White", 'N': "Neutral", 'B': "Black"}

// boardWords say a socket ("QL1", "KL2u", "KL2d"): "attack board QL1",
// "platform KL2 up", "platform KL2 inverted".
func boardWords(s string) string {
	switch s[len(s)-1] {
	case 'u':
		return "platform " + s[:len(s)-1] + " up"
	case 'd':
		return "platform " + s[:len(s)-1] + " inverted"
	}
	return "attack board " + s
}

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

func tridGeo(n string, fc bool) (rules.Geo, error) {
	bad := fmt.Errorf("cell %q: want file, rank and level", n)
	if side, p, orient, ok := pin(n); ok {
		x, y := pinCenter(side, p)
		g := rules.Geo{Name: n, X: x, Y: y, IsSocket: true, Panel: (p - 1) / 2, PX: -1, PY: 9 - int(y), Words: boardWords(n)}
		g.Z = levelZ["WNB"[(p-1)/2]] + 1
		if orient == 'd' {
			g.Z -= 2
			g.Inverted = true
		}
		return g, nil
	}
	if len(n) < 3 {
		return rules.Geo{}, bad
	}
	f := strings.IndexByte("zabcde", n[0])
	r := int(n[1] - '0')
	if f < 0 || n[1] < '0' || n[1] > '9' {
		return rules.Geo{}, bad
	}
	g := rules.Geo{Name: n, X: float64(f), Y: float64(r), File: n[0:1], Rank: n[1:2],
		PX: f + 1, PY: 9 - r, Dark: (f+r)%2 == 0}
	if fc {
		g.PX = f + 3
	}
	lv := n[2:]
	if z, ok := levelZ[lv[0]]; ok && len(lv) == 1 {
		g.Z = z
		g.Words = n[:2] + " " + levelWords[lv[0]]
		g.Panel = strings.IndexByte("WNB", lv[0])
		return g, nil
	}
	side, p, orient, ok := pin(lv)
	if !ok {
		return rules.Geo{}, bad
	}
	g.Socket = lv
	g.Words = n[:2] + " " + boardWords(lv)
	g.Panel = (p - 1) / 2
	g.Z = levelZ["WNB"[g.Panel]] + 1
	if orient == 'd' {
		g.Z -= 2
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
