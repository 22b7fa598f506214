package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/natstest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/web"
)

// A hall whose node freezes (a hung machine, a pulled cable: no TCP reset,
// its clients hear nothing): the sets on it and the view whose own node it
// is go on. The sets send their next moves on their standby once a PUBACK
// is overdue (mqtt.Opts.SuspectAfter), the view takes them from the node
// it follows as a standby, so the view's spectators see every move within
// seconds, not after the 30 s and more of paho's keep-alive; and when the
// node goes on, what it held (moves already shown) changes nothing: the
// view shows each game once, in order.
func TestHallFrozenNodeKeepsTheViewGoing(t *testing.T) {
	c := natstest.StartFreezable(t, 3)
	const prefix, sets, frozen = "hallf", 9, 0
	display := newDisplay(t, c.MQTT(2), prefix, "display-3")
	hub := web.NewHub(web.DefaultOpts())
	// The view's own node is the one that freezes; it follows node 1 as
	// its standby.
	view, err := newViewer(viewerOpts{Broker: c.MQTT(frozen) + "," + c.MQTT(1), Prefix: prefix, QoS: 0}, hub, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer view.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	var all []*loadSet
	for i := range sets {
		mo := mqtt.DefaultOpts()
		mo.Broker, mo.Prefix, mo.BoardID = c.Brokers(), prefix, fmt.Sprintf("set-%d", i+1)
		mo.ClientID, mo.StateDir = "tridboard-"+mo.BoardID, filepath.Join(dir, mo.BoardID)
		mo.Discovery, mo.Logger = "", quiet
		os.MkdirAll(mo.StateDir, 0o700)
		cli, err := mqtt.New(mo, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := &loadSet{id: mo.BoardID, cli: cli, sys: st3d.System, rng: rand.New(rand.NewPCG(uint64(i), 11))}
		s.newGame(time.Now())
		all = append(all, s)
		t.Cleanup(func() { cli.Close(context.Background()) })
	}
	for _, s := range all {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		err := s.cli.WaitConnected(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	onFrozen := 0
	for _, id := range c.Clients(frozen) {
		if strings.HasPrefix(id, "tridboard-set-") && !strings.HasSuffix(id, mqtt.StandbySuffix) {
			onFrozen++
		}
	}
	if onFrozen == 0 {
		t.Fatalf("no set on node %d: %v", frozen, c.Clients(frozen))
	}
	play := func(n int) {
		for range n {
			for _, s := range all {
				if _, err := s.step(time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(300 * time.Millisecond) // the sets' pace, not an assertion
		}
	}
	want := func() map[string]string {
		out := map[string]string{}
		for _, s := range all {
			var ms []string
			for i, m := range s.g.Long() {
				ms = append(ms, fmt.Sprintf("%d:%s", i+1, m))
			}
			out[s.id] = strings.Join(ms, " ")
		}
		return out
	}
	shown := func() map[string]string {
		out := map[string]string{}
		for _, s := range all {
			if v, ok := hub.View(s.id); ok {
				var ms []string
				for i, m := range v.Moves {
					ms = append(ms, fmt.Sprintf("%d:%s", i+1, m.Long))
				}
				out[s.id] = strings.Join(ms, " ")
			}
		}
		return out
	}
	// waitShown waits until the view shows every game as played.
	waitShown := func(what string, within time.Duration) {
		t.Helper()
		w := want()
		for deadline := time.Now().Add(within); ; time.Sleep(50 * time.Millisecond) {
			g := shown()
			missing := []string{}
			for b := range w {
				if g[b] != w[b] {
					missing = append(missing, b)
				}
			}
			if len(missing) == 0 {
				return
			}
			if time.Now().After(deadline) {
				for _, s := range all {
					t.Logf("%s: %+v; shows %q, played %q", s.id, s.cli.Stats(), g[s.id], w[s.id])
				}
				t.Fatalf("%s: the view does not show every move within %v: %v", what, within, missing)
			}
		}
	}
	play(3)
	waitShown("before the freeze", 60*time.Second)
	c.Freeze(frozen)
	play(4)
	// The sets on the frozen node: SuspectAfter (2 s) and their standby;
	// the view: its standby follower. Before, 30 s and more (paho's
	// keep-alive); 12 s is for a busy machine.
	waitShown(fmt.Sprintf("node %d frozen, %d sets on it", frozen, onFrozen), 12*time.Second)
	c.Thaw(frozen) // the node goes on: what it held comes late
	play(2)
	waitShown("the node going on", 60*time.Second)
	// A display on another node got every move once, in order.
	got, dups, late := display.applied()
	w := want()
	for b := range w {
		if strings.Join(got[b], " ") != w[b] {
			t.Errorf("the display shows %s as %v, want %s", b, got[b], w[b])
		}
	}
	if late > 0 {
		t.Errorf("the display got %d moves out of order", late)
	}
	t.Logf("%d sets on the frozen node; the display dropped %d resent moves", onFrozen, dups)
}
