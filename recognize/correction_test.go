package recognize

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sim"
)

// A change of mind (issue 21): a move the settle window completed stays
// open to its mover's correction until the other side acts or
// Opts.Correction passes. Lifting the same piece again and putting it on
// another legal square replaces the move (one Corrected event; the record
// never holds the withdrawn move); on the same square it stands; back
// where it came from it is taken back. The other side's lift, the time,
// a press, or corrections off (touch-move) leave the first move standing.
func TestChangeOfMind(t *testing.T) {
	off := DefaultOpts()
	off.Correction = 0
	for _, tc := range []struct {
		name        string
		pos         string
		opts        Opts
		script      []string
		want        []string
		corrections int
		state       State
	}{
		{"another legal square", knightPos, DefaultOpts(),
			[]string{"lift b1W", "wait 100", "place c3W", "wait 700", "lift c3W", "wait 150", "place a3W", "wait 600",
				"lift d9KL6", "wait 100", "place d8KL6"},
			[]string{"b1W-a3W", "d9KL6-d8KL6"}, 1, InSync},
		{"the reply at once after it", knightPos, DefaultOpts(),
			[]string{"lift b1W", "wait 100", "place c3W", "wait 500", "lift c3W", "wait 150", "place a3W", "wait 60",
				"lift d9KL6", "wait 100", "place d8KL6"},
			[]string{"b1W-a3W", "d9KL6-d8KL6"}, 1, InSync},
		{"back on the same square", knightPos, DefaultOpts(),
			[]string{"lift b1W", "wait 100", "place c3W", "wait 700", "lift c3W", "wait 300", "place c3W"},
			[]string{"b1W-c3W"}, 0, InSync},
		{"back where it came from", knightPos, DefaultOpts(),
			[]string{"lift b1W", "wait 100", "place c3W", "wait 700", "lift c3W", "wait 150", "place b1W"},
			[]string{"b1W-c3W", "takeback"}, 0, InSync},
		{"a recapture lifts the piece just moved first", recapturePos, DefaultOpts(),
			[]string{"lift b1W", "wait 100", "place c3W", "wait 700", "lift c3W", "wait 100", "lift b4N", "wait 100",
				"place c3W"},
			[]string{"b1W-c3W", "b4N-c3W"}, 0, InSync},
		{"after the other side's lift", knightPos, DefaultOpts(),
			[]string{"lift b1W", "wait 100", "place c3W", "wait 700", "lift d9KL6", "wait 100", "place d9KL6",
				"wait 100", "lift c3W", "wait 150", "place a3W"},
			[]string{"b1W-c3W"}, 0, Mismatch},
		{"after the correction time", knightPos, DefaultOpts(),
			[]string{"lift b1W", "wait 100", "place c3W", wait(DefaultOpts().Correction + 500*time.Millisecond),
				"lift c3W", "wait 150", "place a3W"},
			[]string{"b1W-c3W"}, 0, Mismatch},
		{"touch-move: corrections off", knightPos, off,
			[]string{"lift b1W", "wait 100", "place c3W", "wait 700", "lift c3W", "wait 150", "place a3W"},
			[]string{"b1W-c3W"}, 0, Mismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.pos, tc.opts)
			r.script(tc.script...)
			r.wait(tc.opts.MismatchAfter + time.Second)
			r.wantMoves(tc.want...)
			if r.corrections != tc.corrections {
				t.Fatalf("%d corrections, want %d (%v)", r.corrections, tc.corrections, r.log)
			}
			r.wantState(tc.state)
		})
	}
}

// learnerRest is how long LearnerHand rests on the square it does not
// mean: longer than any settle window, so every such rest on a legal
// square is a move the settle window completes, then corrected.
var learnerRest = sim.Span{Min: 400 * time.Millisecond, Max: 800 * time.Millisecond}

// Random legal games played by a hand that, in one move of four, rests
// 400-800 ms on another legal square of the piece, then goes on (issue 21):
// every game's record equals the moves intended, no mismatch, no stall,
// by settling and by a press, replies from 0 to 600 ms.
// (BenchmarkHandChangeOfMind does the same at length.)
func TestRandomGamesWithChangesOfMind(t *testing.T) {
	for _, byPress := range []bool{false, true} {
		opts := DefaultOpts()
		opts.ConfirmByPress = byPress
		st := handStats{latency: map[Confirmation][]time.Duration{}}
		corrections := 0
		for g := 0; g < 6; g++ {
			h := sim.LearnerHand(rand.New(rand.NewSource(int64(300+g))), learnerRest, 0)
			h.Reply = sim.Span{Max: 600 * time.Millisecond}
			corrections += playHandGame(t, st3d.System, opts, h, sim.Span{Min: 30 * time.Millisecond, Max: 150 * time.Millisecond}, 40, &st)
		}
		if st.ghosts+st.misses+st.mismatches+st.tails > 0 || st.moves < 100 {
			t.Fatalf("press %v: %d moves, %d ghosts, %d misses, %d mismatches, %d tails: %s", byPress, st.moves, st.ghosts,
				st.misses, st.mismatches, st.tails, st.first)
		}
		if !byPress && corrections < 10 {
			t.Fatalf("only %d corrections in %d moves: the hand did not change its mind", corrections, st.moves)
		}
		if st.silent > opts.MismatchAfter {
			t.Fatalf("press %v: silent for %v after a move", byPress, st.silent)
		}
	}
}

