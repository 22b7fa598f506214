package clock_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
)

func ExampleParse() {
	for _, s := range []string{"180+2", "300d3", "40/5400+30:1800+30", "40/5400:"} {
		c, err := clock.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %d period(s), %v at the start, %s %v\n", c, len(c.Periods), c.Initial(), c.Periods[0].Bonus, c.Periods[0].Amount)
	}
	// Output:
	// 180+2: 1 period(s), 3m0s at the start, increment 2s
	// 300d3: 1 period(s), 5m0s at the start, delay 3s
	// 40/5400+30:1800+30: 2 period(s), 1h30m0s at the start, increment 30s
	// clock: time control "40/5400:": period 2 "": empty period
}

// A blitz game: the table starts the clock when the game starts, hands it
// every move's completion time, and publishes snapshots.
func ExampleClock() {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c, _ := clock.New(clock.MustParse("180+2"), nil)
	c.Start(t0, rules.White)

	// White's move was completed at +8.766 s (recognized ~300 ms later).
	r, _ := c.Moved(t0.Add(8766 * time.Millisecond))
	fmt.Println("journal:", r.WhiteMS, r.BlackMS)

	b, _ := json.Marshal(c.Snapshot(t0.Add(9 * time.Second)))
	fmt.Println(string(b))

	flag, _ := c.FlagAt()
	fmt.Println("black's flag falls at", flag.Format("15:04:05.000"), "unless black moves")
	fmt.Println(clock.ClkComment(time.Duration(r.WhiteMS) * time.Millisecond))
	// Output:
	// journal: 173234 180000
	// {"control":"180+2","white_ms":173234,"black_ms":179766,"running":"black","at":"2026-12-01T10:00:09.000Z"}
	// black's flag falls at 10:03:08.766 unless black moves
	// [%clk 0:02:53]
}

// After a restart the clock comes back from the journal's readings, paused.
func ExampleRebuild() {
	at := time.Date(2026, 12, 1, 10, 0, 10, 0, time.UTC)
	readings := []clock.Reading{{WhiteMS: 172000, BlackMS: 180000, At: at}}
	c, _ := clock.Rebuild(clock.MustParse("180+2"), readings, rules.Black, nil)
	later := at.Add(time.Hour)
	fmt.Println(c.Paused(), c.Remaining(rules.Black, later))
	c.Resume(later)
	fmt.Println(c.Remaining(rules.Black, later.Add(5*time.Second)))
	// Output:
	// true 3m0s
	// 2m55s
}
