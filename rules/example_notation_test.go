package rules_test

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
)

// Moves as records copied from web pages write them, reduced to what the
// systems' readers match.
func ExampleCleanMove() {
	for _, s := range []string{"♛×1b2+", "O–O–O", "dWxe2KL3 e.p.+", "Nc6B!? $1", "1e2—1e4"} {
		fmt.Println(rules.CleanMove(s))
	}
	// Output:
	// Qx1b2
	// 0-0-0
	// dWxe2KL3
	// Nc6B
	// 1e2-1e4
}
