package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// stateWatch keeps the last retained state a client received.
type stateWatch struct {
	mu   sync.Mutex
	last *protocol.State
}

func (w *stateWatch) get() *protocol.State {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// watchState connects a display to the daemon at listen and keeps its
// retained states.
func watchState(t *testing.T, listen, id string) (*stateWatch, paho.Client, mqtt.Topics) {
	t.Helper()
	topics, err := mqtt.NewTopics("tridboard", "e2e")
	if err != nil {
		t.Fatal(err)
	}
	w := &stateWatch{}
	opts := paho.NewClientOptions().AddBroker("tcp://" + listen).SetClientID(id).SetConnectRetry(true).
		SetConnectRetryInterval(100 * time.Millisecond)
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	tok := c.Subscribe(topics.State(), 1, func(_ paho.Client, m paho.Message) {
		var s protocol.State
		if err := json.Unmarshal(m.Payload(), &s); err != nil {
			t.Errorf("state %s: %v", m.Payload(), err)
			return
		}
		w.mu.Lock()
		w.last = &s
		w.mu.Unlock()
	})
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	return w, c, topics
}

// waitState waits up to 30 s for a state that ok accepts.
func (w *stateWatch) waitState(t *testing.T, what string, ok func(*protocol.State) bool) *protocol.State {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if s := w.get(); s != nil && ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("no state with %s: last %+v", what, w.get())
		}
	}
}

// Issue 21: a restart does not refund thinking time. On run --sim with a
// real MQTT client, White moves in a 60 s game and Black thinks 4 s; the
// daemon is stopped by SIGTERM or killed by SIGKILL and started again on
// the same state directory. Black comes back (paused) with those 4 s
// charged: exactly up to the shutdown after SIGTERM, at most the checkpoint
// interval less after SIGKILL. The game was begun on the set standing in
// its start position: White's first move started the clock, charged
// nothing (issue 33). The arbiter resumes, and Black's move is charged
// exactly the time since the resume.
func TestEndToEndRestartKeepsThinkingTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
	}{{"SIGTERM", syscall.SIGTERM}, {"SIGKILL", syscall.SIGKILL}} {
		t.Run(tc.name, func(t *testing.T) {
			state, listen := t.TempDir(), freeport.Addr(t)
			// No clock buttons: the clock starts when the set shows the
			// position and the move settles (the buttons have their own test).
			cfg := filepath.Join(t.TempDir(), "nobuttons.yaml")
			if err := os.WriteFile(cfg, []byte("buttons:\n  queen: \"button:queen\"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			d := startDaemon(t, state, listen, "--config", cfg)
			w, c, topics := watchState(t, listen, "e2e-clock-1")
			// The daemon publishes its state once it has subscribed to its
			// commands: a command sent before would reach nobody.
			w.waitState(t, "the daemon's first state", func(s *protocol.State) bool { return true })
			if r := sendCommand(t, c, topics, "new_game", `{"variant":"st3d","time_control":"60"}`); r["status"] != "ok" {
				t.Fatalf("new_game: %v", r)
			}
			// On the set standing in the start position the clock waits
			// for White's first move (issue 33): White is charged nothing.
			w.waitState(t, "the clock not started before White's move", func(s *protocol.State) bool {
				return s.Clock != nil && s.Clock.Control == "60" && s.Clock.Running == "" && s.Clock.WhiteMS == 60000 && len(s.Moves) == 0
			})
			afterWhite := d.play(t, st3d.Start(), []string{"b2W-b3W"})
			d.waitMoveLine(t, "b2W-b3W")
			s := w.waitState(t, "Black's clock running after the move", func(s *protocol.State) bool {
				return s.Clock != nil && s.Clock.Running == "black" && len(s.Moves) == 1
			})
			if s.Clock.WhiteMS != 60000 {
				t.Errorf("White's first move cost %d ms: the clock started before it", 60000-s.Clock.WhiteMS)
			}
			// Black's turn began when White's move was completed.
			began := s.Clock.At.Add(-time.Duration(60000-s.Clock.BlackMS) * time.Millisecond)
			time.Sleep(time.Until(began.Add(4 * time.Second)))
			signalled := time.Now()
			if err := d.cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			_ = d.cmd.Wait()
			exited := time.Now()
			c.Disconnect(50)

			d2 := startDaemon(t, state, listen, "--config", cfg)
			w2, c2, topics2 := watchState(t, listen, "e2e-clock-2")
			// The broker may first hand out the state retained before the
			// stop; the resumed game's comes paused.
			s2 := w2.waitState(t, "the resumed game's clock, paused", func(s *protocol.State) bool {
				return s.Clock != nil && s.Clock.Paused && len(s.Moves) == 1
			})
			k := s2.Clock
			if !k.Paused || k.Running != "black" || k.WhiteMS != s.Clock.WhiteMS {
				t.Errorf("after the restart: clock %+v, want Black's paused, White's %d ms", k, s.Clock.WhiteMS)
			}
			charged := time.Duration(60000-k.BlackMS) * time.Millisecond
			// The states and checkpoints keep milliseconds: a few of
			// rounding either way.
			const rounding = 5 * time.Millisecond
			lo, hi := signalled.Sub(began)-rounding, exited.Sub(began)+rounding
			if tc.sig == syscall.SIGKILL {
				lo -= table.CheckpointEvery
			}
			if charged < lo || charged > hi {
				t.Errorf("Black thought %v to the signal and is charged %v after the restart, want between %v and %v",
					signalled.Sub(began), charged, lo, hi)
			}
			t.Logf("%s: Black thought %v to the signal, charged %v after the restart", tc.name, signalled.Sub(began).Round(time.Millisecond), charged)

			// The arbiter resumes; Black thinks again and moves: charged
			// exactly from the resume to its move, on top of the restart's
			// charge, and White's clock runs from the move.
			if r := sendCommand(t, c2, topics2, "clock", `{"action":"resume"}`); r["status"] != "ok" {
				t.Fatalf("resume: %v", r)
			}
			sr := w2.waitState(t, "Black's clock running again", func(s *protocol.State) bool {
				return s.Clock != nil && !s.Clock.Paused && s.Clock.Running == "black" && len(s.Moves) == 1
			})
			resumed := sr.Clock.At.Add(-time.Duration(k.BlackMS-sr.Clock.BlackMS) * time.Millisecond)
			time.Sleep(time.Until(resumed.Add(1500 * time.Millisecond)))
			d2.play(t, afterWhite, []string{"b7B-b6B"})
			d2.waitMoveLine(t, "b7B-b6B")
			s3 := w2.waitState(t, "White's clock running after Black's move", func(s *protocol.State) bool {
				return s.Clock != nil && s.Clock.Running == "white" && len(s.Moves) == 2
			})
			moved := s3.Clock.At.Add(-time.Duration(k.WhiteMS-s3.Clock.WhiteMS) * time.Millisecond)
			want := k.BlackMS - moved.Sub(resumed).Milliseconds()
			if d := s3.Clock.BlackMS - want; d < -3 || d > 3 {
				t.Errorf("after Black's move: Black has %d ms, want %d (%d at the restart, less %v from the resume to the move)",
					s3.Clock.BlackMS, want, k.BlackMS, moved.Sub(resumed))
			}
		})
	}
}
