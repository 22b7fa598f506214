package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doctor --sim with each rehearsed fault: one problem line for it, exit 1;
// the set as built: all is well, exit 0; bad usage: exit 2.
func TestDoctorSim(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--sim"}, exitOK, []string{"ok: 8 of 8 configured chips answer", "all is well"}},
		{[]string{"--sim", "--variant", "millennium"}, exitOK, []string{"192 cells of millennium", "all is well"}},
		{[]string{"--sim", "--empty"}, exitOK, []string{"all is well"}},
		{[]string{"--sim", "--sim-fault", "missing:0x23"}, exitFailure, []string{"problem: expander 0x23 (MCP23017) does not answer"}},
		{[]string{"--sim", "--sim-fault", "stuck:b5N"}, exitFailure, []string{"problem: b5N closed where the position has no piece"}},
		{[]string{"--sim", "--sim-fault", "short:0x20"}, exitFailure, []string{"problem: expander 0x20: all its inputs read closed"}},
		{[]string{"--sim", "--sim-fault", "slow-bus"}, exitFailure, []string{"problem: the bus fails at 400kHz but works at 100kHz"}},
		{[]string{"--sim", "--sim-fault", "stuck:b5N", "--sim-fault", "missing:0x26"}, exitFailure, []string{"b5N closed", "0x26", "3 problem(s)"}},
		{[]string{"--sim-fault", "slow-bus"}, exitUsage, []string{"add --sim"}},
		{[]string{"--sim", "--sim-fault", "melted:0x20"}, exitUsage, []string{"want missing:ADDR, stuck:CELL, short:ADDR or slow-bus"}},
		{[]string{"--sim", "--sim-fault", "missing:0x2f"}, exitUsage, []string{"no expander at 0x2f"}},
	} {
		var out, errb bytes.Buffer
		code := dispatch(append([]string{"doctor"}, tc.args...), &out, &errb)
		all := out.String() + errb.String()
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d:\n%s", tc.args, code, tc.code, all)
		}
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, all)
			}
		}
		if tc.code == exitFailure && strings.Count(out.String(), "problem: ") != strings.Count(all, "problem: ") {
			t.Errorf("%v: problems not on stdout", tc.args)
		}
	}
}

// Every configuration the package ships passes doctor --sim on the
// simulated set it describes: a set whose LEDs are an APA102 strip has no
// HT16K33 on the bus to be reported as an unconfigured chip (it was, at
// 0x71 and 0x72), and one whose mapping names HT16K33s has them.
func TestDoctorSimShippedExamples(t *testing.T) {
	files, err := filepath.Glob("../../deploy/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		n++
		var out, errb bytes.Buffer
		code := dispatch([]string{"doctor", "--sim", "--config", f}, &out, &errb)
		if code != exitOK || !strings.HasSuffix(out.String(), "all is well\n") || errb.Len() > 0 {
			t.Errorf("doctor --sim --config %s: exit %d, want %d:\n%s%s", f, code, exitOK, out.String(), errb.String())
		}
	}
	if n < 8 {
		t.Errorf("%d shipped configurations checked, want the 8 of deploy/", n)
	}
}

// On the card image doctor says the name and password of the set's own
// access point first; elsewhere (no file, or one without both) nothing.
func TestDoctorSaysTheHotspot(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file, want string
	}{
		{"ssid=tridboard-ab12\npsk=0123456789abcdef\n", `info: with no known Wi-Fi the set opens its own: "tridboard-ab12", password 0123456789abcdef; its pages are then at http://192.168.4.1:8080/ (its QR code at /setup)`},
		{"ssid=tridboard-ab12\n", ""},
		{"", ""},
	} {
		path := filepath.Join(dir, "hotspot.conf")
		if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := hotspotLine(path); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.file, got, tc.want)
		}
	}
	if got := hotspotLine(filepath.Join(dir, "none")); got != "" {
		t.Errorf("no file: %q", got)
	}
	// doctor prints it before its checks.
	old := hotspotConf
	hotspotConf = filepath.Join(dir, "hotspot.conf")
	defer func() { hotspotConf = old }()
	if err := os.WriteFile(hotspotConf, []byte("ssid=tridboard-ab12\npsk=0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := dispatch([]string{"doctor", "--sim"}, &out, &errb); code != exitOK || !strings.HasPrefix(out.String(), `info: with no known Wi-Fi the set opens its own: "tridboard-ab12"`) {
		t.Errorf("doctor --sim: exit %d:\n%s%s", code, out.String(), errb.String())
	}
}
