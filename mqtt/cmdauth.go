package mqtt

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/tridboard/tridboard/internal/durable"
	"github.com/tridboard/tridboard/trust"
)

// CommandAuth admits only signed commands: each signed (trust.Key.Seal,
// kind CommandKind(name), for this set's board id) by a sender whose key
// is in Senders, with a "ts" within Window of now and a counter above the
// sender's last, so a command read off the broker can be neither replayed
// nor changed, and no token travels in clear. Safe for concurrent use.
type CommandAuth struct {
	// Senders are the keys allowed to command the set, by the sender's
	// name (the event runner, a controller).
	Senders *trust.Ring
	// Window bounds how far a command's "ts" may be from now (1 minute
	// when 0): a command captured and held back is refused after it.
	Window time.Duration
	// Now is the clock of Window; nil means time.Now.
	Now func() time.Time
	// Log receives every refusal; nil means slog.Default().
	Log *slog.Logger
	// SeenFile, when set, keeps each sender's last counter (JSON, written
	// before the command runs), so that a command captured before a
	// restart of the set is refused after it too.
	SeenFile string

	mu      sync.Mutex
	last    map[string]uint64 // by sender key
	refused int64
}

// Refused is how many commands a refused.
func (a *CommandAuth) Refused() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.refused
}

// Check returns the command's fields without its signature and "ts", and
// the sender's name, or why it is refused (logged and counted).
func (a *CommandAuth) Check(board, name string, payload []byte) ([]byte, string, error) {
	body, sender, err := a.check(board, name, payload)
	if err != nil {
		a.mu.Lock()
		a.refused++
		a.mu.Unlock()
		log := a.Log
		if log == nil {
			log = slog.Default()
		}
		log.Warn("mqtt: command refused", "command", name, "why", err)
		return nil, "", err
	}
	return body, sender, nil
}

func (a *CommandAuth) check(board, name string, payload []byte) ([]byte, string, error) {
	if len(payload) > trust.DefaultMaxSize {
		return nil, "", fmt.Errorf("%w: %d bytes", trust.ErrTooLarge, len(payload))
	}
	s, err := trust.Open(payload)
	if err != nil {
		return nil, "", errors.New("unsigned command: this set takes only signed commands")
	}
	sender := ""
	ids, entries := a.Senders.Entries()
	for _, id := range ids {
		if entries[id].Key.Equal(s.Key) {
			sender = id
			break
		}
	}
	if sender == "" {
		return nil, "", fmt.Errorf("command signed by key %s, which may not command this set", s.Key.Fingerprint())
	}
	if err := s.Verify(s.Key, board, CommandKind(name)); err != nil {
		return nil, "", fmt.Errorf("command from %s: %w", sender, err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(s.Body, &fields); err != nil {
		return nil, "", errors.New("malformed payload: want a JSON object")
	}
	var ts time.Time
	if err := json.Unmarshal(fields["ts"], &ts); err != nil {
		return nil, "", fmt.Errorf("command from %s: no valid \"ts\"", sender)
	}
	now, window := time.Now, a.Window
	if a.Now != nil {
		now = a.Now
	}
	if window <= 0 {
		window = time.Minute
	}
	if d := now().Sub(ts); d > window || d < -window {
		return nil, "", fmt.Errorf("command from %s: sent at %s, more than %s from now: replayed, or a clock is wrong", sender,
			ts.UTC().Format(time.RFC3339), window)
	}
	key := s.Key.String()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.last == nil {
		a.last = map[string]uint64{}
		if a.SeenFile != "" {
			if b, err := os.ReadFile(a.SeenFile); err == nil {
				if err := json.Unmarshal(b, &a.last); err != nil {
					return nil, "", fmt.Errorf("commands' counters %s: %w", a.SeenFile, err)
				}
			}
		}
	}
	if s.Counter <= a.last[key] {
		return nil, "", fmt.Errorf("command from %s: %w (counter %d)", sender, trust.ErrReplay, s.Counter)
	}
	a.last[key] = s.Counter
	if a.SeenFile != "" {
		b, _ := json.Marshal(a.last)
		if err := durable.WriteAtomic(a.SeenFile, b); err != nil {
			return nil, "", fmt.Errorf("commands' counters: %w (the command is not run)", err)
		}
	}
	return withoutTS(s.Body), sender, nil
}
