package mqtt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/trust"
)

// FollowerOpts configure a Follower.
type FollowerOpts struct {
	// Broker is the broker's URL (tcp://, ssl://, ws://, wss://), or a
	// cluster's nodes separated by commas (ParseBrokers).
	Broker, Username, Password string
	// Prefix is the sets' topic prefix ("tridboard").
	Prefix string
	// Boards are the board ids followed; none follows every board.
	Boards []string
	// Commands says the follower sends commands (Command) and so follows
	// the replies too; Token is put into every command, as the sets want
	// it. A follower that only reads subscribes to nothing it may not be
	// allowed to read.
	Commands bool
	Token    string
	// ClientID defaults to tridboard-<Name>-<pid>-<n>.
	ClientID, Name string
	// Warn reports connection trouble (rate-limited); nil drops it.
	Warn func(msg string)
	// InOrder tries a cluster's nodes in the order given (a view running
	// on a node lists that node first); false starts each follower at a
	// node chosen from its client id, so that many spread over the cluster.
	InOrder bool
	// QoS is the subscriptions' QoS, 1 or 0: 0 needs no stored session on
	// the broker (what a clustered broker serves cheapest); a follower
	// resumes from the retained state either way.
	QoS byte
	// RetryMin is the wait before connecting again after a failed attempt;
	// RetryMax bounds the wait between reconnections after a lost
	// connection (paho doubles it up to there).
	RetryMin, RetryMax time.Duration
	// Now and NewTimer are the clock of the follower's own waits (the
	// subscriptions tried again, the warnings' rate), as in Opts; nil
	// means the real clock. paho's reconnection and the acknowledgements'
	// timeouts stay on the real clock.
	Now      func() time.Time
	NewTimer func(d time.Duration) (<-chan time.Time, func() bool)
	// Checker, when set, checks every state, move, event and remote record
	// before it is decoded (trust.Checker: the signature of the key
	// trusted for the set, a replayed older state, the size) and drops,
	// logs and counts what it refuses. Without one, only payloads over
	// trust.DefaultMaxSize are refused before they are parsed.
	Checker *trust.Checker
	// Signer, when set, signs what the follower publishes: its set's
	// remote record, and its commands (the set checks them against the
	// keys it lets command it).
	Signer *trust.Key
}

// DefaultFollowerOpts follows every board under "tridboard", retrying
// every second and reconnecting within 10 s, on the real clock.
func DefaultFollowerOpts() FollowerOpts {
	return FollowerOpts{Prefix: "tridboard", Name: "follower", QoS: 1, RetryMin: time.Second, RetryMax: 10 * time.Second,
		Now: time.Now, NewTimer: realTimer}
}

// Handlers receive what the followed sets publish, decoded. Any may be nil:
// the follower subscribes to what has a handler. They are called one at a
// time, in the order the broker delivered.
type Handlers struct {
	State        func(board string, s protocol.State)
	Move         func(board string, m protocol.Move)
	Event        func(board string, e protocol.Event)
	Availability func(board string, online bool)
	// Remote receives a set's side of a game against another set.
	Remote func(board string, r protocol.RemoteRecord)
	// Key receives the key a set announces on <base>/key (KeyAnnouncement):
	// unsigned, so only a person comparing its fingerprint with the set's
	// page may make it trusted (the desk's enrolment).
	Key func(board string, pub trust.PublicKey)
	// Connected is called after each (re)connection, once subscribed:
	// what the follower published retained may need publishing again.
	Connected func()
}

// Follower follows sets on a broker (their state, moves, events and
// availability) and sends them commands, waiting for the replies. It
// reconnects by itself, and subscribes again on every connection, so the
// retained state of each set arrives again after an outage: a follower
// resumes from it.
type Follower struct {
	o         FollowerOpts
	h         Handlers
	cli       paho.Client
	mu        sync.Mutex
	waits     map[string]chan protocol.Response
	next      int
	warned    map[string]time.Time
	ready     chan struct{} // closed once subscribed the first time
	closed    chan struct{} // closed by Close
	once      sync.Once
	closeOnce sync.Once
	retained  atomic.Bool  // a retained message came since the last connection
	conns     atomic.Int64 // counts the connections
}

