package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/web"
)

// hallNode is a broker on a port of its own (a cluster node, for a
// view given several).
func hallNode(t *testing.T, port int) *broker.Broker {
	t.Helper()
	bo := broker.DefaultOpts()
	bo.Addr, bo.BoardID = fmt.Sprintf("127.0.0.1:%d", port), ""
	b, err := broker.Start(bo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// connectSet gives a simulated set a client on broker url.
func connectSet(t *testing.T, s *loadSet, url string) {
	t.Helper()
	mo := mqtt.DefaultOpts()
	mo.Broker, mo.Prefix, mo.BoardID = url, "hall", s.id
	mo.ClientID, mo.StateDir = fmt.Sprintf("tridboard-%s-%d", s.id, time.Now().UnixNano()), filepath.Join(t.TempDir(), s.id)
	mo.Discovery, mo.Logger = "", slog.New(slog.NewTextHandler(io.Discard, nil))
	cli, err := mqtt.New(mo, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close(context.Background()) })
	s.cli = cli
}

// A view loses its node and reconnects to another, whose retained states
// are older than what the view shows: one set's state of the same game
// two moves back, the other's of the game before. Nothing goes back: not
// the view's boards, not what a spectator of its wall sees.
func TestViewNeverStepsBackOnAnotherNode(t *testing.T) {
	portB := freeport.Loopback(t)
	b := hallNode(t, portB)
	a := hallNode(t, 0)
	s1 := &loadSet{id: "s1", sys: st3d.System, rng: rand.New(rand.NewPCG(1, 1))}
	s2 := &loadSet{id: "s2", sys: st3d.System, rng: rand.New(rand.NewPCG(2, 2))}
	// What node B holds: s1's game after 2 moves, s2's game before.
	s1.newGame(time.Now())
	s2.newGame(time.Now().Add(-time.Hour))
	connectSet(t, s1, b.URL())
	connectSet(t, s2, b.URL())
	for range 2 {
		s1.step(time.Now())
		s2.step(time.Now())
	}
	retained(t, b.URL(), map[string]int{"s1": 2, "s2": 2})
	// Node A: the same sets went on there, s1 to move 5, s2 in a new game.
	connectSet(t, s1, a.URL())
	connectSet(t, s2, a.URL())
	s2.newGame(time.Now())
	for range 3 {
		s1.step(time.Now())
		s2.step(time.Now())
	}
	retained(t, a.URL(), map[string]int{"s1": 5, "s2": 3})
	hub := web.NewHub(web.DefaultOpts())
	v, err := newViewer(viewerOpts{Broker: a.URL() + "," + b.URL(), Prefix: "hall", QoS: 0}, hub, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	shows := func(id, game string, plies int) func() bool {
		return func() bool { bv, ok := hub.View(id); return ok && bv.Game == game && len(bv.Moves) == plies }
	}
	waitAMinute(t, "the view on node A", func() bool { return shows("s1", s1.game, 5)() && shows("s2", s2.game, 3)() })
	srv := httptest.NewServer(web.New(hub, web.DefaultServerOpts()).Handler())
	defer srv.Close()
	spect := newViewLoad()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	spect.start(ctx, []string{srv.URL}, 1, nil, &wg)
	final := map[string]string{"s1": fmt.Sprintf("%s/%d", s1.game, 5), "s2": fmt.Sprintf("%s/%d", s2.game, 3)}
	waitAMinute(t, "the spectator", func() bool { return spect.caughtUp(final) })

	a.Close() // node A dies: the view moves to B and gets its retained states
	marker := &loadSet{id: "marker", sys: st3d.System, rng: rand.New(rand.NewPCG(3, 3))}
	marker.newGame(time.Now())
	connectSet(t, marker, b.URL())
	// A move published on B after the view subscribed there comes after
	// B's retained states.
	deadline := time.Now().Add(time.Minute)
	for bv, ok := hub.View("marker"); !ok || marker.seq == 0 || bv.Game != marker.game || bv.Seq != marker.seq; bv, ok = hub.View("marker") {
		if time.Now().After(deadline) {
			t.Fatal("the view never followed node B")
		}
		if v.f.Connected() {
			marker.step(time.Now())
		}
		time.Sleep(100 * time.Millisecond) // the set's pace, not an assertion
	}
	for _, c := range []struct {
		id, game string
		plies    int
	}{{"s1", s1.game, 5}, {"s2", s2.game, 3}} {
		if !shows(c.id, c.game, c.plies)() {
			bv, _ := hub.View(c.id)
			t.Errorf("%s after node B's retained states: game %s with %d plies, want %s with %d", c.id, bv.Game, len(bv.Moves), c.game, c.plies)
		}
	}
	final["marker"] = fmt.Sprintf("%s/%d", marker.game, marker.seq)
	waitAMinute(t, "the spectator on node B", func() bool { return spect.caughtUp(final) })
	var r loadReport
	spect.report(final, &r)
	if r.Reordered != 0 || r.Whole != 1 {
		t.Errorf("the spectator saw %d summaries going back, %d of 1 whole", r.Reordered, r.Whole)
	}
}

// waitAMinute polls cond for a minute: generous, for a busy machine.
func waitAMinute(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s for a minute", what)
		}
	}
}

// retained waits until the retained states on broker url hold the moves
// want says (board -> moves).
func retained(t *testing.T, url string, want map[string]int) {
	t.Helper()
	var mu sync.Mutex
	got := map[string]int{}
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Prefix, fo.QoS, fo.Name = url, "hall", 0, "retained"
	f, err := mqtt.Follow(fo, mqtt.Handlers{State: func(b string, s protocol.State) {
		mu.Lock()
		got[b] = len(s.Moves)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	waitAMinute(t, fmt.Sprintf("the retained states on %s", url), func() bool {
		mu.Lock()
		defer mu.Unlock()
		for b, n := range want {
			if got[b] != n {
				return false
			}
		}
		return true
	})
}

// --peers takes the other views' base URLs, and refuses anything else
// with a usage error; --wall-tick a duration from 10 ms to 10 s.
func TestViewPeersFlag(t *testing.T) {
	got, err := parsePeers(" http://hall-2:8080/, https://hall-3 ")
	if err != nil || len(got) != 2 || got[0] != "http://hall-2:8080" || got[1] != "https://hall-3" {
		t.Fatalf("parsePeers: %q, %v", got, err)
	}
	var out, errb bytes.Buffer
	if code := dispatch([]string{"view", "--broker", "tcp://127.0.0.1:1", "--wall-tick", "1ms"}, &out, &errb); code != exitUsage ||
		!strings.Contains(errb.String(), "--wall-tick 1ms: want 10ms to 10s") {
		t.Errorf("--wall-tick 1ms: exit %d, %q; want a usage error", code, errb.String())
	}
	for _, bad := range []string{"hall-2:8080", "ftp://hall-2", "http://", "http://hall-2/wall", "http://a,,http://b"} {
		var out, errb bytes.Buffer
		if code := dispatch([]string{"view", "--broker", "tcp://127.0.0.1:1", "--http", "127.0.0.1:0", "--peers", bad}, &out, &errb); code != exitUsage ||
			!strings.Contains(errb.String(), "--peers") {
			t.Errorf("--peers %q: exit %d, %q; want a usage error", bad, code, errb.String())
		}
	}
}
