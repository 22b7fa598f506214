package firstcontact

import "testing"

var perftTable = []struct {
	name  string
	pos   string
	nodes []uint64
}{
	{"start", StartString, []uint64{24, 552, 12144, 255024}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftTable {
		p := mustParse(t, tc.pos)
		for i, want := range tc.nodes {
			if got := p.Perft(i + 1); got != want {
				t.Errorf("%s: perft(%d) = %d, want %d", tc.name, i+1, got, want)
			}
		}
	}
}
