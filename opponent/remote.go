package opponent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// RemoteOpts connect a Remote to the broker both sets publish on.
type RemoteOpts struct {
	// Broker is the broker's URL; Username and Password log in (a display
	// account is enough: a Remote only subscribes).
	Broker, Username, Password string
	// Prefix is the topics' first level(s); Local is this set's board id.
	Prefix, Local string
	// Log receives what an operator should know; nil means slog.Default().
	Log *slog.Logger
	// CommandTimeout bounds one command to the table.
	CommandTimeout time.Duration
}

// Remote plays the side of another set: it follows the other set's
// retained state (the whole game so far, published after every change)
// and plays here each move of the other side that this game lacks. It
// compares both games move by move and reports a desync (a move that
// differs, a start that differs, the other set playing this set's side).
//
// Since it works from the whole game each time, nothing is lost or doubled
// across a broker outage or a restart of either set: a move is played here
// when, and only when, this game has every move before it.
type Remote struct {
	spec Spec
	do   Doer
	o    RemoteOpts
	cli  paho.Client

	mu       sync.Mutex
	ours     *table.Snapshot
	theirs   *mqtt.State
	reported string

	wake chan struct{}
	stop chan struct{}
	done chan struct{}
}

// NewRemote starts following spec.Set's game for the table do, whose game
// snap is. It connects in the background and keeps reconnecting.
func NewRemote(spec Spec, snap *table.Snapshot, do Doer, o RemoteOpts) (*Remote, error) {
	if spec.Set == "" {
		return nil, errors.New("opponent: remote: no set named")
	}
	if spec.Set == o.Local {
		return nil, fmt.Errorf("opponent: remote: set %q cannot play against itself", spec.Set)
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.CommandTimeout <= 0 {
		o.CommandTimeout = 10 * time.Second
	}
	topics, err := mqtt.NewTopics(o.Prefix, spec.Set)
	if err != nil {
		return nil, fmt.Errorf("opponent: remote: %w", err)
	}
	r := &Remote{spec: spec, do: do, o: o, ours: snap, wake: make(chan struct{}, 1), stop: make(chan struct{}),
		done: make(chan struct{})}
	po := paho.NewClientOptions().AddBroker(o.Broker).SetClientID("tridboard-" + o.Local + "-follows-" + spec.Set).
		SetUsername(o.Username).SetPassword(o.Password).SetAutoReconnect(true).SetConnectRetry(true).
		SetConnectRetryInterval(500 * time.Millisecond).SetMaxReconnectInterval(2 * time.Second).SetCleanSession(true).
		SetOrderMatters(false)
	po.SetOnConnectHandler(func(c paho.Client) {
		c.Subscribe(topics.State(), 1, r.onState)
	})
	r.cli = paho.NewClient(po)
	r.cli.Connect()
	go r.loop()
	return r, nil
}

func (r *Remote) onState(_ paho.Client, m paho.Message) {
	var s mqtt.State
	if err := json.Unmarshal(m.Payload(), &s); err != nil {
		r.o.Log.Warn("opponent: remote: the other set's state does not read", "set", r.spec.Set, "err", err)
		return
	}
	r.mu.Lock()
	r.theirs = &s
	r.mu.Unlock()
	r.poke()
}

// Handle follows this table.
func (r *Remote) Handle(e table.Event) {
	r.mu.Lock()
	r.ours = e.Snap
	r.mu.Unlock()
	r.poke()
}

func (r *Remote) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Remote) loop() {
	defer close(r.done)
	for {
		select {
		case <-r.stop:
			return
		case <-r.wake:
			r.reconcile()
		}
	}
}

// reconcile compares the games and plays the other side's next move.
func (r *Remote) reconcile() {
	r.mu.Lock()
	ours, theirs := r.ours, r.theirs
	r.mu.Unlock()
	if ours == nil || theirs == nil {
		return
	}
	next, problem := Next(ours, theirs, r.spec.Side)
	if problem != "" {
		r.report(problem)
		return
	}
	if next == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.o.CommandTimeout)
	defer cancel()
	_, err := r.do.Do(ctx, table.PlayMove{Move: next})
	switch {
	case err == nil:
		r.o.Log.Info("opponent: remote move", "set", r.spec.Set, "move", next)
	case errors.Is(err, table.ErrNotInSync):
		// The players here are busy; the next change of the board wakes us.
	default:
		r.report(fmt.Sprintf("desync with set %s: its move %s cannot be played here: %v", r.spec.Set, next, err))
	}
}

func (r *Remote) report(problem string) {
	if problem == r.reported {
		return
	}
	r.reported = problem
	r.o.Log.Error("opponent: remote", "problem", problem)
	ctx, cancel := context.WithTimeout(context.Background(), r.o.CommandTimeout)
	defer cancel()
	_, _ = r.do.Do(ctx, table.Alert{Detail: problem})
}

// Next compares this game (ours) with the other set's (theirs), whose
// players play side, and returns the other side's next move to play here
// ("" when there is none yet), or a problem: the games differ.
func Next(ours *table.Snapshot, theirs *mqtt.State, side rules.Color) (move, problem string) {
	start := ours.Start.String()
	if start == ours.System.Start().String() {
		start = ""
	}
	if theirs.Start != start || theirs.Variant != ours.System.Name() {
		return "", fmt.Sprintf("desync: the other set's game is %s from %q, this one %s from %q",
			theirs.Variant, theirs.Start, ours.System.Name(), start)
	}
	n := len(ours.Moves)
	for i := 0; i < n && i < len(theirs.Moves); i++ {
		if ours.Moves[i].Move != theirs.Moves[i] {
			return "", fmt.Sprintf("desync at move %d: %s here, %s on the other set", i+1, ours.Moves[i].Move, theirs.Moves[i])
		}
	}
	if len(theirs.Moves) <= n {
		return "", ""
	}
	if ours.Position.Turn() != side {
		return "", fmt.Sprintf("desync at move %d: the other set played %s for this set's side", n+1, theirs.Moves[n])
	}
	if ours.Result != rules.NoResult {
		return "", ""
	}
	return theirs.Moves[n], ""
}

// Close stops following.
func (r *Remote) Close() {
	close(r.stop)
	<-r.done
	r.cli.Disconnect(100)
}
