package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// The set's buttons from run --sim's standard input (issue 29), watched by
// a real MQTT client: the clock pressed after every move, a promotion
// chosen, a take-back and a new game asked for by their buttons.

// boardWatch keeps what a display subscribed to a board receives: the
// retained states, the moves and the events, in the order they came.
type boardWatch struct {
	c      paho.Client
	topics mqtt.Topics
	mu     sync.Mutex
	states []protocol.State
	moves  []protocol.Move
	events []protocol.Event
}

// watchBoard subscribes to the state, move and event topics of the board
// "e2e" on the broker at listen; it returns once the retained state came.
func watchBoard(t *testing.T, listen string) *boardWatch {
	t.Helper()
	w := &boardWatch{}
	w.topics, _ = mqtt.NewTopics("tridboard", "e2e")
	w.c = paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + listen).SetClientID("e2e-buttons").
		SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond))
	if tok := w.c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", listen, tok.Error())
	}
	t.Cleanup(func() { w.c.Disconnect(50) })
	sub := func(topic string, f func([]byte) error) {
		tok := w.c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) {
			w.mu.Lock()
			defer w.mu.Unlock()
			if err := f(m.Payload()); err != nil {
				t.Errorf("%s %s: %v", topic, m.Payload(), err)
			}
		})
		if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	sub(w.topics.Event(), func(b []byte) error {
		var e protocol.Event
		err := json.Unmarshal(b, &e)
		w.events = append(w.events, e)
		return err
	})
	sub(w.topics.Move(), func(b []byte) error {
		var m protocol.Move
		err := json.Unmarshal(b, &m)
		w.moves = append(w.moves, m)
		return err
	})
	sub(w.topics.State(), func(b []byte) error {
		var s protocol.State
		err := json.Unmarshal(b, &s)
		w.states = append(w.states, s)
		return err
	})
	w.waitFor(t, "the retained state", func() bool { return len(w.states) > 0 })
	return w
}

// waitFor polls cond (called with w locked) until it holds, for 20 s.
func (w *boardWatch) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		w.mu.Lock()
		ok := cond()
		w.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			w.mu.Lock()
			defer w.mu.Unlock()
			t.Fatalf("no %s within 20 s; moves %+v, events %+v", what, w.moves, w.events)
		}
	}
}

// last is the last state received.
func (w *boardWatch) last() protocol.State {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.states[len(w.states)-1]
}

// pressesOf are the button events for name, in order.
func pressesOf(evs []protocol.Event, name string) []protocol.Event {
	var out []protocol.Event
	for _, e := range evs {
		if e.Type == protocol.EventButton && e.Detail == name {
			out = append(out, e)
		}
	}
	return out
}

// tapMS is how long the tests' hand holds a button: longer than the 80 ms
// of a plain tap, so that a machine too busy to scan for a while (tests
// run side by side) still sees every press.
const tapMS = "150"

