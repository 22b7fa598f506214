package glicko_test

import (
	"fmt"

	"github.com/tridboard/tridboard/event/glicko"
)

// A player rated 1500 (deviation 200) beats a 1400, loses to a 1550 and to
// a 1700 in one rating period: Glickman's worked example.
func ExampleOpts_Update() {
	o := glicko.DefaultOpts()
	p := glicko.Rating{Rating: 1500, RD: 200, Vol: 0.06}
	after, err := o.Update(p, []glicko.Game{
		{Opponent: glicko.Rating{Rating: 1400, RD: 30, Vol: 0.06}, Score: 1},
		{Opponent: glicko.Rating{Rating: 1550, RD: 100, Vol: 0.06}, Score: 0},
		{Opponent: glicko.Rating{Rating: 1700, RD: 300, Vol: 0.06}, Score: 0},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.0f ±%.0f\n", after.Rating, after.RD)
	// Output: 1464 ±152
}
