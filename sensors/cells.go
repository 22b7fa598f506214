package sensors

import "github.com/tridboard/tridboard/rules/st3d"

// st3dCells is st3d.CellNames(), rebuilt from Square and Pin when the
// package variable behind it was computed before st3d's init filled the
// square names (its squares then read ""). TODO: use st3d.CellNames()
// directly once rules/st3d initialises it after the geometry tables.
func st3dCells() []string {
	names := st3d.CellNames()
	if len(names) > 0 && names[0] != "" {
		return names
	}
	out := make([]string, st3d.NumCells)
	for s := 0; s < st3d.NumSquares; s++ {
		out[s] = st3d.Square(s).String()
	}
	for p := 0; p < st3d.NumPins; p++ {
		out[st3d.NumSquares+p] = st3d.Pin(p).String()
	}
	return out
}

// ST3DCells is the cell list of the ST3D set (hardware.md): its 96 squares,
// then its 12 pins, as st3d.CellNames() lists them. The slice must not be
// changed.
var ST3DCells = st3dCells()
