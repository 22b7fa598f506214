package millennium

import "github.com/tridboard/tridboard/rules"

// undo holds what make changed that unmake cannot derive from the move.
type undo struct {
	captured Piece
	capSq    Square
	castle   uint8
	ep       Square
	ds       bset
	half     int
}

// castleRook gives the rook's squares for a castling king move: where it
// stands and where it lands.
func castleRook(kingTo Square) (from, to Square) {
	if kingTo.File() == 6 {
		return kingTo + 1, kingTo - 1
	}
	return kingTo - 2, kingTo + 1
}

// make plays m in place and returns what unmake needs to take it back.
func (p *Position) make(m rules.Move) undo {
	u := undo{capSq: NoSquare, castle: p.castle, ep: p.ep, ds: p.ds, half: p.half}
	us := p.side
	from, to := mFrom(m), mTo(m)
	p.half++
	switch kind := mKind(m); kind {
	case kindCastleK, kindCastleQ:
		rf, rt := castleRook(to)
		p.put(to, p.remove(from))
		p.put(rt, p.remove(rf))
		p.castle &= castleMask[from]
		p.ep = NoSquare
	default:
		capSq := to
		if kind == kindEP {
			capSq = p.epVictim()
		}
		if mCapture(m) {
			u.captured = p.remove(capSq)
			u.capSq = capSq
			p.half = 0
			p.ds.clear(capSq)
		}
		pc := p.remove(from)
		if pc.Kind() == Pawn {
			p.half = 0
			if k := mPromo(m); k != 0 {
				pc = rules.PieceOf(us, k)
			}
			p.ds.clear(from)
		}
		p.put(to, pc)
		p.castle &= castleMask[from] & castleMask[to]
		p.ep = NoSquare
		if kind == kindDouble {
			// The cell passed through: halfway from from to to (M8).
			p.ep = SquareAt((from.Level()+to.Level())/2, (from.Rank()+to.Rank())/2, from.File())
		}
	}
	if us == rules.Black {
		p.full++
	}
	p.side = us.Other()
	return u
}

// unmake takes back m, which make returned u for.
func (p *Position) unmake(m rules.Move, u undo) {
	p.side = p.side.Other()
	us := p.side
	if us == rules.Black {
		p.full--
	}
	from, to := mFrom(m), mTo(m)
	switch mKind(m) {
	case kindCastleK, kindCastleQ:
		rf, rt := castleRook(to)
		p.put(from, p.remove(to))
		p.put(rf, p.remove(rt))
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
}

// pinnedSet finds us's pieces that alone stand between us's king and an
// enemy slider on one of the 26 lines: moving one could expose the king.
func (p *Position) pinnedSet(us rules.Color) bset {
	var pinned bset
	k := p.king[us]
	if k == NoSquare {
		return pinned
	}
	b := &p.bb[us.Other()]
	rq := b[Rook].or(b[Queen])
	bq := b[Bishop].or(b[Queen])
	own := p.bb[us][0]
	for d := 0; d < numDirs; d++ {
		sl := rq
		if d >= numRookDirs {
			sl = bq
		}
		if !sl.meets(rayMask[k][d]) {
			continue
		}
		r := &ray[k][d]
		first := NoSquare
		for i := uint8(0); i < rayLen[k][d]; i++ {
			t := r[i]
			if !p.occ.has(t) {
				continue
			}
			if first == NoSquare {
				if !own.has(t) {
					break // an enemy piece: a check or a block, no pin
				}
				first = t
				continue
			}
			if sl.has(t) {
				pinned.set(first)
			}
			break
		}
	}
	return pinned
}

// legal reports whether pseudo-legal m leaves the mover's king safe. King
// steps test the target with the king lifted; castling is checked when
// generated; other moves are played out only when they could expose the
// king: in check, en passant, or a pinned piece.
func (p *Position) legal(m rules.Move, inCheck bool, pinned bset) bool {
	us := p.side
	kind := mKind(m)
	if kind == kindCastleK || kind == kindCastleQ {
		return true
	}
	from := mFrom(m)
	if p.board[from].Kind() == King {
		occ := p.occ
		occ.clear(from)
		return !p.attacked(mTo(m), us.Other(), occ)
	}
	if kind != kindEP && !inCheck && !pinned.has(from) {
		return true
	}
	u := p.make(m)
	ok := !p.inCheck(us)
	p.unmake(m, u)
	return ok
}

// legalMoves appends the legal moves to buf.
func (p *Position) legalMoves(buf []rules.Move) []rules.Move {
	start := len(buf)
	buf = p.genPseudo(buf)
	inCheck := p.inCheck(p.side)
	pinned := p.pinnedSet(p.side)
	k := p.king[p.side]
	n := start
	for _, m := range buf[start:] {
		// The common case inline: not in check, neither the king nor a
		// pinned piece moving, no en passant.
		if from := mFrom(m); !inCheck && from != k && !pinned.has(from) && mKind(m) != kindEP ||
			p.legal(m, inCheck, pinned) {
			buf[n] = m
			n++
		}
	}
	return buf[:n]
}
