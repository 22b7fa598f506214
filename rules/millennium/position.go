package millennium

import "github.com/tridboard/tridboard/rules"

// Piece is rules.Piece, the encoding all systems share: 0 is no piece,
// 1..6 the white pawn, knight, bishop, rook, queen and king, blackBit
// marks black ones.
type Piece = rules.Piece

// Piece kinds.
const (
	Pawn   = rules.Pawn
	Knight = rules.Knight
	Bishop = rules.Bishop
	Rook   = rules.Rook
	Queen  = rules.Queen
	King   = rules.King

	blackBit = rules.BlackBit
)

const pieceLetters = rules.PieceLetters

// Castling rights (M10).
const (
	castleWK uint8 = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// Position is a Millennium 3D chess position. The zero value is not a valid
// position: use StartPosition or Parse. Position is a value type; copy it to
// keep a position while playing on.
type Position struct {
	board [NumSquares]Piece
	// bb holds the squares of each colour's pieces by kind (index 0: all).
	bb     [2][7]bset
	occ    bset // every piece
	side   rules.Color
	castle uint8
	// ep is the cell an enemy pawn passed through on a two-step first
	// move just played (M8), or NoSquare.
	ep   Square
	ds   bset // pawns that may still make a two-step first move (M7)
	half int
	full int
	king [2]Square
}

func (p *Position) put(s Square, pc Piece) {
	c := pc.Color()
	p.board[s] = pc
	p.bb[c][0].set(s)
	p.bb[c][pc.Kind()].set(s)
	p.occ.set(s)
	if pc.Kind() == King {
		p.king[c] = s
	}
}

func (p *Position) remove(s Square) Piece {
	pc := p.board[s]
	c := pc.Color()
	p.board[s] = 0
	p.bb[c][0].clear(s)
	p.bb[c][pc.Kind()].clear(s)
	p.occ.clear(s)
	return pc
}

// Turn is the side to move.
func (p *Position) Turn() rules.Color { return p.side }

// PieceAt is the piece on s (0 when empty).
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// HalfmoveClock counts the moves since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.half }

// FullmoveNumber is the number of the move about to be played.
func (p *Position) FullmoveNumber() int { return p.full }

// EnPassant is the cell the last move's two-step pawn passed through
// (M8), or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// epVictim is the square of the pawn that passed through ep, which the side
// to move captures en passant: one rank further on in its own direction,
// on ep's level for a (0,2,0) step, on the far level for a (0,2,2) one.
func (p *Position) epVictim() Square {
	them := p.side.Other()
	return victimOf(p.ep, them)
}

func victimOf(ep Square, mover rules.Color) Square {
	return SquareAt(2*ep.Level()-homeLevel(mover), ep.Rank()+forward(mover), ep.File())
}

// Occupancy is the set of closed cells: the squares with a piece.
func (p *Position) Occupancy() rules.CellSet {
	return rules.CellSet{p.occ[0], p.occ[1], p.occ[2], 0}
}
