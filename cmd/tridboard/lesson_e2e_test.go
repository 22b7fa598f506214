package main

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules/st3d"
)

// lessonWatch is a display on the broker: every state and event it gets.
type lessonWatch struct {
	t      *testing.T
	c      paho.Client
	topics mqtt.Topics
	mu     sync.Mutex
	states []protocol.State
	events []protocol.Event
}

// watchLesson connects a display (a clean session) to the daemon's broker.
func watchLesson(t *testing.T, listen string) *lessonWatch {
	t.Helper()
	topics, err := mqtt.NewTopics("tridboard", "e2e")
	if err != nil {
		t.Fatal(err)
	}
	w := &lessonWatch{t: t, topics: topics}
	opts := paho.NewClientOptions().AddBroker("tcp://" + listen).SetClientID(fmt.Sprintf("e2e-lesson-%d", time.Now().UnixNano())).
		SetCleanSession(true).SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond)
	w.c = paho.NewClient(opts)
	if tok := w.c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { w.c.Disconnect(100) })
	subscribeJSON(t, w.c, topics.State(), func(s protocol.State) {
		w.mu.Lock()
		w.states = append(w.states, s)
		w.mu.Unlock()
	})
	subscribeJSON(t, w.c, topics.Event(), func(e protocol.Event) {
		w.mu.Lock()
		w.events = append(w.events, e)
		w.mu.Unlock()
	})
	return w
}

// subscribeJSON subscribes c to topic and hands keep each payload decoded
// as a T.
func subscribeJSON[T any](t *testing.T, c paho.Client, topic string, keep func(T)) {
	t.Helper()
	tok := c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) {
		var v T
		if err := json.Unmarshal(m.Payload(), &v); err != nil {
			t.Errorf("%s %s: %v", topic, m.Payload(), err)
			return
		}
		keep(v)
	})
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
}

// state waits for the latest state to be one ok accepts and returns it.
func (w *lessonWatch) state(what string, ok func(*protocol.State) bool) protocol.State {
	w.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		w.mu.Lock()
		var last protocol.State
		if n := len(w.states); n > 0 {
			last = w.states[n-1]
		}
		w.mu.Unlock()
		if ok(&last) {
			return last
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("no state with %s in 20 s; the last: %+v", what, last)
		}
	}
}

// event waits for an event of type typ that ok accepts and returns it.
func (w *lessonWatch) event(typ string, ok func(*protocol.Event) bool) protocol.Event {
	w.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		w.mu.Lock()
		evs := append([]protocol.Event(nil), w.events...)
		w.mu.Unlock()
		for _, e := range evs {
			if e.Type == typ && ok(&e) {
				return e
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("no %s event as wanted in 20 s; events: %+v", typ, evs)
		}
	}
}

func (w *lessonWatch) command(name, payload string) map[string]any {
	w.t.Helper()
	return sendCommand(w.t, w.c, w.topics, name, payload)
}

