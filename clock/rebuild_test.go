package clock

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// A game resumed after a restart: the clock rebuilt from the journal's
// readings (through JSON, as the journal keeps them) comes back paused at
// the last reading, the side to move about to run; once resumed it goes on
// exactly as the clock that was never stopped would have after a pause of
// the same moments.
func TestRebuildAfterRestart(t *testing.T) {
	for _, ctl := range []string{"180+2", "300d3", "300b3", "3/100+5:60+1"} {
		orig := started(t, ctl, nil)
		var readings []Reading
		for i, o := range []time.Duration{3 * s, 7 * s, 8 * s, 15 * s, 21 * s} {
			r := play(t, orig, o+time.Duration(i)*111*ms)
			b, _ := json.Marshal(r)
			var back Reading
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			readings = append(readings, back)
		}
		// The set goes off at +25 s (black had been thinking since the last
		// move) and comes back at +400 s.
		c, err := Rebuild(MustParse(ctl), readings, rules.Black, nil)
		if err != nil {
			t.Fatalf("%s: %v", ctl, err)
		}
		if !c.Paused() || c.Moves(rules.White) != 3 || c.Moves(rules.Black) != 2 {
			t.Errorf("%s: rebuilt paused %v with %d/%d moves", ctl, c.Paused(), c.Moves(rules.White), c.Moves(rules.Black))
		}
		last := readings[len(readings)-1]
		for _, side := range []rules.Color{rules.White, rules.Black} {
			if got := c.Remaining(side, after(400*s)).Milliseconds(); got != last.MS(side) {
				t.Errorf("%s: %s rebuilt at %d ms, the journal says %d", ctl, side, got, last.MS(side))
			}
		}
		sn := c.Snapshot(after(400 * s))
		if !sn.Paused || sn.Running != "black" {
			t.Errorf("%s: rebuilt snapshot %+v", ctl, sn)
		}
		// The original, paused at its last move for the same outage.
		orig.Pause(last.At)
		for _, k := range []*Clock{orig, c} {
			k.Resume(after(400 * s))
			play(t, k, 404*s, 405*s+500*ms)
		}
		want(t, c, after(406*s), orig.Remaining(rules.White, after(406*s)), orig.Remaining(rules.Black, after(406*s)))
		// Take-backs reach across the restart.
		for range 3 {
			orig.TakeBack(after(410 * s))
			c.TakeBack(after(410 * s))
		}
		want(t, c, after(410*s), orig.Remaining(rules.White, after(410*s)), orig.Remaining(rules.Black, after(410*s)))
		if side, _ := c.Running(); side != rules.White {
			t.Errorf("%s: after the take-backs %s runs", ctl, side)
		}
	}
}

func TestRebuildFromNoMoves(t *testing.T) {
	c, err := Rebuild(MustParse("180+2"), nil, rules.White, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, c, after(time.Hour), 180*s, 180*s)
	c.Resume(after(time.Hour))
	want(t, c, after(time.Hour+s), 179*s, 180*s)
	if err := c.TakeBack(after(time.Hour + s)); err == nil {
		t.Error("took back a move that never was")
	}
}

// A resume whose time is before the journal's (a Raspberry Pi without a
// real-time clock, before NTP) charges nobody the step.
func TestRebuildResumeBeforeJournalTimes(t *testing.T) {
	rs := []Reading{reading(170*s, 180*s, 10*s)}
	c, _ := Rebuild(MustParse("180"), rs, rules.Black, nil)
	boot := t0.Add(-24 * time.Hour)
	c.Resume(boot)
	want(t, c, boot.Add(2*s), 170*s, 178*s)
}

func TestRebuildRefusesBadReadings(t *testing.T) {
	for _, tc := range []struct {
		rs   []Reading
		side rules.Color
		want string
	}{
		{[]Reading{reading(-s, 180*s, s)}, rules.Black, "reading 1 (-1000/180000 ms): negative"},
		{[]Reading{reading(170*s, 180*s, 10*s), reading(170*s, 175*s, 5*s)}, rules.White, "reading 2 at 2026-12-01T10:00:05.000Z: before"},
		{nil, 5, "side to move 5"},
	} {
		_, err := Rebuild(MustParse("180"), tc.rs, tc.side, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Rebuild(%+v) = %v, want %q", tc.rs, err, tc.want)
		}
	}
	if _, err := Rebuild(Control{}, nil, rules.White, nil); err == nil {
		t.Error("rebuilt a clock without a control")
	}
}
