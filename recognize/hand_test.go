package recognize

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sim"
)

const (
	knightPos = "QL1:w,QL6:b,KL1:w,KL6:b Nb1W,Kd0KL1,kd9KL6 w - - - 0 10"
	// recapturePos: after b1W-c3W the black pawn b4N can take on c3W.
	recapturePos = "QL1:w,QL6:b,KL1:w,KL6:b Nb1W,pb4N,Kd0KL1,kd9KL6 w - - - 0 10"
	// oneVictimPos: a1W can capture b3N and nothing else.
	oneVictimPos = "QL1:w,QL6:b,KL1:w,KL6:b Na1W,pb3N,Kd0KL1,kd9KL6 w - - - 0 10"
)

// debounce is the sensors' window the rig scans with.
var debounce = sensors.DefaultOpts().Debounce

func wait(d time.Duration) string { return fmt.Sprintf("wait %d", d.Milliseconds()) }

// A piece set down on a legal target for less than the settle window, on
// its way, is never a move (issue 12: touch-downs of 60-200 ms gave ghost
// moves with the old 60 ms window).
func TestTouchDownOnALegalTargetIsNoMove(t *testing.T) {
	for _, d := range []time.Duration{60 * time.Millisecond, 120 * time.Millisecond, 200 * time.Millisecond, 290 * time.Millisecond} {
		t.Run(d.String(), func(t *testing.T) {
			r := newRig(t, knightPos, DefaultOpts())
			r.script("lift b1W", "wait 100", "place c3W", wait(d), "lift c3W", "wait 100", "place a3W")
			r.wait(time.Second)
			r.wantMoves("b1W-a3W")
			r.wantState(InSync)
			for _, e := range r.log {
				if e.Kind == StatusChanged && e.Status.State == Mismatch {
					t.Fatalf("mismatch on the way: %+v", e.Status)
				}
			}
		})
	}
}

// A touch-down longer than the settle window is a move; with corrections
// off (touch-move), the next placement then explains nothing and becomes a
// mismatch whose hint says how to take the wrong move back, and putting
// the position before it back does.
func TestWrongMoveIsTakenBackFromTheMismatch(t *testing.T) {
	opts := DefaultOpts()
	opts.Correction = 0
	r := newRig(t, knightPos, opts)
	r.script("lift b1W", "wait 100", "place c3W", "wait 400", "lift c3W", "wait 100", "place a3W")
	r.wait(DefaultOpts().MismatchAfter + 200*time.Millisecond)
	r.wantMoves("b1W-c3W")
	r.wantState(Mismatch)
	st := r.rec.Status()
	want := "put back the white knight on c3W; take away what stands on a3W. If b1W-c3W was recognized wrongly, " +
		"putting back the position before it takes it back"
	if st.Instruction != want || strings.Join(names(st.Fix), " ") != "a3W c3W" {
		t.Fatalf("fix %v, hint %q, want a3W c3W, %q", names(st.Fix), st.Instruction, want)
	}
	r.script("lift a3W", "wait 100", "place b1W")
	r.wait(time.Second)
	r.wantMoves("b1W-c3W", "takeback")
	r.wantState(InSync)
	r.play("b1W-a3W")
	r.wantMoves("b1W-c3W", "takeback", "b1W-a3W")
}

// The next player lifting one of their pieces confirms the move at once,
// however soon after the placement (0 ms: in the same scan); the reply is
// then recognized from that lift on. CompletedAt is the reading of the last
// placement, At Opts.Skew after the reading of the lift (a late placement
// could still change the story).
func TestNextPlayersLiftConfirms(t *testing.T) {
	for _, pause := range []time.Duration{0, 50 * time.Millisecond, 280 * time.Millisecond, time.Second} {
		t.Run(pause.String(), func(t *testing.T) {
			r := newRig(t, knightPos, DefaultOpts())
			r.script("lift b1W", "wait 150", "place a3W")
			placed := r.board.Clock.Now()
			r.script(wait(pause), "lift d9KL6")
			lifted := r.board.Clock.Now()
			r.script("wait 150", "place d8KL6")
			r.wait(time.Second)
			r.wantMoves("b1W-a3W", "d9KL6-d8KL6")
			e := r.moveEvents()[0]
			wantBy := ByLift
			if pause > DefaultOpts().Settle+debounce+scanPeriod {
				wantBy = BySettle
			}
			if e.By != wantBy {
				t.Fatalf("confirmed by %v, want %v", e.By, wantBy)
			}
			if c := e.CompletedAt.Sub(placed); c < debounce || c > debounce+scanPeriod {
				t.Fatalf("completed %v after the placement, want the debounce and at most a scan", c)
			}
			if wantBy == ByLift {
				if a := e.At.Sub(lifted); a < debounce+DefaultOpts().Skew || a > debounce+DefaultOpts().Skew+2*scanPeriod {
					t.Fatalf("decided %v after the lift, want the debounce, Opts.Skew and at most two scans", a)
				}
			}
		})
	}
}

