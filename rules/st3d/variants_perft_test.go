package st3d

import "testing"

// optPerftTable: positions built for every option and for every kind of
// 3D Chess960 castling. Depth 1 of each was counted by hand as the comment
// says; the deeper figures were established by this engine (the reference
// implementation plays the tournament rules only) and agree with the
// per-option tests and the random-game property test.
var optPerftTable = []struct {
	opts, name, pos string // pos "": the options' start position
	nodes           []uint64
}{
	{"V.A1", "direction rule (king 8 incl. a2QL3, knight z2QL3 6, boards 4: QL3-QL2/QL4/KL3 occupied forward or sideways, QL5-KL5 empty sideways; QL1, KL1 and QL5's forward pins barred)",
		"QL1:w,QL3:w,QL5:w,KL1:w,KL6:b Kb1W,Nz2QL3,kc8B w - - - 0 10", []uint64{18, 143, 2765, 23548}},
	{"V.A2", "turns (king 6, rook a0QL1 18, pawn z8QL6 4 promotions, boards QL1-QL2/QL3 and KL1-KL2/KL3, turns QL1@ and QL6@=Q/R/B/N)",
		"QL1:w,QL6:b,KL1:w,KL6:b Kb1W,Ra0QL1,Pz8QL6,kc6N w - - - 0 10", []uint64{37, 507, 18037, 214029}},
	{"V.A2,V.A2.1", "two squares (king 8, knight 6, QL3-QL2, QL5-QL4, KL1-KL3, turn QL3@)",
		"QL1:w,QL3:w,QL5:w,KL1:w,KL6:b Kb1W,Nz2QL3,kc8B w - - - 0 10", []uint64{18, 144, 2880, 25260}},
	{"V.A3", "promotion to a board (a7B and d7B 5 each with =A, king 7, QL1 2, KL1 2)",
		"QL1:w,KL1:w Kb1W,Pa7B,Pd7B,kc5N w - - - 0 30", []uint64{21, 310, 7222, 79808}},
	{"V.A3", "deferred promotion to a board (D10's 23 and QL6-QL4=A, QL6-QL5=A)",
		"QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30", []uint64{25, 156, 3938, 33625}},
	{"V.A4", "neutral boards, start (20 and e1KL1-e2KL3, e1KL1-e3KL3, d1KL1-d2KL3, d2W-d3KL3, d1W-e3KL3, c1W-d2KL3)",
		"", []uint64{26, 676, 20468, 619246}},
	{"V.A5", "Dayson boards (king 8, pawn z2QL3 1, knight d1KL1 3, pawn d6KL4 2, QL3-QL5; KL1 carries a knight, KL4 is Black's)",
		"QL1:w,QL3:w,QL6:b,KL1:w,KL4:b,KL6:b Kb1W,Pz2QL3,Nd1KL1,Pd6KL4,kc8B w - - - 0 10", []uint64{15, 120, 1990, 17550}},
	{"V.A2,V.A5", "V7 turns (king 12, pawn z0QL1 1, QL1-QL3 with the pawn, KL1-KL3, QL1@ z0 -> a1; Black's z9QL6 -> a8QL6 later)",
		"QL1:w,QL6:b,KL1:w,KL6:b Kb2W,kc7B,Pz0QL1,pz9QL6 w - - - 0 10", []uint64{16, 256, 3536, 49039}},
	{"V.A3,V.A4", "six boards and =A (king 7, a7B 2 with QL6 standing, d7B 5 with =A onto KL6, QL1-QL2/QL3, KL1-KL2)",
		"QL1:w,QL4:n,QL6:b,KL1:w,KL3:n,KL5:b Kb1W,Pd7B,Pa7B,kc5N w - - - 0 30", []uint64{17, 367, 7092, 123130}},
	{"V.P1", "start (pawns 16, knights b1W and c1W 4 each, bishops shut in)", "", []uint64{24, 576, 15080, 394224}},
	{"V.P2", "start (pawns 16, knights 2 each; no castling)", "", []uint64{20, 400, 8888, 197032}},
	{"V.P5:0", "start BBQNNRKR (pawns 16, knights 4 each)", "", []uint64{24, 576, 15368}},
	{"V.P5:409", "double-move castling, e side (king 5, rook b1W 14, rook d1W 15, 0-0, boards 4; 0-0-0 blocked by the rook on d1W)",
		b960 + "Rb1W,Kc1W,Rd1W,kc8B w b1W,d1W - - 0 5", []uint64{39, 203, 8209, 68241}},
	{"V.P5:409", "double-move castling, both sides (king 6, rook b1W 14, rook e0KL1 3 along rank 0, 0-0, 0-0-0, QL1 2)",
		b960 + "Rb1W,Kc1W,Re0KL1,Pe1KL1,kc8B w b1W,e0KL1 - - 0 5", []uint64{27, 235, 6596, 67599}},
	{"V.P5:409", "transposition castling, both sides, White (king 3, rook a0QL1 3, pawn a2W 2, 0-0, 0-0-0, QL1 2)",
		b960 + "Ra0QL1,Pa2W,Kd0KL1,Re0KL1,Pe1KL1,ra9QL6,pa7B,kd9KL6,re9KL6,pe8KL6 w a0QL1,e0KL1,a9QL6,e9KL6 - - 0 5", []uint64{12, 122, 1695, 24324}},
	{"V.P5:409", "transposition castling, both sides, Black (the mirror: 12)",
		b960 + "Ra0QL1,Pa2W,Kd0KL1,Re0KL1,Pe1KL1,ra9QL6,pa7B,kd9KL6,re9KL6,pe8KL6 b a0QL1,e0KL1,a9QL6,e9KL6 - - 0 5", []uint64{12, 122, 1695, 24324}},
	{"V.P5:409", "king-only castling, Black (king 6, rook d9KL6 18, 0-0, QL6 2, KL6 2)",
		b960 + "Kb1W,kc8B,rd9KL6 b d9KL6 - - 0 5", []uint64{29, 295, 7985, 86214}},
	{"V.P5:409", "rook-only castling, White (king 4, rook z0QL1 3, 0-0-0, KL1 2)",
		b960 + "Rz0QL1,Ka0QL1,kc8B w z0QL1 - - 0 5", []uint64{10, 96, 1389, 15539}},
	{"V.P5:409", "rook-only castling, Black (king 4, rook z9QL6 3, 0-0-0, KL6 2)",
		b960 + "Kb1W,rz9QL6,ka9QL6 b z9QL6 - - 0 5", []uint64{10, 100, 1489, 16337}},
	{"V.P6", "placement (8 bishop squares; Black 8, then 4 of the other colour; White 4 + 7; 4*6 + 4*3 + 3*4 = 48 each)",
		"", []uint64{8, 64, 256, 2816, 12288}},
}

func TestOptionsPerft(t *testing.T) {
	for _, tc := range optPerftTable {
		var p *Position
		if tc.pos == "" {
			p = optStart(t, tc.opts)
		} else {
			p = optParse(t, tc.opts, tc.pos)
		}
		before := p.String()
		for i, want := range tc.nodes {
			if got := p.Perft(i + 1); got != want {
				t.Errorf("%s %s: perft(%d) = %d, want %d", tc.opts, tc.name, i+1, got, want)
			}
		}
		if got := p.String(); got != before {
			t.Errorf("%s: perft changed the position to %s", tc.name, got)
		}
	}
}
