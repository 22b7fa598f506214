package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
)

// pressScript is the script of the hand that makes each of moves from pos
// (hesitating: hesitate) and taps its clock 600 ms after letting go.
func pressScript(t *testing.T, pos rules.Position, moves []string) ([]string, rules.Position) {
	t.Helper()
	var script []string
	for _, long := range moves {
		m, _, err := pos.ParseMove(long)
		if err != nil {
			t.Fatal(err)
		}
		script = append(script, "wait 300")
		script = append(script, hesitate(pos, m, 600*time.Millisecond)...)
		script = append(script, "wait 400")
		pos = pos.Play(m)
	}
	return script, pos
}

// checkPressed checks that the moves w received are want, the game's
// moves from the from-th (0: White's first) on, each completed by its
// mover's press: its time is that of the press of its side that came after
// the previous move.
func checkPressed(t *testing.T, w *boardWatch, want []string, from int) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	var got []string
	for _, m := range w.moves {
		got = append(got, m.Move)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("moves %v, want %v", got, want)
	}
	var after time.Time
	for i, m := range w.moves {
		side := "clock_white"
		if (from+i)%2 == 1 {
			side = "clock_black"
		}
		var press time.Time
		for _, e := range pressesOf(w.events, side) {
			if e.Time.After(after) {
				press = e.Time
				break
			}
		}
		if !m.Time.Equal(press) {
			t.Errorf("%s at %s: want the time of its press %s", m.Move, m.Time.Format(time.RFC3339Nano), press.Format(time.RFC3339Nano))
		}
		after = m.Time
	}
}

// Issue 33: a press is never used up. On run --sim with clock buttons, a
// clocked game is started over MQTT on a set already standing in the start
// position: White moves and presses without anyone having started the
// clock, and the press starts it and records the move. The daemon is
// stopped after Black's move and started again (the clock comes back
// paused): White's move and press resume it and record the move. Every
// press records its move, at the press's time.
func TestEndToEndEveryPressRecordsItsMove(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state, listen := filepath.Join(dir, "state"), freeport.Addr(t)
	d := startDaemon(t, state, listen, "--http", "off")
	w := watchBoard(t, listen)
	w.waitFor(t, "the set in sync", func() bool { return w.states[len(w.states)-1].Board.Status == protocol.BoardInSync })
	first := w.last().Game
	if r := sendCommand(t, w.c, w.topics, "new_game", `{"variant":"st3d","time_control":"60+1"}`); r["status"] != "ok" {
		t.Fatalf("new_game: %v", r)
	}
	w.waitFor(t, "the clocked game, the set in sync", func() bool {
		s := w.states[len(w.states)-1]
		return s.Game != first && s.Clock != nil && s.Board.Status == protocol.BoardInSync
	})
	if k := w.last().Clock; k.Running != "" || k.WhiteMS != 60000 || k.BlackMS != 60000 {
		t.Fatalf("the new game's clock %+v before any press, want it not started", k)
	}
	moves := sets.ST3DDemo[:4]
	script, pos := pressScript(t, st3d.Start(), moves[:2])
	d.send(t, script...)
	w.waitFor(t, "two moves, the set in sync", func() bool {
		s := w.states[len(w.states)-1]
		return len(w.moves) >= 2 && len(s.Moves) == 2 && s.Board.Status == protocol.BoardInSync
	})
	checkPressed(t, w, moves[:2], 0)
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = d.cmd.Wait()
	w.c.Disconnect(50)

	d = startDaemon(t, state, listen, "--http", "off")
	w = watchBoard(t, listen)
	w.waitFor(t, "the resumed game, paused, in sync", func() bool {
		s := w.states[len(w.states)-1]
		return len(s.Moves) == 2 && s.Clock != nil && s.Clock.Paused && s.Board.Status == protocol.BoardInSync
	})
	script, _ = pressScript(t, pos, moves[2:])
	d.send(t, script...)
	w.waitFor(t, "four moves, the set in sync", func() bool {
		s := w.states[len(w.states)-1]
		return len(s.Moves) == 4 && s.Board.Status == protocol.BoardInSync
	})
	checkPressed(t, w, moves[2:], 2)
	// The pause was nobody's: White was charged nothing before its press.
	if k := w.last().Clock; k == nil || k.Paused || k.Running != "white" {
		t.Errorf("after the fourth move: clock %+v, want White's running", k)
	}
	if s := w.last(); fmt.Sprint(s.Moves) != fmt.Sprint(moves) {
		t.Errorf("the game %v, want %v", s.Moves, moves)
	}
}
