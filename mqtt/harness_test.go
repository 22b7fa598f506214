package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/protocol"
)

var quiet = slog.New(slog.DiscardHandler)

// rec is one message a test subscriber received.
type rec struct {
	topic    string
	payload  string
	retained bool
}

// recorder keeps the messages a subscriber receives, across reconnections
// and broker restarts.
type recorder struct {
	mu   sync.Mutex
	msgs []rec
	ch   chan struct{}
}

func newRecorder() *recorder { return &recorder{ch: make(chan struct{}, 1)} }

func (r *recorder) add(m rec) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	select {
	case r.ch <- struct{}{}:
	default:
	}
}

func (r *recorder) on(topic string) []rec {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []rec
	for _, m := range r.msgs {
		if m.topic == topic {
			out = append(out, m)
		}
	}
	return out
}

// waitFor waits until cond holds for the messages on topic.
func (r *recorder) waitFor(t testing.TB, topic string, what string, cond func([]rec) bool) []rec {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		if got := r.on(topic); cond(got) {
			return got
		}
		select {
		case <-r.ch:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			got := r.on(topic)
			t.Fatalf("%s: timed out waiting for %s; got %s", topic, what, summary(got))
			return nil
		}
	}
}

// summaryShown is how many messages a failure shows at each end.
const summaryShown = 3

