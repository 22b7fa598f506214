package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScanOnceSim(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runScan([]string{"--sim", "--once"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := `tridboard scan: simulated st3d set, 7 expanders  (# closed  . open  ? unknown)

         W                      N                      B
                                                9  # #         # #
                                                8  # # # # # # # #
                         7  . .         . .     7      # # # #
                         6  . . . . . . . .     6      . . . .
  5  . .         . .     5      . . . .         5  . . . . . . . .
  4  . . . . . . . .     4      . . . .         4  . .         . .
  3      . . . .         3  . . . . . . . .
  2      # # # #         2  . .         . .
  1  # # # # # # # #
  0  # #         # #
     z a a b c d d e        z a a b c d d e        z a a b c d d e

  QL1 #   QL2 .   QL3 .   QL4 .   QL5 .   QL6 #
  KL1 #   KL2 .   KL3 .   KL4 .   KL5 .   KL6 #

expanders:
  0x20                       ok    reads 8        errors 0    resets 0
  0x21                       ok    reads 8        errors 0    resets 0
  0x22                       ok    reads 8        errors 0    resets 0
  0x23                       ok    reads 8        errors 0    resets 0
  0x24                       ok    reads 8        errors 0    resets 0
  0x25                       ok    reads 8        errors 0    resets 0
  0x26                       ok    reads 8        errors 0    resets 0
`
	if out.String() != want {
		t.Fatalf("frame:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestScanFlags(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("sensors:\n  preset: \"\"\n  wiring:\n    expanders:\n      - address: 0x20\n        mode: direct\n        pins: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string // prefix
		stderr string // prefix
	}{
		{[]string{"--help"}, exitOK, "usage: tridboard scan [--sim] [--config FILE] [--variant V] [--once]", ""},
		{[]string{"--bogus"}, exitUsage, "", "flag provided but not defined: -bogus"},
		{[]string{"--sim", "extra"}, exitUsage, "", `tridboard scan: unexpected argument "extra"`},
		{[]string{"--sim", "--once", "--config", bad}, exitFailure, "", "tridboard scan: config " + bad + ":7: sensors.wiring.expanders[0].pins: no such setting"},
	} {
		var out, errb bytes.Buffer
		code := runScan(tc.args, &out, &errb)
		if code != tc.code || !strings.HasPrefix(out.String(), tc.stdout) || !strings.HasPrefix(errb.String(), tc.stderr) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", tc.args, code, out.String(), errb.String())
		}
	}
}

// TestScanOnceSimSets: scan draws the set the configured wiring senses:
// the Millennium set's three levels (hardware.md's matrix build), First
// Contact's boards and its up and inverted positions.
func TestScanOnceSimSets(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		preset string
		want   []string // lines of the frame, in order
	}{
		{"millennium-matrix", []string{
			"tridboard scan: simulated millennium set, 3 expanders  (# closed  . open  ? unknown)",
			"      Level 1                Level 2                Level 3",
			"  8  . . . . . . . .     8  . . . . . . . .     8  # # # # # # # #",
			"  7  . . . . . . . .     7  . . . . . . . .     7  # # # # # # # #",
			"  6  . . . . . . . .     6  . . . . . . . .     6  . . . . . . . .",
			"  2  # # # # # # # #     2  . . . . . . . .     2  . . . . . . . .",
			"  1  # # # # # # # #     1  . . . . . . . .     1  . . . . . . . .",
			"     a b c d e f g h        a b c d e f g h        a b c d e f g h",
			"  0x22                       ok    reads 8        errors 0    resets 0",
		}},
		{"millennium-direct", []string{
			"tridboard scan: simulated millennium set, 12 expanders  (# closed  . open  ? unknown)",
			"  1  # # # # # # # #     1  . . . . . . . .     1  . . . . . . . .",
			"  0x23 (mux 0x70 channel 2)  ok    reads 8        errors 0    resets 0",
		}},
		{"firstcontact", []string{
			"tridboard scan: simulated first-contact set, 11 expanders  (# closed  . open  ? unknown)",
			"     z a z a a b c d d e d e        z a z a a b c d d e d e        z a z a a b c d d e d e",
			"  QL1u .   QL1d .   QL2u .   QL2d .   QL3u .   QL3d .",
			"  KL4u .   KL4d .   KL5u .   KL5d .   KL6u .   KL6d .",
			"  0x27 (mux 0x70 channel 3)  ok    reads 8        errors 0    resets 0",
		}},
		{"firstcontact-up", []string{
			"tridboard scan: simulated first-contact-up set, 7 expanders  (# closed  . open  ? unknown)",
			"  KL1u .   KL2u .   KL3u .   KL4u .   KL5u .   KL6u .",
			"expanders:",
		}},
	} {
		cfg := filepath.Join(dir, tc.preset+".yaml")
		if err := os.WriteFile(cfg, []byte("sensors:\n  preset: "+tc.preset+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := runScan([]string{"--sim", "--once", "--config", cfg}, &out, &errb); code != exitOK {
			t.Fatalf("%s: exit %d: %s", tc.preset, code, errb.String())
		}
		rest := out.String()
		for _, line := range tc.want {
			i := strings.Index(rest, line+"\n")
			if i < 0 {
				t.Errorf("%s: no line %q in order in\n%s", tc.preset, line, out.String())
				break
			}
			rest = rest[i+len(line):]
		}
		if tc.preset == "firstcontact-up" && strings.Contains(out.String(), "QL1d") {
			t.Errorf("first-contact-up shows inverted positions:\n%s", out.String())
		}
	}
	// --variant names the system; with no wiring configured the set is the
	// one that system is played on, and a preset for another set is refused
	// in one line that names the preset to use.
	var out, errb bytes.Buffer
	if code := runScan([]string{"--sim", "--once", "--variant", "millennium"}, &out, &errb); code != exitOK ||
		!strings.Contains(out.String(), "simulated millennium set, 3 expanders") {
		t.Errorf("millennium with no wiring configured: exit %d, %s%s", code, out.String(), errb.String())
	}
	ref := filepath.Join(dir, "ref.yaml")
	os.WriteFile(ref, []byte("sensors:\n  preset: reference\n"), 0o644)
	out.Reset()
	errb.Reset()
	if code := runScan([]string{"--sim", "--once", "--variant", "millennium", "--config", ref}, &out, &errb); code != exitFailure ||
		strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "use a millennium wiring, sensors.preset: millennium-matrix") {
		t.Errorf("millennium on the reference preset: exit %d, %q", code, errb.String())
	}
}

// TestConfigCheckSetFiles: config check reads each example against the
// cells of the set its wiring names.
func TestConfigCheckSetFiles(t *testing.T) {
	for _, tc := range []struct{ file, sensors, leds string }{
		{"../../deploy/millennium-matrix.yaml", "  sensors: 4 expanders, 192 cells, 2 buttons", "  LEDs: ht16k33 0x71 + ht16k33 0x72, 192 cells mapped"},
		{"../../deploy/millennium-direct.yaml", "  sensors: 13 expanders, 192 cells, 4 buttons", "  LEDs: apa102 SPI0.0, 192 cells mapped"},
		{"../../deploy/firstcontact.yaml", "  sensors: 11 expanders, 168 cells, 2 buttons", "  LEDs: ht16k33 0x71 + ht16k33 0x72, 168 cells mapped"},
		{"../../deploy/firstcontact-up.yaml", "  sensors: 7 expanders, 108 cells, 0 buttons", "  LEDs: ht16k33 0x71, 108 cells mapped"},
	} {
		var out, errb bytes.Buffer
		if code := runConfig([]string{"check", tc.file}, &out, &errb); code != exitOK {
			t.Errorf("%s: exit %d: %s", tc.file, code, errb.String())
			continue
		}
		if !strings.Contains(out.String(), tc.sensors) || !strings.Contains(out.String(), tc.leds) {
			t.Errorf("%s:\n%s", tc.file, out.String())
		}
	}
}
