package st3d

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// consistent checks the redundant parts of a position against its board.
func consistent(t *testing.T, p *Position) {
	t.Helper()
	var q Position
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 {
			if !p.exists(s) {
				t.Fatalf("%s: piece on %s, which does not exist", p, s)
			}
			q.put(s, pc)
		}
	}
	if q.bb != p.bb || q.colN != p.colN {
		t.Fatalf("%s: bitboards or column counts disagree with the board", p)
	}
	for c := 0; c < 2; c++ {
		if k := q.bb[c][King]; !k.empty() && !k.has(p.king[c]) {
			t.Fatalf("%s: king square of %v is %s", p, rules.Color(c), p.king[c])
		}
	}
}

// expectedOccupancy derives the occupancy after m from the occupancy
// before it and m's Info alone.
func expectedOccupancy(p *Position, m rules.Move) rules.CellSet {
	in := p.Info(m)
	occ := p.Occupancy()
	switch {
	case in.Board:
		q, o := Pin(mFrom(m)), Pin(mTo(m))
		occ.Remove(in.From)
		occ.Add(in.To)
		if cs := p.carried(q); cs != NoSquare {
			occ.Remove(SquareCell(cs))
			occ.Add(SquareCell(o.Squares()[cs-q.Squares()[0]]))
		}
	case in.Castle && mKind(m) == kindCastleQ:
		occ = occ.Minus(in.Touched)
		occ.Add(in.To)
		occ.Add(in.From) // the rook lands on the king's square
	default:
		occ = occ.Minus(in.Touched)
		occ.Add(in.To)
		if in.Castle {
			occ.Add(in.From)
		}
	}
	return occ
}

// TestMakeUnmakeAndOccupancy plays seeded random games and checks, for
// every legal move: unmake restores the position exactly; the position
// after it is consistent; its occupancy follows from Info alone.
func TestMakeUnmakeAndOccupancy(t *testing.T) {
	rng := rulestest.Rand(42)
	kinds := map[uint32]int{}
	for game := 0; game < 60; game++ {
		p := StartPosition()
		for ply := 0; ply < 150; ply++ {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			for _, m := range moves {
				before := p
				u := p.make(m)
				consistent(t, &p)
				after := p.Occupancy()
				p.unmake(m, u)
				if p != before {
					t.Fatalf("%s: unmake(%s) left %s", before.String(), before.Long(m), p.String())
				}
				if want := expectedOccupancy(&p, m); after != want {
					t.Fatalf("%s: %s: occupancy after %v, from Info %v", p.String(), p.Long(m),
						cells(after.Xor(want)), cells(p.Info(m).Touched))
				}
				kinds[mKind(m)]++
			}
			p.make(moves[rng.Intn(len(moves))])
		}
	}
	for _, k := range []uint32{kindNormal, kindDouble, kindEP, kindCastleK, kindCastleQ, kindBoard} {
		if kinds[k] == 0 {
			t.Errorf("random games never tried a move of kind %d", k)
		}
	}
}

// TestCountLegal keeps perft's bulk count in step with the generator.
func TestCountLegal(t *testing.T) {
	rng := rulestest.Rand(7)
	buf := make([]rules.Move, 0, maxMoves)
	for game := 0; game < 100; game++ {
		p := StartPosition()
		for ply := 0; ply < 200; ply++ {
			moves := p.LegalMoves(nil)
			if got := p.countLegal(buf); got != len(moves) {
				t.Fatalf("%s: countLegal = %d, legal moves %d", p.String(), got, len(moves))
			}
			if len(moves) == 0 {
				break
			}
			p.make(moves[rng.Intn(len(moves))])
		}
	}
	for _, tc := range perftTable {
		p := rulestest.MustParse(t, Parse, tc.pos)
		if got := p.countLegal(buf); got != int(tc.nodes[0]) {
			t.Errorf("%s: countLegal = %d, want %d", tc.name, got, tc.nodes[0])
		}
	}
}