// Follow connects (retrying in the background) and starts following.
func Follow(o FollowerOpts, h Handlers) (*Follower, error) {
	brokers, err := ParseBrokers(o.Broker)
	if err != nil {
		return nil, err
	}
	if _, err := NewTopics(o.Prefix, "x"); err != nil {
		return nil, err
	}
	if o.QoS > 1 {
		return nil, fmt.Errorf("mqtt: follower: QoS %d: want 0 or 1", o.QoS)
	}
	for _, b := range o.Boards {
		if _, err := NewTopics(o.Prefix, b); err != nil {
			return nil, err
		}
	}
	d := DefaultFollowerOpts()
	if o.RetryMin <= 0 {
		o.RetryMin = d.RetryMin
	}
	if o.RetryMax < o.RetryMin {
		o.RetryMax = max(d.RetryMax, o.RetryMin)
	}
	if o.Now == nil {
		o.Now = d.Now
	}
	if o.NewTimer == nil {
		o.NewTimer = d.NewTimer
	}
	if o.ClientID == "" {
		o.ClientID = fmt.Sprintf("tridboard-%s-%d-%d", o.Name, os.Getpid(), time.Now().UnixNano()%1e6)
	}
	f := &Follower{o: o, h: h, waits: map[string]chan protocol.Response{}, warned: map[string]time.Time{},
		ready: make(chan struct{}), closed: make(chan struct{})}
	po := paho.NewClientOptions()
	if !o.InOrder {
		brokers = spread(brokers, o.ClientID)
	}
	for _, b := range brokers {
		po.AddBroker(b)
	}
	po = po.SetClientID(o.ClientID).
		SetUsername(o.Username).SetPassword(o.Password).SetCleanSession(true).SetProtocolVersion(ProtocolVersion).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(o.RetryMin).
		SetMaxReconnectInterval(o.RetryMax).SetOrderMatters(true)
	po.SetOnConnectHandler(f.subscribe)
	po.SetConnectionLostHandler(func(_ paho.Client, err error) {
		f.warn("lost", fmt.Sprintf("connection to %s lost: %v (reconnecting)", o.Broker, err))
	})
	f.cli = paho.NewClient(po)
	tok := f.cli.Connect()
	go func() {
		if !tok.WaitTimeout(5 * time.Second) {
			f.warn("connect", fmt.Sprintf("broker %s not reachable yet: retrying", o.Broker))
		} else if err := tok.Error(); err != nil {
			f.warn("connect", fmt.Sprintf("broker %s: %v (retrying)", o.Broker, refusal(err)))
		}
	}()
	return f, nil
}

// subscribe subscribes on a new connection c, again and again while the
// broker refuses or does not answer (a cluster node that has just started
// may not serve subscriptions yet), waiting RetryMin, then twice as long
// each time up to RetryMax. The retained states come with the
// subscription: a follower that never subscribed would show nothing.
//
// It subscribes to the live topics (moves, events, replies: never
// retained) first, and to the retained ones after, in a SUBSCRIBE of
// their own: a NATS node makes a subscription only once it has loaded
// the retained messages it matches, which takes up to 5 s (its timeout)
// on a cluster that has just lost a node, and a follower at QoS 0 misses
// whatever is published meanwhile. So the moves flow at once, and a set's
// next state makes the follower whole.
func (f *Follower) subscribe(c paho.Client) {
	boards := f.o.Boards
	if len(boards) == 0 {
		boards = []string{"+"}
	}
	live, kept := map[string]byte{}, map[string]byte{}
	for _, b := range boards {
		for _, s := range f.kinds() {
			if retainedKind(s) {
				kept[f.o.Prefix+"/"+b+"/"+s] = f.o.QoS
			} else {
				live[f.o.Prefix+"/"+b+"/"+s] = f.o.QoS
			}
		}
	}
	f.retained.Store(false)
	conn := f.conns.Add(1)
	for _, filters := range []map[string]byte{live, kept} {
		if len(filters) > 0 && !f.subscribeAll(c, filters, conn) {
			return // closed, or the next connection subscribes
		}
	}
	f.once.Do(func() { close(f.ready) })
	if f.h.Connected != nil {
		f.h.Connected()
	}
	if len(kept) > 0 {
		go f.resubscribe(c, kept, conn)
		if conn > 1 {
			go f.refresh(c, kept, conn)
		}
	}
}

