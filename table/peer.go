package table

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
)

// PeerState is the other set of a remote game, as the players are shown
// it (the state, the page, the LEDs).
type PeerState struct {
	// Set is the other set's board id.
	Set string
	// Online is false while the other set is disconnected; Paired true
	// once both sets play the same game.
	Online, Paired bool
	// Absent is the side the other set's players play while it is
	// offline (its king warns on the LEDs), valid when !Online.
	Absent rules.Color
	// Detail says what, in words.
	Detail string
}

// Peer sets what the players are shown of the other set of a remote game
// (nil: no remote game): a PeerChanged event with the detail.
type Peer struct {
	State *PeerState
}

// PeerFlag records the other set's result on time: Side's flag fell on
// the set whose clock is authoritative for it (the other set's), at At.
// This set's clock stops.
type PeerFlag struct {
	Side rules.Color
	At   time.Time
}

func (Peer) Name() string     { return "peer" }
func (PeerFlag) Name() string { return "peer_flag" }

func (t *Table) peerCommand(now time.Time, c Command) (Reply, error) {
	switch c := c.(type) {
	case Peer:
		if c.State != nil {
			st := *c.State
			t.peer = &st
		} else {
			t.peer = nil
		}
		detail := ""
		if c.State != nil {
			detail = c.State.Detail
		}
		t.emit(Event{Kind: PeerChanged, At: now, Detail: detail})
		return Reply{}, nil
	case PeerFlag:
		if res, _ := t.sess.Result(); res != rules.NoResult {
			return Reply{}, fmt.Errorf("table: the other set's flag: the game is already over (%s)", res)
		}
		res := clock.FlagResult(t.sess.Position(), c.Side, t.o.Clock.CannotMate)
		at := c.At
		if at.IsZero() || at.After(now) {
			at = now
		}
		if err := t.sess.FlagFell(c.Side, res, at); err != nil {
			return Reply{}, err
		}
		t.log.Info("flag fell on the other set", "side", c.Side.String())
		t.gameOver(now)
		return Reply{}, nil
	}
	return Reply{}, fmt.Errorf("table: command %q not supported", c.Name())
}
