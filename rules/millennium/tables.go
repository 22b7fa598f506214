package millennium

import "github.com/tridboard/tridboard/rules"

// Precomputed tables: the 26 directions with their rays, and the leap,
// step and pawn masks of every square.

// numDirs is the number of line directions (M1, M4): every (file, rank,
// level) step in {-1, 0, 1}^3 but (0, 0, 0). Directions 0..13 are the
// rook's (M2: at most one of file and rank changes), 14..25 the bishop's
// (M3: both change).
const (
	numDirs      = 26
	numRookDirs  = 14
	maxRayLength = 7
)

var (
	dirs [numDirs][3]int8 // file, rank, level steps
	// ray[s][d] lists the squares from s in direction d up to the edge of
	// the set; rayMask is the same as a set.
	ray     [NumSquares][numDirs][maxRayLength]Square
	rayLen  [NumSquares][numDirs]uint8
	rayMask [NumSquares][numDirs]bset
	// rookLines / bishopLines are the squares on any rook / bishop line
	// through s (s excluded).
	rookLines   [NumSquares]bset
	bishopLines [NumSquares]bset
	knightMask  [NumSquares]bset // M5
	kingMask    [NumSquares]bset // M1
	// pawnPush[c][s]: a pawn's one-step moves without capture (M7).
	pawnPush [2][NumSquares]bset
	// pawnAtt[c][s]: the squares a pawn of c on s captures onto (M7);
	// pawnAttFrom[c][s]: the squares from which a pawn of c captures onto s.
	pawnAtt     [2][NumSquares]bset
	pawnAttFrom [2][NumSquares]bset
	// promoZone[c]: where a pawn of c promotes (M9): rank 8 of level 3 for
	// White, rank 1 of level 1 for Black.
	promoZone [2]bset
	// homeRow[c]: the pawns' start cells (level 1 rank 2, level 3 rank 7).
	homeRow [2]bset
	// castleMask clears castling rights when a move starts or ends on a
	// square (M10).
	castleMask [NumSquares]uint8
)

// forward is the rank step of a pawn of c.
func forward(c rules.Color) int {
	if c == rules.White {
		return 1
	}
	return -1
}

// homeLevel is the level index of c's army at the start.
func homeLevel(c rules.Color) int { return 2 * int(c) }

// step is the square d steps of (df, dr, dl) away from s, or NoSquare.
func step(s Square, df, dr, dl int) Square {
	return SquareAt(s.Level()+dl, s.Rank()+dr, s.File()+df)
}

// Squares castling refers to (M10).
var (
	sqWK, sqWKR, sqWQR Square // 1e1, 1h1, 1a1
	sqBK, sqBKR, sqBQR Square // 3e8, 3h8, 3a8
)

func initTables() {
	n, b := 0, numRookDirs
	for dl := -1; dl <= 1; dl++ {
		for dr := -1; dr <= 1; dr++ {
			for df := -1; df <= 1; df++ {
				if df == 0 && dr == 0 && dl == 0 {
					continue
				}
				d := [3]int8{int8(df), int8(dr), int8(dl)}
				if df == 0 || dr == 0 {
					dirs[n] = d
					n++
				} else {
					dirs[b] = d
					b++
				}
			}
		}
	}
	for s := Square(0); s < NumSquares; s++ {
		for d, dv := range dirs {
			k := uint8(0)
			for t := step(s, int(dv[0]), int(dv[1]), int(dv[2])); t != NoSquare; t = step(t, int(dv[0]), int(dv[1]), int(dv[2])) {
				ray[s][d][k] = t
				rayMask[s][d].set(t)
				k++
			}
			rayLen[s][d] = k
			if d < numRookDirs {
				rookLines[s] = rookLines[s].or(rayMask[s][d])
			} else {
				bishopLines[s] = bishopLines[s].or(rayMask[s][d])
			}
			if t := step(s, int(dv[0]), int(dv[1]), int(dv[2])); t != NoSquare {
				kingMask[s].set(t)
			}
		}
		// Knight: every permutation of (1, 2, 0), signs free (M5): the
		// steps whose absolute values are 0, 1 and 2 in some order.
		for df := -2; df <= 2; df++ {
			for dr := -2; dr <= 2; dr++ {
				for dl := -2; dl <= 2; dl++ {
					if abs(df)*abs(dr)*abs(dl) != 0 || abs(df)+abs(dr)+abs(dl) != 3 {
						continue
					}
					if t := step(s, df, dr, dl); t != NoSquare {
						knightMask[s].set(t)
					}
				}
			}
		}
		for c := rules.White; c <= rules.Black; c++ {
			f := forward(c)
			for _, o := range [5][2]int{{1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}} {
				if t := step(s, 0, o[0]*f, o[1]); t != NoSquare {
					pawnPush[c][s].set(t)
				}
			}
			for _, df := range [2]int{-1, 1} {
				for dl := -1; dl <= 1; dl++ {
					if t := step(s, df, f, dl); t != NoSquare {
						pawnAtt[c][s].set(t)
						pawnAttFrom[c][t].set(s)
					}
				}
			}
		}
	}
	for f := 0; f < NumFiles; f++ {
		promoZone[rules.White].set(SquareAt(2, 7, f))
		promoZone[rules.Black].set(SquareAt(0, 0, f))
		homeRow[rules.White].set(SquareAt(0, 1, f))
		homeRow[rules.Black].set(SquareAt(2, 6, f))
	}
	sqWK, sqWKR, sqWQR = mustSquare("1e1"), mustSquare("1h1"), mustSquare("1a1")
	sqBK, sqBKR, sqBQR = mustSquare("3e8"), mustSquare("3h8"), mustSquare("3a8")
	for s := range castleMask {
		castleMask[s] = 0xF
	}
	castleMask[sqWK] &^= castleWK | castleWQ
	castleMask[sqWKR] &^= castleWK
	castleMask[sqWQR] &^= castleWQ
	castleMask[sqBK] &^= castleBK | castleBQ
	castleMask[sqBKR] &^= castleBK
	castleMask[sqBQR] &^= castleBQ
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