// summary describes msgs for a failure: how many (and how many retained),
// and only the first and last few, however many came (a flood is thousands).
func summary(msgs []rec) string {
	retained := 0
	for _, m := range msgs {
		if m.retained {
			retained++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d messages (%d retained)", len(msgs), retained)
	show := func(ms []rec) {
		for _, m := range ms {
			fmt.Fprintf(&b, "\n  %.200s retained=%v", m.payload, m.retained)
		}
	}
	if len(msgs) <= 2*summaryShown {
		show(msgs)
		return b.String()
	}
	show(msgs[:summaryShown])
	fmt.Fprintf(&b, "\n  ... %d more ...", len(msgs)-2*summaryShown)
	show(msgs[len(msgs)-summaryShown:])
	return b.String()
}

// waitSeq waits for the move with seq n of game g1.
func (r *recorder) waitSeq(t testing.TB, n int) []rec {
	t.Helper()
	want := fmt.Sprintf(`"seq":%d,`, n)
	return r.waitFor(t, "tridboard/board/move", "seq "+fmt.Sprint(n), func(m []rec) bool {
		for _, x := range m {
			if strings.Contains(x.payload, want) {
				return true
			}
		}
		return false
	})
}

func (r *recorder) waitCount(t testing.TB, topic string, n int) []rec {
	t.Helper()
	return r.waitFor(t, topic, fmt.Sprintf("%d messages", n), func(m []rec) bool { return len(m) >= n })
}

// checkMoves checks the moves received: the first time each seq arrives
// they are 1..n in order, and a duplicate is the same message as the first
// (a broker may deliver again to a persistent session what was in flight
// when it stopped, so a duplicate may follow a higher seq: consumers drop
// every seq at or below the last one they applied). It returns the number
// of duplicates.
func checkMoves(t testing.TB, got []rec, game string, n int) int {
	t.Helper()
	seen := map[int]string{}
	last, dups := 0, 0
	for _, r := range got {
		var m protocol.Move
		if err := json.Unmarshal([]byte(r.payload), &m); err != nil {
			t.Fatalf("move %q: %v", r.payload, err)
		}
		if m.Game != game {
			t.Fatalf("move %s: game %q, want %q", r.payload, m.Game, game)
		}
		if p, ok := seen[m.Seq]; ok {
			if p != r.payload {
				t.Fatalf("seq %d twice with different payloads:\n %s\n %s", m.Seq, p, r.payload)
			}
			dups++
			continue
		}
		if m.Seq != last+1 {
			t.Fatalf("seq %d after seq %d: a move is missing or out of order", m.Seq, last)
		}
		want, _ := json.Marshal(testMove(game, m.Seq))
		if r.payload != string(want) {
			t.Fatalf("seq %d: payload %s, want %s", m.Seq, r.payload, want)
		}
		seen[m.Seq] = r.payload
		last = m.Seq
	}
	if last != n {
		t.Fatalf("last seq %d, want %d", last, n)
	}
	return dups
}

// testBroker is a broker the tests can stop and start again on the same
// port, with a recorder subscribed to prefix/# that survives restarts.
type testBroker struct {
	name       string
	url        string
	wsURL      string
	user, pass string
	rec        *recorder
	start      func(t testing.TB)
	stop       func(t testing.TB)
}

const testUser, testPass = "board", "pa55word"

// embedded starts the embedded broker. Its recorder is a mochi inline
// subscription made before the listeners start, so no message is missed
// after a restart.
func embedded(t testing.TB, ws bool) *testBroker {
	t.Helper()
	tb := &testBroker{name: "embedded", user: testUser, pass: testPass, rec: newRecorder()}
	addr := freeport.Addr(t)
	wsAddr := ""
	if ws {
		wsAddr = freeport.Addr(t)
	}
	var b *Broker
	tb.start = func(t testing.TB) {
		t.Helper()
		var err error
		b, err = StartBroker(BrokerOpts{Addr: addr, WSAddr: wsAddr, Username: testUser, Password: testPass, Logger: quiet,
			Discovery: "homeassistant", loginBackoff: time.Millisecond, loginBackoffMax: 10 * time.Millisecond, bcryptCost: 4,
			onServe: func(s *mochi.Server) error {
				return s.Subscribe("tridboard/#", 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
					tb.rec.add(rec{pk.TopicName, string(pk.Payload), pk.FixedHeader.Retain})
				})
			}})
		if err != nil {
			t.Fatal(err)
		}
		tb.url, tb.wsURL = b.URL(), b.WSURL()
	}
	tb.stop = func(testing.TB) { b.Close() }
	tb.start(t)
	t.Cleanup(func() { b.Close() })
	return tb
}

type mosqOpts struct {
	users map[string]string // password_file entries; none means anonymous
	ws    bool
	tls   *tlsFiles
}

// mosquitto starts Mosquitto (internal/mosquittotest) on a free loopback
// port, persistence on (so that a queued session survives a restart), and
// a recorder subscribed with a persistent session.
func mosquitto(t testing.TB, mo mosqOpts) *testBroker {
	t.Helper()
	bo := mosquittotest.DefaultOpts()
	bo.Users, bo.WebSockets = mo.users, mo.ws
	if mo.tls != nil {
		bo.TLS = &mosquittotest.TLS{CAFile: mo.tls.ca, CertFile: mo.tls.serverCert, KeyFile: mo.tls.serverKey}
	}
	b := mosquittotest.StartWith(t, bo)
	tb := &testBroker{name: "mosquitto", rec: newRecorder(), url: b.URL, wsURL: b.WSURL,
		start: func(t testing.TB) { b.Start(t) }, stop: func(testing.TB) { b.Stop() }}
	for u, p := range mo.users {
		tb.user, tb.pass = u, p
	}
	_, port, _ := net.SplitHostPort(b.Addr)

	// The recorder: a persistent session (clean session off, QoS 1), which
	// mosquitto saves on shutdown, so messages published while it is
	// reconnecting after a restart are queued for it.
	o := paho.NewClientOptions().AddBroker(tb.url).SetClientID("recorder-" + port).
		SetUsername(tb.user).SetPassword(tb.pass).SetCleanSession(false).
		SetAutoReconnect(true).SetMaxReconnectInterval(200 * time.Millisecond).SetConnectRetry(true).
		SetConnectRetryInterval(50 * time.Millisecond).
		SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) {
			tb.rec.add(rec{m.Topic(), string(m.Payload()), m.Retained()})
		})
	if mo.tls != nil {
		o.SetTLSConfig(mo.tls.clientConfig(t))
	}
	cli := paho.NewClient(o)
	waitToken(t, cli.Connect(), "recorder connect")
	waitToken(t, cli.Subscribe("tridboard/#", 1, nil), "recorder subscribe")
	t.Cleanup(func() { cli.Disconnect(0) })
	return tb
}

