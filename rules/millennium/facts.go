package millennium

import "github.com/tridboard/tridboard/rules"

// MoveFacts is the part of Info an engine orders moves by (From, To,
// Captured, Promotion, Board), without building the touched set: equal
// to Info's fields for every move of p.
func (p *Position) MoveFacts(m rules.Move) (from, to, captured rules.Cell, promotion, board bool) {
	from, to = SquareCell(mFrom(m)), SquareCell(mTo(m))
	captured = rules.NoCell
	switch mKind(m) {
	case kindEP:
		captured = SquareCell(p.epVictim())
	case kindCastleK, kindCastleQ:
	default:
		if mCapture(m) {
			captured = to
		}
	}
	return from, to, captured, mPromo(m) != 0, false
}
