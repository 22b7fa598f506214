package main

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/clock/segment"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// clockWatch keeps every retained state and move a display receives.
type clockWatch struct {
	mu     sync.Mutex
	states []protocol.State
	moves  []protocol.Move
}

func (w *clockWatch) snapshot() ([]protocol.State, []protocol.Move) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]protocol.State(nil), w.states...), append([]protocol.Move(nil), w.moves...)
}

// An end-to-end game on run --sim with 180+2: after each move the retained
// state's clock agrees with the moves' timestamps to the millisecond: the
// mover was charged exactly the time from the previous move's timestamp (or
// the clock's start) to its own, plus 2 s, and the opponent's clock runs
// from the move's timestamp.
func TestEndToEndClock(t *testing.T) {
	t.Parallel()
	d, c, topics := startInProcess(t, func(cfg *config.Config) {
		cfg.Clock.Default = clock.MustParse("180+2")
		displays := segment.DefaultOpts() // the simulated backpacks
		cfg.Clock.Displays = &displays
		// A set without clock buttons: settling completes the moves.
		cfg.Sensors.Preset, cfg.Sensors.Wiring = "", sets.ReferenceWiring()
	})
	w := &clockWatch{}
	sub := func(topic string, f func([]byte)) {
		if tok := c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) { f(m.Payload()) }); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	sub(topics.State(), func(b []byte) {
		var s protocol.State
		if err := json.Unmarshal(b, &s); err != nil {
			t.Errorf("state %s: %v", b, err)
			return
		}
		w.mu.Lock()
		w.states = append(w.states, s)
		w.mu.Unlock()
	})
	sub(topics.Move(), func(b []byte) {
		var m protocol.Move
		if err := json.Unmarshal(b, &m); err != nil {
			t.Errorf("move %s: %v", b, err)
			return
		}
		w.mu.Lock()
		w.moves = append(w.moves, m)
		w.mu.Unlock()
	})
	// The clock's start, from a state before the first move.
	var start time.Time
	for deadline := time.Now().Add(5 * time.Second); start.IsZero(); time.Sleep(20 * time.Millisecond) {
		states, _ := w.snapshot()
		for _, s := range states {
			if s.Clock != nil && s.Clock.Running == "white" && s.LastMove == nil {
				start = s.Clock.At.Add(-time.Duration(180000-s.Clock.WhiteMS) * time.Millisecond)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no state with White's clock running: %+v", states)
		}
	}
	moves := sets.ST3DDemo[:6]
	style := sim.PlainStyle
	style.Pause = 120 * time.Millisecond
	pos := rules.Position(st3d.Start())
	for i, long := range moves {
		time.Sleep(time.Duration(200*(i%3)) * time.Millisecond) // thinking
		pos = handMove(t, d, pos, long, style)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, got := w.snapshot(); len(got) > i {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s was not published", long)
			}
		}
	}
	// Wait for the retained state after the last move.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		states, _ := w.snapshot()
		if n := len(states); n > 0 && len(states[n-1].Moves) == len(moves) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no state after the last move")
		}
	}
	states, got := w.snapshot()
	checkClockStates(t, states, got, moves, start, "180+2", 180*time.Second, 2*time.Second)
	// The arbiter's commands over MQTT, and a refused one.
	if r := sendCommand(t, c, topics, "clock", `{"action":"pause"}`); r["status"] != "ok" ||
		r["data"].(map[string]any)["paused"] != true {
		t.Errorf("pause: %v", r)
	}
	if r := sendCommand(t, c, topics, "clock", `{"action":"set","side":"white","ms":-5}`); r["status"] != "error" ||
		!strings.Contains(r["reason"].(string), `"ms" -5`) {
		t.Errorf("a bad set: %v", r)
	}
	if r := sendCommand(t, c, topics, "clock", `{"action":"add","side":"black","ms":-999000}`); r["status"] != "error" ||
		!strings.Contains(r["reason"].(string), "would leave") {
		t.Errorf("taking off more than black has: %v", r)
	}
}

// checkClockStates checks the retained states of a game with the clock
// control (initial time, increment inc) against its moves as received
// (got, whose first len(moves) must be moves): after each move the mover
// was charged exactly the time from the previous move's timestamp (or the
// clock's start) to its own, less inc, and the opponent's clock runs from
// the move's timestamp; at least one state per move.
func checkClockStates(t *testing.T, states []protocol.State, got []protocol.Move, moves []string, start time.Time, control string, initial, inc time.Duration) {
	t.Helper()
	// after[n] is each side's time after n moves, and when the n-th was
	// completed.
	type reading struct {
		left [2]time.Duration
		ts   time.Time
	}
	after := []reading{{left: [2]time.Duration{initial, initial}, ts: start}}
	for i, mv := range got[:len(moves)] {
		if mv.Move != moves[i] || mv.Seq != i+1 {
			t.Fatalf("move %d: %+v, want %s", i+1, mv, moves[i])
		}
		r := after[i]
		r.left[i%2] += inc - mv.Time.Sub(r.ts)
		r.ts = mv.Time
		after = append(after, r)
	}
	checked := 0
	for _, s := range states {
		k := s.Clock
		if s.LastMove == nil || k == nil {
			continue
		}
		// A state published while a recognized move is being journaled
		// has the clock a move ahead of last_move (as the set is).
		n := s.LastMove.Seq
		if k.Running != rules.Color(n%2).String() {
			n++
		}
		mover := rules.Color((n - 1) % 2)
		if n >= len(after) || k.Control != control || k.Running != mover.Other().String() {
			t.Fatalf("state after move %d: clock %+v", s.LastMove.Seq, k)
		}
		checked++
		r := after[n]
		// Only the start is known to the ms (from a snapshot): ±1 ms.
		if want := r.left[mover].Milliseconds(); k.MS(mover) < want-1 || k.MS(mover) > want+1 {
			t.Errorf("after %s (ts %s): %s has %d ms, want %d: the move's timestamp and the clock disagree by %d ms",
				moves[n-1], r.ts.Format(time.RFC3339Nano), mover, k.MS(mover), want, k.MS(mover)-want)
		}
		want := (r.left[mover.Other()] - k.At.Sub(r.ts)).Milliseconds()
		if diff := k.MS(mover.Other()) - want; diff < -1 || diff > 1 {
			t.Errorf("after %s: %s has %d ms at %s, want %d: its clock does not run from the move's timestamp",
				moves[n-1], mover.Other(), k.MS(mover.Other()), k.At.Format(time.RFC3339Nano), want)
		}
	}
	if checked < len(moves) {
		t.Errorf("%d states after the moves, want at least one per move", checked)
	}
}
