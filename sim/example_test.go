package sim_test

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// A script on the Millennium set (hardware.md's matrix build), then the
// gestures of a First Contact platform inversion.
func ExampleSet_Do() {
	b, err := sim.New(sets.MillenniumMatrixWiring())
	if err != nil {
		panic(err)
	}
	for _, line := range []string{"lift 1e2", "place 2e3", "wait 200", "lift 3d7 # black's reply", "place 3d5"} {
		a, ok, err := sim.ParseAction(line)
		if err != nil {
			panic(err)
		}
		if ok {
			if err := b.Set.Do(a); err != nil {
				panic(err)
			}
		}
	}
	fmt.Println(b.Set.System().Name(), b.Set.Closed().Len(), "pieces")

	p, _ := firstcontact.System.ParsePosition("QL1u:-,QL3u:-,KL4u:-,KL6u:- Kb2W,kc7B w - - - 0 4 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -")
	m, _, _ := p.ParseMove("QL3u-QL3d")
	var lines []string
	for _, a := range sim.Gestures(p, m, sim.PlainStyle) {
		lines = append(lines, a.String())
	}
	fmt.Println(strings.Join(lines, "; "))
	// Output:
	// millennium 32 pieces
	// lift QL3u; wait 150; place QL3d; wait 150
}