func (r *rig) moveEvents() []Event {
	var out []Event
	for _, e := range r.log {
		if e.Kind == Moved {
			out = append(out, e)
		}
	}
	return out
}

// A recapture that lifts the piece just moved first, then its own piece,
// confirms the move it answers.
func TestRecaptureVictimFirstConfirms(t *testing.T) {
	r := newRig(t, recapturePos, DefaultOpts())
	r.script("lift b1W", "wait 150", "place c3W", "wait 100", "lift c3W", "wait 100", "lift b4N", "wait 100", "place c3W")
	r.wait(time.Second)
	r.wantMoves("b1W-c3W", "b4N-c3W")
	if e := r.moveEvents()[0]; e.By != ByLift {
		t.Fatalf("confirmed by %v, want lift", e.By)
	}
}

// A capture whose victim is swapped for the captor faster than the
// debounce never shows the victim's square open: the reading looks like a
// piece in the hand, so settling cannot tell it (no ghost, no mismatch),
// but the next player's lift or a press completes it.
func TestVictimSwappedWithinTheDebounce(t *testing.T) {
	swap := []string{"lift a1W", "wait 200", "lift b3N", "wait 10", "place b3N"}
	t.Run("alone it waits", func(t *testing.T) {
		r := newRig(t, oneVictimPos, DefaultOpts())
		r.script(swap...)
		r.wait(3 * time.Second)
		r.wantMoves()
		r.wantState(MoveInProgress)
	})
	t.Run("the next lift completes it", func(t *testing.T) {
		r := newRig(t, oneVictimPos, DefaultOpts())
		r.script(swap...)
		r.script("wait 500", "lift d9KL6", "wait 100", "place d8KL6")
		r.wait(time.Second)
		r.wantMoves("a1W-b3N", "d9KL6-d8KL6")
	})
	t.Run("a press completes it", func(t *testing.T) {
		r := newRig(t, oneVictimPos, DefaultOpts())
		r.script(swap...)
		r.wait(200 * time.Millisecond)
		r.pressNow()
		r.wait(100 * time.Millisecond)
		r.wantMoves("a1W-b3N")
		if e := r.moveEvents()[0]; e.By != ByPress {
			t.Fatalf("confirmed by %v, want press", e.By)
		}
	})
}

// pressNow presses the clock button of the side to move: the rig confirms
// once its debounce has passed.
func (r *rig) pressNow() { r.pressAt(r.board.Clock.Now(), r.rec.Position().Turn()) }