// retainedKind says whether the sets publish the topics of kind retained.
func retainedKind(kind string) bool {
	switch kind {
	case TopicState, TopicAvailability, TopicRemote, TopicKey:
		return true
	}
	return false
}

// subscribeAll subscribes to filters on connection c until the broker
// grants them; false when the follower closed or c is no longer its
// connection.
func (f *Follower) subscribeAll(c paho.Client, filters map[string]byte, conn int64) bool {
	for wait := f.o.RetryMin; ; wait = min(2*wait, f.o.RetryMax) {
		err := subscribed(c.SubscribeMultiple(filters, f.message))
		if err == nil {
			return true
		}
		f.warn("subscribe", fmt.Sprintf("subscribing on %s: %v (trying again)", f.o.Broker, err))
		if !f.sleep(wait) {
			return false
		}
		if !c.IsConnectionOpen() || f.conns.Load() != conn {
			return false
		}
	}
}

// refreshAfter are the times after a reconnection at which a follower
// subscribes again to the retained topics (refresh).
var refreshAfter = []time.Duration{5 * time.Second, 15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute}

// refresh subscribes again to the retained topics of a reconnection at
// refreshAfter, so that the retained states come again: a cluster node
// that has just lost another can serve retained states older than the
// sets' (it loads them late, or times out), and a set that made its last
// move while the follower was away would stay behind until its next
// move. The views drop a state older than what they show.
func (f *Follower) refresh(c paho.Client, filters map[string]byte, conn int64) {
	start := f.o.Now()
	for _, after := range refreshAfter {
		if !f.sleep(start.Add(after).Sub(f.o.Now())) {
			return
		}
		if !c.IsConnectionOpen() || f.conns.Load() != conn {
			return // a later connection refreshes for itself
		}
		if err := subscribed(c.SubscribeMultiple(filters, f.message)); err != nil {
			f.warn("subscribe", fmt.Sprintf("subscribing again on %s: %v", f.o.Broker, err))
		}
	}
}

// resubscribe subscribes again while nothing retained has come since the
// connection: a cluster node that has just started can grant a
// subscription before it has loaded the retained messages, and sends them
// only with a subscription made after (a subscription that replaces one
// sends the retained messages again). It waits RetryMin twice over, then
// doubles up to RetryMax, and gives up after two minutes (a broker with no
// set on it yet has nothing retained to send).
func (f *Follower) resubscribe(c paho.Client, filters map[string]byte, conn int64) {
	end := f.o.Now().Add(2 * time.Minute)
	for wait := 2 * f.o.RetryMin; f.o.Now().Before(end); wait = min(2*wait, f.o.RetryMax) {
		if !f.sleep(wait) {
			return
		}
		if f.retained.Load() || !c.IsConnectionOpen() || f.conns.Load() != conn {
			return // done, or a later connection subscribes for itself
		}
		if err := subscribed(c.SubscribeMultiple(filters, f.message)); err != nil {
			f.warn("subscribe", fmt.Sprintf("subscribing again on %s: %v", f.o.Broker, err))
		}
	}
}

// sleep waits d on the follower's clock; false when it was closed meanwhile.
func (f *Follower) sleep(d time.Duration) bool {
	ch, stop := f.o.NewTimer(d)
	defer stop()
	select {
	case <-f.closed:
		return false
	case <-ch:
		return true
	}
}

