package st3d

import "github.com/tridboard/tridboard/rules"

// MoveFacts is the part of Info an engine orders moves by (From, To,
// Captured, Promotion, Board), without building the touched set: equal
// to Info's fields for every move of p.
func (p *Position) MoveFacts(m rules.Move) (from, to, captured rules.Cell, promotion, board bool) {
	if k := mKind(m); k == kindExt || k == kindBoard || m&castle960Bit != 0 || mPromo(m) == promoBoard {
		in := p.Info(m)
		return in.From, in.To, in.Captured, in.Promotion, in.Board
	}
	from, to = SquareCell(Square(mFrom(m))), SquareCell(Square(mTo(m)))
	captured = rules.NoCell
	switch mKind(m) {
	case kindEP:
		captured = SquareCell(p.ep)
	case kindCastleK, kindCastleQ:
	default:
		if mCapture(m) {
			captured = to
		}
	}
	return from, to, captured, mPromo(m) != 0, false
}
