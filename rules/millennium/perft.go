package millennium

import "github.com/tridboard/tridboard/rules"

// maxMoves bounds the moves of one position in the perft buffers; a larger
// list still works (append grows it) but allocates.
const maxMoves = 1024

// walk is how rules.Walk walks this system's move tree in place.
var walk = rules.Walk[Position, undo]{
	MaxMoves: maxMoves,
	Legal:    (*Position).legalMoves,
	Count:    (*Position).countLegal,
	Make:     (*Position).make,
	Unmake:   (*Position).unmake,
}

// Perft counts the leaf nodes of the legal move tree of the given depth
// (docs/rules.md, "Perft"), counting the last ply in bulk; rules.Walk.Perft
// says what it allocates. rules.Perft and rules.Divide call it.
func (p *Position) Perft(depth int) uint64 { return walk.Perft(p, depth) }
