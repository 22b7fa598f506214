package targets_test

import (
	"fmt"
	"slices"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/targets"
)

// The knight on a1W, lifted in the start position, may go to b3 on the
// white and on the neutral level.
func ExampleLifted() {
	p := st3d.Start()
	a1W, _ := rules.CellByName(st3d.System, "a1W")
	s, _ := targets.Lifted(p, rules.CellSetOf(a1W), nil)
	got := s.Targets.Names(st3d.System.Cells())
	slices.Sort(got)
	fmt.Println(got, s.Captures.Empty(), s.Pins.Empty())
	// Output: [b3N b3W] true true
}
