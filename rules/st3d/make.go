package st3d

import "github.com/tridboard/tridboard/rules"

// undo holds what make changed that unmake cannot derive from the move.
type undo struct {
	captured   Piece
	capSq      Square
	castle     uint8
	ep         Square
	ds         sqset
	half       int
	promoSq    [2]Square // pawns a board move promoted
	promoPiece [2]Piece  // ... and what they were
	carriedTo  Square    // where a board move put its piece, or NoSquare
	claimed    uint16    // neutral boards the move claimed (V.A4)
}

// make plays m in place and returns what unmake needs to take it back.
func (p *Position) make(m rules.Move) undo {
	u := undo{capSq: NoSquare, castle: p.castle, ep: p.ep, ds: p.ds, half: p.half,
		promoSq: [2]Square{NoSquare, NoSquare}, carriedTo: NoSquare}
	us := p.side
	p.ep = NoSquare
	p.half++
	from, to := Square(mFrom(m)), Square(mTo(m))
	switch mKind(m) {
	case kindCastleK:
		if m&castle960Bit != 0 {
			p.makeCastle960(m, us)
			break
		}
		k := p.remove(from)
		r := p.remove(to)
		p.put(from, r)
		p.put(to, k)
		p.castle &= castleMask[from]
	case kindCastleQ:
		if m&castle960Bit != 0 {
			p.makeCastle960(m, us)
			break
		}
		rookSq := sqZ0QL1
		if us == rules.Black {
			rookSq = sqZ9QL6
		}
		k := p.remove(from)
		r := p.remove(rookSq)
		p.put(to, k)
		p.put(from, r)
		p.castle &= castleMask[from] & castleMask[rookSq]
	case kindBoard:
		p.makeBoard(m, &u)
	case kindExt:
		p.makeExt(m, &u)
		return u
	default:
		capSq := to
		if mKind(m) == kindEP {
			capSq = u.ep // the pawn that has just double-stepped (D8)
		}
		if p.board[capSq] != 0 {
			u.captured = p.remove(capSq)
			u.capSq = capSq
			p.half = 0
		}
		pc := p.remove(from)
		if pc.Kind() == Pawn {
			p.half = 0
			if k := mPromo(m); k != 0 {
				pc = rules.PieceOf(us, k)
			}
		}
		p.put(to, pc)
		p.castle &= castleMask[from] & castleMask[to]
		p.ds.clear(from)
		p.ds.clear(capSq)
		if mKind(m) == kindDouble {
			p.ep = to
		}
	}
	if p.opt.flags != 0 {
		p.optAfter(m, from, to, &u)
	}
	if us == rules.Black {
		p.full++
	}
	p.side = us.Other()
	return u
}

// makeBoard moves an attack board with what it carries (D13, D14) and
// promotes the pawns the move puts on their furthest rank (D10).
func (p *Position) makeBoard(m rules.Move, u *undo) {
	q, o := Pin(mFrom(m)), Pin(mTo(m))
	own, opp := p.boardPromotions(q, o)
	cs := p.carried(q)
	p.pins = p.pins&^(1<<uint(q)) | 1<<uint(o)
	if p.black&(1<<uint(q)) != 0 {
		p.black = p.black&^(1<<uint(q)) | 1<<uint(o)
	}
	if cs != NoSquare {
		t := o.Squares()[cs-q.Squares()[0]]
		pc := p.remove(cs)
		p.put(t, pc)
		u.carriedTo = t
		p.ds.clear(cs) // D7: a carried pawn loses its double step
		p.castle &= castleMask[cs] & castleMask[t]
	}
	if own != NoSquare {
		u.promoSq[0], u.promoPiece[0] = own, p.remove(own)
		if k := mPromo(m); k != promoBoard {
			p.put(own, rules.PieceOf(p.side, k))
		} else {
			// V.A3: the pawn leaves; a new board of the mover's stands on q.
			p.pins |= 1 << uint(q)
			if p.side == rules.Black {
				p.black |= 1 << uint(q)
			}
		}
	}
	if opp != NoSquare {
		u.promoSq[1], u.promoPiece[1] = opp, p.remove(opp)
		p.put(opp, rules.PieceOf(p.side.Other(), Queen))
	}
}

