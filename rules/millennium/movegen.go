package millennium

import (
	"math/bits"

	"github.com/tridboard/tridboard/rules"
)

// addTargets appends a move from s to every square of set, marking
// captures of enemy pieces.
func addTargets(buf []rules.Move, s Square, set, enemy bset) []rules.Move {
	base := newMove(s, 0, kindNormal)
	for w := 0; w < 3; w++ {
		word := set[w]
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			m := base | rules.Move(w<<6|b)<<8
			if enemy[w]&(1<<uint(b)) != 0 {
				m |= captureBit
			}
			buf = append(buf, m)
		}
	}
	return buf
}

// addPawnMoves appends a pawn move from s to every square of set; a move
// into zone (the promotion cells, M9) comes as four promotions.
func addPawnMoves(buf []rules.Move, s Square, set, zone bset, kind uint32, capture bool) []rules.Move {
	base := newMove(s, 0, kind)
	if capture {
		base |= captureBit
	}
	for w := 0; w < 3; w++ {
		word := set[w]
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			m := base | rules.Move(w<<6|b)<<8
			if zone[w]&(1<<uint(b)) != 0 {
				buf = append(buf, withPromo(m, Queen), withPromo(m, Rook), withPromo(m, Bishop), withPromo(m, Knight))
			} else {
				buf = append(buf, m)
			}
		}
	}
	return buf
}

// slideAttacks is the set a slider on s reaches along directions d0..d1-1:
// every cell up to and including the first occupied one (M6).
func slideAttacks(s Square, d0, d1 int, occ bset) bset {
	var m bset
	for d := d0; d < d1; d++ {
		if !occ.meets(rayMask[s][d]) {
			m = m.or(rayMask[s][d])
			continue
		}
		r := &ray[s][d]
		for i := uint8(0); i < rayLen[s][d]; i++ {
			t := r[i]
			m.set(t)
			if occ.has(t) {
				break
			}
		}
	}
	return m
}

// pieceTargets is the set of squares the non-pawn piece of kind on s
// attacks (M1-M5).
func (p *Position) pieceTargets(s Square, kind Piece) bset {
	switch kind {
	case Knight:
		return knightMask[s]
	case King:
		return kingMask[s]
	case Bishop:
		return slideAttacks(s, numRookDirs, numDirs, p.occ)
	case Rook:
		return slideAttacks(s, 0, numRookDirs, p.occ)
	case Queen:
		return slideAttacks(s, 0, numDirs, p.occ)
	}
	return bset{}
}

// genPseudo appends the pseudo-legal moves of the side to move: every move
// but those that leave its own king attacked. Castling comes out fully
// checked.
func (p *Position) genPseudo(buf []rules.Move) []rules.Move {
	us := p.side
	own := p.bb[us][0]
	enemy := p.bb[us.Other()][0]
	for w := 0; w < 3; w++ {
		word := own[w]
		for word != 0 {
			s := Square(w<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			buf = p.genPiece(buf, s, own, enemy)
		}
	}
	return p.genCastling(buf)
}

// genPiece appends the pseudo-legal moves of the piece on s.
func (p *Position) genPiece(buf []rules.Move, s Square, own, enemy bset) []rules.Move {
	kind := p.board[s].Kind()
	if kind == Pawn {
		return p.genPawn(buf, s, enemy)
	}
	return addTargets(buf, s, p.pieceTargets(s, kind).andNot(own), enemy)
}

// twoSteps are a pawn's first-move two-steps (M7) as rank and level steps
// (rank in the pawn's direction), and whether each leaves an en-passant
// cell (M8: all but the purely vertical ones).
var twoSteps = [5]struct {
	dr, dl int
	ep     bool
}{{2, 0, true}, {2, 2, true}, {2, -2, true}, {0, 2, false}, {0, -2, false}}

func (p *Position) genPawn(buf []rules.Move, s Square, enemy bset) []rules.Move {
	us := p.side
	zone := promoZone[us]
	free := bset{^p.occ[0], ^p.occ[1], ^p.occ[2]}
	buf = addPawnMoves(buf, s, pawnPush[us][s].and(free), zone, kindNormal, false)
	if p.ds.has(s) {
		f := forward(us)
		for _, ts := range twoSteps {
			mid := step(s, 0, ts.dr/2*f, ts.dl/2)
			to := step(s, 0, ts.dr*f, ts.dl)
			if to == NoSquare || p.occ.has(mid) || p.occ.has(to) {
				continue
			}
			kind := uint32(kindNormal)
			if ts.ep {
				kind = kindDouble
			}
			buf = append(buf, newMove(s, to, kind))
		}
	}
	buf = addPawnMoves(buf, s, pawnAtt[us][s].and(enemy), zone, kindNormal, true)
	if p.ep != NoSquare && pawnAtt[us][s].has(p.ep) {
		buf = append(buf, newMove(s, p.ep, kindEP)|captureBit)
	}
	return buf
}

// genCastling appends the castlings (M10): rights left, king and rook in
// place, the cells between them on the home board empty, and the king's
// cell, the one it passes over and the one it lands on not attacked from
// any level.
func (p *Position) genCastling(buf []rules.Move) []rules.Move {
	if p.castle == 0 {
		return buf
	}
	us, them := p.side, p.side.Other()
	kingSq, kRook, qRook := sqWK, sqWKR, sqWQR
	kRight, qRight := castleWK, castleWQ
	if us == rules.Black {
		kingSq, kRook, qRook = sqBK, sqBKR, sqBQR
		kRight, qRight = castleBK, castleBQ
	}
	if p.castle&(kRight|qRight) == 0 || p.board[kingSq] != rules.PieceOf(us, King) {
		return buf
	}
	occ := p.occ
	occ.clear(kingSq)
	safe := func(s Square) bool { return !p.attacked(s, them, occ) }
	r := rules.PieceOf(us, Rook)
	if p.castle&kRight != 0 && p.board[kRook] == r && p.board[kingSq+1] == 0 && p.board[kingSq+2] == 0 &&
		safe(kingSq) && safe(kingSq+1) && safe(kingSq+2) {
		buf = append(buf, newMove(kingSq, kingSq+2, kindCastleK))
	}
	if p.castle&qRight != 0 && p.board[qRook] == r && p.board[kingSq-1] == 0 && p.board[kingSq-2] == 0 &&
		p.board[kingSq-3] == 0 && safe(kingSq) && safe(kingSq-1) && safe(kingSq-2) {
		buf = append(buf, newMove(kingSq, kingSq-2, kindCastleQ))
	}
	return buf
}
