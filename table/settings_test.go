package table_test

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/table"
)

// TestClockOptsValidate: the defaults are valid; each bad setting of the
// clock section is named by its yaml key with what it accepts, all at
// once.
func TestClockOptsValidate(t *testing.T) {
	o := table.DefaultClockOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.Default = clock.Control{Periods: []clock.Period{{Time: 1500 * time.Millisecond}}}
	o.Low, o.Penalty = 2*time.Hour, -time.Second
	const want = "table: clock: time_control: time control period 1: time 1.5s: want whole seconds, 1s..360000s; " +
		"low: 2h0m0s: want 0s to 1h0m0s; penalty: -1s: want 0s to 1h0m0s"
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestHintOptsValidate: the defaults are valid; each side's hint limit
// and assistance are checked under their yaml keys, all at once.
func TestHintOptsValidate(t *testing.T) {
	o := table.DefaultHintOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.Limit = table.Sides[int]{White: -1, Black: game.MaxHintLimit + 1}
	o.Assist = table.Sides[game.Assist]{White: "most", Black: game.AssistNone}
	const want = `table: lesson: assist.white: "most": want full, explain or none; hints.black: 1001: want -1 (no limit) to 1000`
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if s := (table.Sides[int]{White: 1, Black: 2}); s.Of(0) != 1 || s.Of(1) != 2 {
		t.Errorf("Of: %d %d", s.Of(0), s.Of(1))
	}
}
