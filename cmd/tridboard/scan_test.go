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
	want := `tridboard scan: simulated board, 7 expanders  (# closed  . open  ? unknown)

       W             N             B
  4  . . . .     6  . . . .     8  # # # #
  3  . . . .     5  . . . .     7  # # # #
  2  # # # #     4  . . . .     6  . . . .
  1  # # # #     3  . . . .     5  . . . .
     a b c d       a b c d       a b c d

  QL1 #   QL2 .   QL3 .   QL4 .   QL5 .   QL6 #
   # #     . .     . .     . .     . .     # #
   # #     . .     . .     . .     . .     # #

  KL1 #   KL2 .   KL3 .   KL4 .   KL5 .   KL6 #
   # #     . .     . .     . .     . .     # #
   # #     . .     . .     . .     . .     # #

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
		{[]string{"--help"}, exitOK, "usage: tridboard scan [--sim] [--config FILE] [--once]", ""},
		{[]string{"--bogus"}, exitUsage, "", "flag provided but not defined: -bogus"},
		{[]string{"--sim", "extra"}, exitUsage, "", `tridboard scan: unexpected argument "extra"`},
		{[]string{"--sim", "--once", "--config", bad}, exitFailure, "", "tridboard scan: config " + bad + ": [7:9] unknown field \"pins\""},
	} {
		var out, errb bytes.Buffer
		code := runScan(tc.args, &out, &errb)
		if code != tc.code || !strings.HasPrefix(out.String(), tc.stdout) || !strings.HasPrefix(errb.String(), tc.stderr) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", tc.args, code, out.String(), errb.String())
		}
	}
}
