package st3d

import (
	"slices"
	"testing"
)

func TestZZRefDump(t *testing.T) {
	for _, tc := range refPositions[1:] {
		rp, _ := refParse(tc.pos)
		ms, _ := rp.legal()
		var l []string
		for _, m := range ms {
			l = append(l, m.long())
		}
		slices.Sort(l)
		t.Logf("%s (%d): %v", tc.name, len(l), l)
	}
}
