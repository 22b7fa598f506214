package st3d

import (
	"math/bits"
	"math/rand/v2"

	"github.com/tridboard/tridboard/rules"
)

// zobrist holds the random keys Hash combines: one per piece and square,
// per pin holding a board and per Black marking, the side to move, the
// castling rights, the en-passant pawn, the double-step rights and the
// neutral boards (V.A4).
var zobrist struct {
	piece  [16][NumSquares]uint64
	pin    [NumPins]uint64
	black  [NumPins]uint64
	neut   [NumPins]uint64
	ep     [NumSquares]uint64
	ds     [NumSquares]uint64
	castle [16]uint64
	side   uint64
}

func init() {
	next := rand.New(rand.NewPCG(0x5354334448415348, 1)).Uint64 // fixed: hashes repeat across runs
	for i := range zobrist.piece {
		for s := range zobrist.piece[i] {
			zobrist.piece[i][s] = next()
		}
	}
	for q := 0; q < NumPins; q++ {
		zobrist.pin[q], zobrist.black[q], zobrist.neut[q] = next(), next(), next()
	}
	for s := 0; s < NumSquares; s++ {
		zobrist.ep[s], zobrist.ds[s] = next(), next()
	}
	for i := range zobrist.castle {
		zobrist.castle[i] = next()
	}
	zobrist.side = next()
}

// Hash is a 64-bit Zobrist hash of what Key identifies (pieces, boards and
// markings, side, castling, en passant, double steps), for an engine's
// transposition table: equal keys give equal hashes, and it allocates
// nothing, unlike Key.
func (p *Position) Hash() uint64 {
	var h uint64
	for w := 0; w < 2; w++ {
		occ := p.bb[0][0][w] | p.bb[1][0][w]
		for occ != 0 {
			s := w*64 + bits.TrailingZeros64(occ)
			occ &= occ - 1
			h ^= zobrist.piece[p.board[s]][s]
		}
		for ds := p.ds[w]; ds != 0; ds &= ds - 1 {
			h ^= zobrist.ds[w*64+bits.TrailingZeros64(ds)]
		}
	}
	for q := 0; q < NumPins; q++ {
		if p.pins&(1<<uint(q)) != 0 {
			h ^= zobrist.pin[q]
		}
		if p.black&(1<<uint(q)) != 0 {
			h ^= zobrist.black[q]
		}
		if p.opt.neutral&(1<<uint(q)) != 0 {
			h ^= zobrist.neut[q]
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
