package broker

import (
	"errors"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/tridboard/tridboard/internal/freeport"
)

// failingListener fails Accept as a process out of file descriptors does
// (EMFILE), fails times, then accepts again.
type failingListener struct {
	net.Listener
	fails atomic.Int32
}

func (l *failingListener) Accept() (net.Conn, error) {
	if l.fails.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Addr: l.Addr(), Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

// guardBroker starts the embedded broker with limits, its log in logs, its
// listener failing Accept fails times first, and the accept backoff's waits
// recorded in waits (no real wait).
func guardBroker(t *testing.T, limits Limits, fails int32) (*Broker, *logBuf, *[]time.Duration) {
	t.Helper()
	logs := &logBuf{}
	var mu sync.Mutex
	waits := &[]time.Duration{}
	b, err := Start(Opts{Addr: "127.0.0.1:0", Limits: limits, Logger: slog.New(slog.NewTextHandler(logs, nil)),
		Prefix: "tridboard", BoardID: "board",
		listen: func(network, addr string) (net.Listener, error) {
			l, err := net.Listen(network, addr)
			if err != nil {
				return nil, err
			}
			fl := &failingListener{Listener: l}
			fl.fails.Store(fails)
			return fl, nil
		},
		guard: func(g *guard) {
			g.sleep = func(d time.Duration) {
				mu.Lock()
				*waits = append(*waits, d)
				mu.Unlock()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, logs, waits
}

// TestBrokerAcceptsAfterErrors (issue 22, point 2): Accept failing 12 times
// in a row (descriptors exhausted) does not end the listener: it logs each
// failure, backs off 5 ms, 10 ms ... up to 1 s, and serves the next client.
func TestBrokerAcceptsAfterErrors(t *testing.T) {
	b, logs, waits := guardBroker(t, Limits{}, 12)
	r := mqtttest.Subscriber(t, b.URL(), "", "", moveTopic) // connects only if the listener lives
	user, pass := b.LocalLogin()
	pub := mqtttest.Publisher(t, b.URL(), user, pass)
	mqtttest.WaitToken(t, pub.Publish(moveTopic, 1, false, "after the errors"), "publish")
	r.WaitCount(t, moveTopic, 1)
	want := []time.Duration{5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000, 1000}
	for i := range want {
		want[i] *= time.Millisecond
	}
	if got := *waits; len(got) != len(want) || got[0] != want[0] || got[8] != want[8] || got[11] != want[11] {
		t.Errorf("backoff %v, want %v", got, want)
	}
	if n := strings.Count(logs.String(), "accept failed; retrying"); n != 12 {
		t.Errorf("%d accept failures logged, want 12:\n%s", n, logs)
	}
	if !strings.Contains(logs.String(), "too many open files") || !strings.Contains(logs.String(), "accepting again") {
		t.Errorf("log lacks the cause or the recovery:\n%s", logs)
	}
}

// closedWithin reads c until the broker closes it; false if it is still
// open after d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// rawDial opens a TCP connection from the loopback address from to addr.
func rawDial(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestBrokerClosesSilentConnections (issue 22, point 2): a connection that
// sends no CONNECT is closed after ConnectTimeout, logged, and its place
// given back; one that sends CONNECT in time stays.
func TestBrokerClosesSilentConnections(t *testing.T) {
	b, logs, _ := guardBroker(t, Limits{ConnectTimeout: 300 * time.Millisecond}, 0)
	addr := strings.TrimPrefix(b.URL(), "tcp://")
	silent := rawDial(t, "127.0.0.1", addr)
	r := mqtttest.Subscriber(t, b.URL(), "", "", moveTopic)
	if !closedWithin(silent, 5*time.Second) {
		t.Fatal("a connection that sent nothing is still open after 5 s, want closed after 300 ms")
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), "sent no CONNECT in time"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not logged:\n%s", logs)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); b.guard.open() != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections counted, want 1 (the subscriber)", b.guard.open())
		}
	}
	user, pass := b.LocalLogin()
	pub := mqtttest.Publisher(t, b.URL(), user, pass)
	mqtttest.WaitToken(t, pub.Publish(moveTopic, 1, false, "still here"), "publish")
	r.WaitCount(t, moveTopic, 1) // the subscriber outlived the timeout
}

// TestBrokerConnectionCaps (issue 22, point 2): beyond 3 connections from
// one address, or 5 in all, a connection is closed at once and logged; a
// place given back is taken again. The daemon's own listener (LocalURL)
// still lets its client in.
func TestBrokerConnectionCaps(t *testing.T) {
	b, logs, _ := guardBroker(t, Limits{MaxConnections: 5, MaxConnectionsPerAddress: 3}, 0)
	addr := strings.TrimPrefix(b.URL(), "tcp://")
	var first []net.Conn
	for range 3 {
		first = append(first, rawDial(t, "127.0.0.1", addr))
	}
	if c := rawDial(t, "127.0.0.1", addr); !closedWithin(c, 5*time.Second) {
		t.Fatal("a 4th connection from 127.0.0.1 was kept, want closed (3 per address)")
	}
	for range 2 {
		rawDial(t, "127.0.0.2", addr)
	}
	if c := rawDial(t, "127.0.0.3", addr); !closedWithin(c, 5*time.Second) {
		t.Fatal("a 6th connection was kept, want closed (5 in all)")
	}
	for _, c := range first {
		if closedWithin(c, 50*time.Millisecond) {
			t.Fatal("a connection within the limits was closed")
		}
	}
	log := logs.String()
	if !strings.Contains(log, "3 connections open from this address (the limit)") || !strings.Contains(log, "5 connections open (the limit)") {
		t.Errorf("refusals not logged:\n%s", log)
	}
	first[0].Close()
	for deadline := time.Now().Add(5 * time.Second); b.guard.open() != 4; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections counted after one closed, want 4", b.guard.open())
		}
	}
	if c := rawDial(t, "127.0.0.3", addr); closedWithin(c, 50*time.Millisecond) {
		t.Fatal("the place given back was not taken again")
	}
	user, pass := b.LocalLogin()
	o := testOpts(&testBroker{url: b.LocalURL(), user: user, pass: pass}, t.TempDir())
	c := newClient(t, o, nil)
	waitConnected(t, c) // the daemon's own listener is not full
}

// TestBrokerConnectionFlood (issue 22, point 2) floods a broker in a
// process of its own with raw connections from 10 loopback addresses that
// never send CONNECT, and measures it:
//   - descriptors: with 200 file descriptors, 600 connections exhaust them;
//     Accept fails (logged, retried with backoff), the broker recovers;
//   - caps: 5,000 connections, of which it holds 256 (the cap; 64 per
//     address); the others are closed at once.
//
// Every silent connection is closed (after ConnectTimeout once accepted),
// and a client then gets its PUBACK at once.
func TestBrokerConnectionFlood(t *testing.T) {
	for _, tc := range []struct {
		name    string
		conns   int
		nofile  string
		timeout time.Duration
		held    int // connections the broker holds at the peak, or -1: not measured
		logs    []string
	}{
		{"descriptors", 600, "200", time.Second, -1, []string{"accept failed; retrying", "too many open files", "accepting again", "sent no CONNECT in time"}},
		{"caps", 5000, "", 2 * time.Second, 256, []string{"connection refused", "256 connections open (the limit)", "sent no CONNECT in time"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeport.Addr(t)
			logPath := filepath.Join(t.TempDir(), "broker.log")
			env := []string{childLogEnv + "=" + logPath}
			if tc.nofile != "" {
				env = append(env, childNofileEnv+"="+tc.nofile)
			}
			br := startChild(t, Opts{Addr: addr, Username: testUser, Password: testPass, Prefix: "tridboard", BoardID: "board",
				Limits: Limits{ConnectTimeout: tc.timeout}}, env...)
			pid := br.cmd.Process.Pid
			before := rssKiB(t, pid)
			start := time.Now()
			var conns []net.Conn
			for i := range tc.conns {
				d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i%10))}, Timeout: 5 * time.Second}
				c, err := d.Dial("tcp", addr)
				if err != nil {
					t.Fatalf("connection %d: %v", i, err)
				}
				conns = append(conns, c)
			}
			held := -1
			if tc.held >= 0 {
				fmt.Fprintln(br.in, "conns")
				held, _ = strconv.Atoi(br.line(t))
				if held != tc.held {
					t.Errorf("the broker holds %d connections, want %d", held, tc.held)
				}
			}
			peak := rssKiB(t, pid)
			for _, c := range conns {
				if !closedWithin(c, 30*time.Second) {
					t.Fatal("a silent connection still open after 30 s")
				}
				c.Close()
			}
			allClosed := time.Since(start)
			cli, err := connectAs(t, "tcp://"+addr, "after-the-flood", testUser, testPass)
			if err != nil {
				t.Fatalf("a client after the flood: %v", err)
			}
			sent := time.Now()
			mqtttest.WaitToken(t, cli.Publish("tridboard/board/x", 1, false, "hello"), "publish after the flood")
			reply := time.Since(sent)
			after := rssKiB(t, pid)
			logs, _ := os.ReadFile(logPath)
			counts := map[string]int{}
			for _, what := range tc.logs {
				counts[what] = strings.Count(string(logs), what)
				if counts[what] == 0 {
					t.Errorf("log has no %q", what)
				}
			}
			t.Logf("%d silent connections: %d held at the peak; all closed after %v; broker RSS %d KiB before, %d KiB at the peak, %d KiB after; PUBACK after the flood in %v; log lines: %v",
				tc.conns, held, allClosed.Round(10*time.Millisecond), before, peak, after, reply.Round(time.Millisecond), counts)
			if peak > before+32<<10 && !raceEnabled {
				t.Errorf("RSS %d KiB at the peak, %d before: want under 32 MiB more", peak, before)
			}
		})
	}
}

