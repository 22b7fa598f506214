package st3d

// Precomputed map tables: rays, leaps and attack masks by column. A column
// is file*10+rank on the 6x10 map; a column set is a uint64 bit mask.

const (
	mapFiles = 6
	mapRanks = 10
)

// Directions 0..3 are orthogonal, 4..7 diagonal.
var dirs = [8][2]int8{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

var (
	// ray[c][d] lists the columns from c in direction d up to the map edge.
	ray    [numCols][8][mapRanks]int8
	rayLen [numCols][8]int8
	// knightCols / kingCols list the columns a knight / king reaches.
	knightCols  [numCols][8]int8
	knightN     [numCols]int8
	kingCols    [numCols][8]int8
	kingN       [numCols]int8
	knightMask  [numCols]sqset // squares of every knight column of c
	kingMask    [numCols]sqset
	pawnAttMask [2][numCols]sqset // squares from which a pawn of that colour attacks c
	// queenCols is the set of columns on any line through c (c excluded).
	queenCols [numCols]uint64
	// pinSquares is the set of the four squares of each pin.
	pinSquares [NumPins]sqset
	// adjacent lists the pins adjacent to each pin (D13).
	adjacent  [NumPins][5]Pin
	adjacentN [NumPins]int8
	// castleMask clears castling rights when a move starts or ends on a
	// square (D16).
	castleMask [NumSquares]uint8
)

func onMap(f, r int8) bool { return f >= 0 && f < mapFiles && r >= 0 && r < mapRanks }

// initTables runs after the square tables exist (called from geometry's init).
func initTables() {
	for _, n := range namedSquares {
		*n.sq = mustSquare(n.name)
	}
	for c := 0; c < numCols; c++ {
		f, r := int8(c/10), int8(c%10)
		for d, dv := range dirs {
			n := int8(0)
			for ff, rr := f+dv[0], r+dv[1]; onMap(ff, rr); ff, rr = ff+dv[0], rr+dv[1] {
				ray[c][d][n] = ff*10 + rr
				n++
				queenCols[c] |= 1 << uint(ff*10+rr)
			}
			rayLen[c][d] = n
			if ff, rr := f+dv[0], r+dv[1]; onMap(ff, rr) {
				t := ff*10 + rr
				kingCols[c][kingN[c]] = t
				kingN[c]++
				kingMask[c] = kingMask[c].or(colMask[t])
			}
		}
		for _, o := range [8][2]int8{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if ff, rr := f+o[0], r+o[1]; onMap(ff, rr) {
				t := ff*10 + rr
				knightCols[c][knightN[c]] = t
				knightN[c]++
				knightMask[c] = knightMask[c].or(colMask[t])
			}
		}
		// A white pawn attacks c from one rank below, a black one from above.
		for _, df := range []int8{-1, 1} {
			if ff, rr := f+df, r-1; onMap(ff, rr) {
				pawnAttMask[0][c] = pawnAttMask[0][c].or(colMask[ff*10+rr])
			}
			if ff, rr := f+df, r+1; onMap(ff, rr) {
				pawnAttMask[1][c] = pawnAttMask[1][c].or(colMask[ff*10+rr])
			}
		}
	}
	for q := Pin(0); q < NumPins; q++ {
		for _, s := range q.Squares() {
			pinSquares[q].set(s)
		}
		for o := Pin(0); o < NumPins; o++ {
			sameSide := (q < 6) == (o < 6)
			dn := int(q%6) - int(o%6)
			if sameSide && (dn == 1 || dn == -1 || dn == 2 || dn == -2) || !sameSide && dn == 0 {
				adjacent[q][adjacentN[q]] = o
				adjacentN[q]++
			}
		}
	}
	for s := range castleMask {
		castleMask[s] = 0xFF // the high bits are 3D Chess960 rights (variants_960.go)
	}
	castleMask[sqD0KL1] &^= castleWK | castleWQ
	castleMask[sqE0KL1] &^= castleWK
	castleMask[sqZ0QL1] &^= castleWQ
	castleMask[sqD9KL6] &^= castleBK | castleBQ
	castleMask[sqE9KL6] &^= castleBK
	castleMask[sqZ9QL6] &^= castleBQ
}

// Squares that castling and promotion refer to by name.
var (
	sqD0KL1, sqE0KL1, sqZ0QL1, sqA0QL1 Square
	sqD9KL6, sqE9KL6, sqZ9QL6, sqA9QL6 Square
	sqA8B, sqD8B, sqA1W, sqD1W         Square
)

var namedSquares = []struct {
	sq   *Square
	name string
}{
	{&sqD0KL1, "d0KL1"}, {&sqE0KL1, "e0KL1"}, {&sqZ0QL1, "z0QL1"}, {&sqA0QL1, "a0QL1"},
	{&sqD9KL6, "d9KL6"}, {&sqE9KL6, "e9KL6"}, {&sqZ9QL6, "z9QL6"}, {&sqA9QL6, "a9QL6"},
	{&sqA8B, "a8B"}, {&sqD8B, "d8B"}, {&sqA1W, "a1W"}, {&sqD1W, "d1W"},
}

func mustSquare(name string) Square {
	s, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

// Pins by name.
const (
	pinQL1 Pin = 0
	pinQL6 Pin = 5
	pinKL1 Pin = 6
	pinKL6 Pin = 11
)
