package segment_test

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/clock/segment"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sim"
)

// Two backpacks on one bus (here the simulated one), refreshed from the
// clock's snapshot.
func ExampleDisplay() {
	bus := sim.NewBus("")
	white, black := sim.NewHT16K33(0x74), sim.NewHT16K33(0x75)
	bus.Attach(0x74, white)
	bus.Attach(0x75, black)
	d, err := segment.New(bus, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c, _ := clock.New(clock.MustParse("180+2"), nil)
	c.Start(t0, rules.White)
	snap := c.Snapshot(t0)
	d.Show(snap, t0.Add(61500*time.Millisecond)) // the display counts down from the snapshot
	w, b := white.RAM(), black.RAM()
	fmt.Printf("white % x\nblack % x\n", w[:10], b[:10]) // 1:58 and 3:00
	// Output:
	// white 00 00 06 00 02 00 6d 00 7f 00
	// black 00 00 4f 00 02 00 3f 00 3f 00
}