// unmake takes back m, which make returned u for.
func (p *Position) unmake(m rules.Move, u undo) {
	p.side = p.side.Other()
	us := p.side
	if us == rules.Black {
		p.full--
	}
	from, to := Square(mFrom(m)), Square(mTo(m))
	switch mKind(m) {
	case kindCastleK:
		if m&castle960Bit != 0 {
			p.unmakeCastle960(m, us)
			break
		}
		k := p.remove(to)
		r := p.remove(from)
		p.put(from, k)
		p.put(to, r)
	case kindCastleQ:
		if m&castle960Bit != 0 {
			p.unmakeCastle960(m, us)
			break
		}
		rookSq := sqZ0QL1
		if us == rules.Black {
			rookSq = sqZ9QL6
		}
		k := p.remove(to)
		r := p.remove(from)
		p.put(from, k)
		p.put(rookSq, r)
	case kindBoard:
		q, o := Pin(from), Pin(to)
		if mPromo(m) == promoBoard {
			// V.A3: take the new board off q and the pawn back.
			p.pins &^= 1 << uint(q)
			p.black &^= 1 << uint(q)
			p.put(u.promoSq[0], u.promoPiece[0])
		} else {
			for i := 1; i >= 0; i-- {
				if s := u.promoSq[i]; s != NoSquare {
					p.remove(s)
					p.put(s, u.promoPiece[i])
				}
			}
		}
		if t := u.carriedTo; t != NoSquare {
			pc := p.remove(t)
			p.put(q.Squares()[t-o.Squares()[0]], pc)
		}
		p.pins = p.pins&^(1<<uint(o)) | 1<<uint(q)
		if p.black&(1<<uint(o)) != 0 {
			p.black = p.black&^(1<<uint(o)) | 1<<uint(q)
		}
	case kindExt:
		p.unmakeExt(m, u)
	default:
		pc := p.remove(to)
		if mPromo(m) != 0 {
			pc = rules.PieceOf(us, Pawn)
		}
		p.put(from, pc)
		if u.captured != 0 {
			p.put(u.capSq, u.captured)
		}
	}
	p.castle, p.ep, p.ds, p.half = u.castle, u.ep, u.ds, u.half
	if u.claimed != 0 {
		p.unclaim(u)
	}
}

// pinnedCols finds the columns whose single piece, of side us, is all that
// stands between us's king and an enemy slider on one of the eight lines:
// moving that piece away could expose the king.
func (p *Position) pinnedCols(us rules.Color) uint64 {
	k := p.king[us]
	if k == NoSquare {
		return 0
	}
	kc := sqCol[k]
	b := &p.bb[us.Other()]
	rq := b[Rook].or(b[Queen])
	bq := b[Bishop].or(b[Queen])
	own := p.bb[us][0]
	var pinned uint64
	for d := 0; d < 8; d++ {
		sl := rq
		if d >= 4 {
			sl = bq
		}
		if sl.empty() {
			continue
		}
		r := &ray[kc][d]
		var first int8 = -1
		for i := int8(0); i < rayLen[kc][d]; i++ {
			t := r[i]
			if p.colN[t] == 0 {
				continue
			}
			if first < 0 {
				if p.colN[t] > 1 || own.and(colMask[t]).empty() {
					break // still blocked when one piece leaves, or an enemy piece
				}
				first = t
				continue
			}
			if !sl.and(colMask[t]).empty() {
				pinned |= 1 << uint(first)
			}
			break
		}
	}
	return pinned
}

// legal reports whether pseudo-legal m leaves the mover's king safe. Only
// moves that could expose the king are played out: castling, en passant,
// board moves, any move while in check, and moves of a piece that alone
// shields the king from a slider. King steps test the target column with
// the king lifted off its own column.
func (p *Position) legal(m rules.Move, inCheck bool, pinned uint64) bool {
	us := p.side
	kind := mKind(m)
	if kind == kindNormal || kind == kindDouble {
		from := Square(mFrom(m))
		fc := sqCol[from]
		if p.board[from].Kind() == King {
			p.colN[fc]--
			ok := !p.attacked(sqCol[mTo(m)], us.Other())
			p.colN[fc]++
			return ok
		}
		if !inCheck && pinned&(1<<uint(fc)) == 0 {
			return true
		}
	}
	u := p.make(m)
	ok := !p.inCheck(us)
	if ok && kind == kindBoard && u.promoSq[1] != NoSquare {
		// D10: the opponent's new piece could be a knight as well.
		if k := p.king[us]; k != NoSquare && knightMask[sqCol[k]].has(u.promoSq[1]) {
			ok = false
		}
	}
	p.unmake(m, u)
	return ok
}

// legalMoves appends the legal moves to buf.
func (p *Position) legalMoves(buf []rules.Move) []rules.Move {
	start := len(buf)
	buf = p.genPseudo(buf)
	inCheck := p.inCheck(p.side)
	pinned := p.pinnedCols(p.side)
	n := start
	for _, m := range buf[start:] {
		if p.legal(m, inCheck, pinned) {
			buf[n] = m
			n++
		}
	}
	return buf[:n]
}
