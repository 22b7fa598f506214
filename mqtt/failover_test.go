package mqtt

import (
	"encoding/json"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
)

// A set given a cluster's nodes moves to another when its node dies, and
// the outbox delivers every move across the switch: each seq reaches the
// nodes' subscribers in order, a resent one only as a byte-identical
// duplicate. Two brokers stand in for the nodes; each node's subscriber
// records what reached it, and together they hold the game.
func TestFailoverToAnotherNode(t *testing.T) {
	a, b := embedded(t, false), embedded(t, false)
	o := testOpts(a, t.TempDir())
	o.Broker = a.url + "," + b.url
	c := newClient(t, o, nil)
	waitConnected(t, c)
	waitStandby(t, c) // on the other node, before it is needed
	enqueue := func(from, to int) {
		for s := from; s <= to; s++ {
			if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
				t.Fatal(err)
			}
		}
	}
	enqueue(1, 10)
	waitDrained(t, c)
	first, second := a, b
	if len(b.rec.On("tridboard/board/move")) > 0 {
		first, second = b, a
	}
	first.stop(t) // the node dies in the middle of the game
	enqueue(11, 20)
	second.rec.WaitSeq(t, 20)
	first.start(t)
	second.stop(t) // and back again
	enqueue(21, 30)
	first.rec.WaitSeq(t, 30)
	waitDrained(t, c)
	// Each node's subscriber saw its moves in order (a resent seq again
	// only as the same bytes), and together they hold every seq: the first
	// node 1..10 and 21..30, the second 11..20.
	got := map[int]string{}
	dups := 0
	for _, node := range []*testBroker{first, second} {
		last := 0
		for _, r := range node.rec.On("tridboard/board/move") {
			var m protocol.Move
			if err := json.Unmarshal([]byte(r.Payload), &m); err != nil {
				t.Fatal(err)
			}
			if p, ok := got[m.Seq]; ok {
				if p != r.Payload {
					t.Fatalf("%s: seq %d twice with different payloads", node.name, m.Seq)
				}
				dups++
				continue
			}
			if m.Seq < last {
				t.Fatalf("%s: seq %d after %d", node.name, m.Seq, last)
			}
			want, _ := json.Marshal(mqtttest.Move("g1", m.Seq))
			if r.Payload != string(want) {
				t.Fatalf("seq %d: %s, want %s", m.Seq, r.Payload, want)
			}
			got[m.Seq], last = r.Payload, m.Seq
		}
	}
	for s := 1; s <= 30; s++ {
		if _, ok := got[s]; !ok {
			t.Errorf("seq %d reached no node", s)
		}
	}
	t.Logf("30 moves over two node failures, %d resent", dups)
	second.start(t) // for the cleanup, which closes it
	if st := c.Stats(); !st.Connected {
		t.Errorf("not connected at the end: %+v", st)
	}
}

// waitStandby waits until c's standby connection is up.
func waitStandby(t testing.TB, c *Client) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for st := c.Stats(); !st.Standby; st = c.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v: want the standby up", st)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
