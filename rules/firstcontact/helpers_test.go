package firstcontact

import (
	"math/bits"
	"math/rand"

	"github.com/tridboard/tridboard/rules"
)

// cells names the cells of a set under the full system.
func cells(s rules.CellSet) []string { return s.Names(CellNames()) }

// randomGame plays random legal moves from p (at most plies) and calls
// visit on every position reached, the first included.
func randomGame(p Position, rng *rand.Rand, plies int, visit func(p *Position)) {
	for ply := 0; ply < plies; ply++ {
		visit(&p)
		moves := p.LegalMoves(nil)
		if len(moves) == 0 {
			return
		}
		p.make(moves[rng.Intn(len(moves))])
	}
	visit(&p)
}

func mustSquare(name string) Square {
	s, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

func bitsCount(x uint32) int       { return bits.OnesCount32(x) }
func trailingZeros32(x uint32) int { return bits.TrailingZeros32(x) }
