package st3d

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Geometry of the Star Trek 3D set (docs/rules.md, "Geometry").
//
// Seen from above every square stands on one map of files z a b c d e
// (index 0..5) and ranks 0..9; a column is one map square (file*10+rank).
// Squares are numbered 0..95: the three main boards W, N, B (16 each, rank
// then file), then four squares for each of the twelve pins in the order of
// docs/rules.md's pin table (z0 a0 z1 a1 for QL1).

// Square is a square of the set, 0..95, or NoSquare.
type Square int8

// NoSquare stands for "no square".
const NoSquare Square = -1

// Pin is an attack-board pin: QL1..QL6 are 0..5, KL1..KL6 are 6..11.
type Pin int8

// NumSquares is the number of squares that can exist (D1).
const (
	NumSquares = 96
	NumPins    = 12
	NumCells   = NumSquares + NumPins
	numCols    = 60
)

// Level of a square: W, N, B, then the pins (level 3+pin).
const (
	levelW = 0
	levelN = 1
	levelB = 2
)

var (
	fileNames = "zabcde"
	pinNames  = [NumPins]string{"QL1", "QL2", "QL3", "QL4", "QL5", "QL6", "KL1", "KL2", "KL3", "KL4", "KL5", "KL6"}
	// pinRank is the lower rank a pin's board covers.
	pinRank = [NumPins]int8{0, 4, 2, 6, 4, 8, 0, 4, 2, 6, 4, 8}
	// mainLow is the lowest rank of W, N, B.
	mainLow = [3]int8{1, 3, 5}
)

// geometry tables, filled by init.
var (
	sqFile  [NumSquares]int8
	sqRank  [NumSquares]int8
	sqCol   [NumSquares]int8
	sqLevel [NumSquares]int8
	sqName  [NumSquares]string
	// colSq lists the squares that can stand on a column (at most 4).
	colSq  [numCols][4]Square
	colNSq [numCols]int8
	// colMask is the set of squares that can stand on a column.
	colMask [numCols]sqset
	sqByKey map[string]Square
)

func init() {
	sqByKey = make(map[string]Square, NumSquares)
	for s := 0; s < NumSquares; s++ {
		var f, r, lv int
		if s < 48 {
			lv = s / 16
			f = 1 + s%4
			r = int(mainLow[lv]) + (s%16)/4
		} else {
			p := (s - 48) / 4
			k := (s - 48) % 4
			lv = 3 + p
			f = k % 2
			if p >= 6 {
				f += 4
			}
			r = int(pinRank[p]) + k/2
		}
		sqFile[s], sqRank[s], sqLevel[s] = int8(f), int8(r), int8(lv)
		c := f*10 + r
		sqCol[s] = int8(c)
		colSq[c][colNSq[c]] = Square(s)
		colNSq[c]++
		colMask[c].set(Square(s))
		sqName[s] = fmt.Sprintf("%c%d%s", fileNames[f], r, levelName(lv))
		sqByKey[sqName[s]] = Square(s)
	}
	initCells()
	initTables()
	startPos = rules.MustParse(Parse, StartString)
}

func levelName(lv int) string {
	switch lv {
	case levelW:
		return "W"
	case levelN:
		return "N"
	case levelB:
		return "B"
	}
	return pinNames[lv-3]
}

// String is the square's name, such as "b2W" or "z0QL1".
func (s Square) String() string {
	if s < 0 || s >= NumSquares {
		return "-"
	}
	return sqName[s]
}

// File is the square's file index (z=0 ... e=5).
func (s Square) File() int { return int(sqFile[s]) }

// Rank is the square's rank (0..9).
func (s Square) Rank() int { return int(sqRank[s]) }

// Pin is the pin of the board the square belongs to, or -1 on a main board.
func (s Square) Pin() Pin {
	if s < 48 {
		return -1
	}
	return Pin((s - 48) / 4)
}

// Dark reports the square's colour (D3): dark when file index + rank is even.
func (s Square) Dark() bool { return (sqFile[s]+sqRank[s])%2 == 0 }

// ParseSquare reads a square name such as "b2W" or "z0QL1"; "S" is read as
// "B" (German texts).
func ParseSquare(name string) (Square, error) {
	if len(name) >= 3 && name[2] == 'S' && len(name) == 3 {
		name = name[:2] + "B"
	}
	if s, ok := sqByKey[name]; ok {
		return s, nil
	}
	if len(name) < 3 || !strings.ContainsRune(fileNames, rune(name[0])) || name[1] < '0' || name[1] > '9' {
		return NoSquare, fmt.Errorf("%q is not a square name", name)
	}
	return NoSquare, fmt.Errorf("%q is not a square of the set", name)
}

// String is the pin's name, such as "QL3".
func (p Pin) String() string {
	if p < 0 || p >= NumPins {
		return "-"
	}
	return pinNames[p]
}

// ParsePin reads a pin name such as "KL4".
func ParsePin(name string) (Pin, error) {
	for i, n := range pinNames {
		if n == name {
			return Pin(i), nil
		}
	}
	return -1, fmt.Errorf("%q is not a pin", name)
}

// Squares returns the four squares of the board on p, in the order of
// docs/rules.md's pin table (z0 a0 z1 a1 for QL1).
func (p Pin) Squares() [4]Square {
	b := Square(48 + 4*int(p))
	return [4]Square{b, b + 1, b + 2, b + 3}
}

// Cells, as hardware.md names them: squares 0..95 are cells 0..95, and the
// presence switch of pin p is cell 96+p.

// SquareCell is the sensing cell of a square.
func SquareCell(s Square) rules.Cell { return rules.Cell(s) }

// PinCell is the presence cell of a pin.
func PinCell(p Pin) rules.Cell { return rules.Cell(NumSquares + int(p)) }

var cellNames []string

// initCells names the cells once the squares have names.
func initCells() {
	cellNames = make([]string, NumCells)
	for s := 0; s < NumSquares; s++ {
		cellNames[s] = Square(s).String()
	}
	for p := 0; p < NumPins; p++ {
		cellNames[NumSquares+p] = Pin(p).String()
	}
}

// CellNames lists the 108 sensing cells of the set (hardware.md): the 96
// squares, then the 12 pin presence switches. The slice must not be changed.
func CellNames() []string { return cellNames }

// sqset is a set of squares (96 bits).
type sqset [2]uint64

func (b *sqset) set(s Square)        { b[s>>6] |= 1 << (uint(s) & 63) }
func (b *sqset) clear(s Square)      { b[s>>6] &^= 1 << (uint(s) & 63) }
func (b sqset) has(s Square) bool    { return b[s>>6]&(1<<(uint(s)&63)) != 0 }
func (b sqset) empty() bool          { return b[0]|b[1] == 0 }
func (b sqset) or(o sqset) sqset     { return sqset{b[0] | o[0], b[1] | o[1]} }
func (b sqset) and(o sqset) sqset    { return sqset{b[0] & o[0], b[1] & o[1]} }
func (b sqset) andNot(o sqset) sqset { return sqset{b[0] &^ o[0], b[1] &^ o[1]} }
