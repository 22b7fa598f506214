package st3d_test

import (
	"testing"

	"github.com/tridboard/tridboard/rules/st3d"
)

// BoardControl (D12): an empty board is its marking's side's, a board with
// one piece the side of that piece, a board with two pieces nobody's.
func TestBoardControl(t *testing.T) {
	for _, tc := range []struct {
		pos             string
		empty, carrying [2]int
	}{
		{st3d.StartString, [2]int{0, 0}, [2]int{0, 0}},
		{"QL1:w,QL6:b,KL1:w,KL6:b Ke0KL1,qd1W,ka9QL6 w - - - 0 1", [2]int{1, 1}, [2]int{1, 1}},
		{"QL1:w,QL6:b,KL1:w,KL6:b Ke0KL1,Rd0KL1,qz0QL1,ka9QL6 w - - - 0 1", [2]int{0, 1}, [2]int{0, 2}},
	} {
		p, err := st3d.Parse(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		if empty, carrying := p.BoardControl(); empty != tc.empty || carrying != tc.carrying {
			t.Errorf("%s: empty %v, carrying %v; want %v, %v", tc.pos, empty, carrying, tc.empty, tc.carrying)
		}
	}
}
