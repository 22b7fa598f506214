package st3d

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
)

// Helpers for explaining an illegal move (package explain): the moves that
// obey how pieces and boards move, who attacks a king, what blocks a line,
// which rule keeps a board from a pin.

// PseudoMoves appends the moves of the side to move that obey how the
// pieces and boards move (D4-D14, and the options), whether or not they
// leave the mover's king attacked. Every legal move is among them.
func (p *Position) PseudoMoves(buf []rules.Move) []rules.Move { return p.genPseudo(buf) }

// KingAttackers lists the cells of the pieces that attack the mover's king
// once m, one of PseudoMoves, is played (none when m is legal). A queen
// made by a deferred promotion (D10) counts as a knight as well.
func (p *Position) KingAttackers(m rules.Move) []rules.Cell {
	q := *p
	us := q.side
	u := q.make(m)
	k := q.king[us]
	if k == NoSquare {
		return nil
	}
	var out []rules.Cell
	att := q.attackers(sqCol[k], us.Other())
	for s := Square(0); s < NumSquares; s++ {
		if att.has(s) {
			out = append(out, SquareCell(s))
		}
	}
	if s := u.promoSq[1]; mKind(m) == kindBoard && s != NoSquare && knightMask[sqCol[k]].has(s) && !att.has(s) {
		out = append(out, SquareCell(s))
	}
	return out
}

// attackers is the set of by's pieces that attack column c (as attacked).
func (p *Position) attackers(c int8, by rules.Color) sqset {
	b := &p.bb[by]
	att := b[Knight].and(knightMask[c]).or(b[King].and(kingMask[c])).or(b[Pawn].and(pawnAttMask[by][c]))
	rq := b[Rook].or(b[Queen])
	bq := b[Bishop].or(b[Queen])
	for d := 0; d < 8; d++ {
		sl := rq
		if d >= 4 {
			sl = bq
		}
		r := &ray[c][d]
		for i := int8(0); i < rayLen[c][d]; i++ {
			t := r[i]
			if p.colN[t] == 0 {
				continue
			}
			att = att.or(sl.and(colMask[t]))
			break
		}
	}
	return att
}

// Blocker finds what stops the piece on from reaching to along one of its
// lines: the cell of the first piece, on any level, of a column between
// them (D5; a pawn's double step needs the skipped column empty, D6). It
// reports false when to is on none of the piece's lines or nothing stands
// between.
func (p *Position) Blocker(from, to rules.Cell) (rules.Cell, bool) {
	if int(from) >= NumSquares || int(to) >= NumSquares {
		return rules.NoCell, false
	}
	s, t := Square(from), Square(to)
	pc := p.board[s]
	d0, d1 := 0, 0
	switch pc.Kind() {
	case Rook:
		d0, d1 = 0, 4
	case Bishop:
		d0, d1 = 4, 8
	case Queen:
		d0, d1 = 0, 8
	case Pawn:
		dr := int8(1)
		if pc.Color() == rules.Black {
			dr = -1
		}
		if sqFile[t] == sqFile[s] && sqRank[t] == sqRank[s]+2*dr {
			if mid := sqCol[s] + dr; p.colN[mid] != 0 {
				return p.pieceOnCol(mid)
			}
		}
		return rules.NoCell, false
	default:
		return rules.NoCell, false
	}
	for d := d0; d < d1; d++ {
		r := &ray[sqCol[s]][d]
		var first int8 = -1
		for i := int8(0); i < rayLen[sqCol[s]][d]; i++ {
			col := r[i]
			if col == sqCol[t] {
				if first >= 0 {
					return p.pieceOnCol(first)
				}
				return rules.NoCell, false
			}
			if first < 0 && p.colN[col] != 0 {
				first = col
			}
		}
	}
	return rules.NoCell, false
}

// pieceOnCol is the cell of the lowest piece standing on column c.
func (p *Position) pieceOnCol(c int8) (rules.Cell, bool) {
	for i := int8(0); i < colNSq[c]; i++ {
		if s := colSq[c][i]; p.board[s] != 0 {
			return SquareCell(s), true
		}
	}
	return rules.NoCell, false
}

// BoardMoveRule says why the side to move may not move the board on pin q
// to pin o, with the rule that forbids it ("D12", "D13", "V.A1", ...), or
// returns "", "" when the move obeys the board rules (it may still leave
// the king attacked, D15). It is the first of BoardMoveRules.
func (p *Position) BoardMoveRule(q, o Pin) (rule, why string) {
	if broken := p.BoardMoveRules(q, o); len(broken) > 0 {
		return broken[0].Rule, broken[0].Why
	}
	return "", ""
}

