package engine_test

import (
	"context"
	"fmt"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules/st3d"
)

// A hint: the best move within a budget of nodes, shown in two stages as
// the cells it lifts from and puts down on.
func ExampleSearch() {
	// st3d's reference board-move mate: KL4-KL6 carries the rook to e9KL6.
	pos, _ := st3d.System.ParsePosition("QL6:b,KL4:w Kb2W,pa8B,Re7KL4,pz8QL6,pa8QL6,kz9QL6 w - - - 0 60")
	res, err := engine.Search(context.Background(), pos, engine.Opts{Nodes: 10_000})
	if err != nil {
		fmt.Println(err)
		return
	}
	in := pos.Info(res.Move)
	cells := pos.System().Cells()
	fmt.Println(pos.Long(res.Move), res.Score)
	fmt.Println("lift", cells[in.From], "then put on", cells[in.To])
	// Output:
	// KL4-KL6 mate 1
	// lift KL4 then put on KL6
}
