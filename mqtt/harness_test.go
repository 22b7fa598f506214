package mqtt

import (
	"context"
	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/protocol"
)

// testBroker is a broker the tests can stop and start again on the same
// port, with a recorder subscribed to prefix/# that survives restarts.
type testBroker struct {
	name       string
	url        string
	wsURL      string
	user, pass string
	rec        *mqtttest.Recorder
	start      func(t testing.TB)
	stop       func(t testing.TB)
}

const testUser, testPass = "board", "pa55word"

// embedded starts the embedded broker. Its recorder is a mochi inline
// observer (broker.Opts.Tap) set before the listeners start, so no message is missed
// after a restart.
func embedded(t testing.TB, ws bool) *testBroker {
	t.Helper()
	tb := &testBroker{name: "embedded", user: testUser, pass: testPass, rec: mqtttest.NewRecorder()}
	addr := freeport.Addr(t)
	wsAddr := ""
	if ws {
		wsAddr = freeport.Addr(t)
	}
	var b *broker.Broker
	tb.start = func(t testing.TB) {
		t.Helper()
		var err error
		b, err = broker.Start(broker.Opts{Addr: addr, WSAddr: wsAddr, Username: testUser, Password: testPass, Logger: mqtttest.Quiet,
			Discovery: "homeassistant", LoginBackoff: time.Millisecond, LoginBackoffMax: 10 * time.Millisecond, BcryptCost: 4,
			Tap: func(topic string, payload []byte, retained bool) {
				if strings.HasPrefix(topic, "tridboard/") {
					tb.rec.Add(mqtttest.Rec{Topic: topic, Payload: string(payload), Retained: retained})
				}
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
	tls   *mqtttest.TLSFiles
}

// mosquitto starts Mosquitto (internal/mosquittotest) on a free loopback
// port, persistence on (so that a queued session survives a restart), and
// a recorder subscribed with a persistent session.
func mosquitto(t testing.TB, mo mosqOpts) *testBroker {
	t.Helper()
	bo := mosquittotest.DefaultOpts()
	bo.Users, bo.WebSockets = mo.users, mo.ws
	if mo.tls != nil {
		bo.TLS = &mosquittotest.TLS{CAFile: mo.tls.CA, CertFile: mo.tls.ServerCert, KeyFile: mo.tls.ServerKey}
	}
	b := mosquittotest.StartWith(t, bo)
	tb := &testBroker{name: "mosquitto", rec: mqtttest.NewRecorder(), url: b.URL, wsURL: b.WSURL,
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
			tb.rec.Add(mqtttest.Rec{Topic: m.Topic(), Payload: string(m.Payload()), Retained: m.Retained()})
		})
	if mo.tls != nil {
		o.SetTLSConfig(clientTLS(t, mo.tls))
	}
	cli := paho.NewClient(o)
	mqtttest.WaitToken(t, cli.Connect(), "recorder connect")
	mqtttest.WaitToken(t, cli.Subscribe("tridboard/#", 1, nil), "recorder subscribe")
	t.Cleanup(func() { cli.Disconnect(0) })
	return tb
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
	o.Logger = mqtttest.Quiet
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
