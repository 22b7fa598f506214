package broker

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// guard is the embedded broker's door: it counts the connections in all
// and per address, refuses those beyond Limits, gives each
// connection ConnectTimeout to send its CONNECT, and keeps accepting after
// an error. mochi v2.7.9's TCP listener returns for good on any Accept
// error (with the descriptors exhausted, new clients then hung forever,
// nothing logged), and keeps a connection that never sends CONNECT for
// ever (5,000 of them held 70 s, about 20 KB each).
type guard struct {
	limits Limits
	log    *slog.Logger
	sleep  func(time.Duration) // the accept backoff's wait (time.Sleep)

	mu    sync.Mutex
	total int
	per   map[string]int
	// refused counts the connections refused (Broker.Refused).
	refused atomic.Int64
}

// beyondLimits is what a refusal beyond the embedded broker's limits
// tells its user.
const beyondLimits = "the embedded broker serves one set and its displays (Limits: 64 connections from one address, " +
	"256 in all, 64 retained messages): a hall needs Mosquitto or a NATS cluster (docs/hall.md)"

// connackUnavailable is an MQTT 3.1.1 CONNACK refusing the connection:
// server unavailable.
var connackUnavailable = []byte{0x20, 0x02, 0x00, 0x03}

func newGuard(l Limits, log *slog.Logger) *guard {
	return &guard{limits: l, log: log, sleep: time.Sleep, per: map[string]int{}}
}

// take counts a connection from host, or says why it is refused.
func (g *guard) take(host string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.total >= g.limits.MaxConnections:
		return fmt.Errorf("%d connections open (the limit)", g.total)
	case g.per[host] >= g.limits.MaxConnectionsPerAddress:
		return fmt.Errorf("%d connections open from this address (the limit)", g.per[host])
	}
	g.total++
	g.per[host]++
	return nil
}

func (g *guard) give(host string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.per[host]--; g.per[host] <= 0 {
		delete(g.per, host)
	}
}

// Open is the number of connections the guard counts.
func (g *guard) open() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.total
}

// Accept backoff after a failed Accept, as net/http's Server does.
const (
	acceptBackoffMin = 5 * time.Millisecond
	acceptBackoffMax = time.Second
)

// guardedListener is a net.Listener whose Accept returns only connections
// the guard lets in, and an error only once the listener is closed.
type guardedListener struct {
	net.Listener
	g      *guard
	name   string
	closed atomic.Bool
}

func (l *guardedListener) Close() error {
	l.closed.Store(true)
	return l.Listener.Close()
}

func (l *guardedListener) Accept() (net.Conn, error) {
	var wait time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if l.closed.Load() || errors.Is(err, net.ErrClosed) {
				return nil, err
			}
			wait = min(max(2*wait, acceptBackoffMin), acceptBackoffMax)
			l.g.log.Error("mqtt: embedded broker: accept failed; retrying", "listener", l.name, "in", wait, "err", err)
			l.g.sleep(wait)
			continue
		}
		if wait > 0 {
			l.g.log.Info("mqtt: embedded broker: accepting again", "listener", l.name)
			wait = 0
		}
		host := remoteHost(c.RemoteAddr().String())
		if err := l.g.take(host); err != nil {
			l.g.log.Error("mqtt: embedded broker: connection refused: "+beyondLimits, "listener", l.name, "remote", c.RemoteAddr().String(), "why", err.Error())
			l.g.refused.Add(1)
			// Said to the client too: a CONNACK "server unavailable"
			// (MQTT 3.1.1, 3.2.2.3) before the close, not a bare reset.
			c.SetWriteDeadline(time.Now().Add(time.Second))
			c.Write(connackUnavailable)
			c.Close()
			continue
		}
		// mochi sets the connection's deadline from the keep-alive once it
		// has read the CONNECT (refreshDeadline).
		c.SetReadDeadline(time.Now().Add(l.g.limits.ConnectTimeout))
		return &guardedConn{Conn: c, g: l.g, host: host}, nil
	}
}

