package rules

// Perft counts the leaf nodes of the legal move tree of the given depth
// below pos (docs/rules.md, "Perft"); depth 0 counts pos itself. It takes
// the system's fast walk when pos has one (every system's Position does,
// through Walk) and otherwise plays the moves through the Position
// interface, which allocates a position per node. pos does not change.
func Perft(pos Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if f, ok := pos.(interface{ Perft(int) uint64 }); ok {
		return f.Perft(depth)
	}
	moves := pos.LegalMoves(nil)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += Perft(pos.Play(m), depth-1)
	}
	return n
}

// DivideEntry is one root move of a Divide (perft split by root move) with
// its leaf count.
type DivideEntry struct {
	Move  string // long form
	Nodes uint64
}

// Divide is Perft split by root move, in the order LegalMoves gives them;
// the entries' counts add up to Perft(pos, depth). Depth 0 has no moves.
func Divide(pos Position, depth int) []DivideEntry {
	var out []DivideEntry
	if depth <= 0 {
		return out
	}
	for _, m := range pos.LegalMoves(nil) {
		out = append(out, DivideEntry{Move: pos.Long(m), Nodes: Perft(pos.Play(m), depth-1)})
	}
	return out
}

// Walk is a system's way to walk its move tree in place: what its
// Position's Perft method hands to Walk.Perft, so that one perft serves
// every system and allocates nothing per node. P is the system's position
// type and U the record its unmake needs; the functions are the system's
// own (unexported) move generator, counter, make and unmake.
type Walk[P, U any] struct {
	// MaxMoves bounds the legal moves of one position: the size of each
	// ply's move buffer. A position with more still works (append grows
	// the buffer) but allocates.
	MaxMoves int
	// Legal appends p's legal moves to buf and returns it; it may make and
	// unmake moves on p to try them, and leaves p as it was.
	Legal func(p *P, buf []Move) []Move
	// Count is len(Legal(p, buf)), which a system may count without
	// listing the moves (the last ply is counted in bulk).
	Count func(p *P, buf []Move) int
	// Make plays m, one of Legal's moves, on p in place and returns what
	// Unmake needs to take it back.
	Make func(p *P, m Move) U
	// Unmake takes back m, which Make played with the record u.
	Unmake func(p *P, m Move, u U)
}

// Perft counts the leaf nodes of the legal move tree of the given depth
// below p. It walks a copy, so p does not change and may be shared; it
// allocates the copy and the move buffers, once per call, and nothing per
// node.
func (w *Walk[P, U]) Perft(p *P, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	q := new(P)
	*q = *p
	return w.perft(q, depth, make([]Move, depth*w.MaxMoves))
}

func (w *Walk[P, U]) perft(p *P, depth int, bufs []Move) uint64 {
	if depth == 1 {
		return uint64(w.Count(p, bufs[:0:w.MaxMoves]))
	}
	moves := w.Legal(p, bufs[:0:w.MaxMoves])
	var n uint64
	for _, m := range moves {
		u := w.Make(p, m)
		n += w.perft(p, depth-1, bufs[w.MaxMoves:])
		w.Unmake(p, m, u)
	}
	return n
}
