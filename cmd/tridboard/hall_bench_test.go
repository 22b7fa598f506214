package main

import (
	"context"
	"flag"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/natstest"
	"github.com/tridboard/tridboard/web"
)

var (
	hallSets     = flag.Int("hall.sets", 500, "BenchmarkHall: sets")
	hallViewers  = flag.Int("hall.viewers", 2000, "BenchmarkHall: spectators, spread over two views")
	hallMoves    = flag.Int("hall.moves", 10, "BenchmarkHall: moves per set")
	hallInterval = flag.Duration("hall.interval", 2*time.Second, "BenchmarkHall: time between two moves of a set")
)

// BenchmarkHall is a hall on a 3-node NATS cluster at full size: 500 sets
// (each given the three nodes) play, two views follow them at QoS 0, 2,000
// spectators read the views' wall streams, and the node a third of the
// sets are on is killed when half the moves were sent. It reports what the
// loadtest counts: moves lost, doubled, out of order, latency to a MQTT
// subscriber and to the spectators (docs/hall.md has the figures).
//
//	go test ./cmd/tridboard -run - -bench Hall -benchtime 1x -timeout 30m
func BenchmarkHall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := natstest.Start(b, 3)
		var views []string
		for k := 0; k < 2; k++ {
			hub := web.NewHub(web.DefaultOpts())
			v, err := newViewer(viewerOpts{Broker: c.Brokers(), Prefix: "hall-bench"}, hub, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			srv := httptest.NewServer(web.New(hub, web.DefaultServerOpts()).Handler())
			defer srv.Close()
			views = append(views, srv.URL)
		}
		start := time.Now()
		killed := time.Duration(0)
		r, err := loadTest(context.Background(), loadOpts{Broker: c.Brokers(), CheckBroker: c.MQTT(1), Prefix: "hall-bench", Variant: "st3d",
			Boards: *hallSets, Moves: *hallMoves, Interval: *hallInterval,
			Duration: time.Duration(*hallMoves+5) * *hallInterval * 2, Drain: 60 * time.Second,
			Views: views, Viewers: *hallViewers,
			Halfway: func() { killed = time.Since(start); c.Kill(0) }})
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("node 1 killed after %v\n%v", killed.Round(time.Millisecond), r)
		b.ReportMetric(float64(r.Lost), "lost")
		b.ReportMetric(float64(r.Duplicated), "dup")
		b.ReportMetric(float64(r.OutOfOrder), "ooo")
		b.ReportMetric(float64(r.P99.Milliseconds()), "p99-ms")
		b.ReportMetric(float64(r.Viewers-r.Whole), "viewers-behind")
		b.ReportMetric(float64(r.VP99.Milliseconds()), "view-p99-ms")
	}
}
