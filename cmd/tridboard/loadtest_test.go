package main

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/web"
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

// loadtest beyond an embedded broker's limits (64 connections from one
// address): the sets it refuses lose their moves, and the load test says
// why and what fits.
func TestLoadtestEmbeddedBeyondItsLimits(t *testing.T) {
	t.Parallel()
	url := embeddedBroker(t)
	var log bytes.Buffer
	r, err := loadTest(context.Background(), loadOpts{Broker: url, Prefix: "lt", Variant: "st3d", Boards: 70, Moves: 1,
		Duration: 5 * time.Second, Interval: 10 * time.Millisecond, Drain: 3 * time.Second, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if r.Lost == 0 || !strings.Contains(log.String(), "a hall needs Mosquitto or a NATS cluster") {
		t.Fatalf("70 sets on an embedded broker: %v\nlog:\n%s", r, log.String())
	}
}

// loadtest with viewers: spectators reading a view's wall stream end with
// every set's last move, and the report says so, with a line a set.
func TestLoadtestViewers(t *testing.T) {
	url := embeddedBroker(t)
	hub := web.NewHub(web.DefaultOpts())
	v, err := newViewer(viewerOpts{Broker: url, Prefix: "lv"}, hub, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	srv := httptest.NewServer(web.New(hub, web.DefaultServerOpts()).Handler())
	defer srv.Close()
	r, err := loadTest(context.Background(), loadOpts{Broker: url, Prefix: "lv", Variant: "st3d", Boards: 4, Moves: 6,
		Duration: 20 * time.Second, Interval: 20 * time.Millisecond, Drain: 10 * time.Second,
		Views: []string{srv.URL}, Viewers: 8, PerSet: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Lost != 0 || r.Viewers != 8 || r.Whole != 8 || r.Behind != 0 || r.Reordered != 0 || r.VP50 <= 0 || len(r.Sets) != 4 {
		t.Fatalf("report: %v", r)
	}
	if !strings.Contains(r.String(), "8 viewers: 8 with every set's last move") || !strings.Contains(r.Sets[0], "6 sent, last seq received 6") {
		t.Errorf("report text:\n%s", r)
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
		{[]string{"--broker", "tcp://127.0.0.1:1,tcp://10.0.0.2:1883"}, "tcp://10.0.0.2:1883 is beyond loopback"},
		{[]string{"--broker", "tcp://127.0.0.1:1,,tcp://127.0.0.1:2"}, "an empty entry"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--viewers", "5"}, "--viewers needs --views"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--viewers", "5", "--views", "ftp://x"}, `--views: "ftp://x"`},
	} {
		var out, errb bytes.Buffer
		code := dispatch(append([]string{"loadtest"}, tc.args...), &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), tc.err) {
			t.Errorf("loadtest %v: %d %q, want usage error %q", tc.args, code, errb.String(), tc.err)
		}
	}
}

// BenchmarkLoadtestMosquitto: 100 sets, 20 moves each, one move per set
// every 200 ms (500 moves/s), against Mosquitto: moves lost, duplicated,
// out of order, and publish-to-receive latency. Run with -benchtime=1x.
func BenchmarkLoadtestMosquitto(b *testing.B) {
	o := mosquittotest.DefaultOpts()
	o.Persistence, o.Config = false, []string{"max_queued_messages 100000"}
	url := mosquittotest.StartWith(b, o).URL
	for i := 0; i < b.N; i++ {
		r, err := loadTest(context.Background(), loadOpts{Broker: url, Prefix: "lt" + strconv.Itoa(i), Variant: "st3d",
			Boards: 100, Moves: 20, Duration: time.Minute, Interval: 200 * time.Millisecond, Drain: 20 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		b.Log(r)
		b.ReportMetric(float64(r.Sent), "sent")
		b.ReportMetric(float64(r.Lost), "lost")
		b.ReportMetric(float64(r.Duplicated), "dup")
		b.ReportMetric(float64(r.OutOfOrder), "reordered")
		b.ReportMetric(float64(r.P50.Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(r.P99.Microseconds())/1000, "p99-ms")
	}
}
