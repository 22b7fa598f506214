package broker

import (
	"context"
	"encoding/json"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
)

// churnPlies is the length of the churning display's game.
const churnPlies = 90

// churn is a display that reconnects often: mosquitto_sub -c -i disp -q 1,
// connected for a random while, away for a random while, half of its
// disconnections a SIGKILL (no DISCONNECT, PUBACKs lost). The times are
// those of issue 22 (connected 0.3-3 s, away 0.2-3 s) divided by three, so
// that a game of churnPlies plies sees as many reconnections per move in a
// third of the time.
type churn struct {
	d     *mosqDisplay
	rnd   *rand.Rand
	stop  chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	conns int
	kills int
}

func startChurn(t *testing.T, d *mosqDisplay, seed int64) *churn {
	c := &churn{d: d, rnd: rand.New(rand.NewSource(seed)), stop: make(chan struct{}), done: make(chan struct{})}
	between := func(lo, hi time.Duration) time.Duration { return lo + time.Duration(c.rnd.Int63n(int64(hi-lo))) }
	go func() {
		defer close(c.done)
		for {
			select {
			case <-c.stop:
				return
			case <-time.After(between(100*time.Millisecond, time.Second)):
			}
			kill := c.rnd.Intn(2) == 0
			c.mu.Lock()
			c.conns++
			if kill {
				c.kills++
				c.d.cmd.Process.Signal(syscall.SIGKILL)
			} else {
				c.d.cmd.Process.Signal(syscall.SIGTERM)
			}
			c.mu.Unlock()
			<-c.d.done
			select {
			case <-c.stop:
				return
			case <-time.After(between(70*time.Millisecond, time.Second)):
			}
			c.d.connect(t)
		}
	}()
	return c
}

// end stops churning and leaves the display connected.
func (c *churn) end(t *testing.T) {
	close(c.stop)
	<-c.done
	if isDone(c.d.done) {
		c.d.connect(t)
	}
}

func isDone(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// applied follows the moves as docs/mqtt.md tells a display to: apply a
// seq above the last applied, drop the others. It returns how many moves
// were applied, how many seqs never came, and how many came only after a
// higher one (so were dropped).
func applied(t *testing.T, got []mqtttest.Rec, n int) (applied, lost, reordered int) {
	t.Helper()
	seen := map[int]bool{}
	last := 0
	for _, r := range got {
		var m protocol.Move
		if err := json.Unmarshal([]byte(r.Payload), &m); err != nil {
			t.Fatalf("move %q: %v", r.Payload, err)
		}
		if !seen[m.Seq] && m.Seq < last {
			reordered++
		}
		seen[m.Seq] = true
		if m.Seq > last {
			applied++
			last = m.Seq
		}
	}
	for s := 1; s <= n; s++ {
		if !seen[s] {
			lost++
		}
	}
	return applied, lost, reordered
}

// TestChurningDisplay (issue 22, point 1): a persistent display that
// reconnects all the time, a SIGKILL of it half the time, follows a game of
// 90 plies played at a random pace of 30 to 200 ms a ply, during which the
// daemon restarts twice (gracefully after ply 30, by SIGKILL after ply 60;
// with the embedded broker the broker restarts with it). On the embedded
// broker as on Mosquitto the display gets every move, and gets each one
// before any later one: 0 lost, 0 reordered. The churn is seeded: a failure
// is the same run again (CHURN_SEED=n runs another seed).
func TestChurningDisplay(t *testing.T) {
	for _, kind := range []string{"embedded", "mosquitto"} {
		t.Run(kind, func(t *testing.T) {
			var tb *testBroker
			var restart func(kill bool)
			user, pass := displayUser, displayPass
			if kind == "embedded" {
				addr := freeport.Addr(t)
				o := displayBrokerOpts(t, addr)
				br := startChild(t, o)
				tb = &testBroker{url: "tcp://" + addr, user: testUser, pass: testPass}
				restart = func(kill bool) {
					if kill {
						br.kill()
					} else {
						br.stop()
					}
					br = startChild(t, o)
				}
			} else {
				tb = mosquitto(t, mosqOpts{users: map[string]string{testUser: testPass}})
				user, pass = testUser, testPass
				restart = func(bool) {}
			}
			d := &mosqDisplay{id: "disp", addr: strings.TrimPrefix(tb.url, "tcp://"), user: user, pass: pass, r: mqtttest.NewRecorder()}
			o := testOpts(tb, t.TempDir())
			o.ClientID = "tridboard-board"
			c := newClient(t, o, nil)
			waitConnected(t, c)
			connectSubscribed(t, tb, d)

			ch := startChurn(t, d, churnSeed())
			pace := rand.New(rand.NewSource(1))
			for s := 1; s <= churnPlies; s++ {
				if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
					t.Fatal(err)
				}
				time.Sleep(30*time.Millisecond + time.Duration(pace.Int63n(int64(170*time.Millisecond))))
				if s == 30 || s == 60 {
					// The daemon stops (or dies), and starts again replaying
					// its journal into the outbox, as it does at every start.
					ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
					if s == 60 {
						cancel() // a crash: no time to drain
					}
					c.Close(ctx)
					cancel()
					restart(s == 60)
					c = newClient(t, o, nil)
					for r := 1; r <= s; r++ {
						if err := c.Enqueue(mqtttest.Move("g1", r)); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			ch.end(t)
			d.rec().WaitSeq(t, churnPlies)
			got := d.rec().On(moveTopic)
			a, lost, reordered := applied(t, got, churnPlies)
			t.Logf("%s: %d reconnections (%d after a SIGKILL), %d messages: %d of %d moves applied, %d lost, %d out of order",
				kind, ch.conns, ch.kills, len(got), a, churnPlies, lost, reordered)
			if lost != 0 || reordered != 0 || a != churnPlies {
				var seqs []string
				for _, r := range got {
					var m protocol.Move
					json.Unmarshal([]byte(r.Payload), &m)
					seqs = append(seqs, strconv.Itoa(m.Seq))
				}
				t.Errorf("want every move once in order; got seqs %s", strings.Join(seqs, " "))
			}
		})
	}
}

func churnSeed() int64 {
	if s := os.Getenv("CHURN_SEED"); s != "" {
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	}
	return 22
}
