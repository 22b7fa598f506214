package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/rules/st3d"
)

// run runs the binary's dispatch in-process.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = dispatch(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestPerftCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		last string
	}{
		{[]string{"perft", "3"}, "9128"},
		{[]string{"perft", "0"}, "1"},
		{[]string{"perft", "--position", "QL1:w,QL6:b,KL1:w,KL6:b Pb4W,pc4N,Kd0KL1,kd9KL6 b - b4W - 0 10", "2"}, "136"},
		{[]string{"perft", "--variant", "millennium", "2"}, "9992"},   // docs/rules.md
		{[]string{"perft", "--variant", "first-contact", "2"}, "552"}, // 24 placements, then 23
		{[]string{"perft", "--options", "V.P5:409", "3"}, "9128"},     // 409 is the ordinary setup (V2)
		{[]string{"perft", "--options", "V.P2", "2"}, "400"},
		{[]string{"perft", "--variant", "st3d", "--options", "V.A1", "1"}, "20"},
	} {
		code, out, errs := run(tc.args...)
		if code != exitOK || lastLine(out) != tc.last {
			t.Errorf("%v: exit %d, last line %q (stderr %q), want %s", tc.args, code, lastLine(out), errs, tc.last)
		}
	}
	code, out, _ := run("perft", "--divide", "2")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 21 || lines[0] != "a1W-b3N 20" || lines[20] != "400" {
		t.Errorf("perft --divide 2: exit %d, %d lines, first %q, last %q", code, len(lines), lines[0], lines[len(lines)-1])
	}
}

func TestMovesCommand(t *testing.T) {
	code, out, _ := run("moves")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 20 || lines[0] != "a1W-b3N" || lines[19] != "d2W-d4W" {
		t.Errorf("moves: exit %d, %q", code, lines)
	}
	code, out, _ = run("moves", "--position", "QL1:w,QL6:b,KL6:b Ka1QL1,ra5N,kd9KL6 w - - - 0 10")
	if want := "QL1-KL1\nQL1-QL2\na1QL1-b1W\na1QL1-b2W\na1QL1-z0QL1\na1QL1-z1QL1\n"; code != exitOK || out != want {
		t.Errorf("moves in check: exit %d\n%s\nwant\n%s", code, out, want)
	}
}

