package millennium

import "github.com/tridboard/tridboard/rules"

// maxMoves bounds the moves of one position in the perft buffers; a larger
// list still works (append grows it) but allocates.
const maxMoves = 1024

// Perft counts the leaf nodes of the legal move tree of the given depth
// (docs/rules.md, "Perft"), counting the last ply in bulk. It allocates
// only the move buffers, once per call.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([]rules.Move, depth*maxMoves)
	q := *p
	return q.perft(depth, bufs)
}

func (p *Position) perft(depth int, bufs []rules.Move) uint64 {
	if depth == 1 {
		return uint64(p.countLegal(bufs[:0:maxMoves]))
	}
	moves := p.legalMoves(bufs[:0:maxMoves])
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
