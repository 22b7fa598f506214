package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
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

// TestCommandsBeyondQueueAnsweredBusy: 1,000 QoS-0 commands sent at once to
// a daemon busy with the first one: every one gets a reply, "ok" for those
// that waited in the queue and ran, "busy" for the others, none dropped.
func TestCommandsBeyondQueueAnsweredBusy(t *testing.T) {
	tb := embedded(t, false)
	h := blocked{make(chan struct{})}
	c := newClient(t, testOpts(tb, t.TempDir()), h)
	waitConnected(t, c)
	const n = 1000
	base := "tridboard/board/"
	pub := publisher(t, tb.url, tb.user, tb.pass)
	for i := range n {
		pub.Publish(base+"set/"+CmdResync, 0, false, fmt.Sprintf(`{"transaction":%d}`, i))
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

// TestFloodEveryCommandAnswered (issue 22): a flood far beyond both queues
// (5,000 QoS 1 commands at once at a daemon busy with the first one) gets a reply
// for every command; before, 86,922 of a 60 s flood got none.
func TestFloodEveryCommandAnswered(t *testing.T) {
	tb := embedded(t, false)
	h := blocked{make(chan struct{})}
	c := newClient(t, testOpts(tb, t.TempDir()), h)
	waitConnected(t, c)
	const n = 5000
	base := "tridboard/board/"
	pub := publisher(t, tb.url, tb.user, tb.pass)
	for i := range n {
		pub.Publish(base+"set/"+CmdResync, 1, false, fmt.Sprintf(`{"transaction":%d}`, i))
	}
	tb.rec.waitCount(t, base+"response/"+CmdResync, n-commandQueue-1)
	close(h.release)
	got := tb.rec.waitCount(t, base+"response/"+CmdResync, n)
	seen := map[int]bool{}
	for _, m := range got {
		var r struct {
			Transaction int `json:"transaction"`
		}
		json.Unmarshal([]byte(m.payload), &r)
		seen[r.Transaction] = true
	}
	if len(seen) != n {
		t.Fatalf("%d commands answered, want %d", len(seen), n)
	}
}