// subscribed waits for a subscription's acknowledgement: an error when
// there is none in 10 s, or the broker refused a filter (0x80).
func subscribed(tok paho.Token) error {
	if !tok.WaitTimeout(10 * time.Second) {
		return errors.New("no answer in 10 s")
	}
	if err := tok.Error(); err != nil {
		return err
	}
	if st, ok := tok.(*paho.SubscribeToken); ok {
		for filter, code := range st.Result() {
			if code == 0x80 {
				return fmt.Errorf("%s refused", filter)
			}
		}
	}
	return nil
}

// kinds are the topics followed under each board: those with a handler,
// and the replies to commands when it sends them.
func (f *Follower) kinds() []string {
	var k []string
	if f.o.Commands {
		k = append(k, TopicResponse+"/+")
	}
	for _, t := range []struct {
		kind string
		on   bool
	}{{TopicState, f.h.State != nil}, {TopicMove, f.h.Move != nil}, {TopicEvent, f.h.Event != nil},
		{TopicAvailability, f.h.Availability != nil}, {TopicRemote, f.h.Remote != nil}, {TopicKey, f.h.Key != nil}} {
		if t.on {
			k = append(k, t.kind)
		}
	}
	return k
}

// Ready returns once the follower has subscribed (nothing published after
// that is missed), or ctx's error.
func (f *Follower) Ready(ctx context.Context) error {
	select {
	case <-f.ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("mqtt: follower: not subscribed on %s: %w", f.o.Broker, ctx.Err())
	}
}

// warn reports at most once a minute per kind.
func (f *Follower) warn(kind, msg string) {
	if f.o.Warn == nil {
		return
	}
	f.mu.Lock()
	if t, ok := f.warned[kind]; ok && f.o.Now().Sub(t) < time.Minute {
		f.mu.Unlock()
		return
	}
	f.warned[kind] = f.o.Now()
	f.mu.Unlock()
	f.o.Warn(msg)
}

// split returns the board and the kind of <prefix>/<board>/<kind...>.
func (f *Follower) split(topic string) (board, kind string, ok bool) {
	rest, ok := strings.CutPrefix(topic, f.o.Prefix+"/")
	if !ok {
		return "", "", false
	}
	board, kind, ok = strings.Cut(rest, "/")
	return board, kind, ok
}

