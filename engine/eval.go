package engine

import (
	"sync"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// Evaluation weights, in centipawns.
var pieceValue = [8]int32{0, 100, 310, 330, 500, 920, 0, 0}

const (
	mobilityWeight  = 3  // per legal move more than the opponent had
	boardMoveWeight = 4  // per attack-board move more (ST3D), on top
	boardControl    = 14 // per attack board a side may move (ST3D, D12)
	boardCarry      = 8  // ... more when one of its pieces stands on it
	tempo           = 8
	reserveShare    = 85 // percent of a piece's value while in reserve (First Contact)
)

// cellGeo is where a cell stands in its set: coordinates for distances,
// how central it is and how far a pawn of each colour has come.
type cellGeo struct {
	square  bool
	x, y, z int8
	center  int8    // 0 (edge, off level) .. 24 (middle)
	advance [2]int8 // pawn bonus by colour, 0 .. 48
}

// evaluator scores positions of one system.
type evaluator struct {
	geo []cellGeo
}

var evaluators sync.Map // system name -> *evaluator

// evaluatorFor builds (once per system) the evaluator for pos's system,
// from the geometry its registry entry gives (rules/systems): a system
// without one is scored on material and mobility alone.
func evaluatorFor(pos rules.Position) *evaluator {
	if b, ok := pos.(*boxed); ok {
		pos = b.Position
	}
	name := pos.System().Name()
	if e, ok := evaluators.Load(name); ok {
		return e.(*evaluator)
	}
	cells := pos.System().Cells()
	e := &evaluator{geo: make([]cellGeo, len(cells))}
	type xyz struct{ x, y, z int }
	at := func(int, string) (xyz, bool) { return xyz{}, false }
	if g, err := systems.GeometryOf(pos.System()); err == nil {
		at = func(c int, _ string) (xyz, bool) {
			gc := g.Cells[c]
			return xyz{int(gc.X), int(gc.Y), gc.Z}, !gc.IsSocket
		}
	}
	lo, hi := xyz{99, 99, 99}, xyz{-99, -99, -99}
	for c, n := range cells {
		if p, ok := at(c, n); ok {
			lo = xyz{min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z)}
			hi = xyz{max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z)}
		}
	}
	span := func(a, b int) int { return max(b-a, 1) }
	for c, n := range cells {
		p, ok := at(c, n)
		if !ok {
			continue
		}
		g := &e.geo[c]
		g.square = true
		g.x, g.y, g.z = int8(p.x), int8(p.y), int8(p.z)
		// Distance from the middle, each axis scaled to 0..1 (x2 to stay
		// integral), files and ranks counting more than height.
		dx := abs(2*p.x-lo.x-hi.x) * 12 / span(lo.x, hi.x)
		dy := abs(2*p.y-lo.y-hi.y) * 12 / span(lo.y, hi.y)
		dz := abs(2*p.z-lo.z-hi.z) * 4 / span(lo.z, hi.z)
		g.center = int8(max(24-dx-dy-dz, 0))
		ty := (p.y - lo.y) * 8 / span(lo.y, hi.y) // 0..8 up the ranks
		g.advance[rules.White] = int8(ty * ty * 3 / 4)
		g.advance[rules.Black] = int8((8 - ty) * (8 - ty) * 3 / 4)
	}
	v, _ := evaluators.LoadOrStore(name, e)
	return v.(*evaluator)
}

// evaluate is the static score of the position at ply for its side to
// move: the evaluator's terms plus mobility against the moves the
// opponent had one ply up.
func (s *searcher) evaluate(pos rules.Maker, ply int) Score {
	sc := s.ev.static(pos, &s.cells)
	if ply > 0 {
		sc += mobilityWeight*(s.mob[ply]-s.mob[ply-1]) + boardMoveWeight*(s.boards[ply]-s.boards[ply-1])
	}
	return Score(sc + tempo)
}

