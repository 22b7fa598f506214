package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"testing"

	"github.com/tridboard/tridboard/protocol"
)

// blocked is a handler whose commands wait until release is closed.
type blocked struct{ release chan struct{} }

func (b blocked) Command(ctx context.Context, _ protocol.Command) (any, error) {
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
	pub := mqtttest.Publisher(t, tb.url, tb.user, tb.pass)
	for i := range n {
		pub.Publish(base+"set/"+protocol.CmdResync, qos, false, fmt.Sprintf(`{"transaction":%d}`, i))
	}
	// The busy replies arrive while the first command still runs.
	tb.rec.WaitCount(t, base+"response/"+protocol.CmdResync, n-commandQueue-1)
	close(h.release)
	got := tb.rec.WaitCount(t, base+"response/"+protocol.CmdResync, n)
	seen := map[int]string{}
	status := map[string]int{}
	var wrong []mqtttest.Rec // busy replies with another reason
	for _, m := range got {
		var r struct {
			Transaction int    `json:"transaction"`
			Status      string `json:"status"`
			Reason      string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(m.Payload), &r); err != nil {
			t.Fatalf("reply %s: %v", m.Payload, err)
		}
		if prev, dup := seen[r.Transaction]; dup {
			t.Fatalf("transaction %d answered twice: %s and %s", r.Transaction, prev, m.Payload)
		}
		seen[r.Transaction] = m.Payload
		status[r.Status]++
		if r.Status == protocol.StatusBusy && r.Reason != "busy: 32 commands are waiting; send it again later" {
			wrong = append(wrong, m)
		}
	}
	if len(wrong) > 0 {
		t.Errorf("busy replies with another reason: %s", mqtttest.Summary(wrong))
	}
	if len(seen) != n {
		t.Fatalf("%d commands answered, want %d", len(seen), n)
	}
	if status[protocol.StatusOK]+status[protocol.StatusBusy] != n || status[protocol.StatusOK] < commandQueue+1 || status[protocol.StatusBusy] == 0 {
		t.Fatalf("replies by status %v: want only ok and busy, at least %d ok", status, commandQueue+1)
	}
}
