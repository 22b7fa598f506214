package broker

import (
	"context"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
)

// The daemon's account of the test brokers.
const testUser, testPass = "board", "pa55word"

// testBroker is where the daemon's client of a test connects; start and
// stop restart it on the same port (Mosquitto only).
type testBroker struct {
	url, user, pass string
	start, stop     func(t testing.TB)
}

type mosqOpts struct {
	users map[string]string // password_file entries
}

// mosquitto starts Mosquitto (internal/mosquittotest) on a free loopback
// port, persistence on, to compare the embedded broker with.
func mosquitto(t testing.TB, mo mosqOpts) *testBroker {
	t.Helper()
	bo := mosquittotest.DefaultOpts()
	bo.Users = mo.users
	b := mosquittotest.StartWith(t, bo)
	tb := &testBroker{url: b.URL, start: func(t testing.TB) { b.Start(t) }, stop: func(testing.TB) { b.Stop() }}
	for u, p := range mo.users {
		tb.user, tb.pass = u, p
	}
	return tb
}

// testOpts are the daemon's client options for tb, fast to reconnect.
func testOpts(tb *testBroker, dir string) mqtt.Opts {
	o := mqtt.DefaultOpts()
	o.Broker = tb.url
	o.Username, o.Password = tb.user, tb.pass
	o.StateDir = dir
	o.RetryMin, o.RetryMax = 20*time.Millisecond, 200*time.Millisecond
	o.AckTimeout = 2 * time.Second
	o.ConnectTimeout = 2 * time.Second
	o.Logger = mqtttest.Quiet
	o.Version = "test"
	return o
}

func newClient(t testing.TB, o mqtt.Opts, h protocol.Handler) *mqtt.Client {
	t.Helper()
	c, err := mqtt.New(o, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func waitConnected(t testing.TB, c *mqtt.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
}

// testState is a state the daemon's client publishes.
var testState = protocol.State{V: protocol.Version, Game: "g1", Variant: "st3d", Position: "pos-g1-1",
	MoveNumber: 1, Result: protocol.ResultOngoing, Time: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}

// TestOwnTopicsAreTheClients: the topics the broker keeps for the daemon
// are the client's.
func TestOwnTopicsAreTheClients(t *testing.T) {
	for _, tc := range [][2]string{{topicState, mqtt.TopicState}, {topicAvailability, mqtt.TopicAvailability}, {topicKey, mqtt.TopicKey}} {
		if tc[0] != tc[1] {
			t.Errorf("broker keeps %q for the daemon, the client publishes %q", tc[0], tc[1])
		}
	}
}
