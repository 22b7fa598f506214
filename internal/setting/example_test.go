package setting_test

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/internal/setting"
)

// A package's Opts check their settings in Validate, each problem keyed by
// its yaml name; config reads the problems back with Of and adds the
// file, the line and the section.
func ExampleProblems() {
	settle := 10 * time.Second
	var ps setting.Problems
	ps.Between("settle", settle, time.Millisecond, 5*time.Second)
	err := ps.Err("recognize")
	fmt.Println(err)
	for _, p := range setting.Of(err) {
		fmt.Printf("recognition.%s: %s\n", p.Key, p.Msg)
	}
	// Output:
	// recognize: settle: 10s: want 1ms to 5s
	// recognition.settle: 10s: want 1ms to 5s
}