// guardedConn gives its place back to the guard when closed, and notes
// when mochi has read the CONNECT (it sets the deadline from the
// keep-alive then).
type guardedConn struct {
	net.Conn
	g         *guard
	host      string
	once      sync.Once
	connected atomic.Bool
}

func (c *guardedConn) Close() error {
	c.once.Do(func() { c.g.give(c.host) })
	return c.Conn.Close()
}

func (c *guardedConn) SetDeadline(t time.Time) error {
	c.connected.Store(true)
	return c.Conn.SetDeadline(t)
}

// admission hands connections to mochi only until its listener closes,
// and counts each in mochi's own WaitGroup (Listeners.ClientsWg) before
// handing it over. mochi adds a connection to that group from inside the
// connection's goroutine, which races with Close's Wait when the count is
// zero (the race detector sees it); counted here first, under the lock
// that Close takes, mochi's own count never starts from zero during Close,
// and nothing is handed over once Close has begun.
type admission struct {
	mu      sync.Mutex
	closing bool
	wg      *sync.WaitGroup // mochi's Listeners.ClientsWg; nil counts nothing
}

// admit reports whether a new connection may go to mochi; if it may, it is
// counted, and the caller calls done once mochi is through with it.
func (a *admission) admit() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closing {
		return false
	}
	if a.wg != nil {
		a.wg.Add(1)
	}
	return true
}

func (a *admission) done() {
	if a.wg != nil {
		a.wg.Done()
	}
}

// close admits nothing more.
func (a *admission) close() {
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
}

// guardedTCP is mochi's TCP listener on a guardedListener (with TLS when
// configured), which logs why a connection ended before its CONNECT.
type guardedTCP struct {
	id, addr string
	tls      *tls.Config
	g        *guard
	l        *guardedListener
	log      *slog.Logger
	listen   func(network, addr string) (net.Listener, error) // net.Listen; tests wrap it
	adm      admission
}

var _ listeners.Listener = (*guardedTCP)(nil)

func (t *guardedTCP) ID() string       { return t.id }
func (t *guardedTCP) Protocol() string { return "tcp" }

func (t *guardedTCP) Address() string {
	if t.l != nil {
		return t.l.Addr().String()
	}
	return t.addr
}

func (t *guardedTCP) Init(log *slog.Logger) error {
	t.log = log
	listen := t.listen
	if listen == nil {
		listen = net.Listen
	}
	raw, err := listen("tcp", t.addr)
	if err != nil {
		return err
	}
	t.l = &guardedListener{Listener: raw, g: t.g, name: t.id}
	return nil
}

func (t *guardedTCP) Serve(establish listeners.EstablishFn) {
	var in net.Listener = t.l
	if t.tls != nil {
		in = tls.NewListener(t.l, t.tls)
	}
	for {
		c, err := in.Accept()
		if err != nil {
			return // closed
		}
		if t.l.closed.Load() || !t.adm.admit() {
			c.Close() // accepted as the broker stops: mochi would wait for it
			return
		}
		gc := guardedOf(c)
		go func() {
			defer t.adm.done()
			err := establish(t.id, c)
			switch {
			case err == nil:
			case gc != nil && !gc.connected.Load() && isTimeout(err):
				t.g.log.Warn("mqtt: embedded broker: closed a connection that sent no CONNECT in time",
					"listener", t.id, "remote", c.RemoteAddr().String(), "timeout", t.g.limits.ConnectTimeout)
			default:
				t.g.log.Debug("mqtt: embedded broker: connection ended", "listener", t.id, "remote", c.RemoteAddr().String(), "err", err)
			}
		}()
	}
}

// isTimeout says whether err is a read deadline passing.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// guardedOf finds the guardedConn under c (c itself, or under TLS).
func guardedOf(c net.Conn) *guardedConn {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	gc, _ := c.(*guardedConn)
	return gc
}

// Close stops accepting, then closes the clients: mochi waits for every
// client it has, so none may come in after.
func (t *guardedTCP) Close(closeClients listeners.CloseFn) {
	t.adm.close()
	if t.l != nil {
		t.l.Close()
	}
	closeClients(t.id)
}

