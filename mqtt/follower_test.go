package mqtt

import (
	"context"
	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
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
