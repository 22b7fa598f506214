package table_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/table"
)

// Low time leaves the settle window as it is (issue 21): in a 15 s game,
// under the low-time threshold from the first move, a pawn b2W-b4W that
// rests 160-280 ms on b3W on its way is b2W-b4W, with or without clock
// buttons (the shortened 150 ms window of old made it b2W-b3W). The reply
// and the press confirm the move at once.
func TestLowTimeTouchDownIsNoGhost(t *testing.T) {
	for _, buttons := range []bool{false, true} {
		for _, rest := range []int{160, 200, 240, 280} {
			t.Run(fmt.Sprintf("buttons=%v/rest=%dms", buttons, rest), func(t *testing.T) {
				var edit []func(*table.Opts)
				if buttons {
					edit = append(edit, func(o *table.Opts) {
						o.Buttons = map[string]table.Button{"button:queen": {Kind: table.ButtonClockWhite},
							"button:knight": {Kind: table.ButtonClockBlack}}
					})
				}
				r := newClockRig(t, "15", edit...)
				press := func(button string) {
					if !buttons {
						return
					}
					if err := r.b.Set.Press(button); err != nil {
						t.Fatal(err)
					}
					r.run(50 * time.Millisecond)
					if err := r.b.Set.Release(button); err != nil {
						t.Fatal(err)
					}
				}
				press("button:knight") // buttons: Black's press starts White's clock
				r.run(200 * time.Millisecond)
				if !r.clk().Low(r.tb.Snapshot().Expected.Turn(), r.b.Clock.Now()) {
					t.Fatal("a 15 s game is not in low time")
				}
				r.act("lift b2W", "wait 80", "place b3W", fmt.Sprintf("wait %d", rest), "lift b3W", "wait 60", "place b4W",
					"wait 100")
				press("button:queen")
				r.act("wait 150", "lift b7B", "wait 120", "place b6B", "wait 100")
				press("button:knight")
				r.run(time.Second)
				r.drain()
				if got, want := r.rec.moves(), []string{"b2W-b4W", "b7B-b6B"}; !slices.Equal(got, want) {
					t.Fatalf("published %q, want %q (%s)", got, want, r.rec.kinds())
				}
				if _, ok := r.event(table.Illegal); ok {
					t.Fatalf("an illegal move on the way: %s", r.rec.kinds())
				}
			})
		}
	}
}
