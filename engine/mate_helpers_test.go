package engine

import "github.com/tridboard/tridboard/rules"

// mates reports whether the side to move of p can force mate within n of
// its moves, by looking at every line (the rules core's own verdict, not
// the engine's): some move after which the opponent is checkmated, or,
// for n > 1, every reply leaves a mate in n-1.
func mates(p rules.Position, n int) bool {
	for _, m := range p.LegalMoves(nil) {
		if matedAfter(p.Play(m), n) {
			return true
		}
	}
	return false
}

// matedAfter reports whether q, the side to move, is checkmated now or
// within n-1 further moves of the opponent whatever it plays.
func matedAfter(q rules.Position, n int) bool {
	switch q.Status() {
	case rules.Checkmate:
		return true
	case rules.Ongoing:
	default:
		return false
	}
	if n <= 1 {
		return false
	}
	for _, r := range q.LegalMoves(nil) {
		if !mates(q.Play(r), n-1) {
			return false
		}
	}
	return true
}