// guardedWS is the websocket listener (MQTT over ws:// or wss://, for
// browser displays) on a guardedListener: the same caps, accept retries
// and CONNECT timeout as guardedTCP. The upgrade request itself must come
// within ConnectTimeout too.
type guardedWS struct {
	id, addr  string
	tls       *tls.Config
	g         *guard
	l         *guardedListener
	srv       *http.Server
	establish listeners.EstablishFn
	adm       admission
}

var _ listeners.Listener = (*guardedWS)(nil)

func (w *guardedWS) ID() string { return w.id }

func (w *guardedWS) Protocol() string {
	if w.tls != nil {
		return "wss"
	}
	return "ws"
}

func (w *guardedWS) Address() string {
	if w.l != nil {
		return w.l.Addr().String()
	}
	return w.addr
}

func (w *guardedWS) Init(*slog.Logger) error {
	raw, err := net.Listen("tcp", w.addr)
	if err != nil {
		return err
	}
	w.l = &guardedListener{Listener: raw, g: w.g, name: w.id}
	up := &websocket.Upgrader{Subprotocols: []string{"mqtt"}, CheckOrigin: func(*http.Request) bool { return true }}
	w.srv = &http.Server{ReadHeaderTimeout: w.g.limits.ConnectTimeout, TLSConfig: w.tls,
		ErrorLog: slog.NewLogLogger(w.g.log.Handler(), slog.LevelDebug),
		Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			c, err := up.Upgrade(rw, r, nil)
			if err != nil {
				return // gorilla answered the request
			}
			defer c.Close()
			under := c.NetConn()
			gc := guardedOf(under)
			if gc != nil {
				gc.connected.Store(false) // gorilla cleared the HTTP server's deadlines with SetDeadline
			}
			under.SetReadDeadline(time.Now().Add(w.g.limits.ConnectTimeout))
			if !w.adm.admit() {
				return // the broker is stopping
			}
			defer w.adm.done()
			err = w.establish(w.id, &wsConn{Conn: under, ws: c})
			if err != nil && gc != nil && !gc.connected.Load() && isTimeout(err) {
				w.g.log.Warn("mqtt: embedded broker: closed a connection that sent no CONNECT in time",
					"listener", w.id, "remote", under.RemoteAddr().String(), "timeout", w.g.limits.ConnectTimeout)
			}
		})}
	return nil
}

func (w *guardedWS) Serve(establish listeners.EstablishFn) {
	w.establish = establish
	var err error
	if w.tls != nil {
		err = w.srv.ServeTLS(w.l, "", "")
	} else {
		err = w.srv.Serve(w.l)
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		w.g.log.Error("mqtt: embedded broker: websocket listener stopped", "listener", w.id, "err", err)
	}
}

// Close stops accepting, then closes the clients (see guardedTCP.Close).
func (w *guardedWS) Close(closeClients listeners.CloseFn) {
	w.adm.close()
	if w.srv != nil {
		w.l.closed.Store(true)
		w.srv.Close()
	}
	closeClients(w.id)
}

// wsConn is a websocket connection as the stream of bytes mochi reads and
// writes: binary messages, each write one message.
type wsConn struct {
	net.Conn
	ws *websocket.Conn
	r  io.Reader // the message being read, or nil
}

func (c *wsConn) Read(p []byte) (int, error) {
	for {
		if c.r == nil {
			op, r, err := c.ws.NextReader()
			if err != nil {
				return 0, err
			}
			if op != websocket.BinaryMessage {
				return 0, errors.New("mqtt: embedded broker: websocket: a text message (MQTT over websockets is binary)")
			}
			c.r = r
		}
		n, err := c.r.Read(p)
		if errors.Is(err, io.EOF) {
			c.r = nil
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

func (c *wsConn) Write(p []byte) (int, error) {
	if err := c.ws.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (c *wsConn) Close() error { return c.ws.Close() }
