package table_test

import (
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/table"
)

// Recognition does not depend on when the scan loop gets the CPU (issue
// 21): with one scan in four up to 100 ms late at random, a hand that sets
// every piece down on a square on its way for 200 ms (or slides it) and
// replies 150 ms after the last placement plays every system's games
// exactly, by settling and by clock presses: no ghost, no miss, no
// mismatch.
func TestLateScansHastyHand(t *testing.T) {
	for _, sys := range []string{"st3d", "st3d+V.A1,V.A2,V.A3", "first-contact", "millennium"} {
		for _, press := range []bool{false, true} {
			s := handSetting{sys: sys, press: press, touch: 200 * time.Millisecond, reply: 150 * time.Millisecond,
				late: 100 * time.Millisecond, hasty: true}
			t.Run(s.String(), func(t *testing.T) {
				st := tableHandStats{latency: map[string][]time.Duration{}}
				seeds := int64(6)
				if testing.Short() {
					seeds = 2 // the race detector's run (README); the full run plays six
				}
				for seed := int64(0); seed < seeds; seed++ {
					playTableHandGame(t, s, seed, 40, &st)
				}
				if st.ghosts+st.misses+st.mismatches > 0 || st.moves < 60 {
					t.Fatalf("%d games, %d moves: %d ghosts, %d misses, %d mismatches; first: %s", st.games, st.moves,
						st.ghosts, st.misses, st.mismatches, st.first)
				}
			})
		}
	}
}

// The game (issue 21): Black's queen rests 200 ms on a8B on its
// way from z9QL6 to a8QL6, and White lifts a knight 150 ms after it lands,
// while every scan comes up to 100 ms late, at random. Every schedule of
// late scans tried publishes z9QL6-a8QL6 and White's reply, never
// z9QL6-a8B.
func TestLateScansQueenRestsOnItsWay(t *testing.T) {
	const pos = "QL1:w,QL6:b,KL1:w,KL6:b qz9QL6,Nb1W,Kd0KL1,kd9KL6 b - - - 0 10"
	for seed := int64(0); seed < 60; seed++ {
		h := newHandTable(t, handSetting{sys: "st3d", late: 100 * time.Millisecond, lateEvery: 1})
		h.lateRand = rand.New(rand.NewSource(seed))
		if _, err := h.tb.Exec(table.NewGame{Position: pos}); err != nil {
			t.Fatal(err)
		}
		h.setup()
		h.wait(time.Second)
		for _, step := range []struct {
			wait        time.Duration
			open, close string
		}{
			{0, "z9QL6", ""}, {120 * time.Millisecond, "", "a8B"}, {200 * time.Millisecond, "a8B", ""},
			{60 * time.Millisecond, "", "a8QL6"}, {150 * time.Millisecond, "b1W", ""}, {150 * time.Millisecond, "", "c3W"},
		} {
			h.wait(step.wait)
			h.touch(step.open, step.close)
		}
		h.wait(time.Second)
		h.drain()
		if got, want := h.rec.moves(), []string{"z9QL6-a8QL6", "b1W-c3W"}; !slices.Equal(got, want) {
			t.Fatalf("late scans, seed %d: published %q, want %q (%s)", seed, got, want, h.rec.kinds())
		}
	}
}

// BenchmarkTableHandLate is BenchmarkTableHand with late scans (one in
// ten up to 100 ms late) and sim.HastyHand (every piece set down on its
// way for 200 ms or slid, replies 150 ms after the last placement), in
// every system, by settling and by clock presses. Run:
//
//	go test ./table -run - -bench TableHandLate -benchtime 50x
func BenchmarkTableHandLate(b *testing.B) {
	var settings []handSetting
	for _, sys := range []string{"st3d", "st3d+V.A1,V.A2,V.A3", "first-contact", "millennium"} {
		for _, press := range []bool{false, true} {
			settings = append(settings, handSetting{sys: sys, press: press, touch: 200 * time.Millisecond,
				reply: 150 * time.Millisecond, late: 100 * time.Millisecond, hasty: true})
		}
	}
	benchTableHand(b, settings)
}
