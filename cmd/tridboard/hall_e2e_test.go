package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/natstest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/web"
)

// display is a display subscribed to one node of the cluster: it keeps
// the moves of every set as they come (QoS 1, a clean session).
type display struct {
	mu    sync.Mutex
	moves map[string][]protocol.Move // board -> moves in arrival order
	cli   paho.Client
}

func newDisplay(t *testing.T, url, prefix, id string) *display {
	t.Helper()
	d := &display{moves: map[string][]protocol.Move{}}
	po := paho.NewClientOptions().AddBroker(url).SetClientID(id).SetCleanSession(true).SetOrderMatters(true).SetAutoReconnect(false).
		SetProtocolVersion(mqtt.ProtocolVersion)
	d.cli = paho.NewClient(po)
	if tok := d.cli.Connect(); !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("display on %s: connect: %v", url, tok.Error())
	}
	tok := d.cli.Subscribe(prefix+"/+/"+mqtt.TopicMove, 1, func(_ paho.Client, m paho.Message) {
		var mv protocol.Move
		if json.Unmarshal(m.Payload(), &mv) != nil {
			return
		}
		board := strings.TrimSuffix(strings.TrimPrefix(m.Topic(), prefix+"/"), "/"+mqtt.TopicMove)
		d.mu.Lock()
		d.moves[board] = append(d.moves[board], mv)
		d.mu.Unlock()
	})
	if !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("display on %s: subscribe: %v", url, tok.Error())
	}
	t.Cleanup(func() { d.cli.Disconnect(0) })
	return d
}

// applied is what a display following docs/mqtt.md's rule shows: each
// board's moves, a seq not above the last applied dropped; and how many
// arrived again or out of order.
func (d *display) applied() (shown map[string][]string, dups, late int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	shown = map[string][]string{}
	for b, ms := range d.moves {
		last := 0
		for _, m := range ms {
			if m.Seq <= last {
				if m.Seq == last || contains(shown[b], m.Seq) {
					dups++
				} else {
					late++
				}
				continue
			}
			if m.Seq != last+1 {
				late++
			}
			shown[b] = append(shown[b], fmt.Sprintf("%d:%s", m.Seq, m.Move))
			last = m.Seq
		}
	}
	return shown, dups, late
}

func contains(ms []string, seq int) bool {
	return seq <= len(ms)
}

// A hall on a 3-node NATS cluster: 10 sets publish their games through the
// cluster (each given all three nodes), a display on every node and a view
// follow them, and the node some sets are on dies mid-game and comes back.
// Every move reaches the displays on the surviving nodes and the view
// once, in order (byte-identical resends dropped by seq, as displays do).
func TestHallClusterSurvivesANode(t *testing.T) {
	t.Parallel()
	c := natstest.Start(t, 3)
	const prefix, sets, moves = "hall", 10, 12
	displays := []*display{newDisplay(t, c.MQTT(0), prefix, "display-1"), newDisplay(t, c.MQTT(1), prefix, "display-2"),
		newDisplay(t, c.MQTT(2), prefix, "display-3")}
	hub := web.NewHub(web.DefaultOpts())
	// The view subscribes at QoS 0, as docs/hall.md has views do: no stored
	// consumer on the cluster; it resumes from the retained states.
	view, err := newViewer(viewerOpts{Broker: c.MQTT(1) + "," + c.MQTT(2), Prefix: prefix, QoS: 0}, hub, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer view.Close()

	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	var all []*loadSet
	for i := 0; i < sets; i++ {
		mo := mqtt.DefaultOpts()
		mo.Broker, mo.Prefix, mo.BoardID = c.Brokers(), prefix, fmt.Sprintf("set-%d", i+1)
		mo.ClientID, mo.StateDir = "tridboard-"+mo.BoardID, filepath.Join(dir, mo.BoardID)
		mo.Discovery, mo.Logger = "", quiet
		mo.RetryMin, mo.RetryMax, mo.ConnectTimeout = 50*time.Millisecond, 500*time.Millisecond, 2*time.Second
		os.MkdirAll(mo.StateDir, 0o700)
		cli, err := mqtt.New(mo, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := &loadSet{id: mo.BoardID, cli: cli, sys: st3d.System, rng: rand.New(rand.NewPCG(uint64(i), 7))}
		s.newGame(time.Now())
		all = append(all, s)
		t.Cleanup(func() { cli.Close(context.Background()) })
	}
	play := func(n int) {
		for k := 0; k < n; k++ {
			for _, s := range all {
				if _, err := s.step(time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(20 * time.Millisecond) // the sets' pace, not an assertion
		}
	}
	play(moves / 2)
	c.Kill(0) // mid-game: the sets on it fail over
	play(moves / 2)
	want := map[string][]string{}
	for _, s := range all {
		for i, m := range s.g.Long() {
			want[s.id] = append(want[s.id], fmt.Sprintf("%d:%s", i+1, m))
		}
	}
	check := func(name string, got func() map[string][]string) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			g := got()
			done := true
			for b, w := range want {
				if strings.Join(g[b], " ") != strings.Join(w, " ") {
					done = false
					if time.Now().After(deadline) {
						for _, s := range all {
							t.Logf("%s: %+v", s.id, s.cli.Stats())
						}
						t.Fatalf("%s: %s shows\n %v\nwant\n %v", name, b, g[b], w)
					}
				}
			}
			if done {
				return
			}
		}
	}
	for i, d := range displays[1:] {
		check(fmt.Sprintf("the display on node %d", i+2), func() map[string][]string { s, _, _ := d.applied(); return s })
		_, dups, late := d.applied()
		if late > 0 {
			t.Errorf("display on node %d: %d moves out of order", i+2, late)
		}
		t.Logf("display on node %d: %d resent moves dropped", i+2, dups)
	}
	check("the view", func() map[string][]string {
		out := map[string][]string{}
		for b := range want {
			if v, ok := hub.View(b); ok {
				for i, m := range v.Moves {
					out[b] = append(out[b], fmt.Sprintf("%d:%s", i+1, m.Long))
				}
			}
		}
		return out
	})
	c.Restart(0)
	c.WaitReady()
	// Node 1 back: a spectator joining there gets every set's game whole
	// from the retained states.
	var mu sync.Mutex
	states := map[string]int{}
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Prefix, fo.QoS, fo.Name = c.MQTT(0), prefix, 0, "late"
	f, err := mqtt.Follow(fo, mqtt.Handlers{State: func(b string, s protocol.State) {
		mu.Lock()
		states[b] = len(s.Moves)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := 0
		for _, m := range states {
			if m == moves {
				n++
			}
		}
		mu.Unlock()
		if n == sets {
			break
		}
		if time.Now().After(deadline) {
			rctx, rcancel := context.WithTimeout(context.Background(), time.Millisecond)
			ready := f.Ready(rctx)
			rcancel()
			t.Fatalf("a spectator on the restarted node has the whole game of %d sets of %d: %v (connected %v, subscribed: %v)",
				n, sets, states, f.Connected(), ready)
		}
	}
}
