package clock

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// The clock's per-move and per-refresh work: a move with its reading, and a
// display's countdown from a snapshot.
func BenchmarkMoved(b *testing.B) {
	c, _ := New(MustParse("40/5400+30:1800+30"), nil)
	c.Start(t0, rules.White)
	at := t0
	b.ReportAllocs()
	for b.Loop() {
		at = at.Add(time.Second)
		if _, err := c.Moved(at); err != nil {
			b.Fatal(err)
		}
		if len(c.hist) > 1000 {
			c.hist = c.hist[:1]
		}
	}
}

func BenchmarkSnapshotRemaining(b *testing.B) {
	c, _ := New(MustParse("300d3"), nil)
	c.Start(t0, rules.White)
	sn := c.Snapshot(after(time.Second))
	at := after(time.Second)
	b.ReportAllocs()
	for b.Loop() {
		at = at.Add(time.Millisecond)
		_ = sn.Remaining(rules.White, at)
	}
}
