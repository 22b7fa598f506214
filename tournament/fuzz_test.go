package tournament

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Whatever a TRF or players file holds, reading it returns an event or an
// error, never a panic; an event read back writes a TRF that reads again.
func FuzzReadTRF(f *testing.F) {
	tr, _ := New(Opts{Name: "seed", System: Swiss, Rounds: 2}, names("A", "B", "C"))
	tr.NextRound()
	tr.SetResult(1, 1, Draw, "")
	var b bytes.Buffer
	tr.WriteTRF(&b)
	f.Add(b.String())
	f.Add("012 x\n001    1      A                                 2000\n")
	// TRF-2026's header, byes, acceleration and engines' lines.
	f.Add("012 x\n022 c\n132                                                                                        26/01/01  26/01/02\n142 3\n152 B\n" +
		"XXR 3\nXXC black1\n250      1.0 001 001 0001 0001\n240 H 003 0002\nXXA 0001  1.0\n" +
		"001    1 m GM A                                 2000 VUL     4100018 2200/01/01  1.0    1     2 w 1  0000 - Z\n" +
		"001    2 wWGM B                                 1900                             0.0    2     1 b 0  0000 - H\n")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ReadTRF(strings.NewReader(s), "f.trf")
		if err != nil {
			var te *TRFError
			if !errors.As(err, &te) {
				t.Fatalf("a refusal without a place: %v", err)
			}
			return
		}
		// A file read pairs (or says why not) without a panic.
		if len(got.Rounds) < got.Opts.Rounds && len(got.Players) <= 40 && (len(got.Rounds) == 0 || got.Current().Over()) {
			_, _ = got.PairRound(len(got.Rounds) + 1)
		}
		var out bytes.Buffer
		if err := got.WriteTRF(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadTRF(&out, "again.trf"); err != nil {
			t.Fatalf("a TRF we wrote does not read: %v\n%s", err, out.String())
		}
		ReadPlayers(strings.NewReader(s), "f.txt")
	})
}
