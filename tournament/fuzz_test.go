package tournament

import (
	"bytes"
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
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ReadTRF(strings.NewReader(s), "f.trf")
		if err != nil {
			return
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
