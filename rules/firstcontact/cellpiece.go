package firstcontact

import "github.com/tridboard/tridboard/rules"

// CellPiece is the piece on cell c; presence cells hold none.
func (p *Position) CellPiece(c rules.Cell) (rules.Piece, bool) {
	cm := p.cells()
	if int(c) >= len(cm.square) || cm.square[c] == NoSquare {
		return 0, false
	}
	pc := p.board[cm.square[c]]
	return pc, pc != 0
}
