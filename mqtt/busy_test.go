package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

// blocked is a handler whose commands wait until release is closed.
type blocked struct{ release chan struct{} }

func (b blocked) Command(ctx context.Context, _ Command) (any, error) {
	select {
	case <-b.release:
	case <-ctx.Done():
	}
	return nil, nil
}

// TestCommandsBeyondQueueAnsweredBusy: commands sent at once to a daemon
// busy with the first one: every one gets a reply, "ok" for those that
// waited in the queue and ran, "busy" for the others, none dropped. The
// flood of 5,000 (issue 22) is beyond the 4,096 busy replies that used to
// wait for their PUBACKs one at a time; a 60 s flood got 86,922 commands
// no reply.
func TestCommandsBeyondQueueAnsweredBusy(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		qos  byte
	}{{"1,000 at QoS 0", 1000, 0}, {"a flood of 5,000 at QoS 1", 5000, 1}} {
		t.Run(tc.name, func(t *testing.T) { answeredBusy(t, tc.n, tc.qos) })
	}
}

func answeredBusy(t *testing.T, n int, qos byte) {
	tb := embedded(t, false)
	h := blocked{make(chan struct{})}
	c := newClient(t, testOpts(tb, t.TempDir()), h)
	waitConnected(t, c)
	base := "tridboard/board/"
	pub := publisher(t, tb.url, tb.user, tb.pass)
	for i := range n {
		pub.Publish(base+"set/"+CmdResync, qos, false, fmt.Sprintf(`{"transaction":%d}`, i))
	}
	// The busy replies arrive while the first command still runs.
	tb.rec.waitCount(t, base+"response/"+CmdResync, n-commandQueue-1)
	close(h.release)
	got := tb.rec.waitCount(t, base+"response/"+CmdResync, n)
	seen := map[int]string{}
	status := map[string]int{}
	for _, m := range got {
		var r struct {
			Transaction int    `json:"transaction"`
			Status      string `json:"status"`
			Reason      string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(m.payload), &r); err != nil {
			t.Fatalf("reply %s: %v", m.payload, err)
		}
		if prev, dup := seen[r.Transaction]; dup {
			t.Fatalf("transaction %d answered twice: %s and %s", r.Transaction, prev, m.payload)
		}
		seen[r.Transaction] = m.payload
		status[r.Status]++
		if r.Status == StatusBusy && r.Reason != "busy: 32 commands are waiting; send it again later" {
			t.Errorf("busy reply %s", m.payload)
		}
	}
	if len(seen) != n {
		t.Fatalf("%d commands answered, want %d", len(seen), n)
	}
	if status[StatusOK]+status[StatusBusy] != n || status[StatusOK] < commandQueue+1 || status[StatusBusy] == 0 {
		t.Fatalf("replies by status %v: want only ok and busy, at least %d ok", status, commandQueue+1)
	}
}

// gate records the commands it runs; the first waits until release closes.
type gate struct {
	release chan struct{}
	mu      sync.Mutex
	ran     []Command
}

func (g *gate) Command(ctx context.Context, cmd Command) (any, error) {
	g.mu.Lock()
	first := len(g.ran) == 0
	g.ran = append(g.ran, cmd)
	g.mu.Unlock()
	if first {
		<-g.release
	}
	return nil, nil
}

// TestClockChangesCoalesced (issue 22): an arbiter's clock changes waiting
// in the queue run as one change of the game (one journal record, one
// fsync) when they are adds to the same side (summed) or sets of the same
// side (the last counts); every command still gets its own reply. A flood
// of clock commands wrote 980 KB and 8,700 fsyncs a minute, one per command.
func TestClockChangesCoalesced(t *testing.T) {
	tb := embedded(t, false)
	g := &gate{release: make(chan struct{})}
	c := newClient(t, testOpts(tb, t.TempDir()), g)
	waitConnected(t, c)
	base := "tridboard/board/"
	pub := publisher(t, tb.url, tb.user, tb.pass)
	send := func(tr int, name, payload string) {
		waitToken(t, pub.Publish(base+"set/"+name, 1, false, fmt.Sprintf(`{"transaction":%d,%s}`, tr, payload)), "publish")
	}
	send(0, CmdResync, `"token":""`)
	tr := 1
	for range 20 {
		send(tr, CmdClock, `"action":"add","side":"white","ms":1000`)
		tr++
	}
	for _, ms := range []int{5000, 7000, 9000} {
		send(tr, CmdClock, fmt.Sprintf(`"action":"set","side":"black","ms":%d`, ms))
		tr++
	}
	send(tr, CmdClock, `"action":"add","side":"black","ms":1000`)
	tr++
	send(tr, CmdClock, `"action":"pause"`)
	tr++
	send(tr, CmdClock, `"action":"pause"`)
	tr++
	close(g.release)
	tb.rec.waitCount(t, base+"response/"+CmdClock, tr-1)
	g.mu.Lock()
	defer g.mu.Unlock()
	want := []Command{Clock{Action: ClockAdd, Side: rules.White, MS: 20000}, Clock{Action: ClockSet, Side: rules.Black, MS: 9000},
		Clock{Action: ClockAdd, Side: rules.Black, MS: 1000}, Clock{Action: ClockPause}, Clock{Action: ClockPause}}
	if len(g.ran) != len(want)+1 || !reflect.DeepEqual(g.ran[1:], want) {
		t.Errorf("the game ran %v, want a resync then %v", g.ran, want)
	}
	seen := map[int]bool{}
	for _, m := range tb.rec.on(base + "response/" + CmdClock) {
		var r struct {
			Transaction int    `json:"transaction"`
			Status      string `json:"status"`
		}
		json.Unmarshal([]byte(m.payload), &r)
		if seen[r.Transaction] || r.Status != StatusOK {
			t.Errorf("reply %s: twice, or not ok", m.payload)
		}
		seen[r.Transaction] = true
	}
	if len(seen) != tr-1 {
		t.Errorf("%d clock commands answered, want %d", len(seen), tr-1)
	}
}