// A lesson on run --sim with a real MQTT client: a new game where White (the
// learner) has full assistance and Black (the teacher) none; White's illegal
// move is explained with the fix in words, Black's is not; a hint asked is
// seen as events; the teacher's lock and the hints used survive a restart.
func TestEndToEndLesson(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	listen := freeport.Addr(t)
	d := startDaemon(t, state, listen)
	w := watchLesson(t, listen)
	w.state("the board in sync", func(s *protocol.State) bool { return s.Board.Status == protocol.BoardInSync })
	r := w.command("new_game", `{"variant":"st3d","white":"Learner","black":"Teacher","assist":{"white":"full","black":"none"}}`)
	if r["status"] != "ok" {
		t.Fatalf("new_game: %v", r)
	}
	game := r["data"].(map[string]any)["game"].(string)
	w.state("the lesson's assistance", func(s *protocol.State) bool {
		return s.Game == game && s.Board.Status == protocol.BoardInSync && s.Lesson != nil &&
			reflect.DeepEqual(s.Lesson.Assist, map[string]string{"white": "full", "black": "none"})
	})
	hand := func(lines string) {
		if _, err := io.WriteString(d.stdin, lines); err != nil {
			t.Fatal(err)
		}
	}
	// White's pawn three squares on: explained, with the fix in words.
	hand("lift b2W\nwait 100\nplace b5N\n")
	const why = "A pawn does not move from b2W to b5N."
	ill := w.event(protocol.EventIllegal, func(e *protocol.Event) bool { return e.Game == game })
	if ill.Detail != why {
		t.Errorf("White's illegal move: %+v, want %q", ill, why)
	}
	s := w.state("the mismatch explained", func(s *protocol.State) bool { return s.Game == game && s.Board.Status == protocol.BoardMismatch })
	if s.Board.Reason != why || s.Board.Instruction != "put back the white pawn on b2W; take away what stands on b5N" {
		t.Errorf("mismatch: reason %q hint %q", s.Board.Reason, s.Board.Instruction)
	}
	hand("lift b5N\nwait 100\nplace b2W\n")
	w.state("the pawn back", func(s *protocol.State) bool { return s.Game == game && s.Board.Status == protocol.BoardInSync })
	// A hint for White, in its two stages, seen as events.
	r1, r2 := w.command("hint", `{}`), w.command("hint", `{}`)
	if r1["status"] != "ok" || r2["status"] != "ok" {
		t.Fatalf("hints: %v, %v", r1, r2)
	}
	d2 := r2["data"].(map[string]any)
	piece, move := d2["piece"].(string), d2["move"].(string)
	w.event(protocol.EventHint, func(e *protocol.Event) bool {
		return e.Game == game && e.Cell == piece && e.Move == "" && e.Detail == "white"
	})
	w.event(protocol.EventHint, func(e *protocol.Event) bool {
		return e.Game == game && e.Cell == piece && e.Move == move && len(e.Cells) == 2 && e.Detail == "white"
	})
	// The teacher locks; an empty teach is refused and unlocks nothing.
	if r := w.command("teach", `{"lock":true,"hints":{"white":5}}`); r["status"] != "ok" {
		t.Fatalf("teach: %v", r)
	}
	if r := w.command("teach", `{}`); r["status"] != "error" || r["reason"] != `teach: nothing to change: give "lock", "hints" or "assist"` {
		t.Errorf("an empty teach: %v", r)
	}
	// A clean restart.
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := d.cmd.Wait(); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	d = startDaemon(t, state, listen)
	w2 := watchLesson(t, listen)
	s = w2.state("the lesson after the restart", func(s *protocol.State) bool {
		return s.Game == game && s.Board.Status == protocol.BoardInSync && s.Lesson != nil
	})
	want := &protocol.Lesson{Locked: true, Assist: map[string]string{"white": "full", "black": "none"},
		Hints: map[string]int{"white": 5, "black": 3}, HintsUsed: map[string]int{"white": 1, "black": 0}}
	if !reflect.DeepEqual(s.Lesson, want) {
		t.Errorf("after the restart: lesson %+v, want %+v", s.Lesson, want)
	}
	if r := w2.command("hint", `{}`); r["status"] != "error" || r["reason"] != "hints are locked by the teacher" {
		t.Errorf("a hint under the lock after the restart: %v", r)
	}
	if r := w2.command("teach", `{"lock":false}`); r["status"] != "ok" {
		t.Fatalf("unlock: %v", r)
	}
	// White plays the hinted move; Black, the teacher, errs unexplained.
	d.play(t, st3d.Start(), []string{move})
	d.waitMoveLine(t, move)
	hand("lift b7B\nwait 100\nplace d5N\n")
	ill = w2.event(protocol.EventIllegal, func(e *protocol.Event) bool { return e.Game == game })
	if ill.Detail != "no legal move leads to this" {
		t.Errorf("Black's illegal move, without assistance: %+v", ill)
	}
	s = w2.state("Black's mismatch", func(s *protocol.State) bool { return s.Game == game && s.Board.Status == protocol.BoardMismatch })
	if s.Board.Instruction != "" {
		t.Errorf("Black, without assistance, was told the fix: %q", s.Board.Instruction)
	}
	if r := w2.command("hint", `{}`); r["status"] != "error" {
		t.Errorf("a hint for Black without assistance: %v", r)
	}
}
