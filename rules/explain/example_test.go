package explain_test

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/explain"
	"github.com/tridboard/tridboard/rules/st3d"
)

func ExampleExplain() {
	// White's rook b2W shields its king b1W from the black rook b4N.
	pos, _ := st3d.System.ParsePosition("QL1:w,KL6:b Kb1W,Rb2W,rb4N,kc8B w - - - 0 30")
	from, _ := rules.CellByName(st3d.System, "b2W")
	to, _ := rules.CellByName(st3d.System, "c2W")
	e := explain.Explain(pos, from, to)
	fmt.Println(e.Reason)
	fmt.Println(e.Text)
	fmt.Println(e.Cells.Names(st3d.CellNames()))
	// Output:
	// king in check
	// Your king on b1W would be in check from the rook on b4N.
	// [b1W b2W c2W b4N]
}
