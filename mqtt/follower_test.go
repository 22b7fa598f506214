package mqtt

import (
	"context"
	"encoding/json"
	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/sim"
)

// A follower whose subscriptions the broker refuses (a display account
// reading another prefix) is not taken as subscribed: Ready waits, and the
// refusal is reported; it keeps trying (a cluster node that has just
// started refuses for a while, then serves).
func TestFollowerRefusedSubscription(t *testing.T) {
	b := displayBroker(t)
	var mu sync.Mutex
	var warned []string
	o := DefaultFollowerOpts()
	o.Broker, o.Username, o.Password, o.Prefix = b.URL(), dispUser, dispPass, "elsewhere"
	o.RetryMin, o.RetryMax = 10*time.Millisecond, 20*time.Millisecond
	o.Warn = func(msg string) { mu.Lock(); warned = append(warned, msg); mu.Unlock() }
	f, err := Follow(o, Handlers{State: func(string, protocol.State) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := f.Ready(ctx); err == nil {
		t.Fatal("Ready with every subscription refused")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) == 0 || !strings.Contains(warned[0], "refused (trying again)") {
		t.Errorf("warnings %q: want the refusal", warned)
	}

	// The same follower on the board's own prefix is subscribed.
	o.Prefix, o.Boards = "tridboard", []string{"board"}
	followReady(t, o, Handlers{State: func(string, protocol.State) {}})
}

// followReady follows with o and h, waits until subscribed (10 s at most)
// and closes the follower when the test ends.
func followReady(t *testing.T, o FollowerOpts, h Handlers) *Follower {
	t.Helper()
	f, err := Follow(o, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	return f
}

// A follower that only reads does not follow the replies, and refuses to
// send a command whose reply it would never see.
func TestFollowerCommandsNeedTheReplies(t *testing.T) {
	o := DefaultFollowerOpts()
	o.Broker = "tcp://127.0.0.1:1" // never reached: nothing here needs a broker
	f, err := Follow(o, Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if k := f.kinds(); len(k) != 0 {
		t.Errorf("a reader with no handler follows %v", k)
	}
	if _, err := f.Command(context.Background(), "b1", "resync", nil); err == nil || !strings.Contains(err.Error(), "FollowerOpts.Commands") {
		t.Errorf("Command without Commands: %v", err)
	}
	o.Commands = true
	g, err := Follow(o, Handlers{State: func(string, protocol.State) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if k := g.kinds(); !slices.Equal(k, []string{"response/+", "state"}) {
		t.Errorf("a commander with a state handler follows %v", k)
	}
}

// dispUser and dispPass are the display account of displayBroker.
const dispUser, dispPass = "hall", "display-secret"

// displayBroker starts an embedded broker with the daemon's account and a
// display's.
func displayBroker(t *testing.T) *broker.Broker {
	t.Helper()
	b, err := broker.Start(broker.Opts{Addr: "127.0.0.1:0", Username: testUser, Password: testPass, DaemonClientID: "tridboard-board",
		Prefix: "tridboard", BoardID: "board", Discovery: "homeassistant", BcryptCost: 4, Logger: mqtttest.Quiet,
		Accounts: []broker.Account{{Username: dispUser, Role: broker.RoleDisplay, Password: dispPass}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// A node that granted the subscription before it had the retained states
// (a NATS node just restarted) sends them only with a later subscription:
// a follower that has had nothing retained since it connected subscribes
// again until they come. Here the state is retained behind the follower's
// back, without being delivered, once it has subscribed.
func TestFollowerSubscribesAgainForTheRetainedStates(t *testing.T) {
	b := displayBroker(t)
	states := make(chan protocol.State, 4)
	clk := sim.NewTimeSource(time.Time{})
	o := DefaultFollowerOpts()
	o.Broker, o.Username, o.Password, o.Boards = b.URL(), dispUser, dispPass, []string{"board"}
	o.RetryMin, o.RetryMax = time.Second, 4*time.Second
	o.Now, o.NewTimer = clk.Now, clk.NewTimer
	followReady(t, o, Handlers{State: func(_ string, s protocol.State) { states <- s }})
	// Subscribed, nothing retained yet: the follower waits, on its clock,
	// twice RetryMin before subscribing again.
	want := clk.Now().Add(2 * time.Second)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if ts := clk.Timers(); len(ts) == 1 && ts[0].Equal(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("timers %v, want one at %v", clk.Timers(), want)
		}
	}
	// A state retained after the subscription is not sent with it (as a
	// cluster node that has just loaded its store): it comes with the next.
	payload, _ := json.Marshal(protocol.State{V: protocol.Version, Game: "g1", Variant: "st3d", Result: protocol.ResultOngoing})
	b.RetainQuietly("tridboard/board/state", payload)
	select {
	case s := <-states:
		t.Fatalf("state %q before the follower subscribed again", s.Game)
	default:
	}
	clk.Advance(2 * time.Second)
	select {
	case s := <-states:
		if s.Game != "g1" {
			t.Errorf("state of game %q, want g1", s.Game)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the retained state never came: the follower did not subscribe again")
	}
}

// A follower that has reconnected subscribes afresh at refreshAfter (on
// its clock), so that the retained states come again: a cluster that has
// just lost a node can leave a new subscription without some sets'
// messages. Here a state is retained behind the follower's back after it
// reconnected: it comes with the first refresh, not before.
func TestFollowerRefreshesAfterReconnecting(t *testing.T) {
	b := displayBroker(t)
	retain := func(game string) {
		payload, _ := json.Marshal(protocol.State{V: protocol.Version, Game: game, Variant: "st3d", Result: protocol.ResultOngoing})
		b.RetainQuietly("tridboard/board/state", payload)
	}
	retain("g1")
	states := make(chan string, 16)
	connected := make(chan struct{}, 4)
	clk := sim.NewTimeSource(time.Time{})
	o := DefaultFollowerOpts()
	o.Broker, o.Username, o.Password, o.Boards, o.ClientID = b.URL(), dispUser, dispPass, []string{"board"}, "refreshing"
	o.Now, o.NewTimer = clk.Now, clk.NewTimer
	followReady(t, o, Handlers{State: func(_ string, s protocol.State) { states <- s.Game },
		Connected: func() { connected <- struct{}{} }})
	got := func(want string) {
		t.Helper()
		select {
		case g := <-states:
			if g != want {
				t.Fatalf("state of game %q, want %q", g, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no state in 10 s, want game %q", want)
		}
	}
	got("g1")
	<-connected
	if !b.Drop("refreshing") {
		t.Fatal("the follower is not on the broker")
	}
	select {
	case <-connected:
	case <-time.After(30 * time.Second):
		t.Fatal("the follower did not reconnect in 30 s")
	}
	got("g1") // with the new subscription
	retain("g2")
	// The follower's timers: the check for retained states (2 s) and the
	// first refresh (5 s) after the reconnection.
	for deadline := time.Now().Add(10 * time.Second); len(clk.Timers()) < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timers %v, want two", clk.Timers())
		}
	}
	refresh := clk.Now().Add(5 * time.Second)
	clk.Advance(4 * time.Second)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if ts := clk.Timers(); len(ts) == 1 && ts[0].Equal(refresh) {
			break // the check found the state: the refresh alone waits
		}
		if time.Now().After(deadline) {
			t.Fatalf("timers %v, want the refresh's alone at %v", clk.Timers(), refresh)
		}
	}
	select {
	case g := <-states:
		t.Fatalf("state %q before the refresh", g)
	default:
	}
	clk.Advance(time.Second)
	got("g2")
}
