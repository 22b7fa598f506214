package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
)

// Issue 33: a tournament game on run --sim with clock buttons, driven over
// MQTT as an event would. White moves and presses, then puts the pawn back
// by hand in Black's time: the set refuses the take-back and reports it
// (an illegal event naming White and the move that stands, the board in
// mismatch for the arbiter, Black given FIDE's minute), the record keeps
// White's move. The pawn put back on b3W, the game goes on: Black's move
// and press record it.
func TestEndToEndTournamentRefusesAHandTakeBack(t *testing.T) {
	t.Parallel()
	d, w := tournamentGame(t, `{"variant":"st3d","time_control":"180+2","play":"tournament","white":"Kirk","black":"Spock"}`)
	pressToStart(t, d, w)
	d.send(t, "wait 400", "lift b2W", "wait 150", "place b3W", "wait 500", "tap clock_white "+tapMS,
		"wait 1500", "lift b3W", "wait 150", "place b2W", "wait 3000")
	w.waitFor(t, "the take-back by hand refused, reported", func() bool {
		for _, e := range w.events {
			if e.Type == protocol.EventIllegal && strings.HasPrefix(e.Detail, "tournament game: no take-back by hand (b2W-b3W stands)") {
				return true
			}
		}
		return false
	})
	w.waitFor(t, "the penalty and the mismatch", func() bool {
		s := w.states[len(w.states)-1]
		penalty := slices.ContainsFunc(w.events, func(e protocol.Event) bool {
			return e.Type == protocol.EventClock && e.Detail == "penalty: black gets 1m0s for white's illegal move"
		})
		// Events and states travel on different topics: the penalty's event
		// may come before the state that carries it.
		return penalty && s.Board.Status != protocol.BoardInSync && s.Clock != nil && s.Clock.Running == "white"
	})
	s := w.last()
	if fmt.Sprint(s.Moves) != "[b2W-b3W]" || s.Clock == nil || s.Clock.Running != "white" || s.Clock.BlackMS < 180000 {
		t.Fatalf("after the refused take-back: moves %v, clock %+v: want b2W-b3W standing, White's clock running, Black's minute", s.Moves, s.Clock)
	}
	for _, e := range w.events {
		if e.Type == protocol.EventTakeBack {
			t.Fatalf("a take-back event in a tournament game: %+v", e)
		}
	}
	d.send(t, "lift b2W", "wait 150", "place b3W", "wait 800", "lift b7B", "wait 150", "place b6B", "wait 500", "tap clock_black "+tapMS, "wait 500")
	w.waitFor(t, "Black's move after the pawn went back", func() bool {
		s := w.states[len(w.states)-1]
		return len(s.Moves) == 2 && s.Board.Status == protocol.BoardInSync
	})
	if got := fmt.Sprint(w.last().Moves); got != "[b2W-b3W b7B-b6B]" {
		t.Errorf("the game %s, want [b2W-b3W b7B-b6B]", got)
	}
}

// FIDE Laws 7.5.4 on run --sim (issue 33): in a tournament game with clock
// buttons, White presses its clock without making a move: an illegal move,
// reported, Black given FIDE's minute; White's move and press then record
// the move, and the game goes on. No take-back, no move invented.
func TestEndToEndTournamentPressWithoutAMove(t *testing.T) {
	t.Parallel()
	d, w := tournamentGame(t, `{"variant":"st3d","time_control":"180+2","play":"tournament"}`)
	pressToStart(t, d, w)
	d.send(t, "wait 800", "tap clock_white "+tapMS, "wait 1500")
	w.waitFor(t, "the press without a move reported, penalized", func() bool {
		illegal := slices.ContainsFunc(w.events, func(e protocol.Event) bool {
			return e.Type == protocol.EventIllegal && e.Detail == "tournament game: white pressed the clock without making a move (FIDE Laws 7.5.4): an illegal move"
		})
		penalty := slices.ContainsFunc(w.events, func(e protocol.Event) bool {
			return e.Type == protocol.EventClock && e.Detail == "penalty: black gets 1m0s for white's illegal move"
		})
		return illegal && penalty
	})
	w.waitFor(t, "Black's minute in the state", func() bool {
		s := w.states[len(w.states)-1]
		return s.Clock != nil && s.Clock.BlackMS == 240000
	})
	if s := w.last(); len(s.Moves) != 0 || s.Clock.Running != "white" {
		t.Fatalf("after the press: moves %v, clock %+v: want no move, White's clock running", s.Moves, s.Clock)
	}
	d.send(t, "lift b2W", "wait 150", "place b3W", "wait 500", "tap clock_white "+tapMS, "wait 800")
	w.waitFor(t, "White's move, pressed", func() bool {
		s := w.states[len(w.states)-1]
		return len(s.Moves) == 1 && s.Board.Status == protocol.BoardInSync && s.Clock != nil && s.Clock.Running == "black"
	})
	if n := slices.IndexFunc(w.events, func(e protocol.Event) bool { return e.Type == protocol.EventGameOver }); n >= 0 {
		t.Errorf("the game ended: %+v", w.events[n])
	}
}

// tournamentGame starts run --sim (a set on its own, casual) and the
// tournament game newGame (new_game's payload) over MQTT, and waits for the
// set to be in sync in it.
// pressToStart is Black's press that starts White's clock. A press the
// scans of a loaded machine did not see is pressed again, as a player does
// whose press did not register; one that was seen is not repeated (and a
// press of the side not to move changes nothing).
func pressToStart(t *testing.T, d *daemonProc, w *boardWatch) {
	t.Helper()
	for range 3 {
		d.send(t, "wait 300", "tap clock_black "+tapMS)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if s := w.last(); s.Clock != nil && s.Clock.Running == "white" {
				return
			}
		}
	}
	t.Fatal("Black's press never started White's clock")
}

func tournamentGame(t *testing.T, newGame string) (*daemonProc, *boardWatch) {
	t.Helper()
	listen := freeport.Addr(t)
	d := startDaemon(t, t.TempDir(), listen, "--http", "off")
	w := watchBoard(t, listen)
	w.waitFor(t, "the set in sync", func() bool { return w.states[len(w.states)-1].Board.Status == protocol.BoardInSync })
	first := w.last().Game
	if p := w.last().Play; p != "casual" {
		t.Errorf("a set on its own plays %q, want casual", p)
	}
	if r := sendCommand(t, w.c, w.topics, "new_game", newGame); r["status"] != "ok" {
		t.Fatalf("new_game: %v", r)
	}
	w.waitFor(t, "the tournament game, in sync", func() bool {
		s := w.states[len(w.states)-1]
		return s.Game != first && s.Play == "tournament" && s.Board.Status == protocol.BoardInSync
	})
	return d, w
}
