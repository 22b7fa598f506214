package systems_test

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// A layer above the rules finds a system by name and asks the registry
// where its cells stand and what its games do, instead of reading names.
func ExampleGeometryOf() {
	sys, _ := systems.ByName("st3d+V.A1")
	g, _ := systems.GeometryOf(sys)
	c, _ := rules.CellByName(sys, "z0QL1")
	geo := g.Cells[c]
	fmt.Printf("%s: file %s rank %s, height %d, on panel %s, carried by %s\n", geo.Name, geo.File, geo.Rank, geo.Z, g.Panels[geo.Panel].Name, geo.Socket)
	caps := systems.CapsOf(sys)
	fmt.Printf("%s; boards move: %v; pieces placed: %v\n", caps.Set, caps.BoardMoves, caps.Placement)
	// Output:
	// z0QL1: file z rank 0, height 1, on panel W, carried by QL1
	// a Star Trek 3D chess set; boards move: true; pieces placed: false
}
