package recognize

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// Replies at blitz pace: each case is a game BenchmarkHand lost before
// (0 ms replies: the other side lifts in the instant the mover lets go),
// played up to the moment, then the hand's touches as it made them.

// playOpening plays moves the plain way from the start, each settled
// (and pressed for, with ConfirmByPress).
func (r *rig) playOpening(moves ...string) {
	r.t.Helper()
	for _, m := range moves {
		r.play(m)
		if r.rec.Status().State == NeedsChoice {
			evs, err := r.rec.Choose(r.board.Clock.Now(), m[len(m)-1])
			if err != nil {
				r.t.Fatal(err)
			}
			for _, e := range evs {
				r.record(e, r.board.Clock.Now())
			}
		}
		if r.rec.opts.ConfirmByPress {
			r.pressNow()
			r.wait(100 * time.Millisecond)
		}
	}
	r.wantMoves(moves...)
	r.moves, r.log = nil, nil
}

// A press that comes after the other side's whole reply belongs to the
// move the reply's lift completed: it completes nothing (before, it
// completed the next move in progress as a capture whose victim was never
// seen lifted: a ghost).
func TestPressAfterTheWholeReplyIsLate(t *testing.T) {
	opts := DefaultOpts()
	opts.ConfirmByPress = true
	r := newRig(t, st3d.StartString, opts)
	r.playOpening("a1W-b3N", "d8B-c6N", "d2W-d3N", "d7B-d6N", "d1W-c3N")
	r.script("lift d8KL6", "wait 200", "place d6B", "bounce d6B")
	blackLetGo := r.board.Clock.Now()
	r.script("lift d3N", "wait 83", "place d4W", "bounce d4W", "lift c6N") // white's whole reply, black lifts at once
	r.pressAt(blackLetGo.Add(147*time.Millisecond), rules.Black)           // black's press for d8KL6-d6B, late
	r.wait(200 * time.Millisecond)
	r.wantMoves("d8KL6-d6B", "d3N-d4W")
	r.wantState(MoveInProgress)
	r.script("wait 200", "place d4N", "bounce d4N")
	r.pressAt(r.board.Clock.Now().Add(50*time.Millisecond), rules.Black)
	r.wait(200 * time.Millisecond)
	r.wantMoves("d8KL6-d6B", "d3N-d4W", "c6N-d4N")
	if e := r.moveEvents()[2]; e.By != ByPress {
		t.Fatalf("c6N-d4N confirmed by %v, want press", e.By)
	}
}

// A press while the pieces are only lifted (held in the hand) completes
// nothing and is no mismatch; the move is completed by the next press.
func TestPressWhileHoldingIsNothing(t *testing.T) {
	opts := DefaultOpts()
	opts.ConfirmByPress = true
	r := newRig(t, knightPos, opts)
	r.script("lift b1W", "wait 100")
	r.pressNow()
	r.wait(opts.PressGrace + debounce + 3*scanPeriod)
	r.wantState(MoveInProgress)
	r.script("wait 100", "place a3W", "wait 100")
	r.pressNow()
	r.wait(debounce + 2*scanPeriod)
	r.wantMoves("b1W-a3W")
	r.wantState(InSync)
}

// A move the reply's lift completed owes its mover's press only for a
// while: an early press (the piece still in the hand) already paid it, and
// a press more than a second later is for the move on the board. In both,
// the mover's next press completes their next move.
func TestPressOwedForALiftConfirmedMove(t *testing.T) {
	for _, tc := range []struct {
		name        string
		early       bool     // White presses while holding the knight
		first, next []string // the rest of White's move and Black's reply; White's next move
	}{
		{"an early press leaves none owed", true,
			[]string{"wait 150", "place a3W", "lift d9KL6", "wait 150", "place d8KL6", "wait 50"},
			[]string{"wait 50", "lift a3W", "wait 150", "place b5N", "wait 50"}},
		{"a forgotten press loses no later one", false,
			[]string{"wait 50", "place a3W", "wait 200", "lift d9KL6", "wait 150", "place d8KL6", "wait 50"},
			[]string{"wait 700", "lift a3W", "wait 150", "place b5N", "wait 50"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOpts()
			opts.ConfirmByPress = true
			r := newRig(t, knightPos, opts)
			r.script("lift b1W", "wait 100")
			if tc.early {
				r.pressNow() // too early: nothing shows
			}
			r.script(tc.first...)
			r.wantMoves("b1W-a3W") // completed by Black's lift
			r.pressNow()           // Black's press
			r.script(tc.next...)
			r.pressNow()
			r.wait(100 * time.Millisecond)
			r.wantMoves("b1W-a3W", "d9KL6-d8KL6", "a3W-b5N")
			if e := r.moveEvents()[2]; e.By != ByPress {
				t.Fatalf("a3W-b5N confirmed by %v, want press", e.By)
			}
		})
	}
}

