package firstcontact

import "github.com/tridboard/tridboard/rules"

// Move encoding (a rules.Move):
//
//	bits 0-7   from: a square, or the slot for a platform move
//	bits 8-15  to:   a square, or the slot for a platform move or placement
//	bits 16-17 kind (see below)
//	bits 18-20 the piece kind a drop puts on the set
//	bit  21    the move captures
const (
	kindPiece    = 0 // a piece moves
	kindPlatform = 1 // a platform moves (with the pawn it carries)
	kindDrop     = 2 // an introduction or a king placement
	kindPlace    = 3 // a platform placement

	captureBit = 1 << 21
)

func newMove(from, to uint8, kind uint32) rules.Move {
	return rules.Move(uint32(from) | uint32(to)<<8 | kind<<16)
}

func dropMove(kind Piece, to Square) rules.Move {
	return newMove(0, uint8(to), kindDrop) | rules.Move(kind)<<18
}

func mFrom(m rules.Move) uint8   { return uint8(m) }
func mTo(m rules.Move) uint8     { return uint8(m >> 8) }
func mKind(m rules.Move) uint32  { return uint32(m>>16) & 3 }
func mPiece(m rules.Move) Piece  { return Piece(m>>18) & 7 }
func mCapture(m rules.Move) bool { return m&captureBit != 0 }