func waitToken(t testing.TB, tok paho.Token, what string) {
	t.Helper()
	if !tok.WaitTimeout(10 * time.Second) {
		t.Fatalf("%s: timed out", what)
	}
	if err := tok.Error(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// subscriber connects a fresh clean-session client subscribed to filter.
func subscriber(t testing.TB, url, user, pass, filter string) *recorder {
	t.Helper()
	r := newRecorder()
	o := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("sub-%d", time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false)
	cli := paho.NewClient(o)
	waitToken(t, cli.Connect(), "subscriber connect to "+url)
	waitToken(t, cli.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) {
		r.add(rec{m.Topic(), string(m.Payload()), m.Retained()})
	}), "subscribe "+filter)
	t.Cleanup(func() { cli.Disconnect(0) })
	return r
}

// publisher connects a client that publishes commands.
func publisher(t testing.TB, url, user, pass string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("pub-%d", time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false)
	cli := paho.NewClient(o)
	waitToken(t, cli.Connect(), "publisher connect")
	t.Cleanup(func() { cli.Disconnect(0) })
	return cli
}

// testOpts are client options for tb, fast to reconnect.
func testOpts(tb *testBroker, dir string) Opts {
	o := DefaultOpts()
	o.Broker = tb.url
	o.Username, o.Password = tb.user, tb.pass
	o.StateDir = dir
	o.RetryMin, o.RetryMax = 20*time.Millisecond, 200*time.Millisecond
	o.AckTimeout = 2 * time.Second
	o.ConnectTimeout = 2 * time.Second
	o.Logger = quiet
	o.Version = "test"
	return o
}

func newClient(t testing.TB, o Opts, h protocol.Handler) *Client {
	t.Helper()
	c, err := New(o, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func waitConnected(t testing.TB, c *Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
}

// proxy forwards TCP connections to a broker; cut drops them all at once,
// as a network failure would (no DISCONNECT).
type proxy struct {
	l      net.Listener
	paused atomic.Bool
	mu     sync.Mutex
	conns  []net.Conn
}

func newProxy(t testing.TB, target string) *proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			if p.paused.Load() {
				c.Close()
				continue
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			go func() { io.Copy(u, c); u.Close() }()
			go func() { io.Copy(c, u); c.Close() }()
		}
	}()
	t.Cleanup(func() { l.Close(); p.cut() })
	return p
}

// pause cuts the connections and refuses new ones until resume: a broker
// outage as seen from the client, without disturbing the recorder.
func (p *proxy) pause() { p.paused.Store(true); p.cut() }

func (p *proxy) resume() { p.paused.Store(false) }

func (p *proxy) addr() string { return p.l.Addr().String() }

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A failure shows a flood of messages as its count and its ends: 2,800
// messages make eight lines, not 2,800.
func TestSummaryShowsTheEnds(t *testing.T) {
	var msgs []rec
	for i := range 2800 {
		msgs = append(msgs, rec{topic: "t", payload: fmt.Sprintf(`{"transaction":%d}`, i), retained: i == 0})
	}
	got := summary(msgs)
	want := `2800 messages (1 retained)
  {"transaction":0} retained=true
  {"transaction":1} retained=false
  {"transaction":2} retained=false
  ... 2794 more ...
  {"transaction":2797} retained=false
  {"transaction":2798} retained=false
  {"transaction":2799} retained=false`
	if got != want {
		t.Errorf("summary of 2,800 messages:\n%s\nwant\n%s", got, want)
	}
	if got, want := summary(msgs[:2]), "2 messages (1 retained)\n  {\"transaction\":0} retained=true\n  {\"transaction\":1} retained=false"; got != want {
		t.Errorf("summary of 2 messages:\n%s\nwant\n%s", got, want)
	}
}
