package firstcontact

import "github.com/tridboard/tridboard/rules"

// maxMoves bounds the moves of one position in the perft buffers; a larger
// list still works (append grows it) but allocates. Five kinds in reserve
// on sixteen cells are 80 introductions; the pieces of an army on the
// lattice stay far below the rest.
const maxMoves = 512

// Perft counts the leaf nodes of the legal move tree of the given depth.
// A position whose side to move is in check has lost (giving check wins),
// so nothing grows below it. It allocates only the move buffers, once per
// call.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([]rules.Move, depth*maxMoves)
	q := *p
	return q.perft(depth, bufs)
}

func (p *Position) perft(depth int, bufs []rules.Move) uint64 {
	moves := p.legalMoves(bufs[:0:maxMoves])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		u := p.make(m)
		n += p.perft(depth-1, bufs[maxMoves:])
		p.unmake(m, u)
	}
	return n
}

// DivideEntry is one root move of Divide with its leaf count.
type DivideEntry = rules.DivideEntry

// Divide is Perft split by root move, in generation order.
func (p *Position) Divide(depth int) []DivideEntry {
	var out []DivideEntry
	if depth <= 0 {
		return out
	}
	q := *p
	moves := q.legalMoves(nil)
	bufs := make([]rules.Move, depth*maxMoves)
	for _, m := range moves {
		var n uint64 = 1
		if depth > 1 {
			u := q.make(m)
			n = q.perft(depth-1, bufs)
			q.unmake(m, u)
		}
		out = append(out, DivideEntry{Move: q.Long(m), Nodes: n})
	}
	return out
}
