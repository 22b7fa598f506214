package st3d

import (
	"math/bits"

	"github.com/tridboard/tridboard/rules"
)

func (b sqset) count() int { return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) }

// countLegal counts the legal moves without listing them (perft's bulk
// count at the leaves). Pieces that cannot expose their king are counted
// from their target masks; everything else (the king, pieces shielding it,
// en passant, castling, board moves, any move in check) goes through the
// generator and the legality test. TestCountLegal keeps the two in step.
func (p *Position) countLegal(buf []rules.Move) int {
	us := p.side
	if p.opt.flags != 0 || p.inCheck(us) {
		return len(p.legalMoves(buf))
	}
	pinned := p.pinnedCols(us)
	them := us.Other()
	exist := p.existing()
	own := p.bb[us][0]
	enemy := p.bb[them][0]
	free := exist.andNot(own).andNot(enemy)
	n := 0
	slow := buf[:0]
	for w := 0; w < 2; w++ {
		word := own[w]
		for word != 0 {
			s := Square(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			c := sqCol[s]
			kind := p.board[s].Kind()
			if kind == King || pinned&(1<<uint(c)) != 0 {
				slow = p.genPiece(slow, s, kind, exist, own, enemy)
				continue
			}
			switch kind {
			case Pawn:
				n += p.countPawn(s, free, exist, enemy)
				if p.ep != NoSquare {
					slow = p.genEP(slow, s, free)
				}
			case Knight:
				n += knightMask[c].and(exist).andNot(own).count()
			case Bishop:
				n += p.slideMask(c, 4, 8).and(exist).andNot(own).count()
			case Rook:
				n += p.slideMask(c, 0, 4).and(exist).andNot(own).count()
			case Queen:
				n += p.slideMask(c, 0, 8).and(exist).andNot(own).count()
			}
		}
	}
	slow = p.genCastling(slow)
	slow = p.genBoardMoves(slow)
	for _, m := range slow {
		if p.legal(m, false, pinned) {
			n++
		}
	}
	return n
}

// slideMask is the set of squares on the columns a slider on column c
// reaches in directions d0..d1-1, up to and including the first column
// that holds a piece.
func (p *Position) slideMask(c int8, d0, d1 int) sqset {
	var m sqset
	for d := d0; d < d1; d++ {
		r := &ray[c][d]
		for i := int8(0); i < rayLen[c][d]; i++ {
			t := r[i]
			m = m.or(colMask[t])
			if p.colN[t] != 0 {
				break
			}
		}
	}
	return m
}

// countPawn counts a pawn's pushes and captures (not en passant).
func (p *Position) countPawn(s Square, free, exist, enemy sqset) int {
	us := p.side
	dr := int8(1)
	if us == rules.Black {
		dr = -1
	}
	f, r := sqFile[s], sqRank[s]
	r1 := r + dr
	if r1 < 0 || r1 >= mapRanks {
		return 0
	}
	mult := func(rank, file int8) int {
		if rank == p.furthest(us, file) {
			return 4
		}
		return 1
	}
	c1 := f*10 + r1
	n := colMask[c1].and(free).count() * mult(r1, f)
	if p.ds.has(s) && p.colN[c1] == 0 {
		if r2 := r1 + dr; r2 >= 0 && r2 < mapRanks {
			n += colMask[f*10+r2].and(free).count() * mult(r2, f)
		}
	}
	for _, df := range [2]int8{-1, 1} {
		if ff := f + df; ff >= 0 && ff < mapFiles {
			if c := ff*10 + r1; p.colN[c] != 0 {
				n += colMask[c].and(enemy).and(exist).count() * mult(r1, ff)
			}
		}
	}
	return n
}

// genEP appends the en-passant captures of the pawn on s.
func (p *Position) genEP(buf []rules.Move, s Square, free sqset) []rules.Move {
	dr := int8(1)
	if p.side == rules.Black {
		dr = -1
	}
	epCol := sqCol[p.ep] + dr
	f, r1 := sqFile[s], sqRank[s]+dr
	if epCol%10 != r1 || (epCol/10 != f-1 && epCol/10 != f+1) {
		return buf
	}
	return addPawnMoves(buf, s, colMask[epCol].and(free), kindEP|captureBit>>17, false)
}
