package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// --clock takes a time control as PGN writes it, or as players say it:
// minutes (under 60, no unit) and an increment in seconds.
func TestDemoClockFlag(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"", "", ""},
		{"3+2", "180+2", ""},
		{"5", "300", ""},
		{"19+1", "1140+1", ""},
		{"180+2", "180+2", ""},
		{"300d3", "300d3", ""},
		{"soon", "", `clock: time control "soon": `},
		{"0", "", `clock: time control "0": seconds "0": want 1..360000`},
		{"-", "", "no time control"},
	} {
		got, err := demoClock(tc.in)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got != tc.want || tc.err == "" && msg != "" || tc.err != "" && !strings.HasPrefix(msg, tc.err) {
			t.Errorf("demoClock(%q) = %q, %q; want %q, %q", tc.in, got, msg, tc.want, tc.err)
		}
	}
}

// demo --clock plays the game on the set's clock (issue 29): Black's press
// starts it, every move is completed by its mover's tap, and both clocks
// run down (sudden death: each side's time only falls, and fell).
func TestDemoOnTheClock(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "demo", "--clock", "1", "--pause", "60").CombinedOutput()
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "All 14 moves were recognized, journaled and published in order.") ||
		!regexp.MustCompile(`(?m)^The clock stopped with the game:  white 0:00:\d\d(\.\d)? black 0:00:\d\d(\.\d)?$`).MatchString(text) ||
		!strings.Contains(text, "hand: tap clock_black (Black starts White's clock)\n") {
		t.Fatalf("demo output:\n%s", text)
	}
	hands := regexp.MustCompile(`(?m)^hand: .*, tap (clock_white|clock_black)$`).FindAllStringSubmatch(text, -1)
	if len(hands) != 14 {
		t.Fatalf("%d moves ended by a tap of the clock, want 14:\n%s", len(hands), text)
	}
	for i, h := range hands {
		if want := []string{"clock_white", "clock_black"}[i%2]; h[1] != want {
			t.Errorf("move %d tapped %s, want %s", i+1, h[1], want)
		}
	}
	times := regexp.MustCompile(`(?m)^  published .* white (\d+):(\d\d):(\d\d(?:\.\d)?) black (\d+):(\d\d):(\d\d(?:\.\d)?)$`).FindAllStringSubmatch(text, -1)
	if len(times) != 14 {
		t.Fatalf("%d published moves with both clocks, want 14:\n%s", len(times), text)
	}
	clk := func(h, m, s string) time.Duration {
		d, err := time.ParseDuration(h + "h" + m + "m" + s + "s")
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	prev := [2]time.Duration{time.Minute, time.Minute}
	for i, m := range times {
		now := [2]time.Duration{clk(m[1], m[2], m[3]), clk(m[4], m[5], m[6])}
		for side := range now {
			if now[side] > prev[side] {
				t.Errorf("after move %d the %d clock went up: %v -> %v", i+1, side, prev[side], now[side])
			}
		}
		prev = now
	}
	if prev[0] >= time.Minute || prev[1] >= time.Minute {
		t.Errorf("after the game white %v black %v: both clocks must have run down", prev[0], prev[1])
	}
}

// Issue 39: a demo game that its moves leave unfinished (--moves, or a
// system whose game stops at 60 moves) ends with its clock paused, so that
// the page left open never says minutes later that a side lost on time;
// --moves below 0 is refused.
func TestDemoClockPausedWhenMovesEnd(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "demo", "--clock", "1", "--moves", "4", "--pause", "60").CombinedOutput()
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "All 4 moves were recognized, journaled and published in order.") ||
		!regexp.MustCompile(`(?m)^The clock paused: the game goes on, the demo's moves are over:  white 0:00:[1-5]\d(\.\d)? black 0:00:[1-5]\d(\.\d)?$`).MatchString(text) {
		t.Errorf("demo output:\n%s", text)
	}
	var stdout, stderr strings.Builder
	if code := runDemo([]string{"--moves", "-1"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "--moves -1: want 0 (the whole game) or more") {
		t.Errorf("--moves -1: exit %d\n%s", code, stderr.String())
	}
}
