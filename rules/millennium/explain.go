package millennium

import "github.com/tridboard/tridboard/rules"

// Helpers for explaining an illegal move (package explain): the moves that
// obey how the pieces move, who attacks a king, what blocks a line.

// PseudoMoves appends the moves of the side to move that obey how the
// pieces move (M1-M10), whether or not they leave the mover's king
// attacked. Every legal move is among them.
func (p *Position) PseudoMoves(buf []rules.Move) []rules.Move { return p.genPseudo(buf) }

// KingAttackers lists the cells of the pieces that attack the mover's king
// once m, one of PseudoMoves, is played (none when m is legal).
func (p *Position) KingAttackers(m rules.Move) []rules.Cell {
	q := *p
	us := q.side
	q.make(m)
	k := q.king[us]
	if k == NoSquare {
		return nil
	}
	var out []rules.Cell
	// The opponent, now to move, attacks the king from every cell with a
	// capture onto it.
	for _, r := range q.genPseudo(nil) {
		if mTo(r) == k && mKind(r) != kindCastleK && mKind(r) != kindCastleQ {
			if c := SquareCell(mFrom(r)); len(out) == 0 || out[len(out)-1] != c {
				out = append(out, c)
			}
		}
	}
	return out
}

// Blocker finds what stops the piece on from reaching to along one of its
// lines: the cell of the first piece on the 3D line between them (M6; a
// pawn's two-step needs the cell passed through empty, M7). It reports
// false when to is on none of the piece's lines or nothing stands between.
func (p *Position) Blocker(from, to rules.Cell) (rules.Cell, bool) {
	if int(from) >= NumSquares || int(to) >= NumSquares {
		return rules.NoCell, false
	}
	s, t := Square(from), Square(to)
	pc := p.board[s]
	d0, d1 := 0, 0
	switch pc.Kind() {
	case Rook:
		d0, d1 = 0, numRookDirs
	case Bishop:
		d0, d1 = numRookDirs, numDirs
	case Queen:
		d0, d1 = 0, numDirs
	case Pawn:
		df, dr, dl := t.File()-s.File(), t.Rank()-s.Rank(), t.Level()-s.Level()
		if df == 0 && abs(dr)%2 == 0 && abs(dl)%2 == 0 && abs(dr)+abs(dl) >= 2 && abs(dr) <= 2 && abs(dl) <= 2 {
			if mid := SquareAt(s.Level()+dl/2, s.Rank()+dr/2, s.File()); mid != NoSquare && p.board[mid] != 0 {
				return SquareCell(mid), true
			}
		}
		return rules.NoCell, false
	default:
		return rules.NoCell, false
	}
	for d := d0; d < d1; d++ {
		if !rayMask[s][d].has(t) {
			continue
		}
		for i := uint8(0); i < rayLen[s][d]; i++ {
			u := ray[s][d][i]
			if u == t {
				return rules.NoCell, false
			}
			if p.board[u] != 0 {
				return SquareCell(u), true
			}
		}
	}
	return rules.NoCell, false
}
