package segment

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
)

// One refresh of both displays on the simulated bus (tenths change every
// 100 ms, so every call writes white's RAM).
func BenchmarkShow(b *testing.B) {
	_, _, _, d := rig(b)
	sn := clock.Snapshot{Control: "180+2", WhiteMS: 15000, BlackMS: 180000, Running: "white", At: clock.Stamp{Time: t0}}
	at := t0
	b.ReportAllocs()
	for b.Loop() {
		at = at.Add(100 * time.Millisecond)
		if at.Sub(t0) > 14*time.Second {
			at = t0
		}
		d.Show(sn, at)
	}
}
