package firstcontact

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// perftTable: the figures were established by this engine and agree, at
// every node to depth 2 (depth 3 for the smaller ones, unless -short), with
// the independent reference in reference_test.go. Where the name says
// "hand", depth 1 was counted by hand (decisions_test.go spells most of
// those lists out); the placement phase is hand-counted to depth 4.
type perftCase struct {
	name  string
	pos   string
	up    bool // UpOnly
	nodes []uint64
}

var perftTable = []perftCase{
	{"start (hand: 24, 24*23, 24*23*22, 24*23*22*21 placements)",
		StartString, false, []uint64{24, 552, 12144, 255024}},
	{"start, UpOnly (hand: 12*11*10*9 placements, then 16 king placements)",
		StartString, true, []uint64{12, 132, 1320, 11880, 190080}},
	{"White's king placement (hand: 16, 16*16)",
		"QL3u:-,QL3d:-,KL1u:-,KL6d:- - w - - - 0 3 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", false, []uint64{16, 256, 23344}},
	{"first move after the placements (hand: 75 introductions, 6 king moves, 10 inversions)",
		"QL3u:-,QL3d:-,KL1u:-,KL6d:- Kc1W,kb8B w - - - 0 4 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", false, []uint64{91, 8167, 720069}},
	{"vertical rook line through QL2u and QL5d, F2 (hand: 9 rook, 5 king, 12 inversions)",
		"QL2u:-,QL5d:-,KL1u:-,KL6u:- Ra4W,Kd1W,kd8B w - - - 0 10 -/- -", false, []uint64{26, 386, 7852, 100363}},
	{"knight W to N through an occupied platform cell, F3 (hand: 5 knight, 3 pawn, 5 king, 13 platform)",
		"QL3d:-,KL1u:-,KL2u:-,KL6u:- Na3W,Pa3QL3d,Kd1W,kd8B,nb6N w - - - 0 10 -/- -", false, []uint64{26, 404, 9074, 130290}},
	{"knights onto platforms, introductions",
		"QL1u:-,QL2u:-,QL1d:-,KL6u:- Na3W,Kd1W,kd8B,nc5B w - - - 0 10 N/n -", false, []uint64{31, 908, 22658}},
	{"pawn platform and the move ban, F4 (hand: 2 pawn, 4 platform with it, 5 king, 3 inversions)",
		"QL3u:-,KL1u:-,KL2u:-,KL6u:- Pa2QL3u,Kd1W,pe8KL6u,kd8B w - - - 0 10 -/- KL1u", false, []uint64{14, 192, 2785, 33735}},
	{"check wins; a pinned rook (hand: 2 rook, 2 king, 12 inversions)",
		far + " Ka1W,Ra2W,ra4W,kb4W w - - - 0 20 -/- -", false, []uint64{16, 191, 1904, 19286}},
	{"stalemate, F5", far + " Ka1W,bc2W,kb3W,pa4QL5u,pa8QL6u,pd8KL6u w - - - 0 40 -/- KL5u", false, []uint64{0, 0}},
	{"the side to move is in check: lost", far + " Ka1W,Ra4W,kb4W b - - - 0 20 -/- -", false, []uint64{0, 0}},
	{"a platform may not open a line to its own king (hand: 5 king, 11 platform; not QL1d-QL2u)",
		"QL1d:-,KL5u:-,KL6u:-,QL6u:- Ka4N,ra4W,kd8B w - - - 0 10 -/- -", false, []uint64{16, 323, 4249, 80012}},
	{"a platform move that opens a line gives check (hand: 2 pawn, 6 rook, 5 king, 11 platform)",
		"QL1u:-,QL3u:-,KL6u:-,QL6u:- Kd2W,Ra4W,Pz1QL1u,ka4N w - - - 0 10 -/- -", false, []uint64{24, 314, 6925, 81365}},
	{"middlegame from a random game",
		"QL3d:-,KL1d:-,KL3u:-,KL4u:- Pa2W,Nb2W,Pd2W,Qa3W,Rc3W,Pc4W,Bd4W,pa5B,pb5B,pc5B,pa6B,rb6B,nc6B,pd6B,na7B,bb7B,pc7B,qa8B,rb8B,pd8B,Na2QL3d,Ba3QL3d,Ke0KL1d,Rd1KL1d,be6KL4u,ke7KL4u b - - - 0 35 PPPPP/p QL3d",
		false, []uint64{23, 919, 19209, 749134}},
	{"crowded random position, kings on W and N",
		"QL1u:-,QL1d:-,QL2u:-,QL5u:- kb2W,pc2W,nd2W,Kb4N,Na6B,Pc7B,pa8B,na0QL1u b - - - 17 3 BPPPPP/bppp QL1u",
		false, []uint64{51, 2435, 95427}},
}

func (tc perftCase) position(t testing.TB) *Position {
	if tc.up {
		return mustParseUp(t, tc.pos)
	}
	return rulestest.MustParse(t, Parse, tc.pos)
}

func TestPerft(t *testing.T) {
	for _, tc := range perftTable {
		p := tc.position(t)
		rulestest.CheckPerft(t, tc.name, p, tc.nodes)
	}
}

// TestDivide keeps rules.Divide in step with Perft.
func TestDivide(t *testing.T) {
	p := rulestest.MustParse(t, Parse, perftTable[8].pos)
	var total uint64
	for _, e := range rules.Divide(p, 3) {
		total += e.Nodes
	}
	if total != perftTable[8].nodes[2] {
		t.Errorf("divide total %d, perft %d", total, perftTable[8].nodes[2])
	}
}

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		want rules.Status
	}{
		{StartString, rules.Ongoing},
		{perftTable[3].pos, rules.Ongoing},
		{perftTable[9].pos, rules.Stalemate},
		{perftTable[10].pos, rules.Checkmate}, // giving check has won
		{perftTable[13].pos, rules.Ongoing},
	} {
		if got := rulestest.MustParse(t, Parse, tc.pos).Status(); got != tc.want {
			t.Errorf("%s: status %v, want %v", tc.pos, got, tc.want)
		}
	}
}

func benchPerft(b *testing.B, pos string, depth int) {
	rulestest.BenchPerft(b, rulestest.MustParse(b, Parse, pos), depth)
}

func BenchmarkPerftStart(b *testing.B)      { benchPerft(b, StartString, 5) }
func BenchmarkPerftFirstMove(b *testing.B)  { benchPerft(b, perftTable[3].pos, 3) }
func BenchmarkPerftMiddlegame(b *testing.B) { benchPerft(b, perftTable[13].pos, 3) }
func BenchmarkPerftCrowded(b *testing.B)    { benchPerft(b, perftTable[14].pos, 3) }

func BenchmarkLegalMoves(b *testing.B) {
	named := func(name, pos string) rulestest.Named {
		return rulestest.Named{Name: name, Pos: rulestest.MustParse(b, Parse, pos)}
	}
	rulestest.BenchLegalMoves(b, maxMoves, named("first-move", perftTable[3].pos),
		named("middlegame", perftTable[13].pos), named("crowded", perftTable[14].pos))
}
