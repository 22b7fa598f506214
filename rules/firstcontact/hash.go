package firstcontact

import (
	"math/bits"
	"math/rand/v2"

	"github.com/tridboard/tridboard/rules"
)

// zobrist holds the random keys Hash combines: one per piece and square,
// per platform position, per reserve count, the ban and the side to move.
var zobrist struct {
	piece   [16][NumSquares]uint64
	slot    [NumSlots]uint64
	ban     [NumSlots]uint64
	reserve [2][King][16]uint64
	side    uint64
}

func init() {
	next := rand.New(rand.NewPCG(0x4643484153480000, 1)).Uint64 // fixed: hashes repeat across runs
	for i := range zobrist.piece {
		for s := range zobrist.piece[i] {
			zobrist.piece[i][s] = next()
		}
	}
	for sl := 0; sl < NumSlots; sl++ {
		zobrist.slot[sl], zobrist.ban[sl] = next(), next()
	}
	for c := range zobrist.reserve {
		for k := range zobrist.reserve[c] {
			for n := range zobrist.reserve[c][k] {
				zobrist.reserve[c][k][n] = next()
			}
		}
	}
	zobrist.side = next()
}

// Hash is a 64-bit Zobrist hash of what Key identifies (pieces, platforms,
// reserves, the ban, the side to move), for an engine's transposition
// table: equal keys give equal hashes, and it allocates nothing, unlike Key.
func (p *Position) Hash() uint64 {
	var h uint64
	for c := 0; c < 2; c++ {
		for w := 0; w < 3; w++ {
			for occ := p.occ[c][w]; occ != 0; occ &= occ - 1 {
				s := w*64 + bits.TrailingZeros64(occ)
				h ^= zobrist.piece[p.board[s]][s]
			}
		}
		for k := Pawn; k < King; k++ {
			h ^= zobrist.reserve[c][k][p.reserve[c][k]&15]
		}
	}
	for pl := p.plats; pl != 0; pl &= pl - 1 {
		h ^= zobrist.slot[bits.TrailingZeros32(pl)]
	}
	if p.ban != NoSlot {
		h ^= zobrist.ban[p.ban]
	}
	if p.side == rules.Black {
		h ^= zobrist.side
	}
	return h
}
