package opponent

import (
	"testing"

	"github.com/tridboard/tridboard/table"
)

// SnapAfter is snapAfter for the external tests.
func SnapAfter(t *testing.T, moves ...string) *table.Snapshot { return snapAfter(t, moves...) }

// RecTable is recTable for the external tests.
type RecTable = recTable

// Played are the moves sent so far, left for take.
func (d *recTable) Played() []table.PlayMove {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []table.PlayMove
	for _, c := range d.cmds {
		if m, ok := c.(table.PlayMove); ok {
			out = append(out, m)
		}
	}
	return out
}
