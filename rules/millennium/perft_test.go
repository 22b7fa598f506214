package millennium

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// perftTable: the start position's figures are docs/rules.md's; the others
// were established by this engine and agree at every depth listed with the
// independent reference implementation in reference_test.go
// (TestPerftReference). Depth 1 was also counted by hand where the comment
// gives the sum.
var perftTable = []struct {
	name  string
	pos   string
	nodes []uint64
}{
	// 0
	{"start (docs/rules.md): pawns 48 + knights 14 + rooks 12 + bishops 8 + queen 12 + king 6",
		StartString, []uint64{100, 9992, 1061917}},
	// 1
	{"both castlings, White (M10; hand: king 11 + rook 1a1 16 + rook 1h1 15 + 0-0 + 0-0-0 = 44)",
		"R1a1,K1e1,R1h1,r3a8,k3e8,r3h8 w KQkq - - 0 1", []uint64{44, 1924, 94610}},
	// 2
	{"both castlings, Black (the same by symmetry: 44)",
		"R1a1,K1e1,R1h1,r3a8,k3e8,r3h8 b KQkq - - 0 1", []uint64{44, 1924, 94610}},
	// 3
	{"castling against attacks from level 3 (M10): 1f1 attacked by r3f3 over 2f2 bars 0-0; 1b1 attacked by b3d3 does not bar 0-0-0",
		"R1a1,K1e1,R1h1,b3d3,r3f3,k3e8 w KQ - - 0 1", []uint64{40, 1998, 85994}},
	// 4
	{"en passant after (0,2,0) (M8; hand: king 7 + pawn 1d4 3 pushes + ep + pawn 2f4 5 pushes + ep = 17)",
		"K1a1,P1e4,p1d4,p2f4,k3h8 b - 1e3 - 0 1", []uint64{17, 164, 3008}},
	// 5
	{"en passant after (0,2,2): the pawn on 3e4 passed 2e3 (M8)",
		"K1a1,P3e4,p3d4,p2f4,k3h8 b - 2e3 - 0 1", []uint64{17, 164, 3035}},
	// 6
	{"white promotions (M9; hand: king 7 + 1g8 1 + 2d8 4+1 + 2c7 1+1+1+4+1 + 3b7 4+1+1 = 27)",
		"K1a1,P1g8,P2d8,P2c7,P3b7,k3h5 w - - - 0 1", []uint64{27, 291, 9678}},
	// 7
	{"black promotions (M9), the mirror of the above: 27",
		"K1h4,p1b2,p2c2,p2d1,p3g1,k3a8 b - - - 0 1", []uint64{27, 291, 9678}},
	// 8
	{"pawn steps and blocked two-steps (M7; hand: king 7 + 1e3, 2e2, 1e4, 3e2 = 11)",
		"K1a1,P1e2,n2e3,k3h8 w - - 1e2 0 1", []uint64{11, 253, 4107}},
	// 9
	{"check from level 3: b3c3 over 2d2 (M3, M6)",
		"K1e1,N1c2,R1a2,b3c3,k3h8 w - - - 0 1", []uint64{11, 257, 10884}},
	// 10
	{"pins along 3D lines: N2e2 pinned by q3e3 on (0,1,1), R1e2 free",
		"K1e1,N2e2,R1e2,q3e3,b3g3,k3h8 w - - - 0 1", []uint64{8, 494, 16153}},
	// 11
	{"checkmate from level 2: q2b2 guarded by k3c3",
		"K1a1,q2b2,k3c3 w - - - 0 1", []uint64{0, 0}},
	// 12
	{"stalemate: q1c2 covers level 1, k3b2 level 2",
		"K1a1,q1c2,k3b2 w - - - 0 1", []uint64{0, 0}},
	// 13
	{"middlegame from a seeded random game (30 plies)",
		"B1c1,R1h1,P1c2,P1d2,P1e2,K1f2,P1g2,P1a3,P1f3,P1h4,p1b7,q1c7,p1d7,r2a1,Q2c1,N2d1,N2e1,R2a2,B2e2,P2b3,p2a6,p2e6,p2h6,b2g7,r3h1,p3f5,b3e6,p3c7,p3g7,n3b8,k3e8,n3g8 w - - 1c2,1d2,1e2,1g2,3c7,3g7 1 16",
		[]uint64{136, 19782, 2600429}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftTable {
		p := rulestest.MustParse(t, Parse, tc.pos)
		rulestest.CheckPerft(t, tc.name, p, tc.nodes)
	}
}

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		want rules.Status
	}{
		{perftTable[11].pos, rules.Checkmate},
		{perftTable[12].pos, rules.Stalemate},
		{StartString, rules.Ongoing},
		// D18: Millennium keeps chess's dead positions.
		{"K1a1,k3h8 w - - - 0 1", rules.DeadPosition},
		{"K1a1,B2c3,k3h8 b - - - 0 1", rules.DeadPosition},
		{"K1a1,k3h8,n2d4 w - - - 0 1", rules.DeadPosition},
		{"K1a1,N1b1,k3h8,n2d4 w - - - 0 1", rules.Ongoing},
		{"K1a1,B1b1,k3h8,b2d4 w - - - 0 1", rules.Ongoing},
		{"K1a1,P1b2,k3h8 w - - - 0 1", rules.Ongoing},
		{"K1a1,R1b2,k3h8 w - - - 0 1", rules.Ongoing},
	} {
		if got := rulestest.MustParse(t, Parse, tc.pos).Status(); got != tc.want {
			t.Errorf("%s: status %v, want %v", tc.pos, got, tc.want)
		}
	}
}

// TestPerftReference recomputes the table's figures (up to depth 2, depth 3
// where cheap) with the reference implementation.
func TestPerftReference(t *testing.T) {
	for _, tc := range perftTable[1:] {
		r := refFrom(rulestest.MustParse(t, Parse, tc.pos))
		for i, want := range tc.nodes {
			if i >= 2 && want > 20000 {
				break
			}
			if got := r.perft(i + 1); got != want {
				t.Errorf("%s: reference perft(%d) = %d, table %d", tc.name, i+1, got, want)
			}
		}
	}
}

func BenchmarkPerftStart(b *testing.B) {
	p := StartPosition()
	rulestest.BenchPerft(b, &p, 3)
}

func BenchmarkPerftStart4(b *testing.B) {
	p := StartPosition()
	rulestest.BenchPerft(b, &p, 4)
}

func BenchmarkPerftCastling(b *testing.B) {
	rulestest.BenchPerft(b, rulestest.MustParse(b, Parse, perftTable[1].pos), 4)
}

func BenchmarkLegalMoves(b *testing.B) {
	named := func(name, pos string) rulestest.Named {
		return rulestest.Named{Name: name, Pos: rulestest.MustParse(b, Parse, pos)}
	}
	rulestest.BenchLegalMoves(b, maxMoves, named("start", StartString), named("castling", perftTable[1].pos),
		named("check", perftTable[9].pos), named("pins", perftTable[10].pos))
}
