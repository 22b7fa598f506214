package st3d

import (
	"github.com/tridboard/tridboard/rules"
)

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
)

const pieceLetters = rules.PieceLetters

// Castling rights.
const (
	castleWK uint8 = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// Position is a Star Trek 3D chess position. The zero value is not a valid
// position: use Start or ParsePosition. Position is a value type; copy it to
// keep a position while playing on.
type Position struct {
	board [NumSquares]Piece
	// bb holds the squares of each colour's pieces by kind (index 0: all).
	bb   [2][7]sqset
	colN [numCols]uint8 // pieces standing on each column, all levels
	pins uint16         // pins that hold a board
	// black marks the boards whose original marking is Black.
	black  uint16
	side   rules.Color
	castle uint8
	ep     Square // the pawn that has just double-stepped, or NoSquare
	ds     sqset  // pawns that may still double-step
	half   int
	full   int
	king   [2]Square
	opt    optState // variant options (options.go); zero under the tournament rules
}

// hasPin reports whether a board stands on pin p.
func (p *Position) hasPin(q Pin) bool { return p.pins&(1<<uint(q)) != 0 }

// exists reports whether square s exists (D1).
func (p *Position) exists(s Square) bool {
	return s < 48 || p.pins&(1<<uint((s-48)/4)) != 0
}

// existing is the set of squares that exist.
func (p *Position) existing() sqset {
	return sqset{existLo[p.pins&0xF] | mainLo, existHi[p.pins>>4]}
}

// main boards are squares 0..47; pin q's squares are bits 48+4q..51+4q.
const mainLo = 1<<48 - 1

var existLo [16]uint64
var existHi [256]uint64

func init() {
	for m := 0; m < 16; m++ {
		for q := 0; q < 4; q++ {
			if m&(1<<q) != 0 {
				existLo[m] |= 0xF << (48 + 4*q)
			}
		}
	}
	for m := 0; m < 256; m++ {
		for q := 0; q < 8; q++ {
			if m&(1<<q) != 0 {
				existHi[m] |= 0xF << (4 * q)
			}
		}
	}
}

func (p *Position) occAll() sqset { return p.bb[0][0].or(p.bb[1][0]) }

func (p *Position) put(s Square, pc Piece) {
	c := pc.Color()
	p.board[s] = pc
	p.bb[c][0].set(s)
	p.bb[c][pc.Kind()].set(s)
	p.colN[sqCol[s]]++
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
	p.colN[sqCol[s]]--
	return pc
}

// Turn is the side to move.
func (p *Position) Turn() rules.Color { return p.side }

// PieceAt is the piece on s (0 when empty or when s does not exist).
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// HasBoard reports whether a board stands on pin q, and whether its original
// marking is Black.
func (p *Position) HasBoard(q Pin) (present, black bool) {
	return p.hasPin(q), p.black&(1<<uint(q)) != 0
}

// BoardControl counts the attack boards each side may move (D12): empty
// ones (by their marking) and those carrying one of its pieces; a board
// carrying two pieces belongs to nobody. The engine scores them.
func (p *Position) BoardControl() (empty, carrying [2]int) {
	for q := Pin(0); q < NumPins; q++ {
		present, black := p.HasBoard(q)
		if !present {
			continue
		}
		n, col := 0, rules.White
		if black {
			col = rules.Black
		}
		for _, s := range q.Squares() {
			if pc := p.PieceAt(s); pc != 0 {
				n++
				col = pc.Color()
			}
		}
		switch n {
		case 0:
			empty[col]++
		case 1:
			carrying[col]++
		}
	}
	return empty, carrying
}

// Exists reports whether square s exists in this position (D1).
func (p *Position) Exists(s Square) bool { return p.exists(s) }

// HalfmoveClock counts the moves since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.half }

// FullmoveNumber is the number of the move about to be played.
func (p *Position) FullmoveNumber() int { return p.full }

// furthest is the furthest rank (D9) for a pawn of colour c on file f.
func (p *Position) furthest(c rules.Color, f int8) int8 { return furthestRank(p.pins, c, f) }

// furthestRank is the furthest rank (D9) for a pawn of colour c on file f
// while the boards stand on pins.
func furthestRank(pins uint16, c rules.Color, f int8) int8 {
	hasPin := func(q Pin) bool { return pins&(1<<uint(q)) != 0 }
	if c == rules.White {
		switch f {
		case 2, 3:
			return 8
		case 0, 5:
			return 9
		case 1:
			if hasPin(pinQL6) {
				return 9
			}
			return 8
		default:
			if hasPin(pinKL6) {
				return 9
			}
			return 8
		}
	}
	switch f {
	case 2, 3:
		return 1
	case 0, 5:
		return 0
	case 1:
		if hasPin(pinQL1) {
			return 0
		}
		return 1
	default:
		if hasPin(pinKL1) {
			return 0
		}
		return 1
	}
}

// Occupancy is the set of closed cells: squares with a piece and pins
// holding a board (hardware.md).
func (p *Position) Occupancy() rules.CellSet {
	o := p.occAll()
	return rules.CellSet{o[0], o[1] | uint64(p.pins)<<(NumSquares-64), 0, 0}
}
