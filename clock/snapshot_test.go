package clock

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
)

func TestSnapshotJSON(t *testing.T) {
	c := started(t, "180+2", nil)
	at := after(8*s + 766*ms + 400*time.Microsecond)
	for _, tc := range []struct {
		name string
		c    *Clock
		at   time.Time
		want string
	}{
		{"running", c, at,
			`{"control":"180+2","white_ms":171234,"black_ms":180000,"running":"white","at":"2026-12-01T10:00:08.766Z"}`},
		{"on the second", c, after(10 * s),
			`{"control":"180+2","white_ms":170000,"black_ms":180000,"running":"white","at":"2026-12-01T10:00:10.000Z"}`},
		{"low", c, after(165 * s),
			`{"control":"180+2","white_ms":15000,"black_ms":180000,"running":"white","at":"2026-12-01T10:02:45.000Z","low":"white"}`},
		{"flag", c, after(200 * s),
			`{"control":"180+2","white_ms":0,"black_ms":180000,"at":"2026-12-01T10:03:20.000Z","flag":"white","low":"white"}`},
	} {
		b, err := json.Marshal(tc.c.Snapshot(tc.at))
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s %v\nwant %s", tc.name, b, err, tc.want)
		}
	}
	p := started(t, "40/5400d30:1800", &Opts{Low: 2 * time.Hour})
	p.Pause(after(10 * s))
	b, _ := json.Marshal(p.Snapshot(after(20 * s)))
	const w = `{"control":"40/5400d30:1800","white_ms":5400000,"black_ms":5400000,"running":"white","at":"2026-12-01T10:00:20.000Z",` +
		`"paused":true,"low":"both","delay_ms":20000,"white_period":1,"white_togo":40,"black_period":1,"black_togo":40}`
	if string(b) != w {
		t.Errorf("paused, periods:\n%s\nwant %s", b, w)
	}
	var back Snapshot
	if err := json.Unmarshal(b, &back); err != nil || back != p.Snapshot(after(20*s)) {
		t.Errorf("read back %+v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"at":"yesterday"}`), &back); err == nil {
		t.Error("a bad time was read")
	}
	before, _ := New(MustParse("300"), nil)
	if b, _ := json.Marshal(before.Snapshot(t0)); string(b) != `{"control":"300","white_ms":300000,"black_ms":300000,"at":"2026-12-01T10:00:00.000Z"}` {
		t.Errorf("before the start: %s", b)
	}
}

// A display that got a snapshot at any moment computes the same times as
// the clock, to the millisecond, under every kind of bonus, through moves,
// delays and a pause.
func TestSnapshotRemainingAgreesWithClock(t *testing.T) {
	for _, ctl := range []string{"60", "60+2", "60d3", "60b3", "2/20d1:30b2"} {
		c := started(t, ctl, nil)
		var at time.Duration
		step := func(to time.Duration) {
			for ; at < to; at += 250 * ms {
				sn := c.Snapshot(after(at))
				for _, ahead := range []time.Duration{0, 400 * ms, 1700 * ms, 3100 * ms} {
					if at+ahead > to {
						break
					}
					for _, side := range []rules.Color{rules.White, rules.Black} {
						got := sn.Remaining(side, after(at+ahead)).Milliseconds()
						if w := c.Remaining(side, after(at+ahead)).Milliseconds(); got != w {
							t.Fatalf("%s: snapshot at +%v, %s at +%v: display %d ms, clock %d ms",
								ctl, at, side, at+ahead, got, w)
						}
					}
				}
			}
		}
		for i, turn := range []time.Duration{1500 * ms, 5 * s, 800 * ms, 2 * s, 3500 * ms} {
			step(at + turn)
			if i == 2 {
				c.Pause(after(at))
				step(at + 2*s)
				c.Resume(after(at))
				step(at + 500*ms)
			}
			if _, err := c.Moved(after(at)); err != nil {
				t.Fatalf("%s: %v", ctl, err)
			}
		}
	}
}

// Low time is a warning only (issue 21: it no longer shortens the
// recognizer's settle window).
func TestLow(t *testing.T) {
	c := started(t, "60+1", nil)
	for _, tc := range []struct {
		at  time.Duration
		low bool
	}{
		{0, false}, {40 * s, false}, {40*s + 1, true}, {59 * s, true},
	} {
		if got := c.Low(rules.White, after(tc.at)); got != tc.low {
			t.Errorf("+%v: Low = %v", tc.at, got)
		}
	}
	quiet := started(t, "60", &Opts{})
	if quiet.Low(rules.White, after(59*s)) {
		t.Error("no threshold still warns")
	}
}
