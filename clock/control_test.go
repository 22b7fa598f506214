package clock

import (
	"strings"
	"testing"
	"time"
)

const s = time.Second

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		want    []Period
	}{
		{"", "-", nil},
		{"-", "-", nil},
		{" 300 ", "300", []Period{{Time: 300 * s}}},
		{"180+2", "180+2", []Period{{Time: 180 * s, Bonus: Increment, Amount: 2 * s}}},
		{"180+0", "180", []Period{{Time: 180 * s}}},
		{"300d3", "300d3", []Period{{Time: 300 * s, Bonus: Delay, Amount: 3 * s}}},
		{"300b3", "300b3", []Period{{Time: 300 * s, Bonus: Bronstein, Amount: 3 * s}}},
		{"0300", "300", []Period{{Time: 300 * s}}},
		{"40/5400+30:1800+30", "40/5400+30:1800+30", []Period{
			{Moves: 40, Time: 5400 * s, Bonus: Increment, Amount: 30 * s},
			{Time: 1800 * s, Bonus: Increment, Amount: 30 * s}}},
		{"40/7200:20/3600", "40/7200:20/3600", []Period{{Moves: 40, Time: 7200 * s}, {Moves: 20, Time: 3600 * s}}},
		{"40/7200d5:900b10", "40/7200d5:900b10", []Period{
			{Moves: 40, Time: 7200 * s, Bonus: Delay, Amount: 5 * s},
			{Time: 900 * s, Bonus: Bronstein, Amount: 10 * s}}},
	} {
		c, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !c.Equal(Control{Periods: tc.want}) {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.in, c.Periods, tc.want)
		}
		if got := c.String(); got != tc.out {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.out)
		}
		if err := c.Check(); err != nil {
			t.Errorf("Parse(%q).Check: %v", tc.in, err)
		}
	}
}

// Every error names the part at fault.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"?", `"?" (unknown)`},
		{"*60", "sandclock"},
		{"abc", `seconds "abc": not a whole number`},
		{"0", `seconds "0": want 1..360000`},
		{"300+", "increment missing"},
		{"300d", "delay missing"},
		{"300b-1", `bronstein "-1": not a whole number`},
		{"300+3601", `increment "3601": want 0..3600`},
		{"360001", `seconds "360001"`},
		{"300+2+2", `increment "2+2": not a whole number`},
		{"/300", "move count missing"},
		{"0/300", `move count "0": want 1..1000`},
		{"40/", "seconds missing"},
		{"40/5400+30:", `period 2 "": empty period`},
		{"300:40/5400", `period 1 "300": a period without a move count is the rest of the game`},
		{"40/5400:1800x", `period 2 "1800x": seconds "1800x": not a whole number`},
		{"99999999999999999999", "want 1..360000"},
		{strings.Repeat("1/1:", 8) + "1", "9 periods, at most 8"},
	} {
		_, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q): no error, want one with %q", tc.in, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "clock: time control") {
			t.Errorf("Parse(%q): %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

func TestCheckRefusesHandMadeControls(t *testing.T) {
	for _, tc := range []struct {
		p    []Period
		want string
	}{
		{[]Period{{Time: 1500 * time.Millisecond}}, "whole seconds"},
		{[]Period{{Time: 60 * s, Amount: s}}, "without a bonus"},
		{[]Period{{Time: 60 * s, Bonus: 9, Amount: s}}, "unknown bonus"},
		{[]Period{{Time: 60 * s}, {Time: 60 * s}}, "must be the last"},
		{[]Period{{Moves: -1, Time: 60 * s}}, "move count -1"},
		{[]Period{{Time: 60 * s, Bonus: Delay}}, "delay 0s"},
	} {
		err := Control{Periods: tc.p}.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%+v) = %v, want %q", tc.p, err, tc.want)
		}
		if _, err := New(Control{Periods: tc.p}, nil); err == nil {
			t.Errorf("New(%+v) accepted a bad control", tc.p)
		}
	}
}

func TestControlText(t *testing.T) {
	var c Control
	if err := c.UnmarshalText([]byte("40/5400+30:1800+30")); err != nil {
		t.Fatal(err)
	}
	b, _ := c.MarshalText()
	if string(b) != "40/5400+30:1800+30" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := c.UnmarshalText([]byte("40/")); err == nil || c.String() != "40/5400+30:1800+30" {
		t.Errorf("a bad text changed the control to %q (err %v)", c, err)
	}
}

func TestPeriodOf(t *testing.T) {
	c := MustParse("40/7200:20/3600")
	for _, tc := range []struct{ moves, index, in int }{
		{0, 0, 0}, {39, 0, 39}, {40, 1, 0}, {59, 1, 19}, {60, 1, 0}, {85, 1, 5},
	} {
		if i, in := c.period(tc.moves); i != tc.index || in != tc.in {
			t.Errorf("period(%d) = %d, %d; want %d, %d", tc.moves, i, in, tc.index, tc.in)
		}
	}
	if i, in := MustParse("40/5400:1800").period(100); i != 1 || in != 60 {
		t.Errorf("rest of the game: period(100) = %d, %d", i, in)
	}
}

// Whatever Parse accepts, String writes so that Parse reads the same
// control and String is stable; whatever it refuses, it refuses with an
// error naming the control.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "-", "300", "180+2", "300d3", "300b3", "40/5400+30:1800+30",
		"40/7200:20/3600", "?", "*60", "40/", "1:2", "0300+00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := Parse(in)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "clock: time control") {
				t.Fatalf("Parse(%q): error %q does not name the control", in, err)
			}
			return
		}
		if err := c.Check(); err != nil {
			t.Fatalf("Parse(%q) = %q fails Check: %v", in, c, err)
		}
		out := c.String()
		d, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", in, out, err)
		}
		if !d.Equal(c) || d.String() != out {
			t.Fatalf("Parse(%q) = %q, read back as %q", in, out, d)
		}
	})
}
