package millennium

import "github.com/tridboard/tridboard/rules"

// CellPiece is the piece on cell c.
func (p *Position) CellPiece(c rules.Cell) (rules.Piece, bool) {
	if int(c) >= NumSquares {
		return 0, false
	}
	pc := p.board[c]
	return pc, pc != 0
}
