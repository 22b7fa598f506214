package rules

import "fmt"

// Color is a side: White or Black.
type Color uint8

const (
	White Color = iota
	Black
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// ParseColor reads a side as String writes it, "white" or "black", as
// journals, commands and payloads name it.
func ParseColor(s string) (Color, error) {
	switch s {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	}
	return 0, fmt.Errorf("side %q: want \"white\" or \"black\"", s)
}

// Cell is the index of a sensing cell in a System's cell list: a square that
// can hold a piece, or a socket that senses whether a board stands on it.
// The reed switch under a cell reads closed when it is occupied.
type Cell uint8

// NoCell stands for "no cell" in a MoveInfo.
const NoCell Cell = 255

// Move is a legal move of one Position, encoded by the System that generated
// it. A Move means something only to the Position it came from (and to
// positions equal to it).
type Move uint32

// Status says whether a game can go on from a position.
type Status uint8

const (
	Ongoing Status = iota
	Checkmate
	Stalemate
	DeadPosition
)

func (s Status) String() string {
	switch s {
	case Ongoing:
		return "ongoing"
	case Checkmate:
		return "checkmate"
	case Stalemate:
		return "stalemate"
	case DeadPosition:
		return "dead position"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MoveInfo describes what a move does to the sensing cells, so that move
// recognition and LEDs can work from occupancy alone.
type MoveInfo struct {
	// From and To are the cells the moving piece leaves and reaches; for a
	// board move, the pins (sockets) the board leaves and reaches. From is
	// NoCell for a placement (a piece or platform put on the set from
	// outside it, as in First Contact's placement phase and introductions).
	From, To Cell
	// Touched holds every cell whose piece (or board) is lifted at some
	// point when the move is made by hand: the mover's cells, the captured
	// piece's cell, the castling rook, the squares a board carries.
	Touched CellSet
	// Captured is the cell of the captured piece, or NoCell.
	Captured Cell
	// Promotion is true when the move promotes a pawn (piece or board move).
	Promotion bool
	// Promoted is the cell of the promoted pawn, or NoCell.
	Promoted Cell
	// PromoteTo is the piece letter chosen ('Q', 'R', 'B', 'N'), or 0.
	PromoteTo byte
	// Board is true for an attack-board move.
	Board bool
	// Castle is true for castling.
	Castle bool
}

// Position is one position of a game under one System. A Position is a
// value: Play returns a new Position and never changes the receiver.
type Position interface {
	// System names the rules this position follows ("st3d", ...).
	System() System
	// String is the canonical position string.
	String() string
	// Turn is the side to move.
	Turn() Color
	// LegalMoves appends the legal moves to buf and returns it.
	LegalMoves(buf []Move) []Move
	// Play returns the position after m, which must be one of LegalMoves.
	Play(m Move) Position
	// Long is the long (machine) form of m, such as "b2W-b4N".
	Long(m Move) string
	// Short is the short notation of m in this position, with + or #.
	Short(m Move) string
	// ParseMove reads a move in long form or short notation. It returns an
	// error naming the move when it is unknown, illegal or ambiguous, and a
	// non-empty note when it resolved an ambiguity by a stated convention.
	ParseMove(s string) (m Move, note string, err error)
	// Info says which cells m touches.
	Info(m Move) MoveInfo
	// Occupancy is the set of closed sensing cells in this position.
	Occupancy() CellSet
	// CellPiece is the piece standing on cell c, and false when c holds no
	// piece (an empty square, a pin or platform socket, or no such cell).
	CellPiece(c Cell) (Piece, bool)
	// InCheck reports whether the side to move is in check, and the cell of
	// its king.
	InCheck() (bool, Cell)
	// Status tells whether the game is over in this position.
	Status() Status
	// Key identifies the position for repetition: everything but the clocks.
	Key() string
	// HalfmoveClock counts the moves since the last capture or pawn move.
	HalfmoveClock() int
	// FullmoveNumber is the number of the move about to be played.
	FullmoveNumber() int
}

// System is a set of rules for a 3D chess set.
type System interface {
	// Name is the short name used on command lines and in records.
	Name() string
	// Cells lists the sensing cells by name; a Cell is an index into it.
	Cells() []string
	// Start is the start position.
	Start() Position
	// ParsePosition reads a position string.
	ParsePosition(s string) (Position, error)
}

// CellByName finds a cell of sys by name.
func CellByName(sys System, name string) (Cell, bool) {
	for i, n := range sys.Cells() {
		if n == name {
			return Cell(i), true
		}
	}
	return NoCell, false
}