// Games BenchmarkHand and BenchmarkTableHand lost before, each pinning a
// rule (docs/design.md lists them), played plainly up to the moment, then
// the hand's lifts and placements as it made them.
func TestBlitzGamesTheBenchmarksLost(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		opening, script, want []string
	}{
		// The reply's lift is read a scan before the mover's placement
		// (contact bounce delays a placement's reading by a scan or so), on a
		// piece the mover's knight could have taken: the recognizer waits to
		// see whether the knight goes on. The next change is the reply put
		// down together with the lift of white's next move: no move of the
		// old position explains it, so the knight's move stands and both go on.
		{"BlitzReplyReadBeforeTheBouncingPlacement",
			[]string{"a2W-a3W", "d8B-c6N", "b1W-a2W", "b7B-b6N", "d1W-c3N", "d7B-d6N", "a3W-a4W", "b6N-b5N",
				"b2W-b4N", "d6N-d5B", "d2W-d4W", "a7B-a6B"},
			[]string{"lift c3N", "wait 312", "lift b5N", "wait 5", "place b5B", "bounce b5B", // black lifts as the knight lands
				"wait 97", "place b4W", "bounce b4W", "lift c2W", // b5N-b4W; white lifts at once
				"wait 294", "place c4W", "bounce c4W"},
			[]string{"c3N-b5B", "b5N-b4W", "c2W-c4W"}},
		// As above, but the next change also lifts again the piece the waiting
		// move put down (the queen moves on as black's next move, in the instant
		// white's knight lands): the new reading is no move of the old position.
		{"BlitzReplyThenTheSamePieceAgain",
			[]string{"a1W-b3N", "a7B-a6B", "d2W-d4N", "c7B-c6N", "d1W-c3N", "b7B-b5B", "d4N-d5N", "a8QL6-a7B",
				"a2W-a3W", "a8B-b6N", "a3W-a4W", "b6N-d5B", "b3N-c5N", "a7B-a6N", "d1KL1-d3W", "d8B-b7B", "c5N-d7B",
				"a6N-a5B", "c3N-d5B", "b7B-c5N", "d5B-b4W", "c5N-b3W", "a4W-a5N", "c8B-b7B", "c2W-b3W", "b8B-d6N",
				"d7B-b6N", "b5B-b4N", "a1QL1-a2W", "d9KL6-d8B", "a2W-a3W", "a9QL6-b8B", "b4W-c6B", "d8B-d9KL6",
				"b1W-c2W", "b7B-a6N", "c6B-a5B", "a6N-c4N", "c2W-d1W", "c4N-b5N", "a5B-c4N", "d6N-b4W", "a3W-b4N",
				"b8B-b6B", "b4N-b5B", "b4W-c5N", "b5B-a6B", "b6B-a7B", "a0QL1-b1W", "c5N-a3N", "b1W-a1QL1",
				"b5N-a4W", "c4N-b6B"},
			[]string{"lift a7B", "wait 228", "lift b6B", "wait 5", "place c7B", "bounce c7B", // white lifts as the queen lands
				"wait 132", "place d5B", "bounce d5B", "lift c7B", // b6B-d5B; the queen again at once
				"wait 224", "place b8B", "bounce b8B"},
			[]string{"a7B-c7B", "b6B-d5B", "c7B-b8B"}},
		// The reply's lift is read in the same scan as the mover's last
		// placement, and the reply's piece, sliding, closes a square the mover's
		// knight could also have gone to, a scan later: of the two moves the
		// reading then allows, the one complete before the reply's lift is the
		// move (before, the later completion won: a ghost).
		{"BlitzReplySlidesOverATargetOfTheMove",
			[]string{"c2W-c3N", "d8B-c6B", "b1W-c2W", "c6B-a5B", "d2W-d3N", "a8B-b6N", "a2W-a4N", "a5B-c6B",
				"c2W-b3N", "b6N-c4N", "a4N-a5B", "d7B-d5N", "a1W-b3W", "c6B-d4W", "a1QL1-a3N", "c7B-c6N", "b3N-c4N",
				"d4W-c2W", "a0QL1-c2W", "b8B-c7B", "c2W-d2W", "c7B-d8B", "d3N-d4W", "a7B-a5N", "c4N-d5N", "a9QL6-c7B",
				"b2W-b3N", "c7B-c6B", "d5N-c6B", "c8B-d7B", "c6B-a4W", "b7B-b5B", "b3W-c5N", "0-0", "z0QL1-a0QL1",
				"b5B-a4W", "a5B-a6B", "a4W-b3N", "d2W-d3N", "b3N-b2W", "d1KL1-d2W", "c6N-c5B", "d0KL1-d1KL1",
				"b2W-b1W=N", "c1W-d0KL1", "z9QL6-a9QL6", "c5N-a4W", "b1W-a3W", "a6B-a7B"},
			[]string{"lift a3W", "wait 165", "place b1W", "bounce b1W", "wait 60", "lift b1W", "wait 50", "place b1W",
				"bounce b1W", "lift d3N", // the knight lands (wobbling); black's bishop is lifted at once
				"wait 5", "place c4W", "wait 80", "place c4N", "wait 20", "lift c4W", "wait 15", "place b5N", "wait 15",
				"lift c4N", "wait 20", "place b5B", "wait 20", "lift b5N", "wait 55", "place a6N", "bounce a6N", "wait 15",
				"lift b5B"}, // the bishop slides on to a6N
			[]string{"a3W-b1W", "d3N-a6N"}},
		// A capture whose victim is lifted first, the captor set down on the way
		// (200 ms, a legal target) and then on the victim's square, where it
		// rocks: the rock read as the victim's owner lifting their piece again
		// once made the touch-down a move, answered by a capture on it (a ghost).
		// A lift counts as a reply's only if the piece was not first lifted before
		// the move's own lifts, and a piece set down this position that reads open
		// again within Settle/2 is rocking until it has stayed open that long.
		{"CaptureThatRocksOnTheVictimsSquare",
			[]string{"c2W-c4W", "a7B-a6B", "d2W-d4N", "b7B-b6B", "d1W-c3N", "a8QL6-a7B", "0-0", "a9QL6-a8QL6",
				"b1W-c2W", "a7B-a6N", "a2W-a4N", "c7B-c6B", "c4W-c5N", "b8B-a7B", "a4N-a5B", "d7B-d6B", "c3N-d5N",
				"d8KL6-d7B", "d5N-b6N", "d6B-c5N", "a1W-b3N", "0-0-0", "c2W-b3W", "d9KL6-d8KL6", "b3W-d5B", "d8B-b7B",
				"d1KL1-d3W", "b7B-a5B", "b6N-d7B", "c8B-d7B", "a0QL1-a1W", "c6B-c5B", "b3N-a5B", "d7B-c6N", "d3W-d4W",
				"b6B-b5B", "a5B-c4N", "a8B-c7B", "c4N-a5N", "c6N-a8B", "a1W-a3N"},
			[]string{"lift d5B", "wait 55", "lift a8B", "wait 120", "place c6N", "wait 200", "lift c6N", "wait 120",
				"place d5B", "bounce d5B", "wait 55", "lift d5B", "wait 45", "place d5B", "bounce d5B"},
			[]string{"a8B-d5B"}},
		// The same with the captor lifted first and the reply's lift in the
		// instant the rocking piece settles.
		{"CaptureThatRocksThenAQuickReply",
			[]string{"a2W-a3N", "c7B-c6N", "d2W-d4W", "a7B-a5B", "c2W-c3W", "d7B-d6N", "b1W-c2W", "a8B-b6B",
				"c2W-a4W", "c8B-d7B", "b2W-b3N", "c6N-c5B", "d4W-d5B", "a9QL6-a8B", "c1W-a3W", "b8B-d6B", "a4W-d7B",
				"a8B-b8B", "a1W-c2W", "b8B-c8B", "d1KL1-d3W", "0-0", "b3N-b4W", "a8QL6-a6B", "b4W-c5B", "d6B-c5N",
				"d3W-d4N"},
			[]string{"lift c8B", "wait 145", "lift d7B", "wait 45", "place c6B", "wait 140", "lift c6B", "wait 45",
				"place d7B", "bounce d7B", "wait 60", "lift d7B", "wait 50", "place d7B", "bounce d7B", "lift d0KL1",
				"wait 200", "place d1KL1"},
			[]string{"c8B-d7B", "d0KL1-d1KL1"}},
		// A capture made with both hands (captor and victim lifted at once), the
		// captor slid over two squares onto the victim's, the last of them
		// released just after it lands; the recapture lifts the captor 100 ms
		// later. The victim's square, lifted with the move's own lifts, opening
		// again is the recapture's lift of the piece just moved, not a reply to a
		// move to the square passed over (a ghost before).
		{"BothHandsCaptureThenQuickRecapture",
			[]string{"b2W-b4W", "b7B-b5B", "c1W-a3N", "a7B-a6B", "0-0", "0-0", "b4W-b5N", "d8B-c6B", "a2W-a3W",
				"d7B-d6B", "d2W-d3N", "c7B-c6N", "b5N-a6B", "c6B-b4N", "c2W-c4N", "a8B-b6B", "a3N-b4W", "b4N-c6B",
				"a1W-b3N", "b5B-b4N", "d1KL1-d3W", "b6B-d7B"},
			[]string{"lift b4W", "lift d6B", "wait 95", "place c5N", "wait 70", "place c5B", "wait 15", "lift c5N",
				"wait 30", "place d6B", "bounce d6B", "wait 20", "lift c5B", // White's bishop takes on d6B
				"wait 100", "lift d6B", "wait 60", "lift b8B", "wait 175", "place d6B", "bounce d6B"}, // Black retakes
			[]string{"b4W-d6B", "b8B-d6B"}},
		// The knight set down on its way (c4N, 56 ms) and then on its target as
		// Black lifts their rook, the placement bouncing a scan behind the lift:
		// the touch-down square, with the knight lifted again, fits as a move
		// answered by the rook taking on it. Of the two, the one that leaves the
		// reply fewer lifts is the move.
		{"TouchDownThenTargetAsTheReplyBegins",
			[]string{"a1W-b3N", "c7B-c5N", "c2W-c3N", "d7B-d6B", "d2W-d4N", "0-0", "b3N-c5N", "d8B-c6B", "d1W-c3W",
				"b7B-b5B", "c3W-d5N", "c8B-d7B", "c5N-a4W", "d7B-c6N", "a2W-a3W", "c6B-b4W", "b2W-b3N", "b4W-a6N", "0-0",
				"b5B-b4N", "d4N-d5B", "a6N-c5N", "c1W-b2W", "c5N-d3W", "c3N-c4W", "d9KL6-d8B", "d5N-c3W", "c6N-a4W",
				"c3W-d1W", "b4N-a3W", "b2W-c3N", "a4W-b3N", "d1W-c3W", "d8B-d6N", "c3W-d5N", "d6N-c6B", "d5N-b6B",
				"c6B-c5N"},
			[]string{"lift b6B", "wait 42", "place c4N", "wait 56", "lift c4N", "wait 42", "lift c5N", "wait 5",
				"place d5N", "bounce d5N", // the knight lands a scan after Black lifts
				"wait 350", "place b5B", "bounce b5B"},
			[]string{"b6B-d5N", "c5N-b5B"}},
		// A piece the last move set down, read closed in the very reading that
		// completed that move, is not the mover's rocking piece when the next
		// player lifts it: the lift confirms at once. (Waiting for a rock let the
		// reply finish and the next lift begin first: three moves in one reading.)
		{"LiftOfThePieceJustMovedIsNoRock",
			[]string{"c2W-c4N", "c7B-c6N"},
			[]string{"lift b1W", "wait 280", "place d3N", "bounce d3N", "lift a7B", // Black lifts as the bishop lands
				"wait 90", "place a6B", "bounce a6B", "lift d3N", // White lifts it as the pawn lands
				"wait 3", "place c2W", "wait 55", "place b1W", "bounce b1W", "wait 6", "lift c2W", "lift c6N",
				"wait 97", "place c5B", "bounce c5B"},
			[]string{"b1W-d3N", "a7B-a6B", "d3N-b1W", "c6N-c5B"}},
		// Three moves in one change of the reading: the bishop lands as Black
		// lifts (a piece it could have taken, so the recognizer waits to see
		// whether it goes on), and Black's whole reply is put down in the instant
		// White lifts the bishop again. The reply and the next lift now confirm
		// the move they follow.
		{"ReplyAndNextLiftInOneReading",
			[]string{"b2W-b4W", "c7B-c6N", "a1W-b3N", "0-0", "d1W-c3N", "a7B-a6N", "c3N-a4N", "d7B-d5B", "c1W-a3N",
				"d5B-d4W", "b3N-a5N", "d8KL6-d6B", "d0KL1-c1W", "a8B-b6B", "c2W-c4N", "b6B-d7B", "c1W-d0KL1", "d7B-c5B",
				"a3N-b4N", "d6B-d5B", "a4N-b2W", "c8B-d7B", "b2W-c4W", "b8B-d6N", "b1W-d3N", "a9QL6-a8B", "c4W-a3N",
				"a8B-a6B", "a0QL1-b1W", "c5B-a4N"},
			[]string{"lift b4N", "wait 205", "lift d6N", "wait 5", "place c3N", "bounce c3N", // Black lifts as the bishop lands
				"wait 87", "place c5B", "bounce c5B", "lift c3N", // White lifts it as Black's bishop lands
				"wait 151", "place d4N", "wait 49", "lift d4N", "wait 152", "place a1W", "bounce a1W"},
			[]string{"b4N-c3N", "d6N-c5B", "c3N-a1W"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, st3d.StartString, DefaultOpts())
			r.playOpening(tc.opening...)
			r.script(tc.script...)
			r.wait(time.Second)
			r.wantMoves(tc.want...)
			r.wantState(InSync)
		})
	}
}
