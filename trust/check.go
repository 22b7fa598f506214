package trust

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// CheckerOpts configure a Checker.
type CheckerOpts struct {
	// Ring holds the keys trusted, by board id. Required.
	Ring *Ring
	// MaxSize is the largest payload taken (DefaultMaxSize when 0): a
	// larger one is refused before it is parsed.
	MaxSize int
	// Ordered are the kinds whose counter must rise from one message to
	// the next (a replayed older one is refused): the retained ones,
	// whose latest is the truth. Moves and events may be redelivered out
	// of order by a broker and their readers drop duplicates by seq.
	Ordered map[string]bool
	// Log receives every refusal (at most LogBurst a minute per board,
	// then a count once a minute); nil means slog.Default().
	Log      *slog.Logger
	LogBurst int
	// Now is the clock of the log's rate; nil means time.Now.
	Now func() time.Time
}

// DefaultMaxSize is the largest payload a Checker takes by default: 256
// KiB, the embedded broker's packet limit; a state of a 300-move game is
// about 12 KiB.
const DefaultMaxSize = 256 << 10

// DefaultCheckerOpts check ring's keys, with the state and the remote
// record ordered.
func DefaultCheckerOpts(ring *Ring) CheckerOpts {
	return CheckerOpts{Ring: ring, MaxSize: DefaultMaxSize, Ordered: map[string]bool{"state": true, "remote": true},
		LogBurst: 20, Now: time.Now}
}

// Checker checks signed payloads before they are believed: size, the
// signature of the key trusted for the set, and for ordered kinds that the
// counter rose. It counts and logs every refusal. Safe for concurrent use.
type Checker struct {
	o       CheckerOpts
	refused atomic.Int64

	mu    sync.Mutex
	last  map[string]lastSeen // by board + "/" + kind
	logs  map[string]*logRate // by board
	kinds map[string]int64    // refusals by reason
}

type lastSeen struct {
	counter uint64
	body    []byte
}

type logRate struct {
	since   time.Time
	n       int
	dropped int
}

// NewChecker returns a Checker.
func NewChecker(o CheckerOpts) *Checker {
	d := DefaultCheckerOpts(o.Ring)
	if o.MaxSize <= 0 {
		o.MaxSize = d.MaxSize
	}
	if o.Ordered == nil {
		o.Ordered = d.Ordered
	}
	if o.LogBurst <= 0 {
		o.LogBurst = d.LogBurst
	}
	if o.Now == nil {
		o.Now = d.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Checker{o: o, last: map[string]lastSeen{}, logs: map[string]*logRate{}, kinds: map[string]int64{}}
}

// Check returns the payload's body (the exact bytes signed, without the
// signature) when board's trusted key signed it as kind, or an error,
// logged and counted. A payload signed again with the same counter and the
// same bytes (a retained message delivered again) is taken.
func (c *Checker) Check(board, kind string, payload []byte) ([]byte, error) {
	body, err := c.check(board, kind, payload)
	if err != nil {
		c.refuse(board, kind, err)
		return nil, err
	}
	return body, nil
}

func (c *Checker) check(board, kind string, payload []byte) ([]byte, error) {
	if len(payload) > c.o.MaxSize {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(payload), c.o.MaxSize)
	}
	s, err := Open(payload)
	if err != nil {
		return nil, err
	}
	pub, ok := c.o.Ring.Key(board)
	if !ok {
		if !c.o.Ring.FirstUse {
			return nil, fmt.Errorf("%w: set %s is not enrolled (its key %s)", ErrUnknown, board, s.Key.Fingerprint())
		}
		pub = s.Key // pinned below once the signature holds
	}
	if err := s.Verify(pub, board, kind); err != nil {
		return nil, err
	}
	if !ok {
		pinned, err := c.o.Ring.Pin(board, pub)
		if err != nil {
			return nil, err
		}
		if !pinned {
			return nil, fmt.Errorf("%w: set %s has another key", ErrUnknown, board)
		}
		c.o.Log.Warn("trust: key trusted on first use; compare its fingerprint with the set's page", "set", board,
			"fingerprint", pub.Fingerprint())
	}
	if c.o.Ordered[kind] {
		c.mu.Lock()
		defer c.mu.Unlock()
		k := board + "/" + kind
		l, seen := c.last[k]
		switch {
		case s.Counter == 0:
			return nil, fmt.Errorf("%w: a %s must carry a counter", ErrReplay, kind)
		case seen && s.Counter < l.counter, seen && s.Counter == l.counter && !bytes.Equal(s.Body, l.body):
			return nil, fmt.Errorf("%w: counter %d, the last taken %d", ErrReplay, s.Counter, l.counter)
		}
		c.last[k] = lastSeen{counter: s.Counter, body: s.Body}
	}
	return s.Body, nil
}

// Forget drops what c knows of board's counters (its key was replaced).
func (c *Checker) Forget(board string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.last {
		if len(k) > len(board) && k[:len(board)+1] == board+"/" {
			delete(c.last, k)
		}
	}
}

// Refused is how many payloads c refused.
func (c *Checker) Refused() int64 { return c.refused.Load() }

// RefusedBy is how many payloads c refused, by reason: "unsigned", "bad
// signature", "unknown key", "replay", "too large".
func (c *Checker) RefusedBy() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := make(map[string]int64, len(c.kinds))
	for k, v := range c.kinds {
		m[k] = v
	}
	return m
}

// Reason names err's kind of refusal.
func Reason(err error) string {
	for _, r := range []struct {
		err  error
		name string
	}{{ErrTooLarge, "too large"}, {ErrUnsigned, "unsigned"}, {ErrBadSig, "bad signature"}, {ErrUnknown, "unknown key"},
		{ErrReplay, "replay"}} {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return "other"
}

func (c *Checker) refuse(board, kind string, err error) {
	c.refused.Add(1)
	now := c.o.Now()
	c.mu.Lock()
	c.kinds[Reason(err)]++
	lr := c.logs[board]
	if lr == nil || now.Sub(lr.since) >= time.Minute {
		if lr != nil && lr.dropped > 0 {
			c.o.Log.Warn("trust: more refusals not logged", "set", board, "count", lr.dropped)
		}
		lr = &logRate{since: now}
		c.logs[board] = lr
	}
	lr.n++
	log := lr.n <= c.o.LogBurst
	if !log {
		lr.dropped++
	}
	c.mu.Unlock()
	if log {
		c.o.Log.Warn("trust: refused a message", "set", board, "kind", kind, "why", Reason(err), "err", err)
	}
}
