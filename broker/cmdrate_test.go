package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
)

// TestCommandRatePerClient (issue 22): the embedded broker limits each
// client's commands (5 a second, a burst of 10, on a simulated clock): a
// flooding client gets busy replies from the broker beyond its budget and
// the daemon never sees those commands; another client is not held up;
// the budget comes back with time; every command gets one reply.
func TestCommandRatePerClient(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	recd := mqtttest.NewRecorder()
	b, err := Start(Opts{Addr: freeport.Addr(t), Username: testUser, Password: testPass, Logger: mqtttest.Quiet,
		Prefix: "tridboard", BoardID: "board", DaemonClientID: "tridboard-board", CommandRate: 5, now: clock,
		BcryptCost: 4, onServe: func(s *mochi.Server) error {
			return s.Subscribe("tridboard/#", 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
				recd.Add(mqtttest.Rec{Topic: pk.TopicName, Payload: string(pk.Payload), Retained: pk.FixedHeader.Retain})
			})
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	g := &counter{}
	o := testOpts(&testBroker{url: b.URL(), user: testUser, pass: testPass}, t.TempDir())
	o.ClientID = "tridboard-board"
	c := newClient(t, o, g)
	waitConnected(t, c)
	flood, other := mqtttest.Publisher(t, b.URL(), testUser, testPass), mqtttest.Publisher(t, b.URL(), testUser, testPass)
	tr := 0
	publish := func(p paho.Client, n int) {
		for range n {
			tr++
			mqtttest.WaitToken(t, p.Publish("tridboard/board/set/"+protocol.CmdResync, 1, false, fmt.Sprintf(`{"transaction":%d}`, tr)), "publish")
		}
	}
	publish(flood, 30) // 10 run, 20 busy
	publish(other, 3)  // 3 run
	mu.Lock()
	now = now.Add(time.Second) // 5 more for the flood
	mu.Unlock()
	publish(flood, 6) // 5 run, 1 busy
	got := recd.WaitCount(t, "tridboard/board/response/"+protocol.CmdResync, tr)
	status := map[string]int{}
	seen := map[int]bool{}
	for _, m := range got {
		var r protocol.Response
		if err := json.Unmarshal([]byte(m.Payload), &r); err != nil {
			t.Fatal(err)
		}
		var n int
		json.Unmarshal(r.Transaction, &n)
		if seen[n] {
			t.Errorf("transaction %d answered twice", n)
		}
		seen[n] = true
		status[r.Status]++
		if r.Status == protocol.StatusBusy && r.Reason != "busy: over 5 commands a second from this client; send it again later" {
			t.Errorf("busy reply %s", m.Payload)
		}
	}
	if status[protocol.StatusOK] != 18 || status[protocol.StatusBusy] != 21 || len(seen) != 39 {
		t.Errorf("replies by status %v for %d commands, want 18 ok and 21 busy", status, len(seen))
	}
	if n := g.ran.Load(); n != 18 {
		t.Errorf("the daemon ran %d commands, want 18", n)
	}
}

// counter is a daemon that counts the commands it runs.
type counter struct{ ran atomic.Int64 }

func (c *counter) Command(context.Context, protocol.Command) (any, error) {
	c.ran.Add(1)
	return nil, nil
}
