package event

import (
	"context"
	"time"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/trust"
)

// MQTTLink follows the event's sets on a broker and feeds a Runner; it is
// the Runner's Link.
type MQTTLink struct {
	f       *mqtt.Follower
	timeout time.Duration
	checker *trust.Checker
}

// DialMQTT follows o's sets for r (once Attach is called, messages reach
// it). Commands wait timeout for a set's reply. With o.Checker (a
// trust.Checker on the event's keyring, OpenKeyring) a state reaches the
// runner only when the set's enrolled key signed it, it is no older than
// the last one taken, and not oversized; o.Signer (RunnerKey) signs the
// commands.
func DialMQTT(o mqtt.FollowerOpts, timeout time.Duration) (*MQTTLink, func(*Runner), error) {
	var rr *Runner
	ready := make(chan struct{})
	h := mqtt.Handlers{
		State: func(board string, s protocol.State) {
			<-ready
			rr.Observe(board, s)
		},
		Availability: func(board string, online bool) {
			<-ready
			rr.Online(board, online)
		},
		Key: func(board string, pub trust.PublicKey) {
			<-ready
			rr.Announce(board, pub)
		},
	}
	o.Name, o.Commands = "event", true // it sends the sets their games
	f, err := mqtt.Follow(o, h)
	if err != nil {
		return nil, nil, err
	}
	attach := func(r *Runner) {
		rr = r
		close(ready)
	}
	return &MQTTLink{f: f, timeout: timeout, checker: o.Checker}, attach, nil
}

// Send sends set a command and waits for its reply.
func (l *MQTTLink) Send(set, command string, payload map[string]any) error {
	ctx, cancel := context.WithTimeout(context.Background(), l.timeout)
	defer cancel()
	_, err := l.f.Command(ctx, set, command, payload)
	return err
}

// NewGame sends set a new_game and returns the id of the game it started
// (its reply's "game").
func (l *MQTTLink) NewGame(set string, payload map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), l.timeout)
	defer cancel()
	resp, err := l.f.Command(ctx, set, protocol.CmdNewGame, payload)
	if err != nil {
		return "", err
	}
	if m, ok := resp.Data.(map[string]any); ok {
		id, _ := m["game"].(string)
		return id, nil
	}
	return "", nil
}

// Refused is how many of the sets' messages the link refused (forged,
// replayed, oversized), by reason; nil without a checker.
func (l *MQTTLink) Refused() map[string]int64 {
	if l.checker == nil {
		return nil
	}
	return l.checker.RefusedBy()
}

// ForgetKey drops what the link's checker knows of set's signatures (its
// key was enrolled or replaced at the desk: the new key counts from its own
// start).
func (l *MQTTLink) ForgetKey(set string) {
	if l.checker != nil {
		l.checker.Forget(set)
	}
}

// Close disconnects.
func (l *MQTTLink) Close() { l.f.Close() }
