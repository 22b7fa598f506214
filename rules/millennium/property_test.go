package millennium

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// consistent checks the redundant parts of a position against its board.
func consistent(t *testing.T, p *Position) {
	t.Helper()
	var q Position
	q.king = [2]Square{NoSquare, NoSquare}
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 {
			q.put(s, pc)
		}
	}
	if q.bb != p.bb || q.occ != p.occ {
		t.Fatalf("%s: bitboards disagree with the board", p)
	}
	for c := 0; c < 2; c++ {
		if q.king[c] != NoSquare && q.king[c] != p.king[c] {
			t.Fatalf("%s: king square of %v is %s", p, rules.Color(c), p.king[c])
		}
	}
}

// expectedOccupancy derives the occupancy after m from the occupancy
// before it and m's Info alone (for castling, the rook lands beside the
// king, on the side it came from).
func expectedOccupancy(p *Position, m rules.Move) rules.CellSet {
	in := p.Info(m)
	occ := p.Occupancy().Minus(in.Touched)
	occ.Add(in.To)
	if in.Castle {
		if in.To > in.From {
			occ.Add(in.To - 1)
		} else {
			occ.Add(in.To + 1)
		}
	}
	return occ
}

// TestMakeUnmakeAndOccupancy plays seeded random games and checks, for
// every legal move: unmake restores the position exactly; the position
// after it is consistent; Play gives the same position and leaves the
// receiver alone; its occupancy follows from Info alone.
func TestMakeUnmakeAndOccupancy(t *testing.T) {
	rng := rulestest.Rand(42)
	kinds := map[uint32]int{}
	promos := 0
	starts := []string{StartString, perftTable[1].pos, perftTable[4].pos, perftTable[6].pos, perftTable[7].pos}
	for game := 0; game < 40; game++ {
		p := *rulestest.MustParse(t, Parse, starts[game%len(starts)])
		for ply := 0; ply < 120; ply++ {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			for _, m := range moves {
				before := p
				played := p.Play(m).(*Position)
				if p != before {
					t.Fatalf("%s: Play(%s) changed the receiver", before.String(), before.Long(m))
				}
				u := p.make(m)
				consistent(t, &p)
				if p != *played {
					t.Fatalf("%s: make(%s) and Play differ", before.String(), before.Long(m))
				}
				after := p.Occupancy()
				p.unmake(m, u)
				if p != before {
					t.Fatalf("%s: unmake(%s) left %s", before.String(), before.Long(m), p.String())
				}
				if want := expectedOccupancy(&p, m); after != want {
					t.Fatalf("%s: %s: occupancy after %v, from Info %v", p.String(), p.Long(m),
						cells(after.Xor(want)), cells(p.Info(m).Touched))
				}
				if in := p.Info(m); in.Promotion != (mPromo(m) != 0) || in.Castle != (mKind(m) >= kindCastleK) ||
					(in.Captured != rules.NoCell) != mCapture(m) {
					t.Fatalf("%s: %s: Info %+v", p.String(), p.Long(m), in)
				}
				kinds[mKind(m)]++
				if mPromo(m) != 0 {
					promos++
				}
			}
			p.make(moves[rng.Intn(len(moves))])
		}
	}
	for _, k := range []uint32{kindNormal, kindDouble, kindEP, kindCastleK, kindCastleQ} {
		if kinds[k] == 0 {
			t.Errorf("random games never tried a move of kind %d", k)
		}
	}
	if promos == 0 {
		t.Error("random games never tried a promotion")
	}
}

func TestInfo(t *testing.T) {
	for _, tc := range []struct {
		pos, move string
		want      rules.MoveInfo
	}{
		{"K1a1,P1e4,p1d4,k3h8 b - 1e3 - 0 1", "dx1e3", rules.MoveInfo{From: cell("1d4"), To: cell("1e3"),
			Touched: rules.CellSetOf(cell("1d4"), cell("1e4")), Captured: cell("1e4"), Promoted: rules.NoCell}},
		{perftTable[1].pos, "0-0-0", rules.MoveInfo{From: cell("1e1"), To: cell("1c1"),
			Touched: rules.CellSetOf(cell("1e1"), cell("1a1")), Captured: rules.NoCell, Promoted: rules.NoCell, Castle: true}},
		{"K1a1,P2c7,n3d8,k3h5 w - - - 0 1", "cx3d8=N", rules.MoveInfo{From: cell("2c7"), To: cell("3d8"),
			Touched: rules.CellSetOf(cell("2c7"), cell("3d8")), Captured: cell("3d8"), Promotion: true, Promoted: cell("3d8"), PromoteTo: 'N'}},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		m, _, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Info(m); got != tc.want {
			t.Errorf("%s: Info = %+v, want %+v", tc.move, got, tc.want)
		}
	}
}

func cell(name string) rules.Cell { return SquareCell(mustSquare(name)) }

// TestCountLegal keeps perft's bulk count in step with the generator.
func TestCountLegal(t *testing.T) {
	rng := rulestest.Rand(7)
	buf := make([]rules.Move, 0, maxMoves)
	for game := 0; game < 60; game++ {
		p := StartPosition()
		for ply := 0; ply < 150; ply++ {
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

// TestPerftAllocations: make/unmake and the bulk count allocate nothing
// per node; Perft allocates its copy and its buffers once.
func TestPerftAllocations(t *testing.T) {
	p := StartPosition()
	rulestest.CheckPerftAllocs(t, &p, 3)
	buf := make([]rules.Move, 0, maxMoves)
	if n := testing.AllocsPerRun(10, func() { buf = p.LegalMoves(buf[:0]) }); n != 0 {
		t.Errorf("LegalMoves allocates %v times", n)
	}
}
