package st3d

import (
	"math/bits"

	"github.com/tridboard/tridboard/rules"
)

// addTargets appends a move from s to every existing square of column c that
// is empty or holds an enemy piece (D4: the mover chooses the level).
func (p *Position) addTargets(buf []rules.Move, s Square, c int8, exist, own, enemy sqset) []rules.Move {
	cand := colMask[c].and(exist).andNot(own)
	base := newMove(int8(s), 0, kindNormal)
	for w := 0; w < 2; w++ {
		word := cand[w]
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			m := base | rules.Move(w*64+b)<<7
			if enemy[w]&(1<<uint(b)) != 0 {
				m |= captureBit
			}
			buf = append(buf, m)
		}
	}
	return buf
}

// addPawnMoves appends a pawn move from s to every square of set, as four
// promotions each when promo is true (D9).
func addPawnMoves(buf []rules.Move, s Square, set sqset, kind uint32, promo bool) []rules.Move {
	base := newMove(int8(s), 0, kind)
	if promo {
		base = newMove(int8(s), 0, kindNormal) | base&captureBit
	}
	for w := 0; w < 2; w++ {
		word := set[w]
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			m := base | rules.Move(w*64+b)<<7
			if promo {
				buf = append(buf, withPromo(m, Queen), withPromo(m, Rook), withPromo(m, Bishop), withPromo(m, Knight))
			} else {
				buf = append(buf, m)
			}
		}
	}
	return buf
}