// Captures, castlings and slides as hands make them.
func TestHandsAtOnceAndSlides(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pos    string
		script []string
		want   []string
	}{
		{"kingside castling with both hands", castlePos,
			[]string{"lift d0KL1", "lift e0KL1", "wait 150", "place d0KL1", "place e0KL1"}, []string{"0-0"}},
		{"queenside castling with both hands", castlePos,
			[]string{"lift d0KL1", "lift z0QL1", "wait 150", "place a0QL1", "place d0KL1"}, []string{"0-0-0"}},
		{"queenside castling, rook first, one hand", castlePos,
			[]string{"lift z0QL1", "wait 100", "place a0QL1", "wait 200", "lift d0KL1", "wait 100", "place d0KL1"}, []string{"0-0-0"}},
		{"capture with both hands", capturePos,
			[]string{"lift a1W", "lift b3N", "wait 200", "place b3N"}, []string{"a1W-b3N"}},
		{"slide through the line, squares overlapping", rookPos,
			[]string{"lift a1W", "wait 20", "place a2W", "wait 60", "place a3W", "wait 10", "lift a2W", "wait 60",
				"place a4N", "wait 10", "lift a3W"}, []string{"a1W-a4N"}},
		{"slide, then a pause shorter than the window on the way", rookPos,
			[]string{"lift a1W", "wait 20", "place a2W", "wait 60", "place a3W", "wait 10", "lift a2W", "wait 350",
				"place a4N", "wait 10", "lift a3W"}, []string{"a1W-a4N"}},
		{"wobble: the placed piece rocks past the debounce", st3d.StartString,
			[]string{"lift b2W", "wait 150", "place b3W", "bounce b3W", "wait 40", "lift b3W", "wait 50", "place b3W",
				"bounce b3W"}, []string{"b2W-b3W"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.pos, DefaultOpts())
			r.script(tc.script...)
			r.wait(time.Second)
			r.wantMoves(tc.want...)
			r.wantState(InSync)
		})
	}
}

// Readings no legal move explains become a mismatch within MismatchAfter of
// the first of them, even while cells keep changing (issue 12: the old
// timer restarted on every change and never fired).
func TestNoSilentStallWhileCellsChange(t *testing.T) {
	r := newRig(t, st3d.StartString, DefaultOpts())
	r.script("lift b2W", "wait 100", "place b5N") // no pawn move
	first := r.board.Clock.Now().Add(debounce)
	for i := 0; i < 15; i++ {
		r.script("wait 100", "lift c2W", "wait 100", "place c2W")
	}
	var at time.Time
	for _, e := range r.log {
		if e.Kind == StatusChanged && e.Status.State == Mismatch {
			at = e.At
			break
		}
	}
	limit := DefaultOpts().MismatchAfter + 2*scanPeriod
	if at.IsZero() || at.Sub(first) > limit || at.Sub(first) < DefaultOpts().MismatchAfter {
		t.Fatalf("mismatch at %v after the first unexplained reading, want within %v (log %v)", at.Sub(first), limit, r.log)
	}
	r.wantMoves()
}

// A piece lifted that no legal move moves or captures, held: a mismatch
// after the bound, naming it.
func TestLiftNoMoveExplains(t *testing.T) {
	r := newRig(t, st3d.StartString, DefaultOpts())
	r.script("lift a8B") // black's piece: no white move touches it
	r.wait(DefaultOpts().MismatchAfter + 100*time.Millisecond)
	r.wantState(Mismatch)
	if got := r.rec.Status().Instruction; got != "put back the black knight on a8B" {
		t.Fatalf("hint %q", got)
	}
	// A piece in the hand that can move is a move in progress, however long.
	r = newRig(t, st3d.StartString, DefaultOpts())
	r.script("lift b2W")
	r.wait(10 * time.Second)
	r.wantState(MoveInProgress)
}

// With ConfirmByPress, settling never completes a move: the press does
// (after the debounce of the button), or the next player's lift. The move
// shown is Ready at once and Held, waiting for the press, once it has
// stood the settle window.
func TestConfirmByPress(t *testing.T) {
	opts := DefaultOpts()
	opts.ConfirmByPress = true
	r := newRig(t, knightPos, opts)
	r.script("lift b1W", "wait 150", "place a3W")
	placed := r.board.Clock.Now()
	r.wait(3 * time.Second)
	r.wantMoves()
	if st := r.rec.Status(); st.State != MoveInProgress || !st.Ready || !st.Held {
		t.Fatalf("status %+v, want a ready move in progress held for the press", st)
	}
	var ready, held []time.Duration // when each status came, after the placement
	for _, e := range r.log {
		switch {
		case e.Kind != StatusChanged:
		case e.Status.Held:
			held = append(held, e.At.Sub(placed))
		case e.Status.Ready:
			ready = append(ready, e.At.Sub(placed))
		}
	}
	if len(ready) != 1 || len(held) != 1 || ready[0] > debounce+scanPeriod ||
		held[0] < opts.Settle || held[0] > opts.Settle+debounce+2*scanPeriod {
		t.Fatalf("ready at %v, held at %v: want ready at the placement, held once it stood %v", ready, held, opts.Settle)
	}
	r.pressNow()
	pressed := r.board.Clock.Now()
	r.wait(100 * time.Millisecond)
	r.wantMoves("b1W-a3W")
	if st := r.rec.Status(); st.Ready || st.Held {
		t.Fatalf("status after the press %+v", st)
	}
	e := r.moveEvents()[0]
	if e.By != ByPress || e.CompletedAt.Sub(placed) > debounce+scanPeriod || e.At.Sub(pressed) > debounce+scanPeriod {
		t.Fatalf("event %v by %v completed +%v decided +%v", e, e.By, e.CompletedAt.Sub(placed), e.At.Sub(pressed))
	}
	// The reply, confirmed by the lift of white's next move.
	r.script("wait 500", "lift d9KL6", "wait 100", "place d8KL6", "wait 500", "lift a3W")
	r.wait(debounce + DefaultOpts().Skew + 2*scanPeriod)
	r.wantMoves("b1W-a3W", "d9KL6-d8KL6")
	if e := r.moveEvents()[1]; e.By != ByLift {
		t.Fatalf("reply confirmed by %v, want lift", e.By)
	}
}

