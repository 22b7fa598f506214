package broker

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"sync"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"go.etcd.io/bbolt"
)

// Opts configures the embedded broker.
type Opts struct {
	// Addr is the TCP listener's address ("host:port"; port 0 picks one).
	Addr string
	// WSAddr is the websocket listener's address for browser displays
	// (MQTT over ws://host:port/), or "" for none.
	WSAddr string
	// Username and Password, when set, are the daemon's own account (role
	// daemon). Without them the daemon's own client logs in with LocalLogin;
	// and without Accounts either, anyone may connect as a controller
	// (subscribe to the board, send commands), which is allowed on loopback
	// only: the daemon's topics are written by the daemon alone.
	Username, Password string
	// Accounts are further logins, each with a role.
	Accounts []Account
	// CertFile and KeyFile, when set, are the PEM certificate (chain) and key
	// of both listeners: TCP becomes MQTT over TLS (ssl://) and the websocket
	// listener wss://. The daemon's own client connects to a plain listener
	// on 127.0.0.1 in any case (LocalURL).
	CertFile, KeyFile string
	// Prefix, BoardID and Discovery name the daemon's topics: the roles'
	// rights and retained messages are about <Prefix>/<BoardID>/# and
	// <Discovery>/#. Without a BoardID (a hall's broker for several sets)
	// the daemon's account may retain messages on any topic, clients
	// without a login count as the daemon when no login is configured, and
	// controllers and displays may do nothing.
	Prefix, BoardID, Discovery string
	// DaemonClientID is the daemon's client id, which only a daemon account
	// may use; "" keeps none.
	DaemonClientID string
	// Limits bound what clients can make the broker hold.
	Limits Limits
	// CommandRate is how many commands a second one client may publish
	// on the board's set/ topics, in a burst of twice that; beyond it the
	// broker answers busy itself (rateHook). 0: no limit.
	CommandRate float64
	// Logger receives the broker's log; nil means slog.Default().
	Logger *slog.Logger
	// StorePath, when set, is a bbolt file where the broker keeps persistent
	// sessions (their subscriptions and queued QoS 1 messages) and retained
	// messages, so that a display with a persistent session (clean session
	// off, QoS 1) misses nothing across a restart of the daemon.
	StorePath string
	// LoginBackoff and LoginBackoffMax are how long a wrong password from
	// one address waits before its refusal, doubling from the first to the
	// second (default 250 ms and 10 s).
	LoginBackoff, LoginBackoffMax time.Duration
	// BcryptCost is the cost of the hashes of passwords given in clear
	// (default bcrypt.DefaultCost).
	BcryptCost int
	// Tap, when set, is called with every message the broker routes on
	// the board's and discovery topics and beyond (not $SYS), from before
	// the listeners start: an in-process observer that no client's
	// reconnection or restart can make miss a message (tests record with
	// it).
	Tap func(topic string, payload []byte, retained bool) `json:"-"`

	// For tests: onServe runs just before the listeners start.
	onServe func(*mochi.Server) error
	store   func(*storeHook)
	guard   func(*guard)
	listen  func(network, addr string) (net.Listener, error)
	now     func() time.Time // the command rate's clock
}

