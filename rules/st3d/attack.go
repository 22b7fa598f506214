package st3d

import "github.com/tridboard/tridboard/rules"

// attacked reports whether side by attacks column c. A piece attacks every
// square of a column it could capture on (D4), so attacks are by column.
// Lines pass over voids and empty columns and stop at the first column that
// holds a piece on any level (D5).
func (p *Position) attacked(c int8, by rules.Color) bool {
	b := &p.bb[by]
	if !b[Knight].and(knightMask[c]).empty() || !b[King].and(kingMask[c]).empty() ||
		!b[Pawn].and(pawnAttMask[by][c]).empty() {
		return true
	}
	rq := b[Rook].or(b[Queen])
	bq := b[Bishop].or(b[Queen])
	for d := 0; d < 8; d++ {
		sl := rq
		if d >= 4 {
			sl = bq
		}
		if sl.empty() {
			continue
		}
		r := &ray[c][d]
		for i := int8(0); i < rayLen[c][d]; i++ {
			t := r[i]
			if p.colN[t] == 0 {
				continue
			}
			if !sl.and(colMask[t]).empty() {
				return true
			}
			break
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
	return p.attacked(sqCol[k], c.Other())
}
