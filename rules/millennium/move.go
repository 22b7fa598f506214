package millennium

import "github.com/tridboard/tridboard/rules"

// Move encoding (a rules.Move):
//
//	bits 0-7   from square
//	bits 8-15  to square (castling: the king's destination)
//	bits 16-18 promotion piece kind (Knight..Queen), or 0
//	bits 19-21 kind (see below)
//	bit  22    the move captures
const (
	kindNormal  = 0
	kindDouble  = 1 // pawn two-step (0,2,0) or (0,2,2): leaves an en-passant cell (M8)
	kindEP      = 2 // en passant
	kindCastleK = 3 // 0-0
	kindCastleQ = 4 // 0-0-0

	captureBit = 1 << 22
)

func newMove(from, to Square, kind uint32) rules.Move {
	return rules.Move(uint32(from) | uint32(to)<<8 | kind<<19)
}

func mFrom(m rules.Move) Square                  { return Square(m) }
func mTo(m rules.Move) Square                    { return Square(m >> 8) }
func mPromo(m rules.Move) Piece                  { return Piece(m >> 16 & 7) }
func mKind(m rules.Move) uint32                  { return uint32(m >> 19 & 7) }
func mCapture(m rules.Move) bool                 { return m&captureBit != 0 }
func withPromo(m rules.Move, k Piece) rules.Move { return m | rules.Move(k)<<16 }
