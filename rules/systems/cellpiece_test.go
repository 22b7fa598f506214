package systems_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// CellPiece agrees with the moves of every system along random games: a
// piece move leaves a cell holding one of the mover's pieces and reaches a
// cell that then holds one of the mover's pieces, every cell with a piece
// is closed, and sockets hold none.
func TestCellPieceAlongRandomGames(t *testing.T) {
	for _, name := range []string{"st3d", "st3d+V.A1,V.A2,V.A3", "millennium", "first-contact", "first-contact-up"} {
		sys, err := systems.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		cells := len(sys.Cells())
		for game := 0; game < 20; game++ {
			pos := sys.Start()
			for ply := 0; ply < 60; ply++ {
				occ := pos.Occupancy()
				for c := 0; c < cells; c++ {
					if _, ok := pos.CellPiece(rules.Cell(c)); ok && !occ.Has(rules.Cell(c)) {
						t.Fatalf("%s %q: cell %s has a piece but reads open", name, pos, sys.Cells()[c])
					}
				}
				if _, ok := pos.CellPiece(rules.Cell(cells)); ok {
					t.Fatalf("%s: a piece on cell %d, past the last cell", name, cells)
				}
				moves := pos.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				m := moves[rng.IntN(len(moves))]
				in := pos.Info(m)
				next := pos.Play(m)
				if !in.Board {
					if in.From != rules.NoCell {
						if pc, ok := pos.CellPiece(in.From); !ok || pc.Color() != pos.Turn() {
							t.Fatalf("%s %q: %s leaves %s, which holds %v, %v", name, pos, pos.Long(m),
								sys.Cells()[in.From], pc, ok)
						}
					}
					if in.To != rules.NoCell {
						if pc, ok := next.CellPiece(in.To); ok && pc.Color() != pos.Turn() {
							t.Fatalf("%s %q: after %s, %s holds %v", name, pos, pos.Long(m), sys.Cells()[in.To], pc)
						}
					}
				}
				pos = next
			}
		}
	}
}
