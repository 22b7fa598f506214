package millennium

import (
	"math/bits"

	"github.com/tridboard/tridboard/rules"
)

// countLegal counts the legal moves without listing them (perft's bulk
// count at the leaves). Pieces that cannot expose their king are counted
// from their target masks; the king, pinned pieces, en passant, castling
// and every move in check go through the generator and the legality test.
// TestCountLegal keeps the two in step.
func (p *Position) countLegal(buf []rules.Move) int {
	us := p.side
	if p.inCheck(us) {
		return len(p.legalMoves(buf))
	}
	pinned := p.pinnedSet(us)
	own := p.bb[us][0]
	enemy := p.bb[us.Other()][0]
	free := bset{^p.occ[0], ^p.occ[1], ^p.occ[2]}
	zone := promoZone[us]
	n := 0
	slow := buf[:0]
	for w := 0; w < 3; w++ {
		word := own[w]
		for word != 0 {
			s := Square(w<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			kind := p.board[s].Kind()
			if kind == King || pinned.has(s) {
				slow = p.genPiece(slow, s, own, enemy)
				continue
			}
			if kind != Pawn {
				n += p.pieceTargets(s, kind).andNot(own).count()
				continue
			}
			t := pawnPush[us][s].and(free).or(pawnAtt[us][s].and(enemy))
			n += t.count() + 3*t.and(zone).count()
			if p.ds.has(s) {
				f := forward(us)
				for _, ts := range twoSteps {
					to := step(s, 0, ts.dr*f, ts.dl)
					if to != NoSquare && !p.occ.has(step(s, 0, ts.dr/2*f, ts.dl/2)) && !p.occ.has(to) {
						n++
					}
				}
			}
			if p.ep != NoSquare && pawnAtt[us][s].has(p.ep) {
				slow = append(slow, newMove(s, p.ep, kindEP)|captureBit)
			}
		}
	}
	slow = p.genCastling(slow)
	for _, m := range slow {
		if p.legal(m, false, pinned) {
			n++
		}
	}
	return n
}