// genPseudo appends the pseudo-legal moves of the side to move: every move
// but those that leave its own king attacked.
func (p *Position) genPseudo(buf []rules.Move) []rules.Move {
	if p.opt.flags != 0 {
		return p.genOpt(buf) // variant options (variants_moves.go)
	}
	us := p.side
	them := us.Other()
	exist := p.existing()
	own := p.bb[us][0]
	enemy := p.bb[them][0]
	for w := 0; w < 2; w++ {
		word := own[w]
		for word != 0 {
			s := Square(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			buf = p.genPiece(buf, s, p.board[s].Kind(), exist, own, enemy)
		}
	}
	buf = p.genCastling(buf)
	return p.genBoardMoves(buf)
}

// genPiece appends the pseudo-legal moves of the piece on s.
func (p *Position) genPiece(buf []rules.Move, s Square, kind Piece, exist, own, enemy sqset) []rules.Move {
	c := sqCol[s]
	switch kind {
	case Pawn:
		return p.genPawn(buf, s, exist, enemy)
	case Knight:
		for i := int8(0); i < knightN[c]; i++ {
			buf = p.addTargets(buf, s, knightCols[c][i], exist, own, enemy)
		}
	case King:
		for i := int8(0); i < kingN[c]; i++ {
			buf = p.addTargets(buf, s, kingCols[c][i], exist, own, enemy)
		}
	case Bishop:
		return p.genSlides(buf, s, c, 4, 8, exist, own, enemy)
	case Rook:
		return p.genSlides(buf, s, c, 0, 4, exist, own, enemy)
	case Queen:
		return p.genSlides(buf, s, c, 0, 8, exist, own, enemy)
	}
	return buf
}

// genSlides appends the moves of a slider on s along directions d0..d1-1.
func (p *Position) genSlides(buf []rules.Move, s Square, c int8, d0, d1 int, exist, own, enemy sqset) []rules.Move {
	for d := d0; d < d1; d++ {
		r := &ray[c][d]
		for i := int8(0); i < rayLen[c][d]; i++ {
			t := r[i]
			buf = p.addTargets(buf, s, t, exist, own, enemy)
			if p.colN[t] != 0 {
				break // a piece on any level blocks; voids do not (D5)
			}
		}
	}
	return buf
}

func (p *Position) genPawn(buf []rules.Move, s Square, exist, enemy sqset) []rules.Move {
	us := p.side
	dr := int8(1)
	if us == rules.Black {
		dr = -1
	}
	f, r := sqFile[s], sqRank[s]
	r1 := r + dr
	if r1 < 0 || r1 >= mapRanks {
		return buf
	}
	free := exist.andNot(p.occAll())
	c1 := f*10 + r1
	// Single step: any empty existing square of the next column.
	buf = addPawnMoves(buf, s, colMask[c1].and(free), kindNormal, r1 == p.furthest(us, f))
	// Double step: the skipped column empty on every level (D5, D7).
	if p.ds.has(s) && p.colN[c1] == 0 {
		if r2 := r1 + dr; r2 >= 0 && r2 < mapRanks {
			buf = addPawnMoves(buf, s, colMask[f*10+r2].and(free), kindDouble, r2 == p.furthest(us, f))
		}
	}
	// Captures, on any level of a diagonal column; en passant (D8).
	var epCol int8 = -1
	if p.ep != NoSquare {
		epCol = sqCol[p.ep] + dr // the column the enemy pawn skipped
	}
	for _, df := range [2]int8{-1, 1} {
		ff := f + df
		if ff < 0 || ff >= mapFiles {
			continue
		}
		c := ff*10 + r1
		if p.colN[c] != 0 {
			buf = addPawnMoves(buf, s, colMask[c].and(enemy).and(exist), kindNormal|captureBit>>17, r1 == p.furthest(us, ff))
		}
		if c == epCol {
			buf = addPawnMoves(buf, s, colMask[c].and(free), kindEP|captureBit>>17, false)
		}
	}
	return buf
}

// genCastling appends the castlings (3.5, D11): never on a side's first
// move, only with the rights left, the squares in place and not attacked.
func (p *Position) genCastling(buf []rules.Move) []rules.Move {
	if p.full == 1 || p.castle == 0 {
		return buf
	}
	us, them := p.side, p.side.Other()
	kingSq, kRook, qRook, qDest := sqD0KL1, sqE0KL1, sqZ0QL1, sqA0QL1
	kRight, qRight := castleWK, castleWQ
	if us == rules.Black {
		kingSq, kRook, qRook, qDest = sqD9KL6, sqE9KL6, sqZ9QL6, sqA9QL6
		kRight, qRight = castleBK, castleBQ
	}
	k := rules.PieceOf(us, King)
	r := rules.PieceOf(us, Rook)
	if p.board[kingSq] != k || !p.exists(kingSq) {
		return buf
	}
	if p.castle&kRight != 0 && p.exists(kRook) && p.board[kRook] == r &&
		!p.attacked(sqCol[kingSq], them) && !p.attacked(sqCol[kRook], them) {
		buf = append(buf, newMove(int8(kingSq), int8(kRook), kindCastleK))
	}
	if p.castle&qRight != 0 && p.exists(qRook) && p.board[qRook] == r && p.board[qDest] == 0 &&
		!p.attacked(sqCol[kingSq], them) && !p.attacked(sqCol[qDest], them) {
		buf = append(buf, newMove(int8(kingSq), int8(qDest), kindCastleQ))
	}
	return buf
}

// boardController is the side that may move the board on q (D12), or
// false when the board holds more than one piece (3.6).
func (p *Position) boardController(q Pin) (rules.Color, bool) {
	occ := p.occAll().and(pinSquares[q])
	switch bits.OnesCount64(occ[0]) + bits.OnesCount64(occ[1]) {
	case 0:
		return rules.Color(p.black >> uint(q) & 1), true
	case 1:
		for _, s := range q.Squares() {
			if p.board[s] != 0 {
				return p.board[s].Color(), true
			}
		}
	}
	return 0, false
}

// carried is the piece square on the board on q (at most one), or NoSquare.
func (p *Position) carried(q Pin) Square {
	for _, s := range q.Squares() {
		if p.board[s] != 0 {
			return s
		}
	}
	return NoSquare
}

// genBoardMoves appends the attack-board moves (3.6, D12-D14).
func (p *Position) genBoardMoves(buf []rules.Move) []rules.Move {
	for q := Pin(0); q < NumPins; q++ {
		if !p.hasPin(q) {
			continue
		}
		ctl, ok := p.boardController(q)
		if !ok || ctl != p.side {
			continue
		}
		cs := p.carried(q)
		for i := int8(0); i < adjacentN[q]; i++ {
			o := adjacent[q][i]
			if p.hasPin(o) {
				continue
			}
			if cs != NoSquare && p.backward(q, o) {
				continue // an occupied board moves only forward or sideways (D13)
			}
			m := newMove(int8(q), int8(o), kindBoard)
			if p.boardPromotes(q, o) {
				buf = append(buf, withPromo(m, Queen), withPromo(m, Rook), withPromo(m, Bishop), withPromo(m, Knight))
			} else {
				buf = append(buf, m)
			}
		}
	}
	return buf
}

// backward reports whether a board move from q to o goes backward for the
// side to move: toward lower ranks for White, higher for Black (D13).
func (p *Position) backward(q, o Pin) bool {
	if p.side == rules.White {
		return pinRank[o] < pinRank[q]
	}
	return pinRank[o] > pinRank[q]
}

// boardPromotions finds the pawns a board move from q to o puts on their
// furthest rank (D10, D14): own is a pawn of the mover (promoted to the
// piece the move names), opp one of the other side (becomes a queen).
// The position must be the one before the move.
func (p *Position) boardPromotions(q, o Pin) (own, opp Square) {
	own, opp = NoSquare, NoSquare
	us := p.side
	pinsAfter := p.pins&^(1<<uint(q)) | 1<<uint(o)
	if cs := p.carried(q); cs != NoSquare && p.board[cs].Kind() == Pawn {
		t := o.Squares()[cs-q.Squares()[0]]
		if sqRank[t] == furthestRank(pinsAfter, p.board[cs].Color(), sqFile[t]) {
			own = t
		}
	}
	// A vacated corner pin moves the furthest rank of file a or d back.
	var s Square = NoSquare
	var c rules.Color
	switch q {
	case pinQL6:
		s, c = sqA8B, rules.White
	case pinKL6:
		s, c = sqD8B, rules.White
	case pinQL1:
		s, c = sqA1W, rules.Black
	case pinKL1:
		s, c = sqD1W, rules.Black
	}
	if s != NoSquare && p.board[s] == rules.PieceOf(c, Pawn) && sqRank[s] == furthestRank(pinsAfter, c, sqFile[s]) {
		if c == us {
			own = s
		} else {
			opp = s
		}
	}
	return own, opp
}

func (p *Position) boardPromotes(q, o Pin) bool {
	own, _ := p.boardPromotions(q, o)
	return own != NoSquare
}
