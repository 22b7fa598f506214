package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sim"
)

// gate records the commands it runs; the first waits until release closes.
type gate struct {
	release chan struct{}
	now     func() time.Time // if set, the clock of at
	mu      sync.Mutex
	ran     []protocol.Command
	at      []time.Time // when each command ran, on now
}

func (g *gate) Command(ctx context.Context, cmd protocol.Command) (any, error) {
	g.mu.Lock()
	first := len(g.ran) == 0
	g.ran = append(g.ran, cmd)
	if g.now != nil {
		g.at = append(g.at, g.now())
	}
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
	pub := mqtttest.Publisher(t, tb.url, tb.user, tb.pass)
	send := func(tr int, name, payload string) {
		mqtttest.WaitToken(t, pub.Publish(base+"set/"+name, 1, false, fmt.Sprintf(`{"transaction":%d,%s}`, tr, payload)), "publish")
	}
	send(0, protocol.CmdResync, `"token":""`)
	tr := 1
	for range 20 {
		send(tr, protocol.CmdClock, `"action":"add","side":"white","ms":1000`)
		tr++
	}
	for _, ms := range []int{5000, 7000, 9000} {
		send(tr, protocol.CmdClock, fmt.Sprintf(`"action":"set","side":"black","ms":%d`, ms))
		tr++
	}
	send(tr, protocol.CmdClock, `"action":"add","side":"black","ms":1000`)
	tr++
	send(tr, protocol.CmdClock, `"action":"pause"`)
	tr++
	send(tr, protocol.CmdClock, `"action":"pause"`)
	tr++
	// Every command has reached the daemon's queue (the first runs).
	for deadline := time.Now().Add(15 * time.Second); len(c.cmds) < tr-1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d commands reached the queue in 15 s", len(c.cmds), tr-1)
		}
	}
	close(g.release)
	tb.rec.WaitCount(t, base+"response/"+protocol.CmdClock, tr-1)
	g.mu.Lock()
	defer g.mu.Unlock()
	want := []protocol.Command{protocol.AdjustClock{Action: protocol.ClockAdd, Side: rules.White, MS: 20000}, protocol.AdjustClock{Action: protocol.ClockSet, Side: rules.Black, MS: 9000},
		protocol.AdjustClock{Action: protocol.ClockAdd, Side: rules.Black, MS: 1000}, protocol.AdjustClock{Action: protocol.ClockPause}, protocol.AdjustClock{Action: protocol.ClockPause}}
	if len(g.ran) != len(want)+1 || !reflect.DeepEqual(g.ran[1:], want) {
		t.Errorf("the game ran %v, want a resync then %v", g.ran, want)
	}
	seen := map[int]bool{}
	for _, m := range tb.rec.On(base + "response/" + protocol.CmdClock) {
		var r struct {
			Transaction int    `json:"transaction"`
			Status      string `json:"status"`
		}
		json.Unmarshal([]byte(m.Payload), &r)
		if seen[r.Transaction] || r.Status != protocol.StatusOK {
			t.Errorf("reply %s: twice, or not ok", m.Payload)
		}
		seen[r.Transaction] = true
	}
	if len(seen) != tr-1 {
		t.Errorf("%d clock commands answered, want %d", len(seen), tr-1)
	}
}

// TestClockGap (issue 22): clock changes run at most one per ClockGap (on a
// simulated clock here): the adds that come during the gap wait for its
// end, then run as one, each answered.
func TestClockGap(t *testing.T) {
	tb := embedded(t, false)
	clk := sim.NewTimeSource(time.Time{})
	g := &gate{release: make(chan struct{}), now: clk.Now}
	o := testOpts(tb, t.TempDir())
	o.ClockGap, o.Now, o.NewTimer = time.Second, clk.Now, clk.NewTimer
	c := newClient(t, o, g)
	waitConnected(t, c)
	base := "tridboard/board/"
	pub := mqtttest.Publisher(t, tb.url, tb.user, tb.pass)
	add := func(tr int) {
		mqtttest.WaitToken(t, pub.Publish(base+"set/"+protocol.CmdClock, 1, false, fmt.Sprintf(`{"transaction":%d,"action":"add","side":"white","ms":1000}`, tr)), "publish")
	}
	poll := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	// The first runs (and holds the game until released); five more queue.
	add(0)
	poll("the first change to run", func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.ran) == 1 })
	for tr := 1; tr < 6; tr++ {
		add(tr)
	}
	poll("five changes queued", func() bool { return len(c.cmds) == 5 })
	t0 := clk.Now()
	close(g.release)
	// The loop takes the next change and waits for the gap the first one
	// started: a timer at t0 + 1 s. Only the simulated clock ends it.
	poll("the next change to wait for the gap", func() bool {
		return len(c.cmds) == 4 && slices.Contains(clk.Timers(), t0.Add(time.Second))
	})
	clk.Advance(time.Second)
	tb.rec.WaitCount(t, base+"response/"+protocol.CmdClock, 6)
	g.mu.Lock()
	defer g.mu.Unlock()
	want := []protocol.Command{protocol.AdjustClock{Action: protocol.ClockAdd, Side: rules.White, MS: 1000}, protocol.AdjustClock{Action: protocol.ClockAdd, Side: rules.White, MS: 5000}}
	if !reflect.DeepEqual(g.ran, want) {
		t.Errorf("the game ran %v, want %v", g.ran, want)
	}
	if wantAt := []time.Time{t0, t0.Add(time.Second)}; !slices.Equal(g.at, wantAt) {
		t.Errorf("the changes ran at %v, want %v (one gap apart)", g.at, wantAt)
	}
}
