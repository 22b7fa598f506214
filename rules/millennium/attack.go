package millennium

import "github.com/tridboard/tridboard/rules"

// attacked reports whether side by attacks square s when the pieces stand
// on occ (occ may leave out a piece, such as a king about to step). Every
// level attacks every level: lines run in 26 directions and stop at the
// first occupied cell of the 3D line (M6).
func (p *Position) attacked(s Square, by rules.Color, occ bset) bool {
	b := &p.bb[by]
	if b[Knight].meets(knightMask[s]) || b[King].meets(kingMask[s]) || b[Pawn].meets(pawnAttFrom[by][s]) {
		return true
	}
	rq := b[Rook].or(b[Queen])
	if rq.meets(rookLines[s]) && p.lineHit(s, 0, numRookDirs, rq, occ) {
		return true
	}
	bq := b[Bishop].or(b[Queen])
	return bq.meets(bishopLines[s]) && p.lineHit(s, numRookDirs, numDirs, bq, occ)
}

// lineHit reports whether a piece of sl is the first piece on occ seen from
// s along one of the directions d0..d1-1.
func (p *Position) lineHit(s Square, d0, d1 int, sl, occ bset) bool {
	for d := d0; d < d1; d++ {
		if !sl.meets(rayMask[s][d]) {
			continue
		}
		r := &ray[s][d]
		for i := uint8(0); i < rayLen[s][d]; i++ {
			if t := r[i]; occ.has(t) {
				if sl.has(t) {
					return true
				}
				break
			}
		}
	}
	return false
}

// inCheck reports whether side c's king is attacked.
func (p *Position) inCheck(c rules.Color) bool {
	k := p.king[c]
	if k == NoSquare {
		return false
	}
	return p.attacked(k, c.Other(), p.occ)
}
