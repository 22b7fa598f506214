package explain

import (
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/systems"
)

// far puts First Contact's four platforms up at B's corners.
const far = "QL5u:-,QL6u:-,KL5u:-,KL6u:-"

func TestExplain(t *testing.T) {
	for _, tc := range []struct {
		name, variant, options, pos string
		from, to                    string
		reason                      Reason
		rule                        string
		culprits                    []string
		text                        string
		lit                         []string // cells lit besides from, to and the culprits
	}{
		// st3d
		{"st3d pinned rook", "st3d", "",
			// The black rook on b4N looks down file b over the empty column
			// b3 at the king on b1W; only the rook on b2W stands between,
			// on column b2 (D4: attacks are by column, across levels).
			"QL1:w,KL6:b Kb1W,Rb2W,rb4N,kc8B w - - - 0 30", "b2W", "c2W",
			KingInCheck, "", []string{"b4N"}, "Your king on b1W would be in check from the rook on b4N.", []string{"b1W"}},
		{"st3d blocked on another level", "st3d", "",
			// The rook b1W climbs file b to b6B; the pawn on b4N, on
			// neither the start's level nor the target's, blocks (D5).
			"QL1:w,KL6:b Kd1W,Rb1W,pb4N,kc8B w - - - 0 30", "b1W", "b6B",
			Blocked, "D5", []string{"b4N"}, "The line from b1W to b6B is blocked on another level by the pawn on b4N (D5).", nil},
		{"st3d square missing", "st3d", "",
			// A knight's leap from b1W to column z2, whose only squares are
			// on QL3's board, which is not there (D1).
			"", "b1W", "z2QL3", NoSquare, "D1", nil, "z2QL3 does not exist: no attack board stands on QL3 (D1).", nil},
		{"st3d board with two pieces", "st3d", "",
			"", "QL1", "QL3", BoardRule, "3.6", nil, "holds more than one piece", []string{"z0QL1", "a0QL1", "z1QL1", "a1QL1"}},
		{"st3d board not adjacent", "st3d", "",
			// The empty white board on QL2 may go to QL1, QL3, QL4 or KL2;
			// QL5 is three pins away (D13).
			"QL2:w,QL6:b Kb1W,kc8B w - - - 0 30", "QL2", "QL5", BoardRule, "D13", nil, "QL5 is not adjacent to QL2", nil},
		{"st3d occupied board backward", "st3d", "",
			// The board on QL4 carries White's pawn: it may go forward or
			// sideways, not back to QL2 (D13).
			"QL4:w,QL6:b Kb1W,Pz6QL4,kc8B w - - - 0 30", "QL4", "QL2", BoardRule, "D13", nil,
			"an occupied board moves only forward or sideways", []string{"z6QL4"}},
		{"st3d board of the other side", "st3d", "",
			// The board on QL4 carries a black pawn: Black controls it (D12).
			"QL4:w,QL6:b Kb1W,pz7QL4,kc8B w - - - 0 30", "QL4", "QL2", OtherSide, "D12", nil,
			"carries a black piece, so only black may move it", []string{"z7QL4"}},
		{"st3d board move opens the d file", "st3d", "",
			// The pawn on d5KL2 is all that stands between the rook d8B and
			// the king d3W on file d; the board going sideways to QL2 takes
			// it off the file (D15).
			"QL6:b,KL2:w Kd3W,Pd5KL2,rd8B,kz9QL6 w - - - 0 30", "KL2", "QL2", KingInCheck, "D15", []string{"d8B"},
			"Moving the board would leave your king on d3W in check from the rook on d8B (D15).", []string{"d3W", "d5KL2"}},
		{"st3d Peters: empty board forward", "st3d", "V.A1",
			// Under V.A1 an empty board moves only backward or sideways.
			"QL2:w,QL6:b Kb1W,kc8B w - - - 0 30", "QL2", "QL4", BoardRule, "V.A1", nil, "an empty board moves only backward or sideways", nil},
		{"st3d neutral board", "st3d", "V.A4",
			"QL1:w,KL1:w,QL6:b,KL6:b,QL4:n,KL3:n Kb1W,kc8B w - - - 0 30", "QL4", "QL6", BoardRule, "V.A4", nil, "is neutral", nil},
		{"st3d other side", "st3d", "", "", "b7B", "b6B", OtherSide, "", nil, "It is white's move: the pawn on b7B is black's.", nil},
		{"st3d not like that", "st3d", "", "", "c1W", "c3W", NotLikeThat, "", nil, "A bishop does not move from c1W to c3W.", nil},
		{"st3d own piece", "st3d", "", "", "a1W", "c2W", OwnPiece, "", nil, "c2W holds your own pawn.", nil},
		{"st3d legal", "st3d", "", "", "b2W", "b4W", Legal, "", nil, "b2W to b4W is legal.", nil},
		// Millennium
		{"millennium pinned rook", "millennium", "",
			// The rook 1e8 looks down file e of level 1 at the king 1e1;
			// the rook 1e2 leaving the file opens it (M2).
			"K1e1,R1e2,r1e8,k3e8 w - - - 0 30", "1e2", "1d2", KingInCheck, "", []string{"1e8"},
			"Your king on 1e1 would be in check from the rook on 1e8.", []string{"1e1"}},
		{"millennium blocked on another level", "millennium", "",
			// 1a1-3a3 is a rook's vertical diagonal (0,n,n) through 2a2
			// (M2, M6), where White's pawn stands.
			"K1e1,R1a1,P2a2,k3e8 w - - - 0 30", "1a1", "3a3", Blocked, "M6", []string{"2a2"},
			"The line from 1a1 to 3a3 is blocked on another level by the pawn on 2a2 (M6).", nil},
		{"millennium blocked", "millennium", "", "", "1a1", "1a3", Blocked, "M6", []string{"1a2"}, "blocked by the pawn on 1a2", nil},
		{"millennium other side", "millennium", "", "", "3a7", "3a6", OtherSide, "", nil, "the pawn on 3a7 is black's", nil},
		{"millennium own piece", "millennium", "", "", "1d1", "1d2", OwnPiece, "", nil, "1d2 holds your own pawn.", nil},
		{"millennium no piece", "millennium", "", "", "2d4", "2d5", NoPiece, "", nil, "There is no piece on 2d4.", nil},
		{"millennium legal", "millennium", "", "", "1e2", "2e3", Legal, "", nil, "1e2 to 2e3 is legal.", nil},
		{"millennium not like that", "millennium", "", "", "1b1", "1b3", NotLikeThat, "", nil, "A knight does not move from 1b1 to 1b3.", nil},
		// First Contact
		{"first contact pinned rook", "first-contact", "",
			// decisions_test's position: the rook a2W shields the king a1W
			// from the rook a4W.
			far + " Ka1W,Ra2W,ra4W,kb4W w - - - 0 20 -/- -", "a2W", "b2W", KingInCheck, "", []string{"a4W"},
			"Your king on a1W would be in check from the rook on a4W.", []string{"a1W"}},
		{"first contact no platform", "first-contact", "",
			// No platform stands at QL1u, so z0QL1u is not there (F1).
			far + " Ka1W,kd8B w - - - 0 20 -/- -", "a1W", "z0QL1u", NoSquare, "F1", nil, "no platform stands at QL1u", nil},
		{"first contact blocked", "first-contact", "",
			far + " Ka1W,Rc1W,pc3W,kd8B w - - - 0 20 -/- -", "c1W", "c4W", Blocked, "F2", []string{"c3W"},
			"The line from c1W to c4W is blocked by the pawn on c3W (F2).", nil},
		{"first contact empty platform shifts", "first-contact", "",
			// An empty platform only inverts (F4): QL5u may go to QL5d,
			// QL6d or KL5d, not upright to QL3u.
			far + " Ka1W,kd8B w - - - 0 20 -/- -", "QL5u", "QL3u", BoardRule, "F4", nil, "an empty one only inverts", nil},
		{"first contact other side", "first-contact", "",
			far + " Ka1W,kd8B w - - - 0 20 -/- -", "d8B", "d7B", OtherSide, "", nil, "the king on d8B is black's", nil},
		{"first contact own piece", "first-contact", "",
			far + " Ka1W,Rc1W,pc3W,kd8B w - - - 0 20 -/- -", "c1W", "a1W", OwnPiece, "", nil, "a1W holds your own king.", nil},
		{"first contact no piece", "first-contact", "",
			far + " Ka1W,kd8B w - - - 0 20 -/- -", "b2W", "b3W", NoPiece, "", nil, "There is no piece on b2W.", nil},
		{"first contact legal platform inversion", "first-contact", "",
			far + " Ka1W,kd8B w - - - 0 20 -/- -", "QL5u", "QL5d", Legal, "", nil, "QL5u to QL5d is legal.", nil},
		{"first contact not like that", "first-contact", "",
			far + " Ka1W,kd8B w - - - 0 20 -/- -", "a1W", "a3W", NotLikeThat, "", nil, "A king does not move from a1W to a3W.", nil},
	} {
		sys, err := systems.Lookup(tc.variant, tc.options)
		if err != nil {
			t.Fatal(err)
		}
		p := sys.Start()
		if tc.pos != "" {
			if p, err = sys.ParsePosition(tc.pos); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		from, ok1 := rules.CellByName(sys, tc.from)
		to, ok2 := rules.CellByName(sys, tc.to)
		if !ok1 || !ok2 {
			t.Fatalf("%s: cells %s, %s", tc.name, tc.from, tc.to)
		}
		e := Explain(p, from, to)
		var culprits []string
		for _, c := range e.Culprits {
			culprits = append(culprits, sys.Cells()[c])
		}
		want := rules.CellSetOf(from, to)
		for _, n := range append(append([]string(nil), tc.culprits...), tc.lit...) {
			c, _ := rules.CellByName(sys, n)
			want.Add(c)
		}
		if e.Reason != tc.reason || e.Rule != tc.rule || !slices.Equal(culprits, tc.culprits) || !strings.Contains(e.Text, tc.text) || e.Cells != want {
			t.Errorf("%s: %v %q %v %q lit %v;\n want %v %q %v %q lit %v", tc.name, e.Reason, e.Rule, culprits, e.Text, e.Cells.Names(sys.Cells()),
				tc.reason, tc.rule, tc.culprits, tc.text, want.Names(sys.Cells()))
		}
	}
}

// TestExplainAgreesWithLegal: every pair of cells of random positions of each
// system gets an explanation, and Legal exactly for the legal moves.
func TestExplainAgreesWithLegal(t *testing.T) {
	for _, name := range []string{"st3d", "millennium", "first-contact"} {
		sys, _ := systems.Lookup(name, "")
		p := sys.Start()
		for ply := 0; ply < 12; ply++ {
			legal := map[[2]rules.Cell]bool{}
			ms := p.LegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			for _, m := range ms {
				in := p.Info(m)
				legal[[2]rules.Cell{in.From, in.To}] = true
			}
			occ := p.Occupancy().Cells(nil)
			for _, f := range occ {
				for to := range len(sys.Cells()) {
					e := Explain(p, f, rules.Cell(to))
					if (e.Reason == Legal) != legal[[2]rules.Cell{f, rules.Cell(to)}] || e.Text == "" {
						t.Fatalf("%s %s: %s-%s: %v %q", name, p, sys.Cells()[f], sys.Cells()[to], e.Reason, e.Text)
					}
				}
			}
			p = p.Play(ms[(ply*7)%len(ms)])
		}
	}
}

// Every attack-board rule a move breaks is said, the most telling first,
// not only the first the rules check (3.6, D12, D13 of the spec; Article
// 3.6 of the tournament rules). At the start of a game every board holds
// several pieces, and a learner moving one far, or the opponent's, is told
// both what is wrong with the board and with the move.
func TestBoardMoveReasons(t *testing.T) {
	for _, tc := range []struct {
		name, pos, from, to string
		reason              Reason
		rules               []string
		text                string
	}{
		{"3.6 and D13: QL1 to QL5 at the start", "", "QL1", "QL5", BoardRule, []string{"3.6", "D13"},
			"The board on QL1 may not go to QL5: it holds more than one piece, and a board moves with at most one (3.6); " +
				"and QL5 is not adjacent to QL1; adjacent pins are on the same side 1 or 2 numbers apart, or across with the same number (D13)."},
		{"D12 and 3.6: Black's board on White's turn", "", "QL6", "QL4", OtherSide, []string{"D12", "3.6"},
			"It is white's move: the board on QL6 carries black's pieces, so it is not white's to move (D12); " +
				"and it holds more than one piece, and a board moves with at most one (3.6)."},
		{"D12: an empty board of Black's marking", "QL2:w,QL5:b,QL6:b Kb1W,kc8B w - - - 0 30", "QL5", "QL3", OtherSide, []string{"D12"},
			"It is white's move: the board on QL5 is empty and marked black, so only black may move it (D12)."},
		{"D12 only: the direction is the mover's", "QL4:w,QL6:b Kb1W,pz7QL4,kc8B w - - - 0 30", "QL4", "QL2", OtherSide, []string{"D12"},
			"It is white's move: the board on QL4 carries a black piece, so only black may move it (D12)."},
		{"D13: a pin holding a board", "QL2:w,QL4:w,QL6:b Kb1W,kc8B w - - - 0 30", "QL2", "QL4", BoardRule, []string{"D13"},
			"The board on QL2 may not go to QL4: a board may only go to a free pin, and QL4 holds one (D13)."},
		{"3.6 and D13: two pieces of both sides, backward", "QL2:w,QL6:b Kb1W,Pz4QL2,pa5QL2,kc8B w - - - 0 30", "QL2", "QL1",
			BoardRule, []string{"3.6", "D13"},
			"The board on QL2 may not go to QL1: it holds more than one piece, and a board moves with at most one (3.6); " +
				"and an occupied board moves only forward or sideways (D13)."},
		{"D13 twice: a taken pin too far", "QL1:w,QL5:w,QL6:b Kb1W,kc8B w - - - 0 30", "QL1", "QL5", BoardRule, []string{"D13", "D13"},
			"The board on QL1 may not go to QL5: a board may only go to a free pin, and QL5 holds one (D13); " +
				"and QL5 is not adjacent to QL1; adjacent pins are on the same side 1 or 2 numbers apart, or across with the same number (D13)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, _ := systems.Lookup("st3d", "")
			p := sys.Start()
			if tc.pos != "" {
				var err error
				if p, err = sys.ParsePosition(tc.pos); err != nil {
					t.Fatal(err)
				}
			}
			from, _ := rules.CellByName(sys, tc.from)
			to, _ := rules.CellByName(sys, tc.to)
			e := Explain(p, from, to)
			if e.Reason != tc.reason || e.Rule != tc.rules[0] || !slices.Equal(e.Rules, tc.rules) || e.Text != tc.text {
				t.Errorf("%v %q %v\n%q\nwant %v %v\n%q", e.Reason, e.Rule, e.Rules, e.Text, tc.reason, tc.rules, tc.text)
			}
		})
	}
}