func (f *Follower) message(_ paho.Client, m paho.Message) {
	board, kind, ok := f.split(m.Topic())
	if !ok {
		return
	}
	if m.Retained() {
		f.retained.Store(true)
	}
	bad := func(err error) { f.warn("payload "+kind, fmt.Sprintf("%s: %v (ignored)", m.Topic(), err)) }
	payload := m.Payload()
	switch {
	case f.signed(kind) && f.o.Checker != nil:
		body, err := f.o.Checker.Check(board, kind, payload)
		if err != nil {
			return // logged and counted by the checker
		}
		payload = body
	case len(payload) > trust.DefaultMaxSize:
		bad(fmt.Errorf("%d bytes: over %d, refused unread", len(payload), trust.DefaultMaxSize))
		return
	}
	switch {
	case kind == TopicState && f.h.State != nil:
		var s protocol.State
		if err := json.Unmarshal(payload, &s); err != nil {
			bad(err)
			return
		}
		f.h.State(board, s)
	case kind == TopicMove && f.h.Move != nil:
		var mv protocol.Move
		if err := json.Unmarshal(payload, &mv); err != nil {
			bad(err)
			return
		}
		f.h.Move(board, mv)
	case kind == TopicEvent && f.h.Event != nil:
		var e protocol.Event
		if err := json.Unmarshal(payload, &e); err != nil {
			bad(err)
			return
		}
		f.h.Event(board, e)
	case kind == TopicAvailability && f.h.Availability != nil:
		f.h.Availability(board, string(m.Payload()) == Online)
	case kind == TopicRemote && f.h.Remote != nil:
		var r protocol.RemoteRecord
		if err := json.Unmarshal(payload, &r); err != nil {
			bad(err)
			return
		}
		f.h.Remote(board, r)
	case kind == TopicKey && f.h.Key != nil:
		pub, err := ParseKeyAnnouncement(payload)
		if err != nil {
			bad(err)
			return
		}
		f.h.Key(board, pub)
	case strings.HasPrefix(kind, TopicResponse+"/"):
		var r protocol.Response
		var tr string
		if json.Unmarshal(m.Payload(), &r) != nil || json.Unmarshal(r.Transaction, &tr) != nil {
			return
		}
		f.mu.Lock()
		ch := f.waits[tr]
		delete(f.waits, tr)
		f.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
}

// signed says whether messages of kind are signed by their set.
func (f *Follower) signed(kind string) bool {
	switch kind {
	case TopicState, TopicMove, TopicEvent, TopicRemote:
		return true
	}
	return false
}

// Command publishes command name with fields on board's set/<name>, with a
// transaction of its own and the token, and waits for the reply. A reply
// other than ok is an error holding the set's reason.
func (f *Follower) Command(ctx context.Context, board, name string, fields map[string]any) (protocol.Response, error) {
	if !f.o.Commands {
		return protocol.Response{}, errors.New("mqtt: follower: Command without FollowerOpts.Commands (the replies are not followed)")
	}
	topics, err := NewTopics(f.o.Prefix, board)
	if err != nil {
		return protocol.Response{}, err
	}
	f.mu.Lock()
	f.next++
	tr := f.o.ClientID + "-" + strconv.Itoa(f.next)
	ch := make(chan protocol.Response, 1)
	f.waits[tr] = ch
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.waits, tr)
		f.mu.Unlock()
	}()
	body := map[string]any{}
	for k, v := range fields {
		body[k] = v
	}
	body["transaction"] = tr
	if f.o.Token != "" {
		body["token"] = f.o.Token
	}
	if f.o.Signer != nil {
		body["ts"] = f.o.Now().UTC().Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(body)
	if err == nil && f.o.Signer != nil {
		b, err = f.o.Signer.Seal(board, CommandKind(name), b)
	}
	if err != nil {
		return protocol.Response{}, fmt.Errorf("mqtt: %s %s: %w", board, name, err)
	}
	if err := published(ctx, f.cli.Publish(topics.Set(name), 1, false, b), topics.Set(name)); err != nil {
		return protocol.Response{}, err
	}
	select {
	case r := <-ch:
		if r.Status != protocol.StatusOK {
			return r, fmt.Errorf("%s refused %s: %s", board, name, r.Reason)
		}
		return r, nil
	case <-ctx.Done():
		return protocol.Response{}, fmt.Errorf("no reply from %s on %s (offline?): %w", board, topics.Response(name), ctx.Err())
	}
}

// PublishRemote publishes, retained, board's side of a game against
// another set (the follower's own set: a set playing another follows it
// and tells it its side). It waits for the broker's acknowledgement.
func (f *Follower) PublishRemote(ctx context.Context, board string, r protocol.RemoteRecord) error {
	topics, err := NewTopics(f.o.Prefix, board)
	if err != nil {
		return err
	}
	b, err := json.Marshal(r)
	if err == nil && f.o.Signer != nil {
		b, err = f.o.Signer.Seal(board, TopicRemote, b)
	}
	if err != nil {
		return fmt.Errorf("mqtt: %s: remote record: %w", board, err)
	}
	return published(ctx, f.cli.Publish(topics.Remote(), 1, true, b), topics.Remote())
}

// published waits for a publication's acknowledgement, or ctx's end.
func published(ctx context.Context, tok paho.Token, topic string) error {
	select {
	case <-tok.Done():
		if err := tok.Error(); err != nil {
			return fmt.Errorf("mqtt: publishing on %s: %w", topic, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("mqtt: publishing on %s: %w", topic, ctx.Err())
	}
}

// Connected reports whether the follower is connected to the broker now.
func (f *Follower) Connected() bool { return f.cli.IsConnectionOpen() }

// Close disconnects.
func (f *Follower) Close() {
	f.closeOnce.Do(func() { close(f.closed) })
	f.cli.Disconnect(250)
}
