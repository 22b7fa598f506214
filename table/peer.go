package table

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/recognize"
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
	// Side is the side the other set's players play: its king warns on
	// the LEDs while it is offline, and its flag is the other set's to
	// declare while it is online and paired.
	Side rules.Color
	// Detail says what, in words.
	Detail string
	// Desync says what differs while the two sets hold different games
	// (the sets are then not paired: each can take moves back to the
	// last position they share, and the games pair again once they
	// agree).
	Desync string
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
func (Peer) command()         {}
func (PeerFlag) Name() string { return "peer_flag" }
func (PeerFlag) command()     {}

func (t *Table) peerCommand(now time.Time, c Command) (Reply, error) {
	switch c := c.(type) {
	case Peer:
		if c.State != nil {
			st := *c.State
			t.remote.peer = &st
			if st.Desync == "" {
				t.remote.resolve = nil // the games agree: nothing left to resolve
			}
		} else {
			t.remote.peer = nil
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

// TakeBackRequest is a take-back asked in a remote game: of the other
// set's players by this set's (ByPeer false), or of this set's by the
// other's (ByPeer true).
type TakeBackRequest struct {
	// Plies is the number of moves to take back; At the number of moves
	// of the game when it was asked; ID tells two requests apart (the
	// asking set's time of the request, in ns).
	Plies, At int
	ID        int64
	ByPeer    bool
	// ByHand: this set's players put the position before the last move
	// back by hand (askByHand); the set expects the game's position
	// until the other set answers.
	ByHand bool
}

// TakeBackAnswer is this set's players' answer to the other set's request
// made when the game had At moves.
type TakeBackAnswer struct {
	At     int
	ID     int64
	Accept bool
}

// PeerTakeBack carries the other set's request here (Request), or its
// answer to this set's (Answer: the moves are taken back when it accepts).
type PeerTakeBack struct {
	Request *TakeBackRequest
	Answer  *TakeBackAnswer
}

func (PeerTakeBack) Name() string { return "peer_take_back" }
func (PeerTakeBack) command()     {}

// remoteTakeBack handles c in a paired remote game; false when c is this
// set's own take-back to make at once.
func (t *Table) remoteTakeBack(now time.Time, c TakeBack) (Reply, bool, error) {
	have := len(t.sess.Moves())
	n := max(c.Plies, 1)
	switch {
	case c.Answer != "":
		ask := t.remote.tbAsk
		if ask == nil || !ask.ByPeer {
			return Reply{}, true, fmt.Errorf("table: take back: no take-back asked by the other set to %s", c.Answer)
		}
		if ask.At != have {
			t.remote.tbAsk = nil
			return Reply{}, true, fmt.Errorf("%w: the take-back was asked at move %d, the game has %d moves", ErrStale, ask.At, have)
		}
		accept := c.Answer == TakeBackAccept
		if !accept && c.Answer != TakeBackRefuse {
			return Reply{}, true, fmt.Errorf("table: take back: answer %q: want accept or refuse", c.Answer)
		}
		var rep Reply
		if accept {
			var err error
			if rep, err = t.takeBackNow(now, ask.Plies); err != nil {
				return Reply{}, true, err
			}
		}
		t.remote.tbAsk, t.remote.tbAnswer = nil, &TakeBackAnswer{At: ask.At, ID: ask.ID, Accept: accept}
		t.emit(Event{Kind: PeerChanged, At: now, Detail: "take-back " + c.Answer + "ed"})
		return rep, true, nil
	case t.remote.peer == nil || !t.remote.peer.Paired:
		return Reply{}, false, nil
	}
	if n > have {
		return Reply{}, true, fmt.Errorf("table: take back %d moves: the game has %d", n, have)
	}
	if res, _ := t.sess.Result(); res != rules.NoResult {
		return Reply{}, true, fmt.Errorf("table: take back: the game is over (%s)", res)
	}
	t.remote.tbAsk = &TakeBackRequest{Plies: n, At: have, ID: now.UnixNano()}
	detail := fmt.Sprintf("take-back of %d move(s) asked of set %s", n, t.remote.peer.Set)
	t.emit(Event{Kind: PeerChanged, At: now, Detail: detail})
	return Reply{}, true, nil
}

// peerTakeBack carries out c.
func (t *Table) peerTakeBack(now time.Time, c PeerTakeBack) (Reply, error) {
	have := len(t.sess.Moves())
	switch {
	case c.Request != nil:
		if c.Request.At != have || c.Request.Plies < 1 || c.Request.Plies > have {
			return Reply{}, fmt.Errorf("%w: a take-back of %d asked at move %d, the game has %d moves", ErrStale,
				c.Request.Plies, c.Request.At, have)
		}
		r := *c.Request
		r.ByPeer = true
		t.remote.tbAsk = &r
		t.emit(Event{Kind: PeerChanged, At: now, Detail: fmt.Sprintf("the other set asks to take back %d move(s)", r.Plies)})
		return Reply{}, nil
	case c.Answer != nil:
		ask := t.remote.tbAsk
		if ask == nil || ask.ByPeer || ask.At != c.Answer.At || ask.ID != c.Answer.ID {
			return Reply{}, fmt.Errorf("%w: an answer to a take-back this set did not ask", ErrStale)
		}
		t.remote.tbAsk = nil
		if !c.Answer.Accept {
			if ask.ByHand {
				t.rec.Expect("set " + t.remote.peer.Set + " refused the take-back: put " + t.lastLong() + " back on the board")
				t.expectedSet()
			}
			t.emit(Event{Kind: PeerChanged, At: now, Detail: "the other set refused the take-back"})
			return Reply{}, nil
		}
		if t.remote.tbHeld {
			t.remote.tbHeld = false
			t.applyPlay()
		}
		return t.takeBackNow(now, ask.Plies)
	}
	return Reply{}, fmt.Errorf("table: %s: nothing to do", c.Name())
}

// peerFlags reports whether side's flag is the other set's to declare: in
// a game paired with another set, whose clock is authoritative for its
// side, while it is online (offline, its side's clock is paused after the
// grace period). Its flag comes here as PeerFlag.
func (t *Table) peerFlags(side rules.Color) bool {
	p := t.remote.peer
	return p != nil && p.Paired && p.Online && side == p.Side
}

// askByHand turns a take-back made by hand (e, the position before the
// last move put back on the set) in a paired remote game into a take-back
// request to the other set (issue 33): one game on two sets is never taken
// back on one alone. The set expects the game's position until the other
// set answers: accepted, the move is taken back here too (the set already
// shows the position before it); refused, the players put it back. It
// reports false when the game is not a paired remote one (the take-back
// is this set's to make).
func (t *Table) askByHand(now time.Time, e recognize.Event) bool {
	if t.remote.peer == nil || !t.remote.peer.Paired {
		return false
	}
	t.flush() // the move taken back may still be on its way to the journal
	long := t.lastLong()
	if res, _ := t.sess.Result(); res != rules.NoResult || t.remote.tbAsk != nil {
		t.remote.tbHeld = true
		t.applyPlay()
		t.rec.Restore(e.Move, "no take-back by hand in a game with set "+t.remote.peer.Set+": put "+long+" back on the board")
		t.expectedSet()
		return true
	}
	t.remote.tbAsk = &TakeBackRequest{Plies: 1, At: len(t.sess.Moves()), ID: now.UnixNano(), ByHand: true}
	t.remote.tbHeld = true
	t.applyPlay() // until the answer, the position before the move is no take-back
	t.rec.Restore(e.Move, fmt.Sprintf("take-back of %s asked of set %s: wait for its answer, or put the move back", long, t.remote.peer.Set))
	t.expectedSet()
	t.log.Info("take-back by hand in a remote game: asked of the other set", "move", long, "set", t.remote.peer.Set, "at", e.At)
	t.emit(Event{Kind: PeerChanged, At: now, Detail: fmt.Sprintf("take-back of %s by hand: asked of set %s", long, t.remote.peer.Set)})
	return true
}

// lastLong is the long form of the game's last move ("" before the first).
func (t *Table) lastLong() string {
	moves := t.sess.Moves()
	if len(moves) == 0 {
		return ""
	}
	return moves[len(moves)-1].Move
}
