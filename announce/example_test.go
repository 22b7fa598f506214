package announce_test

import (
	"fmt"

	"github.com/tridboard/tridboard/announce"
)

func ExampleTXT() {
	for _, s := range announce.TXT("table-3", "st3d", "v1.4.0", "/boards/table-3") {
		fmt.Println(s)
	}
	// Output:
	// board=table-3
	// rules=st3d
	// version=v1.4.0
	// path=/boards/table-3
}
