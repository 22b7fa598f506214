package millennium

import (
	"math/bits"
	"math/rand/v2"

	"github.com/tridboard/tridboard/rules"
)

// zobrist holds the random keys Hash combines: one per piece and square,
// the side to move, the castling rights, the en-passant cell and the
// two-step rights.
var zobrist struct {
	piece  [16][NumSquares]uint64
	ep     [NumSquares]uint64
	ds     [NumSquares]uint64
	castle [16]uint64
	side   uint64
}

func init() {
	next := rand.New(rand.NewPCG(0x4d494c4c48415348, 1)).Uint64 // fixed: hashes repeat across runs
	for i := range zobrist.piece {
		for s := range zobrist.piece[i] {
			zobrist.piece[i][s] = next()
		}
	}
	for s := 0; s < NumSquares; s++ {
		zobrist.ep[s], zobrist.ds[s] = next(), next()
	}
	for i := range zobrist.castle {
		zobrist.castle[i] = next()
	}
	zobrist.side = next()
}

// Hash is a 64-bit Zobrist hash of what Key identifies (pieces, side,
// castling, en passant, two-step rights), for an engine's transposition
// table: equal keys give equal hashes, and it allocates nothing, unlike Key.
func (p *Position) Hash() uint64 {
	var h uint64
	for w := 0; w < 3; w++ {
		for occ := p.occ[w]; occ != 0; occ &= occ - 1 {
			s := w*64 + bits.TrailingZeros64(occ)
			h ^= zobrist.piece[p.board[s]][s]
		}
		for ds := p.ds[w]; ds != 0; ds &= ds - 1 {
			h ^= zobrist.ds[w*64+bits.TrailingZeros64(ds)]
		}
	}
	if p.ep != NoSquare {
		h ^= zobrist.ep[p.ep]
	}
	h ^= zobrist.castle[p.castle&15]
	if p.side == rules.Black {
		h ^= zobrist.side
	}
	return h
}
