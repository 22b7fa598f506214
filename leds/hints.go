package leds

import "github.com/tridboard/tridboard/rules"

// Hints are the hints for what is lifted.
type Hints struct {
	// Targets are the cells the lifted pieces may move to; Captures are
	// those of them where they capture.
	Targets, Captures rules.CellSet
	// Pins are the presence cells of the pins the lifted boards may move
	// to.
	Pins rules.CellSet
}

// HintsFor returns the hints for the cells in lifted in position p: with
// nothing lifted in a placement phase (every legal move a placement: V.P6,
// First Contact's platforms and kings), where the next piece (Targets) or
// platform (Pins) may go; for a
// lifted piece, the To cells of the legal moves from its cell (and among
// them the captures, where MoveInfo.Captured is a cell); for a lifted pin
// presence cell, the To pins of the legal board moves from it (the squares
// the board carries, MoveInfo.Touched, give no piece hints then). It uses only the rules interface.
// buf is scratch for the legal moves, returned for reuse (nil is fine).
func HintsFor(p rules.Position, lifted rules.CellSet, buf []rules.Move) (Hints, []rules.Move) {
	var h Hints
	if lifted.Empty() {
		return placementHints(p, buf)
	}
	buf = p.LegalMoves(buf[:0])
	// A lifted board carries its squares along: their cells open too, but
	// the pieces on them are not lifted by hand.
	var carried rules.CellSet
	for _, m := range buf {
		if info := p.Info(m); info.Board && info.From != rules.NoCell && lifted.Has(info.From) {
			carried = carried.Union(info.Touched)
		}
	}
	for _, m := range buf {
		info := p.Info(m)
		if info.From == rules.NoCell || info.To == rules.NoCell || !lifted.Has(info.From) {
			continue
		}
		switch {
		case info.Board:
			h.Pins.Add(info.To)
		case carried.Has(info.From):
		default:
			h.Targets.Add(info.To)
			if info.Captured != rules.NoCell {
				h.Captures.Add(info.To)
			}
		}
	}
	return h, buf
}

// placementHints are the hints with nothing lifted: in a placement phase,
// where every legal move puts something on the set from off it (V.P6's
// pieces, First Contact's platforms and kings), Placements; otherwise none.
func placementHints(p rules.Position, buf []rules.Move) (Hints, []rules.Move) {
	buf = p.LegalMoves(buf[:0])
	for _, m := range buf {
		if p.Info(m).From != rules.NoCell {
			return Hints{}, buf
		}
	}
	return placements(p, buf), buf
}

// Placements are where the side to move may put something on the set from
// off it, in any phase: the squares a piece may be placed or introduced on
// (Targets: V.P6's next piece, First Contact's king placements and the
// vacant cells of the player's own level for an introduction) and the
// positions a platform may be placed on (Pins). A table shows them on
// request (a hint button) during play; HintsFor shows them by itself in a
// placement phase. buf is scratch for the legal moves, returned for reuse.
func Placements(p rules.Position, buf []rules.Move) (Hints, []rules.Move) {
	buf = p.LegalMoves(buf[:0])
	return placements(p, buf), buf
}

func placements(p rules.Position, moves []rules.Move) Hints {
	var h Hints
	for _, m := range moves {
		switch info := p.Info(m); {
		case info.From != rules.NoCell || info.To == rules.NoCell:
		case info.Board:
			h.Pins.Add(info.To)
		default:
			h.Targets.Add(info.To)
		}
	}
	return h
}

// MoveCells is the set of the from and to cells of m, a legal move of p: the
// squares of a piece move, the pins of a board move.
func MoveCells(p rules.Position, m rules.Move) rules.CellSet {
	info := p.Info(m)
	var s rules.CellSet
	if info.From != rules.NoCell {
		s.Add(info.From)
	}
	if info.To != rules.NoCell {
		s.Add(info.To)
	}
	return s
}

// ViewFor is the view of position p while the cells in lifted are lifted:
// Lifted, their hints, the king in check, and the end of the game (the king of the
// side to move when it is mated, or on stalemate or a dead position, then a
// draw). The caller adds LastMove, the remote move, Fix and NoHints.
func ViewFor(p rules.Position, lifted rules.CellSet) View {
	var v View
	v.SetPosition(p, lifted, nil)
	return v
}

// SetPosition sets Lifted, the hints, Check, GameOver and Draw of v from position p
// and the lifted cells, as ViewFor does, using buf as scratch for the legal
// moves; it returns buf for reuse, so that a caller keeping buf does not
// allocate.
func (v *View) SetPosition(p rules.Position, lifted rules.CellSet, buf []rules.Move) []rules.Move {
	var h Hints
	h, buf = HintsFor(p, lifted, buf)
	v.Lifted, v.Targets, v.Captures, v.Pins = lifted, h.Targets, h.Captures, h.Pins
	v.Check, v.GameOver, v.Draw = rules.CellSet{}, rules.CellSet{}, false
	check, king := p.InCheck()
	st := p.Status()
	if check && king != rules.NoCell && st == rules.Ongoing {
		v.Check.Add(king)
	}
	if st != rules.Ongoing {
		if king != rules.NoCell {
			v.GameOver.Add(king)
		}
		v.Draw = st != rules.Checkmate
	}
	return buf
}