// TestBrokerWebsocketGuarded (issue 22, point 2): the websocket listener
// has the same door: a connection that upgrades but sends no CONNECT, or
// sends no HTTP request at all, is closed after ConnectTimeout (logged);
// beyond the caps a connection is closed at once; a browser-like MQTT
// client still gets in.
func TestBrokerWebsocketGuarded(t *testing.T) {
	logs := &logBuf{}
	b, err := Start(Opts{Addr: "127.0.0.1:0", WSAddr: "127.0.0.1:0", Prefix: "tridboard", BoardID: "board",
		Limits: Limits{ConnectTimeout: 300 * time.Millisecond, MaxConnectionsPerAddress: 3},
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	wsAddr := strings.TrimSuffix(strings.TrimPrefix(b.WSURL(), "ws://"), "/")
	ws, _, err := (&websocket.Dialer{Subprotocols: []string{"mqtt"}}).Dial(b.WSURL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	silent := rawDial(t, "127.0.0.1", wsAddr)
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := ws.ReadMessage(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("an upgraded connection without CONNECT: %v, want closed by the broker", err)
	}
	if !closedWithin(silent, 5*time.Second) {
		t.Fatal("a connection without an HTTP request still open after 5 s")
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), `sent no CONNECT in time" listener=ws`); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not logged:\n%s", logs)
		}
	}
	for range 3 {
		rawDial(t, "127.0.0.2", wsAddr)
	}
	if c := rawDial(t, "127.0.0.2", wsAddr); !closedWithin(c, 5*time.Second) {
		t.Fatal("a 4th websocket connection from 127.0.0.2 was kept, want closed (3 per address)")
	}
	r := mqtttest.Subscriber(t, b.WSURL(), "", "", moveTopic)
	user, pass := b.LocalLogin()
	pub := mqtttest.Publisher(t, b.URL(), user, pass)
	mqtttest.WaitToken(t, pub.Publish(moveTopic, 1, false, "over websockets"), "publish")
	r.WaitCount(t, moveTopic, 1)
}
