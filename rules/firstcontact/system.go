package firstcontact

import "github.com/tridboard/tridboard/rules"

// System is First Contact on a set that senses platforms both up and
// inverted: all 24 platform positions, 168 cells (F6).
var System rules.System = rules.NewSystem("first-contact", CellNames, StartPosition, Parse)

// UpOnly is First Contact for a set whose sockets sense upright platforms
// only (the reference socket, F6): it offers no `d` position (placements,
// inversions, position strings), so an empty platform can never move, and
// its cell list is the 108 cells without them.
var UpOnly rules.System = rules.NewSystem("first-contact-up",
	func() []string { return upCells.names },
	func() Position { p := startPos; p.up = true; return p },
	ParseUpOnly)

// The methods below make *Position a rules.Position.

// System is the system the position was made under (System or UpOnly).
func (p *Position) System() rules.System {
	if p.up {
		return UpOnly
	}
	return System
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

// InCheck reports whether the side to move is in check, and its king's
// cell. In First Contact a side in check has lost (see Status).
func (p *Position) InCheck() (bool, rules.Cell) {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	k := p.king[p.side]
	if k == NoSquare {
		return false, rules.NoCell
	}
	return p.inCheck(p.side), p.cells().sq[k]
}

// Status tells whether the game is over. Giving check wins at once, so a
// side to move that is in check has lost: that is reported as
// rules.Checkmate (rules.Game then scores it for the other side) although
// the checked side might have had an escape in chess. A side with no legal
// move that is not in check is stalemated: a draw (F5). A position is dead
// only when no side can ever give check (D18): the two kings alone, with
// nothing left in either reserve (a king never checks, since it may not
// step next to the other). Any other piece, on the set or still to come,
// can check.
func (p *Position) Status() rules.Status {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	if p.phase() != phasePlay {
		return rules.Ongoing
	}
	if p.inCheck(p.side) {
		return rules.Checkmate
	}
	var buf [maxMoves]rules.Move
	if len(p.legalMoves(buf[:0])) == 0 {
		return rules.Stalemate
	}
	if p.dead() {
		return rules.DeadPosition
	}
	return rules.Ongoing
}

// dead reports the kings alone on the set with both reserves empty (D18).
func (p *Position) dead() bool {
	if p.reserve != [2][King]uint8{} {
		return false
	}
	for c := rules.White; c <= rules.Black; c++ {
		rest := p.occ[c]
		rest.clear(p.king[c])
		if !rest.empty() {
			return false
		}
	}
	return true
}

// Info says which cells m touches. A drop (introduction or king placement)
// and a platform placement come from outside the set: From is NoCell and
// Touched is empty. A platform move goes from presence cell to presence
// cell (Board is true) and touches the pawn it carries.
func (p *Position) Info(m rules.Move) rules.MoveInfo {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	cm := p.cells()
	in := rules.MoveInfo{From: rules.NoCell, Captured: rules.NoCell, Promoted: rules.NoCell}
	from, to := mFrom(m), mTo(m)
	switch mKind(m) {
	case kindPlace:
		in.Board = true
		in.To = cm.slot[to]
	case kindDrop:
		in.To = cm.sq[to]
	case kindPlatform:
		in.Board = true
		in.From, in.To = cm.slot[from], cm.slot[to]
		in.Touched.Add(in.From)
		if cs, _ := p.carried(Slot(from)); cs != NoSquare {
			in.Touched.Add(cm.sq[cs])
		}
	default:
		in.From, in.To = cm.sq[from], cm.sq[to]
		in.Touched.Add(in.From)
		if mCapture(m) {
			in.Captured = in.To
			in.Touched.Add(in.To)
		}
	}
	return in
}
