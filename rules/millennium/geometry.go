// Package millennium implements Millennium 3D chess (W. L. d'Agostino,
// 2001) as a rules.System, as docs/spec docs/rules.md fixes it: three 8x8
// boards stacked, every piece moving in three dimensions (M1..M10).
package millennium

import (
	"fmt"
	"math/bits"

	"github.com/tridboard/tridboard/rules"
)

// Geometry (docs/rules.md, "Board and start").
//
// Squares are numbered 0..191 as level*64 + rank*8 + file, levels, ranks and
// files counted from 0 (level 1 is 0, file a is 0, rank 1 is 0). That order
// is the position string's sort order (level, rank, file), and a square set
// is three 64-bit words, one a level.

// Square is a cell of the three boards, 0..191, or NoSquare.
type Square uint8

// NoSquare stands for "no square".
const NoSquare Square = 255

// Sizes of the set.
const (
	NumLevels  = 3
	NumFiles   = 8
	NumRanks   = 8
	NumSquares = NumLevels * NumFiles * NumRanks
)

// SquareAt is the square on level (0..2), rank (0..7) and file (0..7); it
// returns NoSquare when one of them is off the set.
func SquareAt(level, rank, file int) Square {
	if uint(level) >= NumLevels || uint(rank) >= NumRanks || uint(file) >= NumFiles {
		return NoSquare
	}
	return Square(level<<6 | rank<<3 | file)
}

// Level is the square's level index: 0, 1, 2 for levels 1, 2, 3.
func (s Square) Level() int { return int(s) >> 6 }

// Rank is the square's rank index: 0..7 for ranks 1..8.
func (s Square) Rank() int { return int(s) >> 3 & 7 }

// File is the square's file index: 0..7 for files a..h.
func (s Square) File() int { return int(s) & 7 }

// Dark reports the square's colour: as on a chess board (a1 dark), the same
// on every level.
func (s Square) Dark() bool { return (s.File()+s.Rank())%2 == 0 }

var sqName [NumSquares]string

// String is the square's name: level digit, file, rank ("1e1", "2d5").
func (s Square) String() string {
	if s >= NumSquares {
		return "-"
	}
	return sqName[s]
}

// ParseSquare reads a square name such as "1e1" or "3h8".
func ParseSquare(name string) (Square, error) {
	if len(name) == 3 {
		if s := SquareAt(int(name[0])-'1', int(name[2])-'1', int(name[1])-'a'); s != NoSquare {
			return s, nil
		}
	}
	return NoSquare, fmt.Errorf("%q is not a square (want level 1-3, file a-h, rank 1-8, such as 2e4)", name)
}

func mustSquare(name string) Square {
	s, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

// Cells: square s is cell s; there are no other sensing cells.

// SquareCell is the sensing cell of a square.
func SquareCell(s Square) rules.Cell { return rules.Cell(s) }

var cellNames []string

// CellNames lists the 192 sensing cells by square name (level digit + file +
// rank). The slice must not be changed.
func CellNames() []string { return cellNames }

func init() {
	cellNames = make([]string, NumSquares)
	for s := 0; s < NumSquares; s++ {
		sq := Square(s)
		sqName[s] = fmt.Sprintf("%d%c%d", sq.Level()+1, 'a'+sq.File(), sq.Rank()+1)
		cellNames[s] = sqName[s]
	}
	initTables()
	startPos = rules.MustParse(Parse, StartString)
}

// bset is a set of squares: word l holds level l, bit rank*8+file.
type bset [3]uint64

func (b *bset) set(s Square)      { b[s>>6] |= 1 << (s & 63) }
func (b *bset) clear(s Square)    { b[s>>6] &^= 1 << (s & 63) }
func (b bset) has(s Square) bool  { return b[s>>6]&(1<<(s&63)) != 0 }
func (b bset) or(o bset) bset     { return bset{b[0] | o[0], b[1] | o[1], b[2] | o[2]} }
func (b bset) and(o bset) bset    { return bset{b[0] & o[0], b[1] & o[1], b[2] & o[2]} }
func (b bset) andNot(o bset) bset { return bset{b[0] &^ o[0], b[1] &^ o[1], b[2] &^ o[2]} }
func (b bset) meets(o bset) bool  { return b[0]&o[0]|b[1]&o[1]|b[2]&o[2] != 0 }
func (b bset) count() int {
	return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) + bits.OnesCount64(b[2])
}
