// Package firstcontact plays First Contact (L. Lynn Smith, 2003) on the
// Star Trek 3D set, as docs/rules.md reads it (decisions F1..F6): a true
// three-dimensional lattice instead of Meder's projection, a placement
// phase, introductions from a reserve, platform moves, and a win by giving
// check.
//
// The package has the shape of rules/st3d: geometry and tables, a Position
// value with make/unmake, a legal move generator, the position string, long
// and short notation, and perft.
//
// # Readings of the spec
//
// Where docs/rules.md leaves a point open, this package reads it as
// follows (each choice is repeated where the code makes it):
//
//   - Giving check wins at once, so a position whose side to move is in
//     check is over: it has no legal moves, Status reports rules.Checkmate
//     (the side to move has lost), and perft counts no moves below it. The
//     short notation marks every checking move with "#".
//   - A move may not leave one's own king attacked, even one that gives
//     check (the rule is stated without exception).
//   - F3: the intermediate cell of a leap between fixed levels must be an
//     existing platform cell; it may be occupied (the knight leaps).
//   - Platform moves: "a platform holding exactly one friendly pawn" means
//     the mover's pawn and nothing else. A pawn-carrying platform keeps its
//     orientation; an empty platform only inverts (F4). A platform may move
//     to a "vacant" position only: one that holds no platform.
//   - The move ban (tenth field) is the position of the last platform that
//     moved; it stays until another platform moves, whatever is played in
//     between (pieces, introductions), and binds both players.
//   - The position string keeps st3d's castling, en-passant and
//     double-step fields; First Contact has none of them, so they are
//     always "-" (anything else is refused).
//   - During the placement phase the order is fixed (platforms W, B, W, B,
//     then White's king, then Black's), so a position string in that phase
//     must have full reserves, no pieces but the kings already placed and
//     the side to move that the order gives.
//   - A position is dead only when no side can ever give check (D18): the
//     kings alone with both reserves empty (repetition and the 50-move rule
//     remain claims, as in rules.Game).
package firstcontact

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
)

// Geometry (docs/rules.md, F1).
//
// A cell of the lattice is (file, rank, height). Files are z a b c d e
// (index 0..5) and ranks 0..9 as on docs/rules.md's map; heights run from -1
// (under an inverted W platform) to 5 (above an up B platform) and are
// stored as z = height+1, 0..6. Fixed levels stand at even heights (W 0,
// N 2, B 4), platforms at odd heights, so no platform cell is ever a fixed
// cell.
//
// Squares (cells that can exist) are numbered 0..143: the fixed levels W,
// N, B (16 each, rank then file), then four squares for each of the 24
// platform positions in the order QL1u, QL1d, QL2u, ..., KL6d (z0 a0 z1 a1
// for QL1, as st3d's pin table).

// Square is a square of the lattice, 0..143, or NoSquare.
type Square uint8

// NoSquare stands for "no square".
const NoSquare Square = 255

// Slot is a platform position (a pin plus u or d): QL1u = 0, QL1d = 1, ...,
// KL6d = 23, so pin = slot/2 and slot%2 is 1 for an inverted platform. It
// is called a slot here to keep "position" for positions of the game.
type Slot uint8

// NoSlot stands for "no platform position".
const NoSlot Slot = 255

// Sizes.
const (
	NumFixed   = 48
	NumSlots   = 24
	NumSquares = NumFixed + 4*NumSlots // 144
	NumPins    = 12
	numFiles   = 6
	numRanks   = 10
	numZ       = 7
	numLattice = numFiles * numRanks * numZ
)

// Fixed levels.
const (
	levelW = 0
	levelN = 1
	levelB = 2
)

var (
	fileNames = "zabcde"
	pinNames  = [NumPins]string{"QL1", "QL2", "QL3", "QL4", "QL5", "QL6", "KL1", "KL2", "KL3", "KL4", "KL5", "KL6"}
	// pinRank is the lower rank a pin's platform covers (docs/rules.md).
	pinRank = [NumPins]int8{0, 4, 2, 6, 4, 8, 0, 4, 2, 6, 4, 8}
	// fixedLow is the lowest rank of W, N, B.
	fixedLow = [3]int8{1, 3, 5}
)

