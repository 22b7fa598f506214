package st3d

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// perftTable: the start position's figures are docs/rules.md's; the others were
// established by this engine and agree with the independent reference
// implementation in reference_test.go. Depth 1 of each was also counted by
// hand where the comment says so.
var perftTable = []struct {
	name  string
	pos   string
	nodes []uint64
}{
	{"start (docs/rules.md)", StartString, []uint64{20, 400, 9128, 207888, 5083984}},
	{"both castlings, White (hand-counted: 3 king, 4 rook, 2 castlings, 2 board moves)",
		"QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 5", []uint64{11, 84, 1032, 13530}},
	{"both castlings, Black",
		"QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rz9QL6,kd9KL6,re9KL6 b KQkq - - 0 5", []uint64{11, 84, 1032, 13530}},
	{"en passant onto W or N (hand-counted: 5 king, 4 pawn, 4 board moves)",
		"QL1:w,QL6:b,KL1:w,KL6:b Pb4W,pc4N,Kd0KL1,kd9KL6 b - b4W - 0 10", []uint64{13, 136, 1696, 20651}},
	{"en passant of a pawn on N, two capturers",
		"QL1:w,QL6:b,KL1:w,KL6:b Pb4N,pc4N,pa4W,Kd0KL1,kd9KL6 b - b4N - 0 10", []uint64{17, 176, 2459, 29678}},
	{"white promotions on files a (with QL6), b, d (without KL6), z",
		"QL1:w,QL6:b,KL1:w Kb1W,kc5N,Pa7B,Pb7B,Pd7B,Pz8QL6 w - - - 0 30", []uint64{26, 382, 10676, 121486}},
	{"black promotions on files a (without QL1), b, e",
		"QL6:b,KL1:w,KL6:b Kd4N,pa2W,pb2W,pe1KL1,kd9KL6 b - - - 0 30", []uint64{21, 204, 5042, 53912}},
	{"deferred promotion of the mover's pawn (D10)",
		"QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30", []uint64{23, 142, 3543, 29754}},
	{"deferred promotion of the opponent's pawn (D10)",
		"QL1:w,QL6:b,KL1:w,KL6:b pa1W,Kd3N,kd9KL6 w - - - 0 30", []uint64{12, 195, 2461, 54805}},
	{"deferred promotion barred by the knight rule (D10)",
		"QL1:w,QL6:b,KL1:w,KL6:b pa1W,Kb3W,kd9KL6 w - - - 0 30", []uint64{15, 193, 2721, 46376}},
	{"board move out of check (D15)",
		"QL1:w,QL6:b,KL6:b Ka1QL1,ra5N,kd9KL6 w - - - 0 10", []uint64{6, 172, 1115, 30859}},
	{"carried pawn (D7)",
		"QL1:w,QL6:b,KL1:w,KL6:b Pz1QL1,Kb1W,kc8B w - - z1QL1 0 10", []uint64{11, 121, 1415, 17792}},
	{"middlegame from a random game",
		"QL1:w,QL6:b,KL1:w,KL6:b Qa1W,Bb1W,Pa2W,Pd2W,pa3W,Na4W,bc4W,Nb3N,Pc6N,pd6N,pa5B,pd5B,Pc6B,pc7B,na8B,bb8B,kc8B,Rz0QL1,Pz1QL1,Pa1QL1,pz8QL6,pa8QL6,rz9QL6,qa9QL6,Kd0KL1,Re0KL1,Pd1KL1,Pe1KL1,pe8KL6,re9KL6 w KQ d6N a2W,d2W,c7B,z1QL1,a1QL1,z8QL6,a8QL6,d1KL1,e1KL1,e8KL6 0 16",
		[]uint64{36, 798, 27208, 645879}},
	{"checkmate: the rook on d9KL6 mates over the d-file",
		"QL5:w,QL6:b,KL1:w,KL6:b Kd1W,ba3W,pb3W,pz8QL6,kz9QL6,Re0KL1,Pe1KL1,pe8KL6,rd9KL6 w - - z8QL6,e1KL1,e8KL6 2 38", []uint64{0, 0}},
	{"stalemate: kings on one column, d3W and d3KL3",
		"QL4:w,KL2:w,KL3:b,KL6:b Kd3W,ra6QL4,pe5KL2,kd3KL3 w - - - 6 57", []uint64{0, 0}},
	{"two pawns on one column (D17)",
		"QL1:w,QL6:b,KL1:w,KL6:b Pa4W,Pa4N,Kd0KL1,kd9KL6 w - - - 0 10", []uint64{13, 116, 1734, 19804}},
	{"blocking across levels (D5)",
		"QL1:w,QL6:b,KL1:w,KL6:b Ra1W,Kd0KL1,na3N,kd9KL6 w - - - 0 10", []uint64{19, 266, 5629, 91970}},
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
		{perftTable[13].pos, rules.Checkmate},
		{perftTable[14].pos, rules.Stalemate},
		{StartString, rules.Ongoing},
		{"QL1:w Kb2W,kc7B w - - - 0 10", rules.DeadPosition},
		{"QL1:w Kb2W,Bc2W,kc7B w - - - 0 10", rules.Ongoing},      // D18: K+B v K is not dead
		{"QL1:w Kb2W,kc7B,nd4N w - - - 0 10", rules.Ongoing},      // nor K+N v K
		{"QL1:w Kb2W,Ba1W,kc7B,bc3N w - - - 0 10", rules.Ongoing}, // nor bishops on one colour
		{"QL1:w Kb2W,Ba1W,kc7B,bb3N w - - - 0 10", rules.Ongoing},
		{"QL1:w Kb2W,Nc2W,kc7B,nd4N w - - - 0 10", rules.Ongoing},
		{"QL1:w Kb2W,Pa2W,kc7B w - - - 0 10", rules.Ongoing},
	} {
		if got := rulestest.MustParse(t, Parse, tc.pos).Status(); got != tc.want {
			t.Errorf("%s: status %v, want %v", tc.pos, got, tc.want)
		}
	}
}

func BenchmarkPerftStart(b *testing.B) {
	p := StartPosition()
	rulestest.BenchPerft(b, &p, 4)
}

func BenchmarkPerftMiddlegame(b *testing.B) {
	rulestest.BenchPerft(b, rulestest.MustParse(b, Parse, perftTable[12].pos), 3)
}

func BenchmarkLegalMoves(b *testing.B) {
	named := func(name, pos string) rulestest.Named {
		return rulestest.Named{Name: name, Pos: rulestest.MustParse(b, Parse, pos)}
	}
	rulestest.BenchLegalMoves(b, maxMoves, named("start", StartString),
		named("middlegame", perftTable[12].pos), named("check", perftTable[10].pos))
}

// TestPerftAllocations: make/unmake and the bulk count allocate nothing
// per node; Perft allocates its copy and its buffers once.
func TestPerftAllocations(t *testing.T) {
	rulestest.CheckPerftAllocs(t, rulestest.MustParse(t, Parse, perftTable[12].pos), 3)
}
