package firstcontact

import (
	"math/bits"

	"github.com/tridboard/tridboard/rules"
)

// attacked reports whether side by attacks square s. Every attacker is
// found from s outward: pieces stand only on existing squares, so a step
// needs no test; lines stop before a square that does not exist (F2) and
// at the first piece; a knight's leap between fixed levels needs its
// platform cell (F3, tested from the knight's side).
func (p *Position) attacked(s Square, by rules.Color) bool {
	b := &p.board
	bb := blackBit * Piece(by)
	// Triagonal steps: king, queen, bishop, pawn.
	for d := dirTriag0; d < numDirs; d++ {
		if t := step[s][d]; t != NoSquare {
			if pc := b[t]; pc != 0 && pc&blackBit == bb {
				if k := pc.Kind(); k == King || k == Queen || k == Bishop || k == Pawn {
					return true
				}
			}
		}
	}
	// Lines: orthogonal (king step, rook, queen), diagonal on the level
	// (king step, pawn, bishop, queen).
	for d := 0; d < dirTriag0; d++ {
		r := &ray[s][d]
		n := rayLen[s][d]
		for i := int8(0); i < n; i++ {
			t := r[i]
			if !p.exist.has(t) {
				break
			}
			pc := b[t]
			if pc == 0 {
				continue
			}
			if pc&blackBit == bb {
				k := pc.Kind()
				if k == Queen || i == 0 && k == King {
					return true
				}
				if d < numOrth {
					if k == Rook {
						return true
					}
				} else if k == Bishop || i == 0 && k == Pawn {
					return true
				}
			}
			break
		}
	}
	kn := rules.PieceOf(by, Knight)
	for i := int8(0); i < knightFromN[s]; i++ {
		l := knightFrom[s][i]
		if b[l.to] == kn && (l.via == NoSquare || p.exist.has(l.via)) {
			return true
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
	return p.attacked(k, c.Other())
}

// pinned finds the squares of side us's pieces that alone stand between
// its king and an enemy rook, bishop or queen on one line: only their moves
// (and the king's, and platform moves) can expose the king.
func (p *Position) pinned(us rules.Color) sqset {
	var out sqset
	k := p.king[us]
	if k == NoSquare {
		return out
	}
	bb := blackBit * Piece(us.Other())
	for d := 0; d < dirTriag0; d++ {
		r := &ray[k][d]
		n := rayLen[k][d]
		first := NoSquare
		for i := int8(0); i < n; i++ {
			t := r[i]
			if !p.exist.has(t) {
				break
			}
			pc := p.board[t]
			if pc == 0 {
				continue
			}
			if first == NoSquare {
				if pc&blackBit == bb {
					break
				}
				first = t
				continue
			}
			if pc&blackBit == bb {
				if kd := pc.Kind(); kd == Queen || d < numOrth && kd == Rook || d >= numOrth && kd == Bishop {
					out.set(first)
				}
			}
			break
		}
	}
	return out
}

func (p *Position) add(buf []rules.Move, s, t Square) []rules.Move {
	m := newMove(uint8(s), uint8(t), kindPiece)
	if p.board[t] != 0 {
		m |= captureBit
	}
	return append(buf, m)
}

// genPiece appends the pseudo-legal moves of the piece on s.
func (p *Position) genPiece(buf []rules.Move, s Square, kind Piece) []rules.Move {
	own := blackBit * Piece(p.side)
	switch kind {
	case Pawn:
		// Steps: any orthogonal direction onto an empty existing cell.
		for d := 0; d < numOrth; d++ {
			if t := step[s][d]; t != NoSquare && p.exist.has(t) && p.board[t] == 0 {
				buf = append(buf, newMove(uint8(s), uint8(t), kindPiece))
			}
		}
		// Captures: diagonal on the level or triagonal.
		for d := dirDiag0; d < numDirs; d++ {
			if t := step[s][d]; t != NoSquare {
				if pc := p.board[t]; pc != 0 && pc&blackBit != own {
					buf = append(buf, newMove(uint8(s), uint8(t), kindPiece)|captureBit)
				}
			}
		}
	case Knight:
		for i := int8(0); i < knightToN[s]; i++ {
			l := knightTo[s][i]
			if p.exist.has(l.to) && (l.via == NoSquare || p.exist.has(l.via)) {
				if pc := p.board[l.to]; pc == 0 || pc&blackBit != own {
					buf = p.add(buf, s, l.to)
				}
			}
		}
	case King:
		for d := 0; d < numDirs; d++ {
			if t := step[s][d]; t != NoSquare && p.exist.has(t) {
				if pc := p.board[t]; pc == 0 || pc&blackBit != own {
					buf = p.add(buf, s, t)
				}
			}
		}
	case Bishop:
		buf = p.genSteps(buf, s, own)
		buf = p.genSlides(buf, s, dirDiag0, dirTriag0, own)
	case Rook:
		buf = p.genSlides(buf, s, 0, numOrth, own)
	case Queen:
		buf = p.genSteps(buf, s, own)
		buf = p.genSlides(buf, s, 0, dirTriag0, own)
	}
	return buf
}

// genSteps appends the triagonal steps of a queen or bishop.
func (p *Position) genSteps(buf []rules.Move, s Square, own Piece) []rules.Move {
	for d := dirTriag0; d < numDirs; d++ {
		if t := step[s][d]; t != NoSquare && p.exist.has(t) {
			if pc := p.board[t]; pc == 0 || pc&blackBit != own {
				buf = p.add(buf, s, t)
			}
		}
	}
	return buf
}

// genSlides appends the slides along directions d0..d1-1: through existing
// empty cells (F2), up to and including the first enemy piece.
func (p *Position) genSlides(buf []rules.Move, s Square, d0, d1 int, own Piece) []rules.Move {
	for d := d0; d < d1; d++ {
		r := &ray[s][d]
		n := rayLen[s][d]
		for i := int8(0); i < n; i++ {
			t := r[i]
			if !p.exist.has(t) {
				break
			}
			pc := p.board[t]
			if pc == 0 {
				buf = append(buf, newMove(uint8(s), uint8(t), kindPiece))
				continue
			}
			if pc&blackBit != own {
				buf = append(buf, newMove(uint8(s), uint8(t), kindPiece)|captureBit)
			}
			break
		}
	}
	return buf
}

// slotAllowed reports whether the system offers slot sl (UpOnly has no
// `d` positions, F6).
func (p *Position) slotAllowed(sl Slot) bool { return !p.up || !sl.Inverted() }

// genPlatforms appends the platform moves (F4): a platform that is not
// banned, holding nothing (it inverts) or exactly one pawn of the side to
// move (it shifts, orientation kept), to a vacant position.
func (p *Position) genPlatforms(buf []rules.Move) []rules.Move {
	for pl := p.plats; pl != 0; pl &= pl - 1 {
		sl := Slot(bits.TrailingZeros32(pl))
		if sl == p.ban {
			continue
		}
		k := 0
		if cs, many := p.carried(sl); many {
			continue
		} else if cs != NoSquare {
			if p.board[cs] != rules.PieceOf(p.side, Pawn) {
				continue
			}
			k = 1
		}
		for i := int8(0); i < platTargetsN[sl][k]; i++ {
			t := platTargets[sl][k][i]
			if !p.hasPlatform(t) && p.slotAllowed(t) {
				buf = append(buf, newMove(uint8(sl), uint8(t), kindPlatform))
			}
		}
	}
	return buf
}

// genDrops appends the introductions: each kind left in the reserve onto
// each vacant cell of the mover's own fixed level.
func (p *Position) genDrops(buf []rules.Move) []rules.Move {
	us := p.side
	lv := levelW
	if us == rules.Black {
		lv = levelB
	}
	for k := Pawn; k < King; k++ {
		if p.reserve[us][k] == 0 {
			continue
		}
		for s := Square(16 * lv); s < Square(16*lv+16); s++ {
			if p.board[s] == 0 {
				buf = append(buf, dropMove(k, s))
			}
		}
	}
	return buf
}

// legalMoves appends the legal moves of the side to move.
func (p *Position) legalMoves(buf []rules.Move) []rules.Move {
	us := p.side
	switch p.phase() {
	case phasePlatforms:
		for sl := Slot(0); sl < NumSlots; sl++ {
			if !p.hasPlatform(sl) && p.slotAllowed(sl) {
				buf = append(buf, newMove(0, uint8(sl), kindPlace))
			}
		}
		return buf
	case phaseWhiteKing, phaseBlackKing:
		lv := 16 * Square(us) * 2
		for s := lv; s < lv+16; s++ {
			if p.board[s] == 0 {
				buf = append(buf, dropMove(King, s))
			}
		}
		return buf
	}
	// Giving check wins at once: a side in check has lost and has no move.
	if p.inCheck(us) {
		return buf
	}
	start := len(buf)
	for w, word := range p.occ[us] {
		for word != 0 {
			s := Square(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			buf = p.genPiece(buf, s, p.board[s].Kind())
		}
	}
	buf = p.genPlatforms(buf)
	// Only moves that could expose the king are tested: the king's own,
	// those of a piece shielding it from a slider, platform moves (they
	// change which cells exist). An introduction only adds a piece.
	pinned := p.pinned(us)
	k := p.king[us]
	n := start
	for _, m := range buf[start:] {
		if p.legal(m, k, &pinned) {
			buf[n] = m
			n++
		}
	}
	return p.genDrops(buf[:n])
}

// legal reports whether pseudo-legal m (a piece or platform move) leaves
// the mover's king safe.
func (p *Position) legal(m rules.Move, k Square, pinned *sqset) bool {
	us := p.side
	if mKind(m) == kindPiece {
		from := Square(mFrom(m))
		if from == k {
			pc := p.board[k]
			p.board[k] = 0
			ok := !p.attacked(Square(mTo(m)), us.Other())
			p.board[k] = pc
			return ok
		}
		if !pinned.has(from) {
			return true
		}
	}
	u := p.make(m)
	ok := !p.inCheck(us)
	p.unmake(m, u)
	return ok
}