// The board rules say nothing against exactly the board moves the rules
// generate (3.6, D12-D14 and the options' V.A1-V.A5): no board move is
// refused without a reason, and none is given a reason it does not break.
func TestBoardMoveRulesAgreeWithTheMoves(t *testing.T) {
	for _, options := range []string{"", "V.A1", "V.A2.1", "V.A5", "V.A1,V.A4"} {
		sys, err := systems.Lookup("st3d", options)
		if err != nil {
			t.Fatal(err)
		}
		p := sys.Start()
		for ply := 0; ply < 40; ply++ {
			sp := p.(*st3d.Position)
			moved := map[[2]rules.Cell]bool{}
			for _, m := range sp.PseudoMoves(nil) {
				in := p.Info(m)
				moved[[2]rules.Cell{in.From, in.To}] = true
			}
			for q := st3d.Pin(0); q < st3d.NumPins; q++ {
				if present, _ := sp.HasBoard(q); !present {
					continue
				}
				for o := st3d.Pin(0); o < st3d.NumPins; o++ {
					from, to := rules.Cell(st3d.NumSquares+int(q)), rules.Cell(st3d.NumSquares+int(o))
					broken := sp.BoardMoveRules(q, o)
					if (len(broken) == 0) != moved[[2]rules.Cell{from, to}] {
						t.Fatalf("%q %s: %s-%s: rules broken %v, a move of the rules %v", options, p, q, o, broken, moved[[2]rules.Cell{from, to}])
					}
				}
			}
			ms := p.LegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[(ply*13+5)%len(ms)])
		}
	}
}
