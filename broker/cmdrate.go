package broker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"github.com/tridboard/tridboard/protocol"
)

// rateHook limits, per client, the commands published on the board's
// set/ topics (Opts.CommandRate): a token bucket of rate a second and
// twice that in a burst. A command beyond it is acknowledged but not
// delivered, and the broker answers it busy on the daemon's response topic,
// so that one flooding client neither fills the daemon's queue for the
// others nor goes without replies. The daemon's own client is not limited.
// MQTT 3.1.1 does not tell the daemon who published a command: only the
// broker can limit per client.
type rateHook struct {
	mochi.HookBase
	srv    *mochi.Server
	board  string // <prefix>/<board>/, or "" for any board
	daemon string // the daemon's client id
	rate   float64
	burst  float64
	now    func() time.Time
	log    *slog.Logger

	mu      sync.Mutex
	buckets map[string]*bucket // by client id
}

type bucket struct {
	tokens float64
	at     time.Time
	warned bool
}

func newRateHook(srv *mochi.Server, o Opts, log *slog.Logger) *rateHook {
	h := &rateHook{srv: srv, daemon: o.DaemonClientID, rate: o.CommandRate, burst: 2 * o.CommandRate,
		now: o.now, log: log, buckets: map[string]*bucket{}}
	if o.BoardID != "" {
		h.board = o.Prefix + "/" + o.BoardID + "/"
	}
	if h.now == nil {
		h.now = time.Now
	}
	return h
}

// ID names the hook.
func (h *rateHook) ID() string { return "tridboard-command-rate" }

// Provides says which events the hook handles.
func (h *rateHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnPublish, mochi.OnDisconnect}, []byte{b})
}

// OnDisconnect forgets the client's bucket.
func (h *rateHook) OnDisconnect(cl *mochi.Client, _ error, _ bool) {
	h.mu.Lock()
	delete(h.buckets, cl.ID)
	h.mu.Unlock()
}

// OnPublish takes a token for a command, or answers it busy.
func (h *rateHook) OnPublish(cl *mochi.Client, pk packets.Packet) (packets.Packet, error) {
	if cl.Net.Inline || cl.ID == h.daemon {
		return pk, nil
	}
	base, name, ok := h.command(pk.TopicName)
	if !ok || h.take(cl.ID) {
		return pk, nil
	}
	r := protocol.Response{Transaction: protocol.TransactionOf(pk.Payload), Status: protocol.StatusBusy,
		Reason: fmt.Sprintf("busy: over %g commands a second from this client; send it again later", h.rate)}
	b, _ := json.Marshal(r)
	if err := h.srv.Publish(base+"response/"+name, b, false, 1); err != nil {
		h.log.Warn("mqtt: embedded broker: busy reply not published", "client", cl.ID, "err", err)
	}
	return pk, packets.CodeSuccessIgnore
}

// command splits <base>set/<name>, a command topic of the board.
func (h *rateHook) command(topic string) (base, name string, ok bool) {
	i := strings.LastIndex(topic, "/set/")
	if i < 0 || strings.Contains(topic[i+5:], "/") || topic[i+5:] == "" {
		return "", "", false
	}
	base, name = topic[:i+1], topic[i+5:]
	return base, name, h.board == "" || base == h.board
}

// take takes a token from the client's bucket; the first refusal of a run
// is logged.
func (h *rateHook) take(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	b := h.buckets[id]
	if b == nil {
		b = &bucket{tokens: h.burst, at: now}
		h.buckets[id] = b
	}
	b.tokens = min(h.burst, b.tokens+now.Sub(b.at).Seconds()*h.rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		b.warned = false
		return true
	}
	if !b.warned {
		b.warned = true
		h.log.Warn("mqtt: embedded broker: client over its command rate: answering busy", "client", id, "rate", h.rate)
	}
	return false
}
