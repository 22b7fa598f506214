package firstcontact

import (
	"math/bits"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// consistent checks the redundant parts of a position against its board
// and its platforms.
func consistent(t *testing.T, p *Position) {
	t.Helper()
	q := Position{king: [2]Square{NoSquare, NoSquare}, exist: fixedMask}
	for pl := p.plats; pl != 0; pl &= pl - 1 {
		q.addPlatform(Slot(bits.TrailingZeros32(pl)))
	}
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 {
			if !p.exist.has(s) {
				t.Fatalf("%s: piece on %s, which does not exist", p, s)
			}
			q.put(s, pc)
		}
	}
	if q.occ != p.occ || q.exist != p.exist || q.king != p.king {
		t.Fatalf("%s: bitsets, existence or king squares disagree with the board", p)
	}
	if bits.OnesCount32(p.plats) > 4 || p.ban != NoSlot && !p.hasPlatform(p.ban) {
		t.Fatalf("%s: platforms %b, ban %s", p, p.plats, p.ban)
	}
}

// expectedOccupancy derives the occupancy after m from the occupancy
// before it, m's Info, and (for a platform move) where the carried pawn
// lands.
func expectedOccupancy(p *Position, m rules.Move) rules.CellSet {
	in := p.Info(m)
	occ := p.Occupancy().Minus(in.Touched)
	occ.Add(in.To)
	if mKind(m) == kindPlatform {
		a, b := Slot(mFrom(m)), Slot(mTo(m))
		if cs, _ := p.carried(a); cs != NoSquare {
			occ.Add(p.cells().sq[b.Squares()[cs-a.Squares()[0]]])
		}
	}
	return occ
}

// TestMakeUnmakeAndOccupancy checks, for every legal move along random
// games (both systems) and in crowded random positions: unmake restores
// the position exactly; the position after it is consistent; its
// occupancy follows from Info; Play leaves the receiver alone.
func TestMakeUnmakeAndOccupancy(t *testing.T) {
	kinds := map[uint32]int{}
	check := func(p *Position) {
		for _, m := range p.LegalMoves(nil) {
			before := *p
			u := p.make(m)
			consistent(t, p)
			after := p.Occupancy()
			p.unmake(m, u)
			if *p != before {
				t.Fatalf("%s: unmake(%s) left %s", before.String(), before.Long(m), p.String())
			}
			if want := expectedOccupancy(p, m); after != want {
				t.Fatalf("%s: %s: occupancy after differs from Info in %v", p, p.Long(m), after.Xor(want).Names(p.System().Cells()))
			}
			if got := p.Play(m).Occupancy(); got != after || *p != before {
				t.Fatalf("%s: Play(%s) disagrees with make", p, p.Long(m))
			}
			kinds[mKind(m)]++
		}
	}
	rng := rulestest.Rand(42)
	for g := 0; g < 30; g++ {
		start := StartPosition()
		if g%3 == 2 {
			start = *mustParseUp(t, StartString)
		}
		randomGame(start, rng, 100, check)
	}
	for i := 0; i < 200; i++ {
		p := randomPosition(rng, i%4 == 0)
		check(&p)
	}
	for _, k := range []uint32{kindPiece, kindPlatform, kindDrop, kindPlace} {
		if kinds[k] == 0 {
			t.Errorf("never tried a move of kind %d", k)
		}
	}
}

// TestLegalMovesAllocatesNothing: with room in the buffer, move generation
// (and so perft's inner loop) allocates nothing.
func TestLegalMovesAllocatesNothing(t *testing.T) {
	p := rulestest.MustParse(t, Parse, perftTable[13].pos)
	buf := make([]rules.Move, 0, maxMoves)
	if n := testing.AllocsPerRun(100, func() { buf = p.LegalMoves(buf[:0]) }); n != 0 {
		t.Errorf("LegalMoves allocates %v times", n)
	}
	rulestest.CheckPerftAllocs(t, p, 3)
}
