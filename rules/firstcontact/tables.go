package firstcontact

// Precomputed lattice tables: rays, steps, knight leaps and platform moves
// by square or slot.

// Directions (F1): 0..5 orthogonal (rank, file, height), 6..9 diagonal on
// the level (file and rank by 1, same height), 10..17 triagonal.
const (
	numOrth   = 6
	dirDiag0  = 6
	dirTriag0 = 10
	numDirs   = 18
	maxRay    = 10
)

var dirs = [numDirs][3]int8{
	{0, 1, 0}, {0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1},
	{1, 1, 0}, {1, -1, 0}, {-1, 1, 0}, {-1, -1, 0},
	{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {1, -1, -1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1},
}

// leap is a knight leap: the target and the square that must exist for it
// (F3), or NoSquare when nothing is required.
type leap struct {
	to, via Square
}

var (
	// step[s][d] is the neighbour of s in direction d, or NoSquare.
	step [NumSquares][numDirs]Square
	// ray[s][d] (d < 10) lists the squares from s in direction d up to the
	// first lattice point that is never a square (F2: a line cannot pass
	// a cell that does not exist; squares that can exist but do not are
	// tested at run time).
	ray    [NumSquares][dirTriag0][maxRay]Square
	rayLen [NumSquares][dirTriag0]int8
	// knightTo lists the leaps from s; knightFrom the leaps that land on s
	// (with the condition of the knight's own start square, F3).
	knightTo    [NumSquares][24]leap
	knightToN   [NumSquares]int8
	knightFrom  [NumSquares][24]leap
	knightFromN [NumSquares]int8
	// platTargets[sl][0] are the slots an empty platform on sl may go to
	// (F4: inverted, at its corner or an orthogonally adjacent corner of
	// its level); platTargets[sl][1] those of a platform carrying one pawn
	// (orthogonally adjacent corner of its level or the same corner of the
	// level above or below, orientation kept).
	platTargets  [NumSlots][2][4]Slot
	platTargetsN [NumSlots][2]int8
)

// knightVectors are the 24 (1,2,0) leaps; the first component of each
// triple is along file, rank, height as in dirs.
var knightVectors = func() [][3]int8 {
	var out [][3]int8
	for _, a := range []int8{-2, -1, 0, 1, 2} {
		for _, b := range []int8{-2, -1, 0, 1, 2} {
			for _, c := range []int8{-2, -1, 0, 1, 2} {
				n1, n2 := 0, 0
				for _, v := range []int8{a, b, c} {
					switch v {
					case 1, -1:
						n1++
					case 2, -2:
						n2++
					}
				}
				if n1 == 1 && n2 == 1 {
					out = append(out, [3]int8{a, b, c})
				}
			}
		}
	}
	return out
}()

// leapVia is the condition of a knight leap from s by v (F3): a leap from
// one fixed level to another must pass through a platform cell directly
// above or below the start. ok is false when the leap can never be made.
func leapVia(s Square, v [3]int8) (via Square, ok bool) {
	t := at(sqX[s]+v[0], sqY[s]+v[1], sqZ[s]+v[2])
	if t == NoSquare {
		return NoSquare, false
	}
	if s >= NumFixed || t >= NumFixed || sqLevel[s] == sqLevel[t] {
		return NoSquare, true // to, from or between platforms, or on one level: free
	}
	// Fixed levels differ: the height changes by 2, the first step is vertical.
	dz := v[2] / 2
	via = at(sqX[s], sqY[s], sqZ[s]+dz)
	return via, via != NoSquare
}

func initTables() {
	for s := Square(0); s < NumSquares; s++ {
		x, y, z := sqX[s], sqY[s], sqZ[s]
		for d, v := range dirs {
			step[s][d] = at(x+v[0], y+v[1], z+v[2])
			if d >= dirTriag0 {
				continue
			}
			n := int8(0)
			for t := step[s][d]; t != NoSquare; t = at(sqX[t]+v[0], sqY[t]+v[1], sqZ[t]+v[2]) {
				ray[s][d][n] = t
				n++
			}
			rayLen[s][d] = n
		}
		for _, v := range knightVectors {
			if via, ok := leapVia(s, v); ok {
				t := at(x+v[0], y+v[1], z+v[2])
				knightTo[s][knightToN[s]] = leap{t, via}
				knightToN[s]++
				knightFrom[t][knightFromN[t]] = leap{s, via}
				knightFromN[t]++
			}
		}
	}
	for sl := Slot(0); sl < NumSlots; sl++ {
		q, inv := sl.pin(), sl&1
		n := q % 6 // 0..5: level*2 + (1 for a front corner)
		slotOf := func(p Pin, inv Slot) Slot { return Slot(p)*2 + inv }
		adjacent := []Pin{q ^ 1, (q + 6) % 12} // same level: QL1 <-> QL2, QL1 <-> KL1
		add := func(k int, t Slot) {
			platTargets[sl][k][platTargetsN[sl][k]] = t
			platTargetsN[sl][k]++
		}
		add(0, slotOf(q, inv^1))
		for _, o := range adjacent {
			add(0, slotOf(o, inv^1))
			add(1, slotOf(o, inv))
		}
		if n >= 2 {
			add(1, slotOf(q-2, inv)) // the same corner of the level below
		}
		if n < 4 {
			add(1, slotOf(q+2, inv)) // ... and above
		}
	}
}
