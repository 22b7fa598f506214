package mqtt

import (
	"github.com/mochi-mqtt/server/v2/hooks/storage/bolt"
	"go.etcd.io/bbolt"

	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
)

// BrokerOpts configures the embedded broker.
type BrokerOpts struct {
	// Addr is the TCP listener's address ("host:port"; port 0 picks one).
	Addr string
	// WSAddr is the websocket listener's address for browser displays
	// (MQTT over ws://host:port/), or "" for none.
	WSAddr string
	// Username and Password, when set, are required from every client. They
	// must be set when a listener is reachable beyond loopback.
	Username, Password string
	// Logger receives the broker's log; nil means slog.Default().
	Logger *slog.Logger
	// StorePath, when set, is a bbolt file where the broker keeps its
	// sessions, subscriptions, in-flight and retained messages, so that a
	// display with a persistent session (clean session off, QoS 1) misses
	// nothing across a restart of the daemon and its broker.
	StorePath string

	// onServe, for tests, runs just before the listeners start.
	onServe func(*mochi.Server) error
}

// DefaultBrokerOpts returns TCP on 127.0.0.1:1883, no websockets, no
// credentials.
func DefaultBrokerOpts() BrokerOpts {
	return BrokerOpts{Addr: "127.0.0.1:1883"}
}

// Broker is the embedded MQTT broker (mochi-mqtt). It keeps retained
// messages in memory only: the daemon's Client publishes its state and
// availability again whenever it connects.
type Broker struct {
	srv    *mochi.Server
	tcp    string
	ws     string
	closer sync.Once
}

// StartBroker starts the embedded broker. It refuses to listen beyond
// loopback without a username and password.
func StartBroker(opts BrokerOpts) (*Broker, error) {
	if opts.Addr == "" {
		return nil, errors.New("mqtt: embedded broker: no TCP address")
	}
	if (opts.Username == "") != (opts.Password == "") {
		return nil, errors.New("mqtt: embedded broker: set both a username and a password, or neither")
	}
	for _, a := range []string{opts.Addr, opts.WSAddr} {
		if a == "" {
			continue
		}
		lo, err := isLoopback(a)
		if err != nil {
			return nil, fmt.Errorf("mqtt: embedded broker: listener %q: %w", a, err)
		}
		if !lo && opts.Username == "" {
			return nil, fmt.Errorf("mqtt: embedded broker: listener %q is reachable beyond loopback: set a username and password", a)
		}
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	srv := mochi.New(&mochi.Options{Logger: log, InlineClient: true})
	if err := srv.AddHook(&authHook{user: []byte(opts.Username), pass: []byte(opts.Password)}, nil); err != nil {
		return nil, fmt.Errorf("mqtt: embedded broker: %w", err)
	}
	if opts.StorePath != "" {
		h := new(bolt.Hook)
		if err := srv.AddHook(h, &bolt.Options{Path: opts.StorePath, Options: &bbolt.Options{Timeout: 2 * time.Second}}); err != nil {
			return nil, fmt.Errorf("mqtt: embedded broker: store %s: %w", opts.StorePath, err)
		}
	}
	tcp := listeners.NewTCP(listeners.Config{Type: listeners.TypeTCP, ID: "tcp", Address: opts.Addr})
	if err := srv.AddListener(tcp); err != nil {
		return nil, fmt.Errorf("mqtt: embedded broker: listen tcp %s: %w", opts.Addr, err)
	}
	b := &Broker{srv: srv, tcp: tcp.Address()}
	if opts.WSAddr != "" {
		// mochi binds the websocket listener in the background and only logs
		// a failure: bind here first so that a busy port is an error now, and
		// so that port 0 becomes a real port.
		l, err := net.Listen("tcp", opts.WSAddr)
		if err != nil {
			srv.Close()
			return nil, fmt.Errorf("mqtt: embedded broker: listen websocket %s: %w", opts.WSAddr, err)
		}
		b.ws = l.Addr().String()
		l.Close()
		ws := listeners.NewWebsocket(listeners.Config{Type: listeners.TypeWS, ID: "ws", Address: b.ws})
		if err := srv.AddListener(ws); err != nil {
			srv.Close()
			return nil, fmt.Errorf("mqtt: embedded broker: listen websocket %s: %w", b.ws, err)
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
	if b.ws != "" {
		// mochi serves websockets from a goroutine: wait until it accepts.
		deadline := time.Now().Add(2 * time.Second)
		for {
			c, err := net.DialTimeout("tcp", b.ws, 100*time.Millisecond)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				srv.Close()
				return nil, fmt.Errorf("mqtt: embedded broker: websocket listener %s did not start: %w", b.ws, err)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
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

// URL is the broker's TCP URL, "tcp://127.0.0.1:1883", for Opts.Broker.
func (b *Broker) URL() string { return "tcp://" + b.tcp }

// WSURL is the websocket URL for browser displays, or "" when off.
func (b *Broker) WSURL() string {
	if b.ws == "" {
		return ""
	}
	return "ws://" + b.ws + "/"
}

// Close disconnects every client and stops the listeners.
func (b *Broker) Close() error {
	b.closer.Do(func() { b.srv.Close() })
	return nil
}

// authHook requires the configured username and password, if any.
type authHook struct {
	mochi.HookBase
	user, pass []byte
}

func (h *authHook) ID() string { return "tridboard-auth" }

func (h *authHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

func (h *authHook) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	if len(h.user) == 0 {
		return true
	}
	u := subtle.ConstantTimeCompare(pk.Connect.Username, h.user)
	p := subtle.ConstantTimeCompare(pk.Connect.Password, h.pass)
	return u&p == 1
}

func (h *authHook) OnACLCheck(cl *mochi.Client, topic string, write bool) bool { return true }