// Limits bound the embedded broker's memory and store, so that no
// client can exhaust a Raspberry Pi. A zero field takes its default.
// They are the configuration file's mqtt.limits, under their yaml names,
// checked by Validate.
type Limits struct {
	// MaxPacketSize is the largest MQTT packet accepted, in bytes (default
	// 256 KiB); a client sending a larger one is disconnected before the
	// broker reads it.
	MaxPacketSize int `yaml:"max_packet_size"`
	// MaxSessions is how many persistent sessions are kept (default 64),
	// and MaxSessionsPerAccount how many of one account (default 16; all
	// clients without a login count as one account). A new one beyond
	// either takes the place of the session (of that account, or of any)
	// away the longest, which expires; it is refused when all are connected.
	MaxSessions           int `yaml:"max_sessions"`
	MaxSessionsPerAccount int `yaml:"max_sessions_per_account"`
	// MaxQueued and MaxQueuedBytes bound the QoS 1 messages waiting for one
	// session, in count (default 1000) and payload bytes (default 512 KiB);
	// beyond them new messages for that session are dropped.
	MaxQueued      int `yaml:"max_queued"`
	MaxQueuedBytes int `yaml:"max_queued_bytes"`
	// MaxRetained and MaxRetainedBytes bound the retained messages (default
	// 64 and 1 MiB).
	MaxRetained      int `yaml:"max_retained"`
	MaxRetainedBytes int `yaml:"max_retained_bytes"`
	// SessionExpiry is how long a persistent session is kept after its
	// client left (default 7 days).
	SessionExpiry time.Duration `yaml:"session_expiry"`
	// MaxConnections and MaxConnectionsPerAddress bound the open TCP
	// connections, in all (default 256) and from one address (default
	// 64); a connection beyond them is closed at once, and logged.
	MaxConnections           int `yaml:"max_connections"`
	MaxConnectionsPerAddress int `yaml:"max_connections_per_address"`
	// ConnectTimeout is how long a new connection has to send its CONNECT
	// (default 5 s); then it is closed, and logged.
	ConnectTimeout time.Duration `yaml:"connect_timeout"`
}

// DefaultLimits returns the defaults of Limits. With them the
// store holds at most 64 sessions × 512 KiB + 1 MiB of messages.
func DefaultLimits() Limits {
	return Limits{MaxPacketSize: 256 << 10, MaxSessions: 64, MaxSessionsPerAccount: 16, MaxQueued: 1000, MaxQueuedBytes: 512 << 10,
		MaxRetained: 64, MaxRetainedBytes: 1 << 20, SessionExpiry: 7 * 24 * time.Hour,
		MaxConnections: 256, MaxConnectionsPerAddress: 64, ConnectTimeout: 5 * time.Second}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	set := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	set(&l.MaxPacketSize, d.MaxPacketSize)
	set(&l.MaxSessions, d.MaxSessions)
	set(&l.MaxSessionsPerAccount, d.MaxSessionsPerAccount)
	set(&l.MaxQueued, d.MaxQueued)
	set(&l.MaxQueuedBytes, d.MaxQueuedBytes)
	set(&l.MaxRetained, d.MaxRetained)
	set(&l.MaxRetainedBytes, d.MaxRetainedBytes)
	set(&l.MaxConnections, d.MaxConnections)
	set(&l.MaxConnectionsPerAddress, d.MaxConnectionsPerAddress)
	if l.SessionExpiry <= 0 {
		l.SessionExpiry = d.SessionExpiry
	}
	if l.ConnectTimeout <= 0 {
		l.ConnectTimeout = d.ConnectTimeout
	}
	// The delivery orders a resent queue in the low 15 bits of creation
	// times (deliver.go).
	l.MaxQueued = min(l.MaxQueued, 0x7fff)
	return l
}

// DefaultOpts returns TCP on 127.0.0.1:1883, no websockets, no
// credentials, the default topics and limits.
func DefaultOpts() Opts {
	return Opts{Addr: "127.0.0.1:1883", Prefix: "tridboard", BoardID: "board", Discovery: "homeassistant",
		Limits: DefaultLimits()}
}

// Broker is the embedded MQTT broker (mochi-mqtt).
type Broker struct {
	srv    *mochi.Server
	tls    bool
	tcp    string
	ws     string
	local  string
	guard  *guard
	auth   *authHook
	login  [2]string
	closer sync.Once
}

