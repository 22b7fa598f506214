package trust_test

import (
	"fmt"

	"github.com/tridboard/tridboard/trust"
)

func Example() {
	set, _ := trust.NewKey() // a set: trust.LoadOrCreate(stateDir)
	payload, _ := set.Seal("enterprise", "state", []byte(`{"game":"g1","result":"*"}`))

	ring, _ := trust.OpenRing("") // a reader: the keys enrolled
	ring.Enroll("enterprise", set.Public())
	c := trust.NewChecker(trust.DefaultCheckerOpts(ring))
	body, err := c.Check("enterprise", "state", payload)
	fmt.Println(string(body), err)
	// Output: {"game":"g1","result":"*"} <nil>
}