// static is the material and placement score of pos for its side to move.
func (e *evaluator) static(pos rules.Position, buf *[]rules.Cell) int32 {
	cells := pos.Occupancy().Cells((*buf)[:0])
	*buf = cells
	var score [2]int32
	var nonPawn int32
	king := [2]rules.Cell{rules.NoCell, rules.NoCell}
	type placed struct {
		c  rules.Cell
		pc rules.Piece
	}
	var pieces [96]placed
	n := 0
	for _, c := range cells {
		pc, ok := pos.CellPiece(c)
		if !ok {
			continue
		}
		if n < len(pieces) {
			pieces[n] = placed{c, pc}
			n++
		}
		col, k := pc.Color(), pc.Kind()
		score[col] += pieceValue[k]
		if int(c) >= len(e.geo) {
			continue
		}
		g := &e.geo[c]
		switch k {
		case Pawn:
			score[col] += int32(g.advance[col])
		case Knight, Bishop:
			score[col] += int32(g.center)
			nonPawn += pieceValue[k]
		case Queen:
			score[col] += int32(g.center) / 2
			nonPawn += pieceValue[k]
		case Rook:
			score[col] += int32(g.center) / 4
			nonPawn += pieceValue[k]
		case King:
			king[col] = c
		}
	}
	reserves(pos, &score, &nonPawn)
	// King safety: enemy pieces close to a king cost, the king's own
	// neighbours shield it; in the middle game the king keeps out of the
	// centre, in the end game it goes there.
	phase := min(nonPawn, 4000) // 4000: most of both armies
	for col := 0; col < 2; col++ {
		kc := king[col]
		if kc == rules.NoCell || int(kc) >= len(e.geo) {
			continue
		}
		kg := &e.geo[kc]
		center := int32(kg.center)
		score[col] += center * (4000 - 2*phase) / 4000
		var danger, shield int32
		for _, p := range pieces[:n] {
			if int(p.c) >= len(e.geo) || p.c == kc {
				continue
			}
			g := &e.geo[p.c]
			d := max(abs(int(g.x-kg.x)), abs(int(g.y-kg.y)), abs(int(g.z-kg.z))/2)
			if p.pc.Color() == rules.Color(col) {
				if d <= 1 {
					shield += 6
				}
			} else if d <= 2 && p.pc.Kind() != Pawn {
				danger += 3 * orderValue[p.pc.Kind()] * int32(3-d)
			}
		}
		score[col] += (shield - danger) * phase / 4000
	}
	if b, ok := pos.(boardController); ok {
		empty, carrying := b.BoardControl()
		for col := range score {
			score[col] += boardControl*int32(empty[col]) + (boardControl+boardCarry)*int32(carrying[col])
		}
	}
	sc := score[rules.White] - score[rules.Black]
	if pos.Turn() == rules.Black {
		sc = -sc
	}
	return sc
}

// Piece kinds, for the switches above.
const (
	Pawn   = rules.Pawn
	Knight = rules.Knight
	Bishop = rules.Bishop
	Rook   = rules.Rook
	Queen  = rules.Queen
	King   = rules.King
)

// boardController is a position whose attack boards belong to a side
// (st3d, docs/rules.md D12): a board a side may move is worth having
// (boardControl), more so with one of its pieces on it (boardCarry); a
// board holding two pieces belongs to nobody.
type boardController interface {
	// BoardControl counts the boards each side may move: empty, and
	// carrying one of its pieces.
	BoardControl() (empty, carrying [2]int)
}

// reserves counts the pieces a position holds in reserve (First Contact's
// introductions, rules.Reserver): they enter the set, so they are
// material, a little less than on the set.
func reserves(pos rules.Position, score *[2]int32, nonPawn *int32) {
	p, ok := pos.(rules.Reserver)
	if !ok {
		return
	}
	for col := rules.White; col <= rules.Black; col++ {
		for k := Pawn; k < King; k++ {
			if n := int32(p.Reserve(col, k)); n > 0 {
				v := n * pieceValue[k] * reserveShare / 100
				score[col] += v
				if k != Pawn {
					*nonPawn += v
				}
			}
		}
	}
}

// material is White's material lead in centipawns, First Contact's
// reserves included (for adjudication).
func (e *evaluator) material(pos rules.Position) int32 {
	var score [2]int32
	var nonPawn int32
	for _, c := range pos.Occupancy().Cells(nil) {
		if pc, ok := pos.CellPiece(c); ok {
			score[pc.Color()] += pieceValue[pc.Kind()]
		}
	}
	reserves(pos, &score, &nonPawn)
	return score[rules.White] - score[rules.Black]
}
