package st3d

import (
	"github.com/tridboard/tridboard/rules"
)

// cells names the cells of a set.
func cells(s rules.CellSet) []string { return s.Names(CellNames()) }