// Start starts the embedded broker. It refuses to listen beyond
// loopback without a login.
func Start(opts Opts) (*Broker, error) {
	if opts.Addr == "" {
		return nil, errors.New("mqtt: embedded broker: no TCP address")
	}
	if (opts.Username == "") != (opts.Password == "") {
		return nil, errors.New("mqtt: embedded broker: set both a username and a password, or neither")
	}
	if (opts.CertFile == "") != (opts.KeyFile == "") {
		return nil, errors.New("mqtt: embedded broker: TLS: set both a certificate file and a key file, or neither")
	}
	for _, a := range []string{opts.Addr, opts.WSAddr} {
		if a == "" {
			continue
		}
		lo, err := isLoopback(a)
		if err != nil {
			return nil, fmt.Errorf("mqtt: embedded broker: listener %q: %w", a, err)
		}
		if !lo && opts.Username == "" && len(opts.Accounts) == 0 {
			return nil, fmt.Errorf("mqtt: embedded broker: listener %q is reachable beyond loopback: set a username and password", a)
		}
	}
	opts.Limits = opts.Limits.withDefaults()
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	var tc *tls.Config
	if opts.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(opts.CertFile, opts.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("mqtt: embedded broker: TLS certificate %s: %w", opts.CertFile, err)
		}
		tc = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	caps := mochi.NewDefaultServerCapabilities()
	caps.MaximumPacketSize = uint32(opts.Limits.MaxPacketSize)
	caps.MaximumInflight = uint16(opts.Limits.MaxQueued)
	caps.MaximumSessionExpiryInterval = uint32(min(opts.Limits.SessionExpiry/time.Second, math.MaxUint32))
	// Queued messages expire with their session, not after mochi's default
	// 24 hours (which would also drop the retained state of a quiet board).
	caps.MaximumMessageExpiryInterval = 0
	// Messages waiting to be written to one connection.
	caps.MaximumClientWritesPending = 1024
	// Every packet is written at once (a write buffer of 1 byte): mochi
	// keeps a packet written while its writer has more queued in a buffer
	// that only a later successful write flushes, and the store hook's
	// delivery vetoes the writer's copies of queued messages
	// (deliver.go), which would leave the buffer unflushed.
	srv := mochi.New(&mochi.Options{Logger: mochiLog(log), InlineClient: true, Capabilities: caps, ClientNetWriteBufferSize: 1})
	auth, err := newAuthHook(srv, opts, log)
	if err != nil {
		return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
	}
	if err := srv.AddHook(auth, nil); err != nil {
		return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
	}
	if opts.CommandRate > 0 {
		if err := srv.AddHook(newRateHook(srv, opts, log), nil); err != nil {
			return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
		}
	}
	// The store hook also keeps queues in order and bounded, and packet ids
	// apart (see storeHook): it runs without a file too.
	var db *bbolt.DB
	if opts.StorePath != "" {
		var err error
		if db, err = openStore(opts.StorePath, log); err != nil {
			return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
		}
	}
	store := newStoreHook(srv, db, log, opts.Limits)
	if opts.store != nil {
		opts.store(store)
	}
	if err := srv.AddHook(store, nil); err != nil {
		return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
	}
	auth.expire = func(cl *mochi.Client) {
		srv.UnsubscribeClient(cl)
		cl.ClearInflights()
		srv.Clients.Delete(cl.ID)
		store.OnClientExpired(cl)
	}
	g := newGuard(opts.Limits, log)
	if opts.guard != nil {
		opts.guard(g)
	}
	tcp := &guardedTCP{id: "tcp", addr: opts.Addr, tls: tc, g: g, listen: opts.listen, adm: admission{wg: &srv.Listeners.ClientsWg}}
	if err := srv.AddListener(tcp); err != nil {
		srv.Close()
		return nil, fmt.Errorf("mqtt: embedded broker: listen tcp %s: %w", opts.Addr, err)
	}
	b := &Broker{srv: srv, tls: tc != nil, tcp: tcp.Address(), guard: g, auth: auth, login: auth.local}
	// The daemon's own client has a listener of its own, plain, on
	// loopback, with a few connections of its own: no flood of
	// connections on the others keeps it out.
	own := opts.Limits
	own.MaxConnections, own.MaxConnectionsPerAddress = localConnections, localConnections
	local := &guardedTCP{id: "local", addr: "127.0.0.1:0", g: newGuard(own, log), adm: admission{wg: &srv.Listeners.ClientsWg}}
	if err := srv.AddListener(local); err != nil {
		srv.Close()
		return nil, fmt.Errorf("mqtt: embedded broker: listen tcp 127.0.0.1:0: %w", err)
	}
	b.local = local.Address()
	if opts.WSAddr != "" {
		// A copy of its own: net/http's ServeTLS adds HTTP/2 to its
		// server's config while the TCP listener's handshakes read theirs.
		ws := &guardedWS{id: "ws", addr: opts.WSAddr, tls: tc.Clone(), g: g, adm: admission{wg: &srv.Listeners.ClientsWg}}
		if err := srv.AddListener(ws); err != nil {
			srv.Close()
			return nil, fmt.Errorf("mqtt: embedded broker: listen websocket %s: %w", opts.WSAddr, err)
		}
		b.ws = ws.Address()
	}
	if opts.Tap != nil {
		tap := opts.Tap
		err := srv.Subscribe("#", 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
			tap(pk.TopicName, pk.Payload, pk.FixedHeader.Retain)
		})
		if err != nil {
			srv.Close()
			return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
		}
	}
	if opts.onServe != nil {
		if err := opts.onServe(srv); err != nil {
			srv.Close()
			return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
		}
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
	}
	auth.forgetStrangers()
	store.replayPending()
	return b, nil
}

