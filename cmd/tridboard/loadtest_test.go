package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// loadtest: every move of every simulated set arrives once and in order
// through a real broker (the embedded one here; BenchmarkLoadtest uses
// Mosquitto), and the report counts them.
func TestLoadtestEmbedded(t *testing.T) {
	url := embeddedBroker(t)
	r, err := loadTest(context.Background(), loadOpts{Broker: url, Prefix: "lt", Variant: "st3d", Boards: 3, Moves: 5,
		Duration: 20 * time.Second, Interval: 10 * time.Millisecond, Drain: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sent != 15 || r.Received != 15 || r.Lost != 0 || r.Duplicated != 0 || r.OutOfOrder != 0 || r.P50 <= 0 || r.P99 < r.P50 {
		t.Fatalf("report: %v", r)
	}
}

// loadtest refuses unbounded runs and, without --allow-remote, brokers
// beyond loopback.
func TestLoadtestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--boards", "3"}, "--broker is required"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--boards", "0"}, "--boards 0: want 1 to 1000"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--moves", "20000"}, "--moves 20000"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--seconds", "7200"}, "--seconds 7200"},
		{[]string{"--broker", "tcp://192.168.1.5:1883"}, "beyond loopback"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--variant", "chess"}, `unknown variant "chess"`},
	} {
		var out, errb bytes.Buffer
		code := dispatch(append([]string{"loadtest"}, tc.args...), &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), tc.err) {
			t.Errorf("loadtest %v: %d %q, want usage error %q", tc.args, code, errb.String(), tc.err)
		}
	}
}
