package st3d

import (
	"github.com/tridboard/tridboard/rules"
)

// System is Star Trek 3D chess under the tournament rules (docs/rules.md).
var System rules.System = rules.NewSystem("st3d", CellNames, StartPosition, Parse)

// Start returns the start position as a rules.Position.
func Start() rules.Position { return System.Start() }

// The methods below make *Position a rules.Position.

// System is the ST3D system.
func (p *Position) System() rules.System {
	if p.opt.flags == 0 && p.opt.setup == SetupTournament {
		return System
	}
	s, err := optSystemOf(p.opt.options())
	if err != nil {
		return System // cannot happen: the options were valid when the position was made
	}
	return s
}

// LegalMoves appends the legal moves to buf and returns it. It allocates
// nothing when buf has room for them.
func (p *Position) LegalMoves(buf []rules.Move) []rules.Move {
	cp := *p // legality is tried by making moves: never on a shared position
	return cp.legalMoves(buf)
}

// Play returns the position after m; p does not change.
func (p *Position) Play(m rules.Move) rules.Position {
	n := *p
	n.make(m)
	return &n
}

// Make plays m in place (m must be legal here).
func (p *Position) Make(m rules.Move) { p.make(m) }

// Clone is a new copy of the position (rules.Maker).
func (p *Position) Clone() rules.Maker {
	cp := *p
	return &cp
}

// CopyFrom makes p a copy of src, a position of this system (rules.Maker).
func (p *Position) CopyFrom(src rules.Maker) { *p = *src.(*Position) }

// InCheck reports whether the side to move is in check, and its king's cell.
func (p *Position) InCheck() (bool, rules.Cell) {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	k := p.king[p.side]
	if k == NoSquare {
		return false, rules.NoCell
	}
	return p.inCheck(p.side), SquareCell(k)
}

// Status tells whether the game is over: checkmate, stalemate or a dead
// position. Only K v K is dead (D18): a piece never attacks its own column
// (D6), so kings can stand in one column on two levels, and there a lone
// bishop or knight mates; so do bishops all on one colour.
func (p *Position) Status() rules.Status {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [256]rules.Move
	if len(p.legalMoves(buf[:0])) == 0 {
		if p.inCheck(p.side) {
			return rules.Checkmate
		}
		return rules.Stalemate
	}
	if p.dead() {
		return rules.DeadPosition
	}
	return rules.Ongoing
}

// dead reports K v K, the only dead position (D18).
func (p *Position) dead() bool {
	for c := 0; c < 2; c++ {
		for k := Pawn; k < King; k++ {
			if p.bb[c][k][0]|p.bb[c][k][1] != 0 {
				return false
			}
		}
	}
	return true
}

// Info says which cells m touches.
func (p *Position) Info(m rules.Move) rules.MoveInfo {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	if mKind(m) == kindExt || m&castle960Bit != 0 || mPromo(m) == promoBoard {
		return p.optInfo(m)
	}
	from, to := mFrom(m), mTo(m)
	in := rules.MoveInfo{Captured: rules.NoCell, Promoted: rules.NoCell}
	if k := mPromo(m); k != 0 {
		in.Promotion = true
		in.PromoteTo = pieceLetters[k]
	}
	switch mKind(m) {
	case kindBoard:
		q, o := Pin(from), Pin(to)
		in.Board = true
		in.From, in.To = PinCell(q), PinCell(o)
		in.Touched.Add(in.From)
		if cs := p.carried(q); cs != NoSquare {
			in.Touched.Add(SquareCell(cs))
		}
		own, opp := p.boardPromotions(q, o)
		if own != NoSquare {
			in.Promoted = SquareCell(own)
		} else if opp != NoSquare {
			in.Promotion = true
			in.PromoteTo = 'Q'
			in.Promoted = SquareCell(opp)
		}
		return in
	case kindCastleK:
		in.Castle = true
	case kindCastleQ:
		in.Castle = true
		if p.side == rules.White {
			in.Touched.Add(SquareCell(sqZ0QL1))
		} else {
			in.Touched.Add(SquareCell(sqZ9QL6))
		}
	case kindEP:
		in.Captured = SquareCell(p.ep)
	}
	in.From, in.To = SquareCell(Square(from)), SquareCell(Square(to))
	in.Touched.Add(in.From)
	if mKind(m) == kindCastleK || mCapture(m) && mKind(m) != kindEP {
		in.Touched.Add(in.To)
		if mKind(m) != kindCastleK {
			in.Captured = in.To
		}
	}
	if in.Captured != rules.NoCell {
		in.Touched.Add(in.Captured)
	}
	if in.Promotion {
		in.Promoted = in.To
	}
	return in
}

// Extends reports whether further is a move of the same piece as m that
// goes on along m's line beyond m's target (a slider sliding on, a pawn's
// double step past its single step): the piece set down on m's target
// could still be on its way. Move recognition waits longer for such moves.
func (p *Position) Extends(m, further rules.Move) bool {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	if mFrom(m) != mFrom(further) || mKind(m) >= kindCastleK || mKind(further) >= kindCastleK {
		return false
	}
	from := Square(mFrom(m))
	switch p.board[from].Kind() {
	case Pawn, Bishop, Rook, Queen:
	default:
		return false
	}
	df1, dr1 := int(sqFile[mTo(m)]-sqFile[from]), int(sqRank[mTo(m)]-sqRank[from])
	df2, dr2 := int(sqFile[mTo(further)]-sqFile[from]), int(sqRank[mTo(further)]-sqRank[from])
	sign := func(x int) int {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}
	abs := func(x int) int { return x * sign(x) }
	return df1*dr2 == dr1*df2 && sign(df1) == sign(df2) && sign(dr1) == sign(dr2) &&
		max(abs(df2), abs(dr2)) > max(abs(df1), abs(dr1))
}