func TestReplayCommand(t *testing.T) {
	game := writeFile(t, "g.txt", `[Event "test"]
1. b3W {quiet} d6B 2. Nc3N c5B?! 3. QL3?? e.p. (=) 1-0
`)
	code, out, errs := run("replay", game)
	if code != exitFailure || !strings.Contains(errs, "move 3 (white) QL3??: not legal in this position") {
		t.Errorf("replay with an illegal move: exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "b2W-b3W\nd7B-d6B\nd1W-c3N\nc7B-c5B\n") {
		t.Errorf("replay printed %q before the illegal move", out)
	}
	game = writeFile(t, "g2.txt", "1. b3W d6B 2. 0-0 Nc6B *\n")
	code, out, errs = run("replay", game)
	want := "b2W-b3W\nd7B-d6B\n0-0\nd8B-c6B\n"
	if code != exitOK || !strings.HasPrefix(out, want) {
		t.Fatalf("replay: exit %d, %q (%s)", code, out, errs)
	}
	p, err := st3d.Parse(lastLine(out))
	if err != nil || !strings.Contains(p.String(), "Ke0KL1") {
		t.Errorf("final position %q: %v", lastLine(out), err)
	}
	// D17: an ambiguous push is read by the convention and said so.
	game = writeFile(t, "g3.txt", "[Position \"QL1:w,QL6:b,KL1:w,KL6:b Pa4W,Pa4N,Kd0KL1,kd9KL6 w - - - 0 10\"]\n10. a5N *\n")
	code, out, errs = run("replay", game)
	if code != exitOK || !strings.HasPrefix(out, "a4N-a5N\n") || !strings.Contains(errs, "D17") {
		t.Errorf("D17: exit %d, out %q, stderr %q", code, out, errs)
	}
}

// A record that needs its Position tag is refused at once without it
// (issue 33): a custom setup (V.P3, V.P4) has no start, and a V.P5 setup
// drawn at random is not the game's. Nothing is printed.
func TestReplayNeedsItsSetup(t *testing.T) {
	game := writeFile(t, "g.txt", "1. b3W d6B *\n")
	for _, tc := range []struct {
		options string
		code    int
		msg     string
	}{
		{"V.P5:random", exitFailure, "--options V.P5:random draws a setup at random: the record needs its Position tag"},
		{"V.P5", exitFailure, "--options V.P5 draws a setup at random"},
		{"V.A1,v.p5:RANDOM", exitFailure, "draws a setup at random"},
		{"V.P3", exitFailure, "a custom setup (V.P3, V.P4) needs a Position tag"},
		{"V.P5:409", exitOK, ""}, // 409 is the ordinary setup (V2)
	} {
		code, out, errs := run("replay", "--options", tc.options, game)
		if code != tc.code || tc.msg != "" && (!strings.Contains(errs, tc.msg) || out != "") || tc.msg == "" && !strings.HasPrefix(out, "b2W-b3W\nd7B-d6B\n") {
			t.Errorf("replay --options %s: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.options, code, out, errs, tc.code, tc.msg)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"perft", "--position", "nonsense", "2"}, exitFailure, "want 8 separated by single spaces"},
		{[]string{"perft", "x"}, exitUsage, `depth "x"`},
		{[]string{"perft"}, exitUsage, "one DEPTH"},
		{[]string{"moves", "--variant", "chess", ""}, exitUsage, "no arguments"},
		{[]string{"moves", "--variant", "chess"}, exitUsage, `unknown variant "chess"`},
		{[]string{"perft", "--variant", "chess", "1"}, exitUsage, `unknown variant "chess"`},
		{[]string{"replay", "--variant", "chess", "-"}, exitUsage, `unknown variant "chess"`},
		{[]string{"perft", "--options", "V.Z9", "1"}, exitUsage, "--options: "},
		{[]string{"moves", "--options", "V.P3"}, exitUsage, "a custom setup (V.P3, V.P4) starts from --position"},
		{[]string{"perft", "--position", "QL1:w,QL6:b,KL1:w,KL6:b Kb2W,kc7B w - - - 0 10", "--variant", "millennium", "1"}, exitFailure, "millennium"},
		{[]string{"config", "frob", "x.yaml"}, exitUsage, `unknown action "frob"`},
		{[]string{"config"}, exitUsage, "usage: tridboard config check FILE"},
		{[]string{"config", "check", "a.yaml", "b.yaml"}, exitUsage, "usage: tridboard config check FILE"},
		{[]string{"export", "--list", "--state-dir", "/nonexistent"}, exitFailure, "state directory /nonexistent: no such directory (give --state-dir)"},
		{[]string{"replay", "/nonexistent"}, exitFailure, "no such file"},
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"run", "--log-level", "loud"}, exitUsage, `log level "loud"`},
		{[]string{"config", "check"}, exitUsage, "usage: tridboard config check FILE"},
		{[]string{"export", "--state-dir", "/nonexistent"}, exitFailure, "state directory /nonexistent: no such directory"},
		{[]string{"export", "--state-dir", os.TempDir()}, exitFailure, "no current game"},
		{[]string{"perft", "--options", "V.A1,V.A5", "1"}, exitUsage, "V.A1 and V.A5 cannot be combined"},
		{[]string{"perft", "--variant", "millennium", "--options", "V.A1", "1"}, exitUsage, "variant millennium has no options"},
	} {
		code, _, errs := run(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) || strings.Count(strings.TrimSpace(errs), "\n") > 0 && tc.code == exitFailure {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q on one line", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}

func TestHelpEverywhere(t *testing.T) {
	for name := range commands {
		code, out, _ := run(name, "--help")
		if code != exitOK || !strings.Contains(out, "usage: tridboard "+name) {
			t.Errorf("%s --help: exit %d, %q", name, code, out)
		}
	}
	for _, args := range [][]string{{"config", "check", "--help"}, {"config", "check", "-h"}} {
		if code, out, _ := run(args...); code != exitOK || !strings.HasPrefix(out, "usage: tridboard config check FILE") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	if code, out, _ := run("help"); code != exitOK || !strings.Contains(out, "demo") {
		t.Errorf("help: %d %q", code, out)
	}
}

func TestConfigCheckCommand(t *testing.T) {
	code, out, errs := run("config", "check", "../../deploy/matrix.yaml")
	if code != exitOK || !strings.Contains(out, "sensors: 2 expanders, 108 cells, 2 buttons") {
		t.Errorf("config check matrix.yaml: exit %d, %q %q", code, out, errs)
	}
	bad := writeFile(t, "bad.yaml", "sensors:\n  period: 0ms\n")
	code, _, errs = run("config", "check", bad)
	if code != exitFailure || !strings.Contains(errs, "bad.yaml:2: sensors.period: 0s: want 1ms to 1s") {
		t.Errorf("config check bad.yaml: exit %d, %q", code, errs)
	}
}

// TestConfigCheckAsRun: config check prints every problem at once, each
// with its key and line, exactly as config.Validate (which run uses) words
// it; what run refuses, check refuses.
func TestConfigCheckAsRun(t *testing.T) {
	text := "board_id: \"a\\0b\"\nrecognition:\n  settle: 0s\nmqtt:\n  listen: 0.0.0.0:70000\n  username: u\n" +
		"  websocket: 0.0.0.0:8080\nsensors:\n  preset: \"\"\n  wiring:\n    expanders:\n      - {address: 0x20, mode: direct, cells: [{cell: a1W, bit: 0}, {cell: b1W, bit: 0}]}\n" +
		"leds:\n  mapping: {driver: ht16k33, addr: 0x71, cells: {zz9: 1}}\n"
	bad := writeFile(t, "bad.yaml", text)
	code, out, errs := run("config", "check", bad)
	c, err := config.Read(bad)
	if err != nil {
		t.Fatal(err)
	}
	want := c.Validate(st3d.System.Cells())
	if code != exitFailure || out != "" || want == nil || errs != want.Error()+"\n" {
		t.Fatalf("config check: exit %d, stdout %q, stderr\n%s\nwant\n%v", code, out, errs, want)
	}
	for _, line := range []string{
		`bad.yaml:1: board_id: "a\x00b": want a non-empty name without / + # or NUL`,
		"bad.yaml:3: recognition.settle: 0s: want 1ms to 5s",
		`bad.yaml:6: mqtt.username: "u" without a password`,
		`bad.yaml:5: mqtt.listen: "0.0.0.0:70000": port "70000": want 0 to 65535`,
		"bad.yaml:11: sensors.wiring: sensors: expander 0x20: bit 0 wired twice: a1W and b1W",
		"bad.yaml:14: leds.mapping: leds: cell zz9: not a cell of the set",
	} {
		if !strings.Contains(errs, line) {
			t.Errorf("config check lacks %s:\n%s", line, errs)
		}
	}
	if n := strings.Count(errs, "\n"); n < 6 {
		t.Errorf("%d problems reported, want all:\n%s", n, errs)
	}
	bomb := writeFile(t, "bomb.yaml", "a: &a [x, x]\nb: &b [*a, *a]\n")
	if code, _, errs := run("config", "check", bomb); code != exitFailure || !strings.Contains(errs, "YAML anchors and aliases") {
		t.Errorf("alias bomb: exit %d, %q", code, errs)
	}
}

func TestVersionCommand(t *testing.T) {
	code, out, _ := run("version")
	if code != exitOK || !strings.HasPrefix(out, "tridboard dev") {
		t.Errorf("version: %d %q", code, out)
	}
}
