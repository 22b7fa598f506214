package config

import (
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock/segment"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

func TestClockSection(t *testing.T) {
	c, err := Parse("t.yaml", []byte("clock:\n  time_control: 180+2\n  penalty: 1m\n  displays: {black: 0x76}\n"+
		"buttons:\n  clock_white: \"button:cw\"\n  clock_black: \"button:cb\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := c.Clock.Displays
	if c.TimeControl().String() != "180+2" || c.Clock.Penalty != time.Minute || c.Clock.Low != 20*time.Second ||
		d == nil || d.White != 0x74 || d.Black != 0x76 || d.Dimming != 15 {
		t.Errorf("clock section: %+v, displays %+v", c.Clock, d)
	}
	w, err := c.Wiring(st3d.CellNames())
	if err != nil || strings.Join(w.Buttons(), " ") != "button:cw button:cb" {
		t.Errorf("clock buttons wired: %v, %v", w.Buttons(), err)
	}
	c, err = Parse("t.yaml", []byte("clock:\n  displays: {dimming: 0}\n"))
	if d := c.Clock.Displays; err != nil || d.White != 0x74 || d.Black != 0x75 || d.Dimming != 0 || d.Resetup != segment.DefaultOpts().Resetup {
		t.Errorf("dimming 0: %+v, %v", d, err)
	}
	def := Default()
	if def.Clock.Penalty != 0 || def.Clock.Displays != nil || !def.TimeControl().None() {
		t.Errorf("default clock section: %+v", def.Clock)
	}
}

func TestClockRefused(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"bad control", "clock:\n  time_control: 180+x\n", `config t.yaml:2: clock.time_control: time control "180+x"`},
		{"quoted bad control", "clock:\n  time_control: \"180+\"\n", `config t.yaml:2: clock.time_control: time control "180+"`},
		{"negative penalty", "clock:\n  penalty: -1s\n", "config t.yaml:2: clock.penalty: -1s: want 0s to 1h0m0s"},
		{"low not a duration", "clock:\n  low: soon\n", `config t.yaml:2: clock.low: "soon" is not a duration`},
		{"display address", "clock:\n  displays: {white: 0x20}\n", "clock.displays: addresses 0x20 and 0x75: want 0x70 to 0x77"},
		{"same addresses", "clock:\n  displays: {white: 0x75}\n", "clock.displays: white and black both at 0x75"},
		{"dimming", "clock:\n  displays: {dimming: 16}\n", "clock.displays.dimming: 16: want 0 to 15"},
		{"addresses and dimming at once", "clock:\n  displays:\n    white: 0x20\n    dimming: 16\n",
			"config t.yaml:3: clock.displays: addresses 0x20 and 0x75: want 0x70 to 0x77\nconfig t.yaml:4: clock.displays.dimming: 16: want 0 to 15"},
		{"clock button name", "buttons:\n  clock_white: w\n", `buttons.clock_white: "w": a button's cell name starts with "button:"`},
		{"clock button twice", "buttons:\n  clock_white: \"button:c\"\n  clock_black: \"button:c\"\n", `"button:c" is also buttons.clock_`},
	} {
		_, err := Parse("t.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestClockAndLessonAtOnce: the clock and lesson sections are the table's
// Opts (table.ClockOpts, table.HintOpts); their problems come with the
// file, line and full key, all at once, beside the file's others.
func TestClockAndLessonAtOnce(t *testing.T) {
	_, err := Parse("t.yaml", []byte("clock:\n  time_control: 180+x\n  low: 2h\n  penalty: soon\n"+
		"lesson:\n  hints: {white: -3}\n  assist: {black: most}\nrecognition:\n  settle: 0s\n"))
	want := strings.Join([]string{
		`config t.yaml:2: clock.time_control: time control "180+x": increment "x": not a whole number`,
		`config t.yaml:4: clock.penalty: "soon" is not a duration (such as 5ms or 1.5s)`,
		`config t.yaml:9: recognition.settle: 0s: want 1ms to 5s`,
		`config t.yaml:3: clock.low: 2h0m0s: want 0s to 1h0m0s`,
		`config t.yaml:6: lesson.hints.white: -3: want -1 (no limit) to 1000`,
		`config t.yaml:7: lesson.assist.black: "most": want full, explain or none`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%s", err, want)
	}
	c, err := Parse("t.yaml", []byte("clock:\n  time_control: \"40/5400+30:1800+30\"\n  low: 30s\n"+
		"lesson:\n  hints: {white: -1, black: 0}\n  assist: {black: explain}\n  lock: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Clock.Default.String() != "40/5400+30:1800+30" || c.Clock.Low != 30*time.Second ||
		c.Lesson != (table.HintOpts{Limit: table.Sides[int]{White: -1}, Nodes: table.DefaultHintOpts().Nodes, Locked: true,
			Assist: table.Sides[game.Assist]{White: game.AssistFull, Black: game.AssistExplain}}) {
		t.Errorf("clock %+v, lesson %+v", c.Clock.ClockOpts, c.Lesson)
	}
}
