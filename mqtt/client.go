package mqtt

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/trust"
)

// Opts configures a Client. The settings of the configuration file's mqtt
// section carry their YAML names (broker, username, password, ca_file,
// cert_file, key_file, prefix, discovery, command_token) and are checked by
// Validate; the daemon sets the rest (tagged "-").
type Opts struct {
	// Broker is the broker's URL: tcp://, ssl://, ws:// or wss:// (mqtt://,
	// mqtts:// and tls:// are accepted too), or several separated by commas,
	// the nodes of a cluster: the client connects to one (each set starting
	// at another, spread by its board id) and on losing it moves to the
	// next (ParseBrokers); meanwhile it publishes on a standby connection
	// it keeps to another node (Client). Use Broker.URL() for the embedded
	// broker.
	Broker string `yaml:"broker"`
	// Username and Password authenticate with the broker.
	Username string `yaml:"username"`
	Password string `yaml:"password"`
	// CAFile is a PEM file of the CAs to trust for ssl:// and wss://;
	// empty means the system's.
	CAFile string `yaml:"ca_file"`
	// CertFile and KeyFile are an optional PEM client certificate and key.
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`

	// ClientID is the MQTT client id; empty means "tridboard-<BoardID>".
	ClientID string `yaml:"-"`
	// Prefix is the first level(s) of every topic.
	Prefix string `yaml:"prefix"`
	// BoardID names this set: topics are <Prefix>/<BoardID>/...
	BoardID string `yaml:"-"`
	// StateDir holds the outbox (OutboxFile). Required.
	StateDir string `yaml:"-"`
	// CommandToken, if set, must be given as "token" in every command.
	CommandToken string `yaml:"command_token"`
	// Discovery is the Home Assistant discovery prefix, or "" for none.
	Discovery string `yaml:"discovery"`
	// Version is the daemon's version, shown in Home Assistant.
	Version string `yaml:"-"`
	// Signer, when set, signs the state, the moves and the events
	// (trust.Key.Seal: a "sig" field, last), and its public key is
	// published retained on <base>/key for enrolment.
	Signer *trust.Key `yaml:"-"`
	// CommandAuth, when set, admits only commands signed by its senders
	// (CommandAuth.Check); CommandToken is then not used.
	CommandAuth *CommandAuth `yaml:"-"`

	// KeepAlive is the MQTT keep-alive interval: after so long without a
	// packet from the broker the client pings it, and a ping not answered
	// within ConnectTimeout loses the connection. 15 s by default, so that
	// a connection on which nothing is published (a standby, or a set
	// that waits for a command) to a node that died hard is noticed within
	// about 30 s (paho checks every 5 s); a move notices sooner
	// (SuspectAfter).
	KeepAlive time.Duration `yaml:"-"`
	// ConnectTimeout bounds one connection attempt.
	ConnectTimeout time.Duration `yaml:"-"`
	// RetryMin and RetryMax bound the delay between connection attempts,
	// which doubles after every failure.
	RetryMin time.Duration `yaml:"-"`
	RetryMax time.Duration `yaml:"-"`
	// AckTimeout is how long a publication waits for its PUBACK before it
	// is sent again.
	AckTimeout time.Duration `yaml:"-"`
	// SuspectAfter is how long a move may wait for its PUBACK on one
	// connection before the client, given a cluster's nodes, sends it on
	// its other connection too (the standby, or its own connection when
	// the move went out on the standby), and, once that one acknowledges
	// it first, drops the first connection as dead and reconnects it
	// elsewhere: a node that dies hard (a power cut, a pulled cable, a
	// frozen process) sends no TCP reset, and paho would notice only at
	// its keep-alive's ping timeout (KeepAlive and ConnectTimeout: about
	// 30 s). A slow but live node costs a duplicate (consumers drop it by
	// seq) and a reconnection, never a lost or reordered move: the next
	// move goes out only once this one is acknowledged. 0 means the
	// default, 2 s; negative, never (a move then waits AckTimeout, and is
	// sent again on the same connection).
	SuspectAfter time.Duration `yaml:"-"`
	// EventBuffer is how many events wait for a connection; the oldest are
	// dropped beyond it.
	EventBuffer int `yaml:"-"`
	// ClockGap is the shortest time between two changes of the game's
	// clock by commands: a clock command that comes sooner waits for the
	// rest of the gap, and the adds and sets queued meanwhile join it
	// (commandloop.go), so that a flood journals at most one clock change
	// per gap. 0 means the default, 200 ms; negative, no gap.
	ClockGap time.Duration `yaml:"-"`
	// Now is the clock that stamps states and events given without a
	// time; nil means time.Now. NewTimer makes a timer on that clock (a
	// channel that receives once d has passed, and a function that stops
	// it) for every wait of the client: the backoff between connection
	// attempts, the acknowledgement timeouts, the retries and ClockGap;
	// nil means time.NewTimer. sim.TimeSource has both, for tests in simulated
	// time. (paho's own keep-alive and connection timeouts stay on the
	// real clock.)
	Now      func() time.Time                                      `yaml:"-"`
	NewTimer func(d time.Duration) (<-chan time.Time, func() bool) `yaml:"-"`

	// Logger receives connection changes and failures; nil means
	// slog.Default().
	Logger *slog.Logger `yaml:"-"`
}

// DefaultOpts returns the defaults: the embedded broker's default address,
// prefix "tridboard", board "board", Home Assistant discovery under
// "homeassistant". StateDir must still be set.
func DefaultOpts() Opts {
	return Opts{
		Broker:         "tcp://127.0.0.1:1883",
		Prefix:         "tridboard",
		BoardID:        "board",
		Discovery:      "homeassistant",
		KeepAlive:      15 * time.Second,
		ConnectTimeout: 10 * time.Second,
		RetryMin:       500 * time.Millisecond,
		RetryMax:       30 * time.Second,
		AckTimeout:     10 * time.Second,
		SuspectAfter:   2 * time.Second,
		EventBuffer:    64,
		ClockGap:       200 * time.Millisecond,
		Now:            time.Now,
		NewTimer:       realTimer,
	}
}

// realTimer is time.NewTimer as an Opts.NewTimer.
func realTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// Client is the daemon's connection to the broker. It connects in the
// background and keeps reconnecting; while connected it publishes
// availability "online" (with "offline" as its last will), the Home
// Assistant discovery configs, the latest state (retained), events, and the
// outbox's moves one at a time in order, and it answers commands.
//
// Given a cluster's nodes, it keeps a second connection, the standby, to
// another node than its own: with its own client id (the set's and
// StandbySuffix), no last will and no subscription, made once the first
// connection is up and made again elsewhere whenever it is lost or the
// connection moves onto its node. While the connection is down the moves,
// the state, the events and the replies go out on the standby, at once: a
// node that dies takes the connection with it, and connecting to another
// node takes seconds on a cluster (nats-server reads and writes the
// session in JetStream at every CONNECT, and a request sent while the
// sessions' stream changes leader waits 5 s for nothing; docs/hall.md),
// which the standby, connected long before, does not wait for. The
// outbox publishes one move at a time on whichever connection is up, so
// the order holds across the switch; a move that was in flight on the lost
// connection is sent again (consumers drop it by seq).
//
// All methods are safe for concurrent use; none waits for the network
// except WaitConnected and Close.
type Client struct {
	opts    Opts
	brokers []string // the cluster's nodes, from the one this client prefers
	next    int      // the node the next connection tries first (connectLoop)
	topics  Topics
	outbox  *Outbox
	handler protocol.Handler
	tls     *tls.Config
	log     *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	cur      *conn         // the connection while it is up, else nil
	up       chan struct{} // closed while connected
	spare    *conn         // the standby connection while it is up, else nil
	ready    chan struct{} // closed while cur or spare is up
	node     int           // the node (index in brokers) of cur, or of the last connection; -1 before the first
	moved    chan struct{} // receives a value when cur connects (standbyLoop)
	lastErr  error
	state    []byte // latest state payload
	stateGen int    // bumped by PublishState
	statePub int    // stateGen last published
	events   [][]byte
	dropped  int
	moves    int // moves acknowledged by the broker since New
	closed   bool
	live     chan struct{}
	cmds     chan paho.Message // commands waiting to run
}

// conn is one connection to the broker.
type conn struct {
	cli     paho.Client
	down    chan struct{} // closed when the connection is lost
	lose    func()        // closes down, once
	node    int           // the node it is on (index in Client.brokers)
	suspect atomic.Bool   // dropped as dead (Opts.SuspectAfter)
}

// loser returns a function that closes down the first time it is called.
func loser(down chan struct{}) func() {
	var once sync.Once
	return func() { once.Do(func() { close(down) }) }
}

// StandbySuffix ends the client id of a client's standby connection.
const StandbySuffix = "-standby"

// New checks opts, opens the outbox in opts.StateDir and starts connecting
// to opts.Broker in the background. Commands go to h; a nil h means the
// client does not subscribe to commands.
func New(opts Opts, h protocol.Handler) (*Client, error) {
	brokers, err := ParseBrokers(opts.Broker)
	if err != nil {
		return nil, err
	}
	topics, err := NewTopics(opts.Prefix, opts.BoardID)
	if err != nil {
		return nil, err
	}
	if opts.Discovery != "" {
		if err := checkLevels(opts.Discovery); err != nil {
			return nil, fmt.Errorf("mqtt: discovery prefix %q: %w", opts.Discovery, err)
		}
	}
	d := DefaultOpts()
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = d.KeepAlive
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = d.ConnectTimeout
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = d.RetryMin
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = max(d.RetryMax, opts.RetryMin)
	}
	if opts.AckTimeout <= 0 {
		opts.AckTimeout = d.AckTimeout
	}
	if opts.EventBuffer <= 0 {
		opts.EventBuffer = d.EventBuffer
	}
	if opts.SuspectAfter == 0 {
		opts.SuspectAfter = d.SuspectAfter
	}
	if opts.ClockGap == 0 {
		opts.ClockGap = d.ClockGap
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewTimer == nil {
		opts.NewTimer = realTimer
	}
	if opts.ClientID == "" {
		opts.ClientID = "tridboard-" + opts.BoardID
	}
	tc, err := tlsConfig(opts)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	ob, err := OpenOutbox(opts.StateDir)
	if err != nil {
		return nil, err
	}
	if err := ob.Recovered(); err != nil {
		log.Warn("mqtt outbox damaged", "err", err)
	}
	c := &Client{
		opts:    opts,
		brokers: spread(brokers, opts.ClientID+opts.BoardID),
		topics:  topics,
		outbox:  ob,
		handler: h,
		tls:     tc,
		log:     log.With("broker", opts.Broker),
		up:      make(chan struct{}),
		ready:   make(chan struct{}),
		node:    -1,
		moved:   make(chan struct{}, 1),
		live:    make(chan struct{}, 1),
		cmds:    make(chan paho.Message, commandQueue),
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.wg.Add(3)
	go c.connectLoop()
	go c.outboxLoop()
	go c.liveLoop()
	if len(c.brokers) > 1 {
		c.wg.Add(1)
		go c.standbyLoop()
	}
	if h != nil {
		c.wg.Add(1)
		go c.commandLoop()
	}
	return c, nil
}

func tlsConfig(o Opts) (*tls.Config, error) {
	tc, err := ClientTLS(o.CAFile, o.CertFile, o.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("mqtt: broker %s: %w", o.Broker, err)
	}
	return tc, nil
}

// ClientTLS is the TLS configuration of a connection to a broker: the CA
// file's certificates as the roots (none: the system's), and a client
// certificate. It is nil when no file is given. The configuration check
// calls it too, so that it refuses what the daemon would.
func ClientTLS(caFile, certFile, keyFile string) (*tls.Config, error) {
	if caFile == "" && certFile == "" && keyFile == "" {
		return nil, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("CA file: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA file %s: no PEM certificate in it", caFile)
		}
	}
	if (certFile == "") != (keyFile == "") {
		return nil, errors.New("client certificate: set both a certificate file and a key file")
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("client certificate %s: %w", certFile, err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// Topics returns the client's topics.
func (c *Client) Topics() Topics { return c.topics }

// Enqueue makes m durable in the outbox (append and fsync) and wakes the
// publisher. Call it after the game journal holds the move. Enqueueing a
// (game, seq) already enqueued is a no-op.
func (c *Client) Enqueue(m protocol.Move) error { return c.outbox.Enqueue(m) }

// Recovered reports damage found in the outbox when it was opened (see
// OpenOutbox), or nil.
func (c *Client) Recovered() error { return c.outbox.Recovered() }

// PublishState replaces the state to publish (retained, QoS 1). Only the
// latest state is kept; it is published again after every reconnection.
func (c *Client) PublishState(s protocol.State) {
	if s.Time.IsZero() {
		s.Time = c.opts.Now()
	}
	s.Time = s.Time.UTC()
	if s.Result == "" {
		s.Result = protocol.ResultOngoing
	}
	b, err := json.Marshal(s)
	if err == nil {
		b, err = c.seal(TopicState, b)
	}
	if err != nil { // cannot happen: State holds only strings, numbers and times
		c.log.Error("mqtt: state: marshal", "err", err)
		return
	}
	c.mu.Lock()
	c.state = b
	c.stateGen++
	c.mu.Unlock()
	c.wake()
}

// PublishEvent queues e (QoS 1, not retained). Events wait for a
// connection in a buffer of Opts.EventBuffer, dropping the oldest.
func (c *Client) PublishEvent(e protocol.Event) {
	if e.Time.IsZero() {
		e.Time = c.opts.Now()
	}
	e.Time = e.Time.UTC()
	b, err := json.Marshal(e)
	if err == nil {
		b, err = c.seal(TopicEvent, b)
	}
	if err != nil {
		c.log.Error("mqtt: event: marshal", "err", err)
		return
	}
	c.mu.Lock()
	if len(c.events) >= c.opts.EventBuffer {
		c.events = c.events[1:]
		c.dropped++
	}
	c.events = append(c.events, b)
	c.mu.Unlock()
	c.wake()
}

// seal signs body as this set's message of kind, when the client has a
// signer.
func (c *Client) seal(kind string, body []byte) ([]byte, error) {
	if c.opts.Signer == nil {
		return body, nil
	}
	return c.opts.Signer.Seal(c.opts.BoardID, kind, body)
}

// KeyAnnouncement is the retained payload of <base>/key: the set's public
// key and its fingerprint, for the desk to enrol it (after comparing the
// fingerprint with the one the set's page shows).
func KeyAnnouncement(pub trust.PublicKey) []byte {
	b, _ := json.Marshal(map[string]string{"key": pub.String(), "fingerprint": pub.Fingerprint()})
	return b
}

// ParseKeyAnnouncement reads the key of a <base>/key payload; an empty one
// (the announcement cleared) is an error.
func ParseKeyAnnouncement(payload []byte) (trust.PublicKey, error) {
	var a struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal(payload, &a); err != nil {
		return nil, fmt.Errorf("key announcement: %w", err)
	}
	return trust.ParsePublicKey(a.Key)
}

func (c *Client) wake() {
	select {
	case c.live <- struct{}{}:
	default:
	}
}

// Stats describes the client's progress.
type Stats struct {
	Connected     bool
	Standby       bool  // the standby connection to another node is up
	PendingMoves  int   // in the outbox, not acknowledged by the broker
	MovesAcked    int   // acknowledged by the broker since New
	EventsDropped int   // dropped because the event buffer was full
	LastError     error // the last connection error, nil once connected
}

// Stats returns the client's statistics.
func (c *Client) Stats() Stats {
	n := len(c.outbox.Pending())
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{c.cur != nil, c.spare != nil, n, c.moves, c.dropped, c.lastErr}
}

// WaitConnected waits until the client is connected. When ctx ends first it
// returns the last connection error ("mqtt: broker tcp://...: connect: ..."),
// or ctx's error if no attempt failed.
func (c *Client) WaitConnected(ctx context.Context) error {
	c.mu.Lock()
	up := c.up
	c.mu.Unlock()
	select {
	case <-up:
		return nil
	case <-c.ctx.Done():
		return ErrClosed
	case <-ctx.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.lastErr != nil {
			return c.lastErr
		}
		return ctx.Err()
	}
}

// connection returns the connection to publish on, waiting for one: the
// client's own while it is up, else the standby; nil when the client
// closes.
func (c *Client) connection() *conn {
	for {
		c.mu.Lock()
		cur, spare, ready := c.cur, c.spare, c.ready
		c.mu.Unlock()
		if cur != nil {
			return cur
		}
		if spare != nil {
			return spare
		}
		select {
		case <-ready:
		case <-c.ctx.Done():
			return nil
		}
	}
}

// readyChanged closes c.ready when cur or spare is up, and makes it anew
// when neither is. c.mu is held.
func (c *Client) readyChanged() {
	up := c.cur != nil || c.spare != nil
	select {
	case <-c.ready:
		if !up {
			c.ready = make(chan struct{})
		}
	default:
		if up {
			close(c.ready)
		}
	}
}

// nodeOf returns the index in c.brokers of the node at u, or -1.
func (c *Client) nodeOf(u *url.URL) int {
	for i, b := range c.brokers {
		if bu, err := url.Parse(b); err == nil && bu.Host == u.Host {
			return i
		}
	}
	return -1
}

// pahoOpts returns the options of the client's connection (standby false:
// every node, from c.next, with the last will) or of its standby (one
// node, no last will). attempted receives the node paho tries, as it tries
// it.
func (c *Client) pahoOpts(lose func(), standby bool, node int, attempted *atomic.Int32) *paho.ClientOptions {
	o := paho.NewClientOptions()
	id, what := c.opts.ClientID, "connection"
	if standby {
		o.AddBroker(c.brokers[node])
		id, what = id+StandbySuffix, "standby connection"
	} else {
		// paho tries the nodes in turn; after a lost or failed connection
		// the next one is tried first, so a dead node costs one timeout at
		// most.
		for i := range c.brokers {
			o.AddBroker(c.brokers[(c.next+i)%len(c.brokers)])
		}
		o.SetWill(c.topics.Availability(), Offline, 1, true)
	}
	o = o.
		SetConnectionAttemptHandler(func(u *url.URL, tc *tls.Config) *tls.Config {
			attempted.Store(int32(c.nodeOf(u)))
			return tc
		}).
		SetClientID(id).
		SetUsername(c.opts.Username).
		SetPassword(c.opts.Password).
		SetCleanSession(true).
		SetProtocolVersion(ProtocolVersion).
		// The outbox, not paho, resends moves: paho's reconnection would
		// resend its in-flight messages in map order and leave tokens hanging.
		SetAutoReconnect(false).
		SetConnectRetry(false).
		SetKeepAlive(c.opts.KeepAlive).
		SetPingTimeout(c.opts.ConnectTimeout).
		SetConnectTimeout(c.opts.ConnectTimeout).
		SetWriteTimeout(c.opts.AckTimeout).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			c.log.Warn("mqtt: "+what+" lost", "err", err)
			lose()
		})
	if c.tls != nil {
		o.SetTLSConfig(c.tls)
	}
	return o
}

// wait waits for t, at most d on the client's clock. It returns false
// when the client closes.
func (c *Client) wait(t paho.Token, d time.Duration) (ok bool, err error) {
	fire, stop := c.opts.NewTimer(d)
	defer stop()
	select {
	case <-t.Done():
		return true, t.Error()
	case <-fire:
		return true, fmt.Errorf("no acknowledgement within %v", d)
	case <-c.ctx.Done():
		return false, ErrClosed
	}
}

// pause waits d on the client's clock, or until down is closed (nil:
// never). It returns false when the client closes.
func (c *Client) pause(d time.Duration, down <-chan struct{}) bool {
	fire, stop := c.opts.NewTimer(d)
	defer stop()
	select {
	case <-fire:
	case <-down:
	case <-c.ctx.Done():
		return false
	}
	return true
}

// reconnectSpread bounds the random wait before a connection lost while
// the standby is up is made again, and before a lost standby is made
// again while the connection is up: the moves go out on the one left, and
// the sets of a node that died (a third of a hall) do not all connect to
// the others in the same instant, each connection a session that the
// cluster writes to JetStream (the hall's spectators waited seconds for
// the moves of every set while a third of them reconnected at once).
const reconnectSpread = 5 * time.Second

// jitter returns a random wait in [0, reconnectSpread) (a variable for
// the tests).
var jitter = func() time.Duration { return rand.N(reconnectSpread) }

func (c *Client) connectLoop() {
	defer c.wg.Done()
	delay := c.opts.RetryMin
	var lastLogged string
	lost := false
	for c.ctx.Err() == nil {
		if lost {
			lost = false
			c.mu.Lock()
			spare := c.spare
			c.mu.Unlock()
			if spare != nil && !c.pause(jitter(), spare.down) {
				return
			}
		}
		down := make(chan struct{})
		lose := loser(down)
		var attempted atomic.Int32
		cli := paho.NewClient(c.pahoOpts(lose, false, 0, &attempted))
		err := c.connect(cli)
		if err != nil {
			cli.Disconnect(0)
			c.next++
			err = fmt.Errorf("mqtt: broker %s: %w", c.opts.Broker, err)
			c.mu.Lock()
			c.lastErr = err
			c.mu.Unlock()
			if err.Error() != lastLogged {
				c.log.Warn("mqtt: cannot connect; retrying", "err", err)
				lastLogged = err.Error()
			}
			if !c.pause(delay, nil) {
				return
			}
			delay = min(2*delay, c.opts.RetryMax)
			continue
		}
		c.log.Info("mqtt: connected")
		lastLogged = ""
		delay = c.opts.RetryMin
		cn := &conn{cli: cli, down: down, lose: lose, node: max(0, int(attempted.Load()))}
		c.next = cn.node
		c.mu.Lock()
		c.cur = cn
		c.node = cn.node
		c.lastErr = nil
		c.statePub = 0 // publish the state again: the broker may have lost it
		close(c.up)
		c.readyChanged()
		c.mu.Unlock()
		c.wake()
		select {
		case c.moved <- struct{}{}:
		default:
		}
		select {
		case <-down:
		case <-c.ctx.Done():
			return // Close publishes "offline" and disconnects c.cur.
		}
		c.mu.Lock()
		c.cur = nil
		c.up = make(chan struct{})
		c.readyChanged()
		c.mu.Unlock()
		c.next++ // the node that was lost is tried last
		lost = true
	}
}

// standbyLoop keeps the standby connection (Client) on another node than
// the client's own connection: the node before it in the client's order
// (the one its connection tries last), else the others in turn. It waits
// for the first connection, and makes the standby again elsewhere when it
// is lost or the connection moves onto its node.
func (c *Client) standbyLoop() {
	defer c.wg.Done()
	n := len(c.brokers)
	delay := c.opts.RetryMin
	k := 1 // the standby's node is the k-th before the connection's
	var lastLogged string
	for {
		c.mu.Lock()
		own := c.node
		c.mu.Unlock()
		if own < 0 {
			select {
			case <-c.moved:
				continue
			case <-c.ctx.Done():
				return
			}
		}
		node := ((own-k)%n + n) % n
		down := make(chan struct{})
		lose := loser(down)
		var attempted atomic.Int32
		cli := paho.NewClient(c.pahoOpts(lose, true, node, &attempted))
		ok, err := c.wait(cli.Connect(), c.opts.ConnectTimeout+time.Second)
		if !ok {
			cli.Disconnect(0)
			return
		}
		if err != nil {
			cli.Disconnect(0)
			if msg := fmt.Sprintf("mqtt: broker %s: standby: connect: %v", c.brokers[node], refusal(err)); msg != lastLogged {
				c.log.Warn("mqtt: cannot connect the standby; retrying", "err", msg)
				lastLogged = msg
			}
			k = k%(n-1) + 1
			if !c.pause(delay, nil) {
				return
			}
			delay = min(2*delay, c.opts.RetryMax)
			continue
		}
		lastLogged, delay = "", c.opts.RetryMin
		cn := &conn{cli: cli, down: down, lose: lose, node: node}
		c.mu.Lock()
		c.spare = cn
		c.readyChanged()
		c.mu.Unlock()
		c.wake()
	up:
		for {
			select {
			case <-down:
				break up
			case <-c.ctx.Done():
				return // Close disconnects c.spare.
			case <-c.moved:
				c.mu.Lock()
				same := c.cur != nil && c.node == node
				c.mu.Unlock()
				if same {
					break up
				}
			}
		}
		c.mu.Lock()
		c.spare = nil
		c.readyChanged()
		c.mu.Unlock()
		cli.Disconnect(0) // a publication in flight on it fails, and goes out again on the connection
		k = 1
		if cn.suspect.Load() {
			k = k%(n-1) + 1 // its node froze: another first
		}
		c.mu.Lock()
		cur := c.cur
		c.mu.Unlock()
		if cur != nil && !c.pause(jitter(), cur.down) {
			return
		}
	}
}

// connect connects cli, subscribes to commands and publishes availability
// and discovery.
func (c *Client) connect(cli paho.Client) error {
	// paho tries every node in turn, each for up to ConnectTimeout.
	if ok, err := c.wait(cli.Connect(), time.Duration(len(c.brokers))*c.opts.ConnectTimeout+time.Second); !ok || err != nil {
		return fmt.Errorf("connect: %w", refusal(err))
	}
	if c.handler != nil {
		ok, err := c.wait(cli.Subscribe(c.topics.SetFilter(), 1, c.onCommand), c.opts.AckTimeout)
		if !ok || err != nil {
			return fmt.Errorf("subscribe %s: %w", c.topics.SetFilter(), err)
		}
	}
	msgs := discoveryMessages(c.topics, c.opts, c.handler != nil)
	if k := c.opts.Signer; k != nil {
		msgs = append(msgs, message{c.topics.Key(), KeyAnnouncement(k.Public())})
	}
	for _, m := range append(msgs, message{c.topics.Availability(), []byte(Online)}) {
		if ok, err := c.wait(cli.Publish(m.topic, 1, true, m.payload), c.opts.AckTimeout); !ok || err != nil {
			return fmt.Errorf("publish %s: %w", m.topic, err)
		}
	}
	return nil
}

// refusal says what a broker's "server unavailable" may mean: it is full
// (the embedded broker answers so beyond its limits).
func refusal(err error) error {
	if errors.Is(err, packets.ErrorRefusedServerUnavailable) {
		return fmt.Errorf("%w: the broker refused the connection (full? an embedded broker serves one set and its displays; a hall needs Mosquitto or a NATS cluster, docs/hall.md)", err)
	}
	return err
}

type message struct {
	topic   string
	payload []byte
}

// outboxLoop publishes the outbox's moves one at a time, in order, waiting
// for each PUBACK before the next; after a failure it sends the first
// unacknowledged move again on the next connection.
func (c *Client) outboxLoop() {
	defer c.wg.Done()
	for {
		m, ok := c.outbox.Next()
		if !ok {
			select {
			case <-c.outbox.Notify():
				continue
			case <-c.ctx.Done():
				return
			}
		}
		cn := c.connection()
		if cn == nil {
			return
		}
		b, err := json.Marshal(m)
		if err == nil && c.opts.Signer != nil {
			// The same bytes each time: a move sent again is a duplicate.
			b, err = c.opts.Signer.SealSame(c.opts.BoardID, TopicMove, b)
		}
		if err != nil {
			c.log.Error("mqtt: move: marshal", "game", m.Game, "seq", m.Seq, "err", err)
			return
		}
		ok, err = c.publishMove(cn, b)
		if !ok {
			return
		}
		if err != nil {
			c.log.Warn("mqtt: move not acknowledged; will send it again", "game", m.Game, "seq", m.Seq, "err", err)
			if !c.pause(c.opts.RetryMin, cn.down) { // wait for a new connection, or retry on this one
				return
			}
			continue
		}
		if err := c.outbox.Ack(m.Game, m.Seq); err != nil {
			c.log.Error("mqtt: outbox: ack", "err", err)
			if !c.pause(c.opts.RetryMin, nil) {
				return
			}
			continue
		}
		c.mu.Lock()
		c.moves++
		c.mu.Unlock()
	}
}

// publishMove publishes a move on cn and waits for its PUBACK, at most
// AckTimeout. When the PUBACK is SuspectAfter late and the client has
// another connection up, the move goes out on it too; whichever
// acknowledges first acknowledges the move, and if it is the other, cn is
// dropped as dead (suspect). Either way the move reached the broker before
// the outbox sends the next one, so the order holds; a consumer drops the
// duplicate by its seq.
func (c *Client) publishMove(cn *conn, b []byte) (ok bool, err error) {
	tok := cn.cli.Publish(c.topics.Move(), 1, false, b)
	if c.opts.SuspectAfter < 0 || c.opts.SuspectAfter >= c.opts.AckTimeout {
		return c.wait(tok, c.opts.AckTimeout)
	}
	fire, stop := c.opts.NewTimer(c.opts.SuspectAfter)
	select {
	case <-tok.Done():
		stop()
		return true, tok.Error()
	case <-c.ctx.Done():
		stop()
		return false, ErrClosed
	case <-fire:
	}
	other := c.other(cn)
	if other == nil {
		return c.wait(tok, c.opts.AckTimeout-c.opts.SuspectAfter)
	}
	c.log.Warn("mqtt: move not acknowledged yet; sending it on the other connection too",
		"after", c.opts.SuspectAfter, "node", c.brokers[cn.node], "other", c.brokers[other.node])
	tok2 := other.cli.Publish(c.topics.Move(), 1, false, b)
	fire, stop = c.opts.NewTimer(c.opts.AckTimeout - c.opts.SuspectAfter)
	defer stop()
	first, second := tok.Done(), tok2.Done()
	var errs []error
	for first != nil || second != nil {
		select {
		case <-first:
			err := tok.Error()
			if err == nil {
				return true, nil
			}
			errs, first = append(errs, err), nil
		case <-second:
			err := tok2.Error()
			if err == nil {
				c.drop(cn)
				return true, nil
			}
			errs, second = append(errs, err), nil
		case <-fire:
			return true, fmt.Errorf("no acknowledgement within %v on either connection", c.opts.AckTimeout)
		case <-c.ctx.Done():
			return false, ErrClosed
		}
	}
	return true, errors.Join(errs...)
}

// other returns the client's connection that is up other than cn, or nil.
func (c *Client) other(cn *conn) *conn {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, o := range []*conn{c.cur, c.spare} {
		if o != nil && o != cn {
			return o
		}
	}
	return nil
}

// drop drops cn as dead (Opts.SuspectAfter): its loop sees it lost and
// connects again, to another node first. The DISCONNECT is written (a
// node that was only frozen reads it when it goes on, and publishes no
// last will) but not waited for.
func (c *Client) drop(cn *conn) {
	c.log.Warn("mqtt: connection dropped: its node acknowledged nothing while the other connection did",
		"node", c.brokers[cn.node])
	cn.suspect.Store(true)
	cn.lose()
	go cn.cli.Disconnect(250)
}

// liveLoop publishes events and the latest state.
func (c *Client) liveLoop() {
	defer c.wg.Done()
	for {
		select {
		case <-c.live:
		case <-c.ctx.Done():
			return
		}
		for {
			cn := c.connection()
			if cn == nil {
				return
			}
			if !c.publishLive(cn) {
				break
			}
		}
	}
}

// publishLive publishes the queued events and the state if it changed. It
// returns true when it should be called again (more to do after a failure
// or after new data arrived), false when everything is published.
func (c *Client) publishLive(cn *conn) bool {
	c.mu.Lock()
	events := c.events
	c.events = nil
	state, gen := c.state, c.stateGen
	if gen == c.statePub {
		state = nil
	}
	c.mu.Unlock()
	for i, e := range events {
		ok, err := c.wait(cn.cli.Publish(c.topics.Event(), 1, false, e), c.opts.AckTimeout)
		if !ok {
			return false
		}
		if err != nil {
			c.log.Warn("mqtt: event not published; will retry", "err", err)
			c.requeue(events[i:])
			return c.retryLater(cn)
		}
	}
	if state != nil {
		ok, err := c.wait(cn.cli.Publish(c.topics.State(), 1, true, state), c.opts.AckTimeout)
		if !ok {
			return false
		}
		if err != nil {
			c.log.Warn("mqtt: state not published; will retry", "err", err)
			return c.retryLater(cn)
		}
		c.mu.Lock()
		if (c.cur == cn || c.spare == cn) && c.statePub < gen {
			c.statePub = gen
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.events) > 0 || c.stateGen != c.statePub
}

// requeue puts events that were not published back before newer ones,
// dropping the oldest beyond the buffer.
func (c *Client) requeue(events [][]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	all := append(append([][]byte(nil), events...), c.events...)
	if n := len(all) - c.opts.EventBuffer; n > 0 {
		all = all[n:]
		c.dropped += n
	}
	c.events = all
}

func (c *Client) retryLater(cn *conn) bool { return c.pause(c.opts.RetryMin, cn.down) }

// commandQueue is how many commands wait to run.
const commandQueue = 32

// onCommand runs in paho's router: it must not block on the game. A
// command that finds commandQueue commands waiting is answered "busy" at
// once, from here: the reply is handed to paho without waiting for its
// PUBACK, so that answering keeps up with any flood the connection can
// carry, and no command goes without a reply.
func (c *Client) onCommand(_ paho.Client, m paho.Message) {
	select {
	case c.cmds <- m:
		return
	default:
	}
	name, ok := c.topics.command(m.Topic())
	cn := c.connection()
	if !ok || cn == nil {
		return
	}
	b, _ := json.Marshal(protocol.Response{Transaction: protocol.TransactionOf(m.Payload()), Status: protocol.StatusBusy,
		Reason: fmt.Sprintf("busy: %d commands are waiting; send it again later", commandQueue)})
	cn.cli.Publish(c.topics.Response(name), 1, false, b)
}

// reply publishes r on response/<name>.
func (c *Client) reply(name string, r protocol.Response) {
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(protocol.Response{Transaction: r.Transaction, Status: protocol.StatusError, Reason: "result: " + err.Error()})
	}
	cn := c.connection()
	if cn == nil {
		return
	}
	if ok, err := c.wait(cn.cli.Publish(c.topics.Response(name), 1, false, b), c.opts.AckTimeout); ok && err != nil {
		c.log.Warn("mqtt: command reply not published", "command", name, "err", err)
	}
}

// Close publishes the last state given to PublishState and "offline",
// waits until ctx ends for the outbox to drain, disconnects and closes the
// outbox. Moves still pending stay in the outbox for the next start.
func (c *Client) Close(ctx context.Context) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()

	// Let the outbox and the live publisher finish while connected.
	for {
		c.mu.Lock()
		connected := c.cur != nil || c.spare != nil
		idle := len(c.events) == 0 && c.stateGen == c.statePub
		c.mu.Unlock()
		_, pending := c.outbox.Next()
		if !connected || (!pending && idle) {
			break
		}
		// A poll on the real clock, as paho's acknowledgements come in real
		// time; ctx alone bounds the wait.
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Millisecond):
			continue
		}
		break
	}
	c.cancel()
	c.wg.Wait()

	var errs []error
	c.mu.Lock()
	cn, spare, state, dirty := c.cur, c.spare, c.state, c.stateGen != c.statePub
	c.mu.Unlock()
	if cn == nil {
		cn, spare = spare, nil
	}
	if spare != nil {
		spare.cli.Disconnect(250)
	}
	if cn != nil {
		final := []message{{c.topics.Availability(), []byte(Offline)}}
		if dirty && state != nil {
			final = append([]message{{c.topics.State(), state}}, final...)
		}
		for _, m := range final {
			t := cn.cli.Publish(m.topic, 1, true, m.payload)
			select {
			case <-t.Done():
				if err := t.Error(); err != nil {
					errs = append(errs, fmt.Errorf("mqtt: broker %s: publish %s: %w", c.opts.Broker, m.topic, err))
				}
			case <-ctx.Done():
				errs = append(errs, fmt.Errorf("mqtt: broker %s: publish %s: %w", c.opts.Broker, m.topic, ctx.Err()))
			}
		}
		cn.cli.Disconnect(250)
	}
	if err := c.outbox.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
