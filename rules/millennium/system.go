package millennium

import "github.com/tridboard/tridboard/rules"

// System is Millennium 3D chess as docs/rules.md states it.
var System rules.System = rules.NewSystem("millennium", CellNames, StartPosition, Parse)

// Start returns the start position as a rules.Position.
func Start() rules.Position { return System.Start() }

// The methods below make *Position a rules.Position.

// System is the Millennium system.
func (p *Position) System() rules.System { return System }

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
// position (K v K, K+B v K, K+N v K).
func (p *Position) Status() rules.Status {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [maxMoves]rules.Move
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

// dead reports a position no sequence of moves can mate in: the kings
// alone, or with one bishop or one knight besides.
func (p *Position) dead() bool {
	n := func(k Piece) int { return p.bb[0][k].count() + p.bb[1][k].count() }
	return n(Pawn)+n(Rook)+n(Queen) == 0 && n(Knight)+n(Bishop) <= 1
}

// Info says which cells m touches. For castling, From and To are the
// king's cells and Touched holds the king's and the rook's start cells.
func (p *Position) Info(m rules.Move) rules.MoveInfo {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	from, to := mFrom(m), mTo(m)
	in := rules.MoveInfo{From: SquareCell(from), To: SquareCell(to), Captured: rules.NoCell, Promoted: rules.NoCell}
	in.Touched.Add(in.From)
	switch mKind(m) {
	case kindCastleK, kindCastleQ:
		in.Castle = true
		rf, _ := castleRook(to)
		in.Touched.Add(SquareCell(rf))
	case kindEP:
		in.Captured = SquareCell(p.epVictim())
	default:
		if mCapture(m) {
			in.Captured = in.To
		}
	}
	if in.Captured != rules.NoCell {
		in.Touched.Add(in.Captured)
	}
	if k := mPromo(m); k != 0 {
		in.Promotion = true
		in.PromoteTo = pieceLetters[k]
		in.Promoted = in.To
	}
	return in
}