// BrokenRule is one board rule a board move breaks: the rule ("3.6",
// "D12", "D13", "V.A5", ...) and why, in words.
type BrokenRule struct {
	Rule, Why string
}

// BoardMoveRules lists every board rule that keeps the side to move from
// moving the board on pin q to pin o, the most telling first: whose board
// it is (D12, V.A4, V.A5), how many pieces it holds (3.6), whether o is
// free and adjacent (D13, V.A2.1, V.A5), the direction (D13, V.A1, V.A5).
// A move with no board on q, to q itself or to no pin breaks one rule
// only. It lists none when the move obeys the board rules (it may still
// leave the king attacked, D15).
func (p *Position) BoardMoveRules(q, o Pin) []BrokenRule {
	one := func(rule, format string, a ...any) []BrokenRule {
		return []BrokenRule{{rule, fmt.Sprintf(format, a...)}}
	}
	switch {
	case q < 0 || q >= NumPins || o < 0 || o >= NumPins:
		return one("D13", "there is no such pin")
	case !p.hasPin(q):
		return one("D1", "no board stands on %s", q)
	case q == o:
		return one("D13", "the board is still on %s", q)
	case p.opt.neutral&(1<<uint(q)) != 0:
		return one("V.A4", "the board on %s is neutral: nobody may move it", q)
	}
	var out []BrokenRule
	add := func(rule, format string, a ...any) {
		out = append(out, BrokenRule{rule, fmt.Sprintf(format, a...)})
	}
	f := p.opt.flags
	us := p.side
	cs := p.carried(q)
	var n [2]int // the pieces on the board, by colour
	for _, s := range q.Squares() {
		if pc := p.board[s]; pc != 0 {
			n[pc.Color()]++
		}
	}
	marking := rules.Color(p.black >> uint(q) & 1)
	switch them := us.Other(); {
	case n[us] > 0:
	case n[them] == 1:
		add("D12", "the board on %s carries a %s piece, so only %s may move it", q, them, them)
	case n[them] > 1:
		add("D12", "the board on %s carries %s's pieces, so it is not %s's to move", q, them, us)
	case marking != us:
		add("D12", "the board on %s is empty and marked %s, so only %s may move it", q, them, them)
	}
	if n[0]+n[1] > 1 {
		add("3.6", "the board on %s holds more than one piece, and a board moves with at most one", q)
	}
	if f&optA5 != 0 {
		if marking != us {
			add("V.A5", "each side moves only the boards of its own marking, and the board on %s is %s's", q, us.Other())
		}
		if n[0]+n[1] == 1 && p.board[cs] != rules.PieceOf(us, Pawn) {
			add("V.A5", "a board moves empty or carrying only one of its owner's pawns")
		}
	}
	if p.hasPin(o) {
		add("D13", "a board may only go to a free pin, and %s holds one", o)
	}
	if f&(optA21|optA5) == 0 {
		dn := int(q%6) - int(o%6)
		sameSide := (q < 6) == (o < 6)
		if !(sameSide && (dn == 1 || dn == -1 || dn == 2 || dn == -2) || !sameSide && dn == 0) {
			add("D13", "%s is not adjacent to %s; adjacent pins are on the same side 1 or 2 numbers apart, or across with the same number", o, q)
			return out
		}
	} else if !p.optAdjacent(q, o) {
		if f&optA21 != 0 {
			add("V.A2.1", "a board goes only to a pin on its side exactly two ranks away, and %s is not", o)
		} else {
			add("V.A5", "a board goes only one main board up or down at the same corner, and %s is not", o)
		}
		return out
	}
	if len(out) > 0 && out[0].Rule == "D12" {
		return out // forward and backward are the mover's, and it is not theirs to move
	}
	// The direction, for a pin the board could reach.
	sideways := (q < 6) != (o < 6)
	occupied := n[0]+n[1] > 0
	switch {
	case f&optA5 != 0:
		if occupied && !p.forward(q, o) {
			add("V.A5", "a board carrying a pawn never moves backward for it")
		}
	case f&optA1 != 0:
		if !sideways && occupied && !p.forward(q, o) {
			add("V.A1", "an occupied board moves only forward or sideways")
		}
		if !sideways && !occupied && p.forward(q, o) {
			add("V.A1", "an empty board moves only backward or sideways")
		}
	default:
		if occupied && p.backward(q, o) {
			add("D13", "an occupied board moves only forward or sideways")
		}
	}
	return out
}
