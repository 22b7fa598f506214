package recognize

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
)

// BenchmarkObserveMillennium is the recognizer's cost per scan on the
// Millennium set's 192 cells: idle (nothing changed), and with a pawn lifted
// and put back on alternate scans (the reading changes every scan).
func BenchmarkObserveMillennium(b *testing.B) {
	p := millennium.System.Start()
	occ := p.Occupancy()
	pawn, _ := rules.CellByName(millennium.System, "1e2")
	lifted := occ
	lifted.Remove(pawn)
	for _, bc := range []struct {
		name   string
		change bool
	}{{"idle", false}, {"lift", true}} {
		b.Run(bc.name, func(b *testing.B) {
			r := New(p, DefaultOpts())
			now := time.Unix(0, 0)
			r.Observe(now, occ, rules.CellSet{})
			now = now.Add(time.Second)
			r.Observe(now, occ, rules.CellSet{}) // in sync
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				now = now.Add(5 * time.Millisecond)
				reading := occ
				if bc.change && i%2 == 0 {
					reading = lifted
				}
				r.Observe(now, reading, rules.CellSet{})
			}
		})
	}
}
