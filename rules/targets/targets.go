// Package targets works out, through the rules interface only (so for every
// game system), what a set shows while a player handles it: the legal
// targets of a lifted piece and its captures, the pins a lifted attack board
// may go to, and the placements of a placement phase (V.P6, First Contact).
// The LEDs (leds.View) and the web pages both light what it returns.
//
// "Targets" are these legal destinations, shown by the set; a "hint" in
// tridboard is something else, the engine's suggested move (table.Hint).
package targets

import "github.com/tridboard/tridboard/rules"

// Set is what a set shows for what is lifted (or, in a placement phase,
// for nothing lifted).
type Set struct {
	// Targets are the cells the lifted pieces may move to; Captures are
	// those of them where they capture.
	Targets, Captures rules.CellSet
	// Pins are the presence cells of the pins the lifted boards may move
	// to.
	Pins rules.CellSet
}

// Lifted returns the targets of the cells in lifted in position p: with
// nothing lifted in a placement phase (every legal move a placement: V.P6,
// First Contact's platforms and kings), where the next piece (Targets) or
// platform (Pins) may go; for a lifted piece, the To cells of the legal
// moves from its cell (and among them the captures, where
// MoveInfo.Captured is a cell); for a lifted pin presence cell, the To pins
// of the legal board moves from it (the squares the board carries,
// MoveInfo.Touched, give no piece targets then). buf is scratch for the
// legal moves, returned for reuse (nil is fine).
func Lifted(p rules.Position, lifted rules.CellSet, buf []rules.Move) (Set, []rules.Move) {
	var s Set
	if lifted.Empty() {
		return placementPhase(p, buf)
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
			s.Pins.Add(info.To)
		case carried.Has(info.From):
		default:
			s.Targets.Add(info.To)
			if info.Captured != rules.NoCell {
				s.Captures.Add(info.To)
			}
		}
	}
	return s, buf
}

// placementPhase is the set with nothing lifted: in a placement phase,
// where every legal move puts something on the set from off it (V.P6's
// pieces, First Contact's platforms and kings), Placements; otherwise none.
func placementPhase(p rules.Position, buf []rules.Move) (Set, []rules.Move) {
	buf = p.LegalMoves(buf[:0])
	for _, m := range buf {
		if p.Info(m).From != rules.NoCell {
			return Set{}, buf
		}
	}
	return placements(p, buf), buf
}

// Placements are where the side to move may put something on the set from
// off it, in any phase: the squares a piece may be placed or introduced on
// (Targets: V.P6's next piece, First Contact's king placements and the
// vacant cells of the player's own level for an introduction) and the
// positions a platform may be placed on (Pins). A table may show them on
// request during play; Lifted returns them by itself in a placement phase.
// buf is scratch for the legal moves, returned for reuse.
func Placements(p rules.Position, buf []rules.Move) (Set, []rules.Move) {
	buf = p.LegalMoves(buf[:0])
	return placements(p, buf), buf
}

func placements(p rules.Position, moves []rules.Move) Set {
	var s Set
	for _, m := range moves {
		switch info := p.Info(m); {
		case info.From != rules.NoCell || info.To == rules.NoCell:
		case info.Board:
			s.Pins.Add(info.To)
		default:
			s.Targets.Add(info.To)
		}
	}
	return s
}

// MoveCells is the set of the from and to cells of m, a legal move of p: the
// squares of a piece move, the pins of a board move (what a set lights as
// the last move).
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
