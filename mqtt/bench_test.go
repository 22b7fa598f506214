package mqtt

import (
	"encoding/json"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"slices"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/tridboard/tridboard/protocol"
)

// benchSetup connects a client and a TCP subscriber to a broker and returns
// the client and the channel of the seqs the subscriber receives.
func benchSetup(b *testing.B, broker string) (*Client, <-chan int) {
	var tb *testBroker
	if broker == "embedded" {
		tb = embedded(b, false)
	} else {
		tb = mosquitto(b, mosqOpts{users: map[string]string{testUser: testPass}})
	}
	seqs := make(chan int, 1<<16)
	o := paho.NewClientOptions().AddBroker(tb.url).SetClientID("bench-sub").
		SetUsername(tb.user).SetPassword(tb.pass).SetAutoReconnect(false)
	sub := paho.NewClient(o)
	mqtttest.WaitToken(b, sub.Connect(), "subscriber connect")
	mqtttest.WaitToken(b, sub.Subscribe("tridboard/board/move", 1, func(_ paho.Client, m paho.Message) {
		var mv protocol.Move
		if err := json.Unmarshal(m.Payload(), &mv); err == nil {
			seqs <- mv.Seq
		}
	}), "subscribe")
	b.Cleanup(func() { sub.Disconnect(0) })
	c := newClient(b, testOpts(tb, b.TempDir()), nil)
	waitConnected(b, c)
	return c, seqs
}

func waitSeqCh(b *testing.B, seqs <-chan int, want int) {
	timeout := time.After(10 * time.Second)
	for {
		select {
		case s := <-seqs:
			if s >= want {
				return
			}
		case <-timeout:
			b.Fatalf("seq %d never arrived", want)
		}
	}
}

func percentile(d []time.Duration, p float64) float64 {
	slices.Sort(d)
	return float64(d[int(p*float64(len(d)-1))].Microseconds())
}

// BenchmarkMoveLatency measures a move from Enqueue (append + fsync) to a
// subscriber's callback on loopback.
func BenchmarkMoveLatency(b *testing.B) {
	for _, broker := range []string{"embedded", "mosquitto"} {
		b.Run(broker, func(b *testing.B) {
			c, seqs := benchSetup(b, broker)
			lat := make([]time.Duration, 0, b.N)
			enq := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 1; i <= b.N; i++ {
				t0 := time.Now()
				if err := c.Enqueue(mqtttest.Move("g1", i)); err != nil {
					b.Fatal(err)
				}
				enq = append(enq, time.Since(t0))
				waitSeqCh(b, seqs, i)
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			b.ReportMetric(percentile(lat, 0.50), "p50-µs")
			b.ReportMetric(percentile(lat, 0.99), "p99-µs")
			b.ReportMetric(percentile(enq, 0.50), "enqueue-p50-µs")
		})
	}
}

// BenchmarkMoveThroughput enqueues moves back to back and waits for the
// subscriber to receive the last one.
func BenchmarkMoveThroughput(b *testing.B) {
	for _, broker := range []string{"embedded", "mosquitto"} {
		b.Run(broker, func(b *testing.B) {
			c, seqs := benchSetup(b, broker)
			b.ResetTimer()
			t0 := time.Now()
			for i := 1; i <= b.N; i++ {
				if err := c.Enqueue(mqtttest.Move("g1", i)); err != nil {
					b.Fatal(err)
				}
			}
			waitSeqCh(b, seqs, b.N)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "moves/s")
		})
	}
}
