package st3d

import "github.com/tridboard/tridboard/rules"

// Move encoding (a rules.Move):
//
//	bits 0-6   from: a square, or the pin for a board move
//	bits 7-13  to:   a square, or the pin for a board move
//	bits 14-16 promotion piece kind (Knight..Queen), or 0
//	bits 17-19 kind (see below)
//	bit  20    the move captures
const (
	kindNormal  = 0
	kindDouble  = 1 // pawn double step
	kindEP      = 2 // en passant
	kindCastleK = 3 // 0-0
	kindCastleQ = 4 // 0-0-0
	kindBoard   = 5 // attack-board move
	kindExt     = 7 // a move of the variant options (variants_moves.go)

	captureBit = 1 << 20
)

func newMove(from, to int8, kind uint32) rules.Move {
	return rules.Move(uint32(uint8(from)) | uint32(uint8(to))<<7 | kind<<17)
}

func mFrom(m rules.Move) int8                    { return int8(m & 0x7F) }
func mTo(m rules.Move) int8                      { return int8(m >> 7 & 0x7F) }
func mPromo(m rules.Move) Piece                  { return Piece(m >> 14 & 7) }
func mKind(m rules.Move) uint32                  { return uint32(m >> 17 & 7) }
func mCapture(m rules.Move) bool                 { return m&captureBit != 0 }
func withPromo(m rules.Move, k Piece) rules.Move { return m | rules.Move(k)<<14 }
