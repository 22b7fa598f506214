package firstcontact

import "github.com/tridboard/tridboard/rules"

// maxMoves bounds the moves of one position in the perft buffers; a larger
// list still works (append grows it) but allocates. Five kinds in reserve
// on sixteen cells are 80 introductions; the pieces of an army on the
// lattice stay far below the rest.
const maxMoves = 512

// walk is how rules.Walk walks this system's move tree in place. A position
// whose side to move is in check has lost (giving check wins), so it has no
// legal moves and nothing grows below it.
var walk = rules.Walk[Position, undo]{
	MaxMoves: maxMoves,
	Legal:    (*Position).legalMoves,
	Count:    func(p *Position, buf []rules.Move) int { return len(p.legalMoves(buf)) },
	Make:     (*Position).make,
	Unmake:   (*Position).unmake,
}

// Perft counts the leaf nodes of the legal move tree of the given depth
// (docs/rules.md, "Perft"); rules.Walk.Perft says what it allocates.
// rules.Perft and rules.Divide call it.
func (p *Position) Perft(depth int) uint64 { return walk.Perft(p, depth) }
