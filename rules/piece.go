package rules

// Piece is a piece with its colour, in the encoding every System shares:
// 0 is no piece, 1..6 are the white pawn, knight, bishop, rook, queen and
// king, and BlackBit marks black ones. Systems index tables by Kind and
// test colour with BlackBit, so these values are fixed.
type Piece uint8

// Piece kinds.
const (
	Pawn   Piece = 1
	Knight Piece = 2
	Bishop Piece = 3
	Rook   Piece = 4
	Queen  Piece = 5
	King   Piece = 6

	BlackBit Piece = 8
)

// PieceLetters are the FEN letters of the kinds, indexed by Kind.
const PieceLetters = " PNBRQK"

// Kind is the piece without its colour.
func (pc Piece) Kind() Piece { return pc &^ BlackBit }

// Color is the piece's side.
func (pc Piece) Color() Color { return Color(pc >> 3) }

// PieceOf is the piece of kind for side c.
func PieceOf(c Color, kind Piece) Piece { return kind | Piece(c)<<3 }

// Letter is the FEN letter: upper case for White.
func (pc Piece) Letter() byte {
	l := PieceLetters[pc.Kind()]
	if pc.Color() == Black {
		l += 'a' - 'A'
	}
	return l
}