// BenchmarkHandChangeOfMind plays random legal games (one per iteration)
// with sim.LearnerHand (a rest of 400-800 ms on another legal square in
// one move of four) through the simulated set, the scanner and the
// recognizer, and reports the ghosts, misses, mismatches, stalls and the
// corrections made. Run:
//
//	go test ./recognize -run - -bench HandChangeOfMind -benchtime 100x
func BenchmarkHandChangeOfMind(b *testing.B) {
	for _, name := range []string{"st3d", "st3d+V.A1,V.A2,V.A3"} {
		sys, err := systems.ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, byPress := range []bool{false, true} {
			for _, reply := range []time.Duration{0, 280, 1000} {
				confirm := "settle"
				if byPress {
					confirm = "press"
				}
				b.Run(fmt.Sprintf("%s/%s/reply=%dms", name, confirm, reply), func(b *testing.B) {
					opts := DefaultOpts()
					opts.ConfirmByPress = byPress
					st := handStats{latency: map[Confirmation][]time.Duration{}}
					corrections := 0
					for i := 0; i < b.N; i++ {
						h := sim.LearnerHand(rand.New(rand.NewSource(int64(i))), learnerRest, reply*time.Millisecond)
						corrections += playHandGame(b, sys, opts, h, sim.Span{Min: 30 * time.Millisecond, Max: 150 * time.Millisecond}, 60, &st)
					}
					reportHand(b, &st)
					b.ReportMetric(float64(corrections), "corrections")
					if st.first != "" {
						b.Log(st.first)
					}
				})
			}
		}
	}
}

// changeOfMind finds a position of sys's game, its first legal move
// played until there is one, with a piece of the side to move that has two
// quiet moves (from one square to another, correctable): the cells from,
// first and then, and the two moves' long forms.
func changeOfMind(t *testing.T, sys rules.System) (pos rules.Position, from, first, then, firstLong, thenLong string) {
	t.Helper()
	names := sys.Cells()
	for pos = sys.Start(); ; {
		byFrom := map[rules.Cell][]rules.Move{}
		legal := pos.LegalMoves(nil)
		for _, m := range legal {
			in := pos.Info(m)
			if correctable(in) && in.Captured == rules.NoCell {
				byFrom[in.From] = append(byFrom[in.From], m)
			}
		}
		best := rules.NoCell
		for c, ms := range byFrom {
			if len(ms) >= 2 && (best == rules.NoCell || c < best) {
				best = c
			}
		}
		if best != rules.NoCell {
			a, b := byFrom[best][0], byFrom[best][1]
			return pos, names[best], names[pos.Info(a).To], names[pos.Info(b).To], pos.Long(a), pos.Long(b)
		}
		if len(legal) == 0 || pos.FullmoveNumber() > 40 {
			t.Fatalf("%s: no piece with two quiet moves", pos)
		}
		pos = pos.Play(legal[0])
	}
}

// A change of mind read in one scan (issue 33): the moved piece lifted
// again and put on another legal square so quickly (3 ms, or together)
// that one reading holds both the lift and the new placement. The move
// is corrected as when a scan comes between, in every system: recognition
// does not depend on the scan's timing.
func TestChangeOfMindInOneScan(t *testing.T) {
	for _, name := range systems.Names() {
		sys, err := systems.Lookup(name, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, gap := range []string{"", "wait 3", "wait 150"} {
			t.Run(fmt.Sprintf("%s %q", name, gap), func(t *testing.T) {
				pos, from, first, then, firstLong, thenLong := changeOfMind(t, sys)
				r := newRigAt(t, pos, DefaultOpts())
				script := []string{"lift " + from, "wait 100", "place " + first, "wait 700", "lift " + first}
				if gap != "" {
					script = append(script, gap)
				}
				r.script(append(script, "place "+then, "wait 700")...)
				r.wait(DefaultOpts().MismatchAfter + time.Second)
				// One Corrected event: the record holds the new move alone.
				r.wantMoves(thenLong)
				var kinds []string
				for _, e := range r.log {
					switch e.Kind {
					case Moved, Corrected:
						kinds = append(kinds, fmt.Sprintf("%s %s", e.Kind, e.Before.Long(e.Move)))
					}
				}
				if got, want := fmt.Sprint(kinds), fmt.Sprintf("[moved %s corrected %s]", firstLong, thenLong); got != want {
					t.Fatalf("events %s, want %s (%v)", got, want, r.log)
				}
				r.wantState(InSync)
			})
		}
	}
}
