package st3d

import "github.com/tridboard/tridboard/rules"

// placeArmy are the pieces a side places in a V.P6 game (V4): the bishops,
// knights and queen one by one, then rooks and king together with the
// queen.
var placeArmy = [...]int{Knight: 2, Bishop: 2, Rook: 2, Queen: 1, King: 1}

// Reserve is how many pieces of kind side c has still to place in a V.P6
// game's placement phase; 0 in every other position (rules.Reserver).
func (p *Position) Reserve(c rules.Color, kind Piece) int {
	if !p.placing() || kind < Pawn || kind > King || p.king[c] != NoSquare {
		return 0
	}
	return max(0, placeArmy[kind]-p.bb[c][kind].count())
}
