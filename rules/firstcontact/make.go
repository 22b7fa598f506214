package firstcontact

import "github.com/tridboard/tridboard/rules"

// undo holds what make changed that unmake cannot derive from the move.
type undo struct {
	captured Piece
	carried  Square // where a platform move put its pawn, or NoSquare
	ban      Slot
	half     int
}

// make plays m in place and returns what unmake needs to take it back.
func (p *Position) make(m rules.Move) undo {
	u := undo{carried: NoSquare, ban: p.ban, half: p.half}
	us := p.side
	p.half++
	from, to := mFrom(m), mTo(m)
	switch mKind(m) {
	case kindPiece:
		if p.board[to] != 0 {
			u.captured = p.remove(Square(to))
			p.half = 0
		}
		pc := p.remove(Square(from))
		if pc.Kind() == Pawn {
			p.half = 0
		}
		p.put(Square(to), pc)
	case kindDrop:
		k := mPiece(m)
		if k != King {
			p.reserve[us][k]--
		}
		p.put(Square(to), rules.PieceOf(us, k))
		p.half = 0
	case kindPlace:
		p.addPlatform(Slot(to))
		p.half = 0
	case kindPlatform:
		a, b := Slot(from), Slot(to)
		cs, _ := p.carried(a)
		p.removePlatform(a)
		p.addPlatform(b)
		if cs != NoSquare {
			t := b.Squares()[cs-a.Squares()[0]] // the pawn keeps its place (D14)
			p.put(t, p.remove(cs))
			u.carried = t
		}
		p.ban = b
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
	case kindPiece:
		p.put(Square(from), p.remove(Square(to)))
		if u.captured != 0 {
			p.put(Square(to), u.captured)
		}
	case kindDrop:
		p.remove(Square(to))
		if k := mPiece(m); k != King {
			p.reserve[us][k]++
		}
	case kindPlace:
		p.removePlatform(Slot(to))
	case kindPlatform:
		a, b := Slot(from), Slot(to)
		if t := u.carried; t != NoSquare {
			p.put(a.Squares()[t-b.Squares()[0]], p.remove(t))
		}
		p.removePlatform(b)
		p.addPlatform(a)
	}
	p.ban, p.half = u.ban, u.half
}