// send writes script lines to the daemon's standard input.
func (d *daemonProc) send(t *testing.T, lines ...string) {
	t.Helper()
	if _, err := io.WriteString(d.stdin, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
}

// hesitate is the script of a hand that makes m in pos with second
// thoughts: it puts the piece down on another square first and leaves it
// there longer than the settle window, then takes it on to its square;
// after letting go it rests rest before it taps its clock. Moves with more
// than one piece (captures, castling) are made the plain way.
func hesitate(pos rules.Position, m rules.Move, rest time.Duration) []string {
	names := pos.System().Cells()
	in := pos.Info(m)
	detour := ""
	if !in.Board && !in.Castle && in.Captured == rules.NoCell && !in.Promotion && in.From != rules.NoCell {
		for _, o := range pos.LegalMoves(nil) {
			oi := pos.Info(o)
			if oi.From == in.From && oi.To != in.To && oi.Captured == rules.NoCell && !oi.Promotion && !oi.Castle {
				detour = names[oi.To]
				break
			}
		}
	}
	var out []string
	if detour != "" {
		out = append(out, "lift "+names[in.From], "wait 150", "place "+detour, "wait 450", "lift "+detour, "wait 120", "place "+names[in.To])
	} else {
		style := sim.PlainStyle
		style.Pause = 120 * time.Millisecond
		for _, a := range sim.Gestures(pos, m, style) {
			out = append(out, a.String())
		}
	}
	side := "clock_white"
	if pos.Turn() == rules.Black {
		side = "clock_black"
	}
	return append(out, fmt.Sprintf("wait %d", rest.Milliseconds()), "tap "+side+" "+tapMS)
}

// TestEndToEndClockPresses: a game under 19+1 by a hand that hesitates
// (a piece left on a wrong square longer than the settle window) and taps
// its clock a varying while after letting go. Every move is recorded
// exactly, completed by its press: its timestamp is the press's (the
// button event's), not the placement's, and the clock charged the mover the
// time from the previous press (Black's press that started the clock) to
// its own, less the increment.
func TestEndToEndClockPresses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "tridboard.yaml")
	if err := os.WriteFile(cfg, []byte("clock:\n  time_control: \"19+1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	listen, page := freeport.Addr(t), freeport.Addr(t)
	d := startDaemon(t, filepath.Join(dir, "state"), listen, "--config", cfg, "--http", page)
	w := watchBoard(t, listen)

	moves := sets.ST3DDemo[:6]
	rests := []time.Duration{400, 900, 350, 1100, 600, 800} // ms, after letting go
	for i := range rests {
		rests[i] *= time.Millisecond
	}
	script := []string{"wait 200", "tap clock_black " + tapMS, "wait 300"} // Black starts White's clock
	pos := rules.Position(st3d.Start())
	for i, long := range moves {
		m, _, err := pos.ParseMove(long)
		if err != nil {
			t.Fatal(err)
		}
		script = append(script, fmt.Sprintf("wait %d", 100+150*(i%3))) // thinking
		script = append(script, hesitate(pos, m, rests[i])...)
		pos = pos.Play(m)
	}
	d.send(t, script...)
	w.waitFor(t, "sixth move and its state", func() bool {
		n := len(w.states)
		return len(w.moves) >= len(moves) && w.states[n-1].LastMove != nil && w.states[n-1].LastMove.Seq == len(moves)
	})
	// Then the set in sync at the sixth move: with nothing lifted or placed
	// any more, no wrong extra move can still come.
	w.waitFor(t, "the set in sync after the sixth move", func() bool {
		s := w.states[len(w.states)-1]
		return s.Board.Status == protocol.BoardInSync && s.LastMove != nil && s.LastMove.Seq == len(moves)
	})
	w.mu.Lock()
	states, got, evs := append([]protocol.State(nil), w.states...), append([]protocol.Move(nil), w.moves...), append([]protocol.Event(nil), w.events...)
	w.mu.Unlock()
	var gotMoves []string
	for _, m := range got {
		gotMoves = append(gotMoves, m.Move)
	}
	if strings.Join(gotMoves, " ") != strings.Join(moves, " ") {
		t.Fatalf("moves %v, want %v", gotMoves, moves)
	}
	white, black := pressesOf(evs, "clock_white"), pressesOf(evs, "clock_black")
	if len(white) != 3 || len(black) != 4 {
		t.Fatalf("%d presses of clock_white, %d of clock_black: want 3 and 4 (events %+v)", len(white), len(black), evs)
	}
	start := black[0].Time
	press := []time.Time{start}
	for i := range moves {
		if i%2 == 0 {
			press = append(press, white[i/2].Time)
		} else {
			press = append(press, black[1+i/2].Time)
		}
	}
	rested := 0
	for i, m := range got {
		// The press completed the move: the move's timestamp is the press.
		if !m.Time.Equal(press[i+1]) {
			t.Errorf("%s at %s, its press at %s: a move's time is its press's", m.Move,
				m.Time.Format(time.RFC3339Nano), press[i+1].Format(time.RFC3339Nano))
		}
		// The press came rests[i] after the last placement of the move.
		var placed time.Time
		for _, e := range evs {
			if e.Type == protocol.EventPlace && e.Time.After(press[i]) && e.Time.Before(m.Time) {
				placed = e.Time
			}
		}
		if placed.IsZero() {
			continue // castling shows no piece where the position has none
		}
		rested++
		// Both the placement and the press are stamped by the scan that read
		// them; a scan that comes late credits a change half its gap, so
		// under load either may be off by a few scan periods.
		if r := m.Time.Sub(placed); r < rests[i]-50*time.Millisecond || r > rests[i]+300*time.Millisecond {
			t.Errorf("%s: completed %v after its placement, want the %v the hand rested before its press", m.Move, r, rests[i])
		}
	}
	if rested < 4 {
		t.Errorf("%d moves with a placement event, want at least 4", rested)
	}
	checkClockStates(t, states, got, moves, start, "19+1", 19*time.Second, time.Second)

	// The page shows the last press and both clocks run down.
	v := pageView(t, "http://"+page+"/api/boards/e2e")
	if e := v.Event; e == nil || e.Type != protocol.EventButton || e.Detail != "clock_black" || !e.Time.Equal(got[5].Time) {
		t.Errorf("the page's last event %+v, want Black's press of %s", e, got[5].Time.Format(time.RFC3339Nano))
	}
	if c := v.Clock; c == nil || c.Running != "white" || c.WhiteMS >= 19000 || c.BlackMS >= 19000 {
		t.Errorf("the page's clock %+v: want White's running, both under 19 s", c)
	}
}

// TestEndToEndChoiceTakeBackNewGame: without a clock, a promotion left
// waiting for its choice is chosen by `tap knight`; a reply taken back by
// `tap take_back` (and the set put back by hand); `tap new_game` starts
// the next game, whose first move is recorded in it.
func TestEndToEndChoiceTakeBackNewGame(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	listen := freeport.Addr(t)
	d := startDaemon(t, dir, listen, "--http", "off")
	w := watchBoard(t, listen)
	// The daemon reads its input once the set is in sync.
	w.waitFor(t, "the set in sync", func() bool { return w.states[len(w.states)-1].Board.Status == "in_sync" })
	first := w.last().Game
	// A game from a promotion position, the set stood in it.
	promo := "QL1:w,QL6:b,KL1:w Kb1W,kc5N,pd6N,Pb7B w - - - 0 30" // not a dead position after it
	if r := sendCommand(t, w.c, w.topics, "new_game", fmt.Sprintf(`{"variant":"st3d","position":%q}`, promo)); r["status"] != "ok" {
		t.Fatalf("new_game: %v", r)
	}
	w.waitFor(t, "the promotion game", func() bool { return w.states[len(w.states)-1].Game != first })
	game := w.last().Game
	inSync := func() bool { s := w.states[len(w.states)-1]; return s.Game != first && s.Board.Status == "in_sync" }
	d.send(t, "setup")
	w.waitFor(t, "the set in sync with the promotion game", inSync)
	d.send(t, "lift b7B", "wait 100", "place b8B", "wait 600")
	w.waitFor(t, "the promotion waiting for its choice", func() bool {
		s := w.states[len(w.states)-1]
		return s.Board.Status == "needs_choice"
	})
	d.send(t, "tap knight "+tapMS, "wait 300", "lift c5N", "wait 100", "place c4N", "wait 600")
	w.waitFor(t, "the knight's promotion and the reply", func() bool { return len(w.moves) >= 2 })
	w.mu.Lock()
	got := fmt.Sprintf("%s %s", w.moves[0].Move, w.moves[1].Move)
	w.mu.Unlock()
	if got != "b7B-b8B=N c5N-c4N" {
		t.Fatalf("moves %s, want b7B-b8B=N c5N-c4N", got)
	}
	d.send(t, "tap take_back "+tapMS, "wait 300", "lift c4N", "wait 100", "place c5N", "wait 500")
	w.waitFor(t, "the take-back, the set in sync", func() bool {
		s := w.states[len(w.states)-1]
		return len(s.Moves) == 1 && s.Board.Status == "in_sync"
	})
	d.send(t, "tap new_game "+tapMS)
	w.waitFor(t, "the new game", func() bool { return w.states[len(w.states)-1].Game != game })
	d.send(t, "setup")
	w.waitFor(t, "the set in sync with the new game", func() bool {
		s := w.states[len(w.states)-1]
		return s.Game != game && s.Board.Status == "in_sync"
	})
	d.send(t, "lift b2W", "wait 100", "place b3W", "wait 600")
	w.waitFor(t, "the first move of the new game", func() bool {
		n := len(w.moves)
		return n >= 3 && w.moves[n-1].Game != game
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	if m := w.moves[2]; m.Move != "b2W-b3W" || m.Seq != 1 || m.Game == game || m.Game == first {
		t.Errorf("after the new-game button: %+v, want b2W-b3W as seq 1 of a new game", m)
	}
	// Each press was reported, before what it did.
	var order []string
	for _, e := range w.events {
		switch e.Type {
		case protocol.EventButton:
			order = append(order, "button "+e.Detail)
		case protocol.EventTakeBack, protocol.EventNewGame:
			order = append(order, e.Type)
		}
	}
	if got, want := strings.Join(order, ", "), "new_game, button knight, button take_back, take_back, button new_game, new_game"; got != want {
		t.Errorf("events %s, want %s", got, want)
	}
}
