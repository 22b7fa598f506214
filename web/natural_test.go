package web

import (
	"slices"
	"testing"
)

// The wall and /api/boards list boards in natural order: load-1, load-2,
// load-10 (issue 25: text order put load-10 before load-2).
func TestNaturalOrder(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"load-10", "load-2", "load-1"}, []string{"load-1", "load-2", "load-10"}},
		{[]string{"b10", "a2", "b9", "a10"}, []string{"a2", "a10", "b9", "b10"}},
		{[]string{"hall", "hall-1", "hal"}, []string{"hal", "hall", "hall-1"}},
		{[]string{"t007", "t7", "t06"}, []string{"t06", "t7", "t007"}},
		{[]string{"r2-b10", "r2-b9", "r10-b1"}, []string{"r2-b9", "r2-b10", "r10-b1"}},
	} {
		got := slices.Clone(tc.in)
		slices.SortFunc(got, func(a, b string) int {
			if naturalLess(a, b) {
				return -1
			}
			if naturalLess(b, a) {
				return 1
			}
			return 0
		})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q sorted %q, want %q", tc.in, got, tc.want)
		}
	}
}