// geometry tables, filled by init.
var (
	sqX, sqY, sqZ [NumSquares]int8
	// sqLevel is 0..2 for W, N, B and 3+slot for platform squares.
	sqLevel  [NumSquares]int8
	sqName   [NumSquares]string
	lattice  [numLattice]Square // lattice point -> square, or NoSquare
	sqByName map[string]Square
	slotName [NumSlots]string
	// slotMask is the set of a slot's four squares; fixedMask the 48 fixed.
	slotMask  [NumSlots]sqset
	fixedMask sqset
	levelMask [3]sqset
)

func latticeIndex(x, y, z int8) int { return (int(z)*numRanks+int(y))*numFiles + int(x) }

// at is the square at lattice point (x, y, z), or NoSquare (off the
// lattice or never a square).
func at(x, y, z int8) Square {
	if x < 0 || x >= numFiles || y < 0 || y >= numRanks || z < 0 || z >= numZ {
		return NoSquare
	}
	return lattice[latticeIndex(x, y, z)]
}

func init() {
	for i := range lattice {
		lattice[i] = NoSquare
	}
	sqByName = make(map[string]Square, NumSquares)
	for sl := Slot(0); sl < NumSlots; sl++ {
		slotName[sl] = sl.pin().String() + string("ud"[sl&1])
	}
	for s := 0; s < NumSquares; s++ {
		var x, y, z, lv int8
		if s < NumFixed {
			lv = int8(s / 16)
			x = 1 + int8(s%4)
			y = fixedLow[lv] + int8(s%16/4)
			z = 2*lv + 1
			fixedMask.set(Square(s))
			levelMask[lv].set(Square(s))
		} else {
			sl := Slot((s - NumFixed) / 4)
			k := int8((s - NumFixed) % 4)
			q := sl.pin()
			lv = 3 + int8(sl)
			x = k % 2
			if q >= 6 {
				x += 4
			}
			y = pinRank[q] + k/2
			z = 2*q.level() + 1 + 1
			if sl&1 == 1 {
				z -= 2
			}
			slotMask[sl].set(Square(s))
		}
		sqX[s], sqY[s], sqZ[s], sqLevel[s] = x, y, z, lv
		li := latticeIndex(x, y, z)
		if lattice[li] != NoSquare {
			panic("firstcontact: two squares share a lattice point")
		}
		lattice[li] = Square(s)
		sqName[s] = fmt.Sprintf("%c%d%s", fileNames[x], y, levelName(int(lv)))
		sqByName[sqName[s]] = Square(s)
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
	return slotName[lv-3]
}

// Pin is an ST3D pin: QL1..QL6 are 0..5, KL1..KL6 are 6..11.
type Pin int8

// String is the pin's name, such as "QL3".
func (q Pin) String() string {
	if q < 0 || q >= NumPins {
		return "-"
	}
	return pinNames[q]
}

// level is the fixed level whose corner the pin is (0 W, 1 N, 2 B).
func (q Pin) level() int8 { return int8(q%6) / 2 }

func (sl Slot) pin() Pin { return Pin(sl / 2) }

// Inverted reports whether the slot is a `d` position.
func (sl Slot) Inverted() bool { return sl&1 == 1 }

// String is the slot's name, such as "QL3u".
func (sl Slot) String() string {
	if sl >= NumSlots {
		return "-"
	}
	return slotName[sl]
}

// Squares returns the four squares of a platform at sl, in st3d's order
// (z0 a0 z1 a1 for QL1).
func (sl Slot) Squares() [4]Square {
	b := Square(NumFixed + 4*int(sl))
	return [4]Square{b, b + 1, b + 2, b + 3}
}

// ParseSlot reads a platform position such as "QL3u" or "KL1d".
func ParseSlot(name string) (Slot, error) {
	for i, n := range slotName {
		if n == name {
			return Slot(i), nil
		}
	}
	return NoSlot, fmt.Errorf("%q is not a platform position (a pin QL1..KL6 and u or d, such as QL3u)", name)
}

// String is the square's name, such as "b2W" or "a2QL3u".
func (s Square) String() string {
	if s >= NumSquares {
		return "-"
	}
	return sqName[s]
}

// Slot is the platform position the square belongs to, or NoSlot for a
// square of a fixed level.
func (s Square) Slot() Slot {
	if s < NumFixed {
		return NoSlot
	}
	return Slot((s - NumFixed) / 4)
}

// File, Rank and Height are the square's lattice coordinates (file z=0 ..
// e=5, rank 0..9, height -1..5).
func (s Square) File() int   { return int(sqX[s]) }
func (s Square) Rank() int   { return int(sqY[s]) }
func (s Square) Height() int { return int(sqZ[s]) - 1 }

// ParseSquare reads a square name such as "b2W" or "a2QL3u".
func ParseSquare(name string) (Square, error) {
	if s, ok := sqByName[name]; ok {
		return s, nil
	}
	return NoSquare, fmt.Errorf("%q is not a square of the set (b2W, a2QL3u)", name)
}

// Cells (F6). The full cell list is the 144 squares (cell = square), then
// one presence cell per platform position (cell 144+slot, named "QL3u",
// "QL3d"): 168 cells. A set whose sockets sense only upright platforms (the
// reference socket) plays UpOnly, whose cell list leaves out every `d`
// position: the 48 fixed squares, the four squares of each `u` position
// (cells 48+4*pin..), and the twelve `u` presence cells (96+pin): 108
// cells, the count (and order) of st3d's cell list.

type cellMap struct {
	names  []string
	sq     [NumSquares]rules.Cell // NoCell for a square the set cannot sense
	slot   [NumSlots]rules.Cell
	square []Square // cell -> square, or NoSquare for a presence cell
	slotOf []Slot   // cell -> slot for a presence cell, else NoSlot
}

var fullCells, upCells cellMap

func initCells() {
	build := func(up bool) cellMap {
		var m cellMap
		for i := range m.sq {
			m.sq[i] = rules.NoCell
		}
		for i := range m.slot {
			m.slot[i] = rules.NoCell
		}
		add := func(name string, s Square, sl Slot) rules.Cell {
			c := rules.Cell(len(m.names))
			m.names = append(m.names, name)
			m.square = append(m.square, s)
			m.slotOf = append(m.slotOf, sl)
			return c
		}
		for s := Square(0); s < NumSquares; s++ {
			if up && s.Slot() != NoSlot && s.Slot().Inverted() {
				continue
			}
			m.sq[s] = add(s.String(), s, NoSlot)
		}
		for sl := Slot(0); sl < NumSlots; sl++ {
			if up && sl.Inverted() {
				continue
			}
			m.slot[sl] = add(sl.String(), NoSquare, sl)
		}
		return m
	}
	fullCells = build(false)
	upCells = build(true)
}

// CellNames lists the 168 cells of the full system (F6). The slice must not
// be changed.
func CellNames() []string { return fullCells.names }

// UpCellNames lists the 108 cells of UpOnly (F6). The slice must not be
// changed.
func UpCellNames() []string { return upCells.names }

// sqset is a set of squares (144 bits).
type sqset [3]uint64

func (b *sqset) set(s Square)      { b[s>>6] |= 1 << (s & 63) }
func (b *sqset) clear(s Square)    { b[s>>6] &^= 1 << (s & 63) }
func (b *sqset) has(s Square) bool { return b[s>>6]&(1<<(s&63)) != 0 }
func (b sqset) or(o sqset) sqset   { return sqset{b[0] | o[0], b[1] | o[1], b[2] | o[2]} }
func (b sqset) andNot(o sqset) sqset {
	return sqset{b[0] &^ o[0], b[1] &^ o[1], b[2] &^ o[2]}
}
func (b sqset) empty() bool { return b[0]|b[1]|b[2] == 0 }