// isLoopback says whether a listener on addr is reachable from this host
// only. Host names other than "localhost" count as reachable from outside.
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// URL is the broker's TCP URL: "tcp://127.0.0.1:1883", or "ssl://..." with
// TLS.
func (b *Broker) URL() string {
	if b.tls {
		return "ssl://" + b.tcp
	}
	return "tcp://" + b.tcp
}

// LocalURL is the URL the daemon's own client connects to (Opts.Broker):
// a plain listener of its own on 127.0.0.1 (a login is still required),
// with connections that no flood on URL's listener can take.
func (b *Broker) LocalURL() string { return "tcp://" + b.local }

// LocalLogin is the login of the daemon's own client when no daemon
// account is configured (Opts.Username): a username and a random
// password made at start, known to this process only. Without it, with no
// login configured, a client counts as a controller. "", "" when a daemon
// account is configured.
func (b *Broker) LocalLogin() (user, password string) { return b.login[0], b.login[1] }

// localConnections bounds the connections of LocalURL's listener.
const localConnections = 8

// WSURL is the websocket URL for browser displays ("ws://host:port/", or
// "wss://" with TLS), or "" when off.
func (b *Broker) WSURL() string {
	if b.ws == "" {
		return ""
	}
	if b.tls {
		return "wss://" + b.ws + "/"
	}
	return "ws://" + b.ws + "/"
}

// Refused counts what the broker refused beyond its limits (Limits)
// since it started, each also logged with what to use instead: the
// connections (answered "server unavailable"), and the messages published
// retained but not kept (a display joining later misses them).
func (b *Broker) Refused() (connections, retained int64) {
	return b.guard.refused.Load(), b.auth.retainsDropped.Load()
}

// RetainQuietly stores payload as topic's retained message without
// delivering it to anyone subscribed: what a cluster node that has just
// loaded its store does, serving it only to later subscriptions. For the
// tests of clients that must recover from such a node.
func (b *Broker) RetainQuietly(topic string, payload []byte) {
	b.srv.Topics.RetainMessage(packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Publish, Retain: true},
		TopicName: topic, Payload: payload})
}

// Drop closes client id's connection as a failing network would, and
// reports whether it was connected.
func (b *Broker) Drop(id string) bool {
	cl, ok := b.srv.Clients.Get(id)
	if ok {
		cl.Stop(errors.New("broker: connection dropped"))
	}
	return ok
}

// Close disconnects every client and stops the listeners.
func (b *Broker) Close() error {
	b.closer.Do(func() { b.srv.Close() })
	return nil
}
