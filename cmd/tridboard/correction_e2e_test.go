package main

import (
	"encoding/json"
	"io"
	"math/rand"
	"slices"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/sim"
)

// feed keeps what a display receives on the event and state topics.
type feed struct {
	mu          sync.Mutex
	corrections []protocol.Event
	moves       []string // the last state's record
}

// A game on run --sim played by a learner's hand that, in one move of
// four, rests 400-800 ms on another legal square of the piece before it
// goes on (issue 21: a change of mind): a real MQTT client sees correction
// events, and the retained state's record is the game intended.
func TestEndToEndChangeOfMind(t *testing.T) {
	t.Parallel()
	listen := freeport.Addr(t)
	d := startDaemon(t, t.TempDir(), listen)
	f := &feed{}
	opts := paho.NewClientOptions().AddBroker("tcp://" + listen).SetClientID("e2e-correction").
		SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond)
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	topics, err := mqtt.NewTopics("tridboard", "e2e")
	if err != nil {
		t.Fatal(err)
	}
	sub := func(topic string, fn func([]byte)) {
		if tok := c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) { fn(m.Payload()) }); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", topic, tok.Error())
		}
	}
	sub(topics.Event(), func(b []byte) {
		var e protocol.Event
		if err := json.Unmarshal(b, &e); err == nil && e.Type == protocol.EventCorrection {
			f.mu.Lock()
			f.corrections = append(f.corrections, e)
			f.mu.Unlock()
		}
	})
	sub(topics.State(), func(b []byte) {
		var s protocol.State
		if err := json.Unmarshal(b, &s); err == nil {
			f.mu.Lock()
			f.moves = s.Moves
			f.mu.Unlock()
		}
	})
	h := sim.LearnerHand(rand.New(rand.NewSource(7)), sim.Span{Min: 400 * time.Millisecond, Max: 800 * time.Millisecond}, 0)
	h.Reply = sim.Span{Min: 300 * time.Millisecond, Max: 600 * time.Millisecond}
	h.FastSwap = 0
	moves, script := handGame(t, h, 12)
	if _, err := io.WriteString(d.stdin, script+"wait 1000\n"); err != nil {
		t.Fatal(err)
	}
	var got []string
	var corrections []protocol.Event
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		f.mu.Lock()
		got, corrections = slices.Clone(f.moves), slices.Clone(f.corrections)
		f.mu.Unlock()
		if slices.Equal(got, moves) && len(corrections) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the state's record is %q after %d corrections %+v, want %q", got, len(corrections), corrections, moves)
		}
	}
	// Each correction names the move taken back and one of the game's.
	for _, e := range corrections {
		if !slices.Contains(moves, e.Move) || e.Detail == "" || e.Detail == e.Move {
			t.Errorf("correction %+v", e)
		}
	}
}
