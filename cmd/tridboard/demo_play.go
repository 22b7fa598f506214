package main

// Playing the demo's game on the simulated set: a hand's gestures at the
// demo's pace, the clock's taps and the choices' buttons.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/printsink"
)

// playDemo makes the built-in game's moves by hand on the simulated set and
// waits for each to be published. With a clock, Black's press starts it
// and each move is completed by its mover's press.
func playDemo(ctx context.Context, d *daemon, out io.Writer, demoGame []string, pause time.Duration, onClock bool, got <-chan struct{}) bool {
	style := sim.PlainStyle
	style.Pause = pause
	tap := func(button string) bool {
		if err := doAction(ctx, d.board.Set, sim.Action{Op: sim.OpTap, Button: button, Wait: sim.DefaultTap}); err != nil {
			fmt.Fprintf(out, "demo: tap %s: %v\n", button, err)
			return false
		}
		return sleep(ctx, pause)
	}
	if onClock {
		fmt.Fprintln(out, "hand: tap clock_black (Black starts White's clock)")
		// A press the set did not see (the machine too busy to scan for
		// the whole tap) is pressed again, as a player would.
		started := func() bool { c := d.tb.Snapshot().Clock; return c != nil && c.Running != "" }
		if !pressUntil(ctx, tap, clockButton(rules.Black), started) {
			fmt.Fprintln(out, "demo: the clock did not start at Black's press")
			return false
		}
	}
	for i, long := range demoGame {
		// The game as the table has it: each move is made from the
		// position its journal holds, not from a copy kept here.
		pos := d.tb.Snapshot().Position
		m, _, err := pos.ParseMove(long)
		if err != nil {
			fmt.Fprintf(out, "demo: move %d %s: %v\n", i+1, long, err)
			return false
		}
		gestures := sim.Gestures(pos, m, style)
		var hand []string
		for _, a := range gestures {
			if a.Op != sim.OpWait {
				hand = append(hand, a.String())
			}
		}
		if onClock {
			hand = append(hand, "tap "+clockButton(pos.Turn()))
		}
		fmt.Fprintf(out, "hand: %s\n", strings.Join(hand, ", "))
		for _, a := range gestures {
			if a.Op == sim.OpWait {
				if !sleep(ctx, a.Wait) {
					return false
				}
				continue
			}
			if err := d.board.Set.Do(a); err != nil {
				fmt.Fprintf(out, "demo: %s: %v\n", a, err)
				return false
			}
		}
		completed := func() bool { return lastMoveIs(d, long) || d.tb.Snapshot().Status.State == recognize.NeedsChoice }
		if onClock && !pressUntil(ctx, tap, clockButton(pos.Turn()), completed) {
			fmt.Fprintf(out, "demo: %s was not completed by its press\n", long)
			return false
		}
		if !chooseIfAsked(ctx, d, out, long, tap) {
			fmt.Fprintf(out, "demo: %s: the choice of the piece was refused\n", long)
			return false
		}
		select {
		case <-got:
		case <-time.After(5 * time.Second):
			fmt.Fprintf(out, "demo: %s was not published within 5 s\n", long)
			return false
		case <-ctx.Done():
			return false
		}
	}
	if snap := d.tb.Snapshot(); snap.Reason == game.ReasonCheckmate {
		fmt.Fprintf(out, "\nCheckmate: %s wins.\n", snap.Position.Turn().Other())
	}
	if onClock && !stopClock(ctx, d, out) {
		return false
	}
	return sleep(ctx, 300*time.Millisecond)
}

// stopClock stops the clock where the demo's game ends: a game that ended
// stopped it; one the demo leaves unfinished (--moves, or a system whose
// game stops at 60 moves) has it paused, so that the page left open never
// says, minutes later, that a side lost on time.
func stopClock(ctx context.Context, d *daemon, out io.Writer) bool {
	snap := d.tb.Snapshot()
	if snap.Clock == nil {
		return true
	}
	if snap.Result == rules.NoResult && snap.Clock.Running != "" {
		if _, err := d.tb.Do(ctx, table.AdjustClock{Action: table.ClockPause}); err != nil {
			fmt.Fprintf(out, "demo: pausing the clock: %v\n", err)
			return false
		}
		snap = d.tb.Snapshot()
	}
	state := "stopped with the game"
	if snap.Clock.Paused {
		state = "paused: the game goes on, the demo's moves are over"
	}
	fmt.Fprintf(out, "The clock %s:%s\n", state, printsink.Times(snap.Clock))
	return true
}

func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// setName names the set a system is played on.
func setName(sys rules.System) string {
	set := systems.CapsOf(sys).Set
	if set == "" {
		set = "a set of " + sys.Name()
	}
	if _, opts := systems.Split(sys); opts != "" {
		return set + ", playing " + opts
	}
	return set
}

// interactive reports whether standard input is a terminal (a person ran
// the demo), not a pipe or /dev/null (a test, a script).
func interactive() bool { return term.IsTerminal(int(os.Stdin.Fd())) }

// choiceButtons name the button that chooses each piece.
var choiceButtons = map[byte]string{'Q': "queen", 'R': "rook", 'B': "bishop", 'N': "knight", 'P': "pawn", 'K': "king"}

// chooseIfAsked answers a choice the board waits for, as the players do:
// with the button of the piece of a promotion (the long form's last
// letter) or of a placement (its first), by tap; with the command when the
// set has no such button.
func chooseIfAsked(ctx context.Context, d *daemon, out io.Writer, long string, tap func(string) bool) bool {
	moved := func() bool { return lastMoveIs(d, long) }
	asked := func() bool { return moved() || d.tb.Snapshot().Status.State == recognize.NeedsChoice }
	if !waitFor(ctx, 2*time.Second, asked) || moved() {
		return true // the move was made (or is still on its way: the caller waits)
	}
	piece := long[len(long)-1]
	if strings.Contains(long, "@") {
		piece = long[0]
	}
	if b := choiceButtons[piece]; b != "" && d.board.Set.CheckButton(sim.Action{Op: sim.OpTap, Button: b}) == nil {
		fmt.Fprintf(out, "hand: tap %s (the choice)\n", b)
		return pressUntil(ctx, tap, b, moved)
	}
	_, err := d.tb.Do(ctx, table.Promote{Piece: piece})
	return err == nil
}

// pressUntil taps button until done holds, up to three times, waiting up
// to 2 s for it after each: a press the set did not see (a machine too
// busy to scan for the whole tap) is pressed again, as a player would.
func pressUntil(ctx context.Context, tap func(string) bool, button string, done func() bool) bool {
	for try := 0; try < 3; try++ {
		if !tap(button) {
			return false
		}
		if waitFor(ctx, 2*time.Second, done) {
			return true
		}
	}
	return false
}

// waitFor polls cond until it holds (true) or d has passed (false).
func waitFor(ctx context.Context, d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); {
		if cond() {
			return true
		}
		if !sleep(ctx, 10*time.Millisecond) {
			return false
		}
	}
	return cond()
}

// lastMoveIs reports whether the game's last move is long.
func lastMoveIs(d *daemon, long string) bool {
	mv := d.tb.Snapshot().Moves
	return len(mv) > 0 && mv[len(mv)-1].Move == long
}
