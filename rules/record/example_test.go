package record_test

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules/record"
)

// A record pasted from a web page: figurines, "×", a variation, a NAG and
// a result with an en dash.
func ExampleRead() {
	rec, err := record.Read(strings.NewReader(`[White “Davis”]

1. ♘2g3 ♝2b7 (1... 3e6) 2. ♗3e3 $1 ♞3c6 {and so on} 0–1`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Tag("White"), rec.Moves, rec.Result)
	// Output: Davis [N2g3 B2b7 B3e3 N3c6] 0-1
}
