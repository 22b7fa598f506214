package firstcontact

import (
	"math/bits"

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

	blackBit = rules.BlackBit
)

const pieceLetters = rules.PieceLetters

// army is the standard army without the king: the full reserve.
var army = [King]uint8{Pawn: 8, Knight: 2, Bishop: 2, Rook: 2, Queen: 1}

// Phases of the game (docs/rules.md, "Play").
const (
	phasePlatforms = iota // the four platforms are placed, one per turn
	phaseWhiteKing        // White places its king on W
	phaseBlackKing        // Black places its king on B
	phasePlay             // introductions, piece moves, platform moves
)

// Position is a First Contact position. The zero value is not a valid
// position: use Start or Parse. Position is a value type; copy it to keep a
// position while playing on.
type Position struct {
	board [NumSquares]Piece
	occ   [2]sqset // squares of each colour's pieces
	exist sqset    // squares that exist: the fixed ones and those of the platforms
	plats uint32   // slots that hold a platform
	// reserve counts each colour's pieces still to be introduced, by kind.
	reserve [2][King]uint8
	king    [2]Square
	side    rules.Color
	ban     Slot // the platform that may not move next (the last one moved), or NoSlot
	half    int
	full    int
	up      bool // UpOnly: no `d` positions (F6)
}

func (p *Position) put(s Square, pc Piece) {
	c := pc.Color()
	p.board[s] = pc
	p.occ[c].set(s)
	if pc.Kind() == King {
		p.king[c] = s
	}
}

func (p *Position) remove(s Square) Piece {
	pc := p.board[s]
	p.board[s] = 0
	p.occ[pc.Color()].clear(s)
	if pc.Kind() == King {
		p.king[pc.Color()] = NoSquare
	}
	return pc
}

func (p *Position) hasPlatform(sl Slot) bool { return p.plats&(1<<sl) != 0 }

func (p *Position) addPlatform(sl Slot) {
	p.plats |= 1 << sl
	p.exist = p.exist.or(slotMask[sl])
}

func (p *Position) removePlatform(sl Slot) {
	p.plats &^= 1 << sl
	p.exist = p.exist.andNot(slotMask[sl])
}

// phase tells what the side to move does next.
func (p *Position) phase() int {
	switch {
	case bits.OnesCount32(p.plats) < 4:
		return phasePlatforms
	case p.king[rules.White] == NoSquare:
		return phaseWhiteKing
	case p.king[rules.Black] == NoSquare:
		return phaseBlackKing
	}
	return phasePlay
}

// Turn is the side to move.
func (p *Position) Turn() rules.Color { return p.side }

// PieceAt is the piece on s (0 when empty or when s does not exist).
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// HasPlatform reports whether a platform stands at sl.
func (p *Position) HasPlatform(sl Slot) bool { return p.hasPlatform(sl) }

// Exists reports whether square s exists in this position (F1).
func (p *Position) Exists(s Square) bool { return p.exist.has(s) }

// Reserve is the number of pieces of the given kind side c may still
// introduce.
func (p *Position) Reserve(c rules.Color, kind Piece) int {
	if kind >= King {
		return 0
	}
	return int(p.reserve[c][kind])
}

// Banned is the platform that may not move next, or NoSlot.
func (p *Position) Banned() Slot { return p.ban }

// HalfmoveClock counts the moves since the last capture, pawn step,
// introduction or placement.
func (p *Position) HalfmoveClock() int { return p.half }

// FullmoveNumber is the number of the move about to be played.
func (p *Position) FullmoveNumber() int { return p.full }

func (p *Position) cells() *cellMap {
	if p.up {
		return &upCells
	}
	return &fullCells
}

// Occupancy is the set of closed cells (F6): squares with a piece and the
// presence cells of the positions holding a platform.
func (p *Position) Occupancy() rules.CellSet {
	cm := p.cells()
	var o rules.CellSet
	for c := 0; c < 2; c++ {
		for w, word := range p.occ[c] {
			for word != 0 {
				s := Square(w*64 + bits.TrailingZeros64(word))
				word &= word - 1
				o.Add(cm.sq[s])
			}
		}
	}
	for pl := p.plats; pl != 0; pl &= pl - 1 {
		o.Add(cm.slot[bits.TrailingZeros32(pl)])
	}
	return o
}

// carried is the square of the one piece on the platform at sl, or
// NoSquare when it is empty; many is true when it holds more than one.
func (p *Position) carried(sl Slot) (s Square, many bool) {
	s = NoSquare
	for _, t := range sl.Squares() {
		if p.board[t] != 0 {
			if s != NoSquare {
				return s, true
			}
			s = t
		}
	}
	return s, false
}
