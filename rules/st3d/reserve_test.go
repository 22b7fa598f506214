package st3d

import (
	"slices"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

// V.P6 (V4): the pieces a side has still to place are its reserve, kind by
// kind; a placement takes one from it; the tournament game has none.
func TestReserveVP6(t *testing.T) {
	kinds := []Piece{Pawn, Knight, Bishop, Rook, Queen, King}
	count := func(p *Position, c rules.Color) []int {
		var out []int
		for _, k := range kinds {
			out = append(out, p.Reserve(c, k))
		}
		return out
	}
	p := optStart(t, "V.P6")
	want := []int{0, 2, 2, 2, 1, 1}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if got := count(p, c); !slices.Equal(got, want) {
			t.Errorf("V.P6 start, %v's reserve %v, want %v", c, got, want)
		}
	}
	q := p.Play(p.LegalMoves(nil)[0]).(*Position) // White places a bishop
	if got := count(q, rules.White); !slices.Equal(got, []int{0, 2, 1, 2, 1, 1}) {
		t.Errorf("after a bishop placed: %v", got)
	}
	s := StartPosition()
	if got := count(&s, rules.White); !slices.Equal(got, []int{0, 0, 0, 0, 0, 0}) {
		t.Errorf("the tournament start has a reserve: %v", got)
	}
	var _ rules.Reserver = &s
}