// A press that beats the last placement's debounce waits for it; a press
// on a reading no move explains is a mismatch at once (after the grace).
func TestPressBeforeTheReadingAndOnNonsense(t *testing.T) {
	opts := DefaultOpts()
	opts.ConfirmByPress = true
	r := newRig(t, knightPos, opts)
	r.script("lift b1W", "wait 150")
	r.pressNow()
	r.script("wait 20", "place a3W") // the hand lets go 20 ms after the press
	r.wait(200 * time.Millisecond)
	r.wantMoves("b1W-a3W")

	r = newRig(t, st3d.StartString, opts)
	r.script("lift b2W", "wait 150", "place b5N", "wait 100")
	r.pressNow()
	r.wait(debounce + opts.PressGrace + 2*scanPeriod)
	r.wantState(Mismatch)
	if got := r.rec.Status().Reason; got != "the clock was pressed, but no legal move leads to this" {
		t.Fatalf("reason %q", got)
	}
}

// A late press, by the side whose move the other's lift already completed,
// changes nothing.
func TestLatePressIsIgnored(t *testing.T) {
	opts := DefaultOpts()
	opts.ConfirmByPress = true
	r := newRig(t, knightPos, opts)
	r.script("lift b1W", "wait 150", "place a3W", "wait 50", "lift d9KL6", "wait 60")
	r.wantMoves("b1W-a3W")
	r.pressAt(r.board.Clock.Now(), rules.White)
	r.wait(opts.PressGrace + debounce + 2*scanPeriod)
	r.wantMoves("b1W-a3W")
	r.wantState(MoveInProgress)
}

// Random legal games played by the hand model (touch-downs up to 200 ms,
// replies from 0 ms to 600 ms, slides, wobble, both hands, fast swaps)
// through the simulated set, the scanner and the recognizer: no ghost, no
// missed move, no mismatch, with moves completed by settling or by a
// press. (BenchmarkHand does the same at length.)
func TestRandomGamesWithTheHand(t *testing.T) {
	for _, byPress := range []bool{false, true} {
		opts := DefaultOpts()
		opts.ConfirmByPress = byPress
		st := handStats{latency: map[Confirmation][]time.Duration{}}
		for g := 0; g < 6; g++ {
			h := benchHand(rand.New(rand.NewSource(int64(100+g))), 200*time.Millisecond, 0)
			h.Reply = sim.Span{Max: 600 * time.Millisecond}
			playHandGame(t, st3d.System, opts, h, sim.Span{Min: 30 * time.Millisecond, Max: 150 * time.Millisecond}, 40, &st)
		}
		if st.ghosts+st.misses+st.mismatches > 0 || st.moves < 100 {
			t.Fatalf("press %v: %d moves, %d ghosts, %d misses, %d mismatches: %s", byPress, st.moves, st.ghosts, st.misses,
				st.mismatches, st.first)
		}
		if st.unexplained > opts.MismatchAfter {
			t.Fatalf("press %v: unexplained readings for %v, beyond the bound", byPress, st.unexplained)
		}
	}
}
