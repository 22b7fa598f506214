package firstcontact

import (
	"math/bits"

	"github.com/tridboard/tridboard/rules"
)

// Helpers for explaining an illegal move (package explain): the moves that
// obey how the pieces and platforms move, who attacks a king, what blocks
// a line, whether a cell exists.

// PseudoMoves appends the piece and platform moves of the side to move
// that obey how they move (F1-F4), whether or not they leave the mover's
// king attacked, and the introductions. Every legal move is among them.
func (p *Position) PseudoMoves(buf []rules.Move) []rules.Move {
	if p.phase() != phasePlay {
		return p.legalMoves(buf)
	}
	for w, word := range p.occ[p.side] {
		for word != 0 {
			s := Square(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			buf = p.genPiece(buf, s, p.board[s].Kind())
		}
	}
	return p.genDrops(p.genPlatforms(buf))
}

// KingAttackers lists the cells of the pieces that attack the mover's king
// once m, one of PseudoMoves, is played (none when m is legal).
func (p *Position) KingAttackers(m rules.Move) []rules.Cell {
	q := *p
	us := q.side
	q.make(m)
	k := q.king[us]
	if k == NoSquare {
		return nil
	}
	var out []rules.Cell
	cm := q.cells()
	// The opponent, now to move, attacks the king from every cell with a
	// capture onto it.
	for w, word := range q.occ[q.side] {
		for word != 0 {
			s := Square(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			for _, r := range q.genPiece(nil, s, q.board[s].Kind()) {
				if Square(mTo(r)) == k {
					out = append(out, cm.sq[s])
					break
				}
			}
		}
	}
	return out
}

// Blocker finds the piece that stops the piece on from reaching to along
// one of its lines (F2: a slide stops at the first piece). It reports false
// when to is on none of the piece's lines or nothing stands between.
func (p *Position) Blocker(from, to rules.Cell) (rules.Cell, bool) {
	cm := p.cells()
	if int(from) >= len(cm.square) || int(to) >= len(cm.square) {
		return rules.NoCell, false
	}
	s, t := cm.square[from], cm.square[to]
	if s == NoSquare || t == NoSquare {
		return rules.NoCell, false
	}
	d0, d1 := 0, 0
	switch p.board[s].Kind() {
	case Rook:
		d0, d1 = 0, numOrth
	case Bishop:
		d0, d1 = dirDiag0, dirTriag0
	case Queen:
		d0, d1 = 0, dirTriag0
	default:
		return rules.NoCell, false
	}
	for d := d0; d < d1; d++ {
		blocker := NoSquare
		for i := int8(0); i < rayLen[s][d]; i++ {
			u := ray[s][d][i]
			if u == t {
				if blocker != NoSquare {
					return cm.sq[blocker], true
				}
				return rules.NoCell, false
			}
			if blocker == NoSquare && p.board[u] != 0 {
				blocker = u
			}
		}
	}
	return rules.NoCell, false
}

// CellExists reports whether cell c is a square that exists in this
// position (F1: platform squares exist while their platform stands).
func (p *Position) CellExists(c rules.Cell) bool {
	cm := p.cells()
	return int(c) < len(cm.square) && cm.square[c] != NoSquare && p.exist.has(cm.square[c])
}
