package engine

import (
	"context"
	"testing"
)

// mateCases are hand-built mates in one and two for each system; mates
// (the rules core, every line) confirms each is a mate in exactly n.
var mateCases = []struct {
	name string
	sys  system
	pos  string
	n    int
}{
	// st3d's reference board-move mate: KL4-KL6 carries the rook from
	// e7KL4 to e9KL6 (D14), checking z9QL6 along rank 9 over the voids b9
	// and c9 (D5); the king's own pawns fill z8QL6, a8QL6 and a8B, and
	// a9QL6 is on the rook's line.
	{"st3d board move", system{"st3d", ""}, "QL6:b,KL4:w Kb2W,pa8B,Re7KL4,pz8QL6,pa8QL6,kz9QL6 w - - - 0 60", 1},
	// The same net with the rook already on KL6: e8KL6-e9KL6.
	{"st3d rook", system{"st3d", ""}, "QL6:b,KL6:w Kb2W,pa8B,pz8QL6,pa8QL6,kz9QL6,Re8KL6 w - - - 0 60", 1},
	// Meder's options V.A1 (an occupied board moves forward or sideways)
	// and V.A2 keep KL4-KL6, a forward move: the same mate.
	{"st3d V.A1,V.A2", system{"st3d", "V.A1,V.A2"}, "QL6:b,KL4:w Kb2W,pa8B,Re7KL4,pz8QL6,pa8QL6,kz9QL6 w - - - 0 60", 1},
	// Under V.A5 (Dayson) a board carries only its owner's pawn: the rook
	// stays on KL4 and there is no mate in one (n 0).
	{"st3d V.A5", system{"st3d", "V.A5"}, "QL6:b,KL4:w Kb2W,pa8B,Re7KL4,pz8QL6,pa8QL6,kz9QL6 w - - - 0 60", 0},
	// Two board moves: KL2-KL4 carries the rook from e5KL2 to e7KL4
	// (D14) and threatens KL4-KL6, the mate above. Without the pawn a8B
	// the king has more room, but the knight b6N guards column a8 (a8B)
	// and the knight c6N column b8, the flight from a9QL6. Black's king
	// can only step to a9QL6, its pawns only step down: mate next move.
	{"st3d two board moves", system{"st3d", ""}, "QL6:b,KL2:w Kb2W,Re5KL2,pz8QL6,pa8QL6,kz9QL6,Nb6N,Nc6N w - - - 0 60", 2},
	// Millennium: the rook 3h1 climbs file h of level 3 to 3h8; the king
	// 3a8's own pawns fill 3a7, 3b7, 2a7, 2b7, and 3b8 is on the new rook's
	// rank while 2a8 and 2b8 are on the rook 2h8's (M2).
	{"millennium rook", system{"millennium", ""}, "K1e1,R2h8,R3h1,p2a7,p2b7,p3a7,p3b7,k3a8 w - - - 0 40", 1},
	// The rook from 1b1 cannot reach the king's lines at once; 1b1-1b8
	// threatens 1b8-2a8, a vertical diagonal (M2) onto the cell under the
	// king, guarded by 2h8 along rank 8, from where it also covers 3b8 and
	// 2b8. Black's pawns only step away from rank 8 and its king has no
	// flight: mate next move whatever Black plays.
	{"millennium rook lift", system{"millennium", ""}, "K1e1,R2h8,R1b1,p2a7,p2b7,p3a7,p3b7,k3a8 w - - - 0 40", 2},
	// First Contact: giving check wins; the rook d2W reaches rank 4 (d4W)
	// or file b (b2W), both lines to the king b4W.
	{"first contact check", system{"first-contact", ""}, far + " Ka1W,Rd2W,kb4W w - - - 0 20 -/- -", 1},
	{"first contact up only", system{"first-contact-up", ""}, far + " Ka1W,Rd2W,kb4W w - - - 0 20 -/- -", 1},
	// No check is possible now: the queen on the platform KL6u reaches B
	// only by its triagonal step down to d8B, and no line of the rook on
	// a8QL6u meets b7B. From d8B the queen slides along rank 8, file d and
	// the diagonals of B: wherever Black's king goes (a7B, a6B, c6B), or
	// if Black moves its pawn d7B or inverts an empty platform instead,
	// the queen (or the rook dropping to a8B) checks it next move, and
	// giving check wins.
	{"first contact queen", system{"first-contact", ""}, far + " kb7B,pd7B,Ra8QL6u,Kz9QL6u,Qe9KL6u w - - - 0 20 -/- -", 2},
}

const far = "QL5u:-,QL6u:-,KL5u:-,KL6u:-"

func TestMates(t *testing.T) {
	for _, tc := range mateCases {
		p := parse(t, tc.sys, tc.pos)
		if tc.n == 0 {
			if mates(p, 1) {
				t.Errorf("%s: a mate in one", tc.name)
			}
			if r, _ := Search(context.Background(), p, Opts{Depth: 3}); r.Score.IsMate() {
				t.Errorf("%s: the engine sees %v", tc.name, r.Score)
			}
			continue
		}
		if !mates(p, tc.n) || tc.n > 1 && mates(p, tc.n-1) {
			t.Fatalf("%s: not a mate in exactly %d", tc.name, tc.n)
		}
		r, err := Search(context.Background(), p, Opts{Nodes: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		if r.Score.MateIn() != tc.n || !legal(p, r.Move) || !matedAfter(p.Play(r.Move), tc.n) {
			t.Errorf("%s: %s, %v (depth %d, %d nodes); want a move that mates in %d", tc.name, p.Long(r.Move), r.Score, r.Depth, r.Nodes, tc.n)
		}
	}
}
