package firstcontact

import "github.com/tridboard/tridboard/rules"

// MoveFacts is the part of Info an engine orders moves by (From, To,
// Captured, Promotion, Board), without building the touched set: equal
// to Info's fields for every move of p.
func (p *Position) MoveFacts(m rules.Move) (from, to, captured rules.Cell, promotion, board bool) {
	cm := p.cells()
	f, t := mFrom(m), mTo(m)
	switch mKind(m) {
	case kindPlace:
		return rules.NoCell, cm.slot[t], rules.NoCell, false, true
	case kindDrop:
		return rules.NoCell, cm.sq[t], rules.NoCell, false, false
	case kindPlatform:
		return cm.slot[f], cm.slot[t], rules.NoCell, false, true
	}
	from, to, captured = cm.sq[f], cm.sq[t], rules.NoCell
	if mCapture(m) {
		captured = to
	}
	return from, to, captured, false, false
}
