package main

// A load test's simulated sets and the subscriber's bookkeeping.

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
)

// loadSet is one simulated set: a game played at random, published through
// an mqtt.Client (outbox and all) with its own state directory.
type loadSet struct {
	// sent, if set, is told of every move enqueued.
	sent func(board, game string, seq int, at time.Time)
	id   string
	cli  *mqtt.Client
	sys  rules.System
	g    *rules.Game
	game string
	seq  int
	n    int
	rng  *rand.Rand
}

func (s *loadSet) newGame(now time.Time) {
	s.g = rules.NewGame(s.sys.Start())
	s.game = now.UTC().Format("20060102-150405.000") + "-" + s.id
	s.seq = 0
}

// step plays one random move and publishes it as the daemon does.
func (s *loadSet) step(now time.Time) (bool, error) {
	p := s.g.Position()
	moves := p.LegalMoves(nil)
	if len(moves) == 0 || s.g.Len() >= 300 {
		s.newGame(now)
		p = s.g.Position()
		moves = p.LegalMoves(nil)
	}
	m := moves[s.rng.IntN(len(moves))]
	long, short := p.Long(m), p.Short(m)
	next := s.g.Play(m)
	s.seq++
	mv := protocol.Move{Seq: s.seq, Game: s.game, Move: long, SAN: short, Position: next.String(), Time: now.UTC()}
	if s.sent != nil {
		s.sent(s.id, s.game, s.seq, now)
	}
	if err := s.cli.Enqueue(mv); err != nil {
		return false, err
	}
	st := protocol.State{Game: s.game, Variant: s.sys.Name(), Position: next.String(), Turn: next.Turn(),
		Board: protocol.Board{Status: protocol.BoardInSync}, LastMove: &protocol.LastMove{Seq: s.seq, Move: long, SAN: short},
		Moves: s.g.Long(), MoveNumber: next.FullmoveNumber(), Result: protocol.ResultOngoing, Time: now.UTC()}
	st.Check, _ = next.InCheck()
	s.cli.PublishState(st)
	s.n++
	return true, nil
}

// loadCheck is the subscriber's bookkeeping.
type loadCheck struct {
	mu        sync.Mutex
	last      map[string]int // board/game -> highest seq
	seen      map[string]bool
	received  int
	dups, ooo int
	// dupsOf and oooOf count them per set.
	dupsOf, oooOf map[string]int
	lat           []time.Duration
	cond          chan struct{}
}

func (c *loadCheck) move(board string, m protocol.Move, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := board + "/" + m.Game
	sk := k + "/" + strconv.Itoa(m.Seq)
	switch {
	case c.seen[sk]:
		c.dups++
		c.dupsOf[board]++
		return
	case m.Seq != c.last[k]+1:
		c.ooo++
		c.oooOf[board]++
	}
	c.seen[sk] = true
	c.last[k] = max(c.last[k], m.Seq)
	c.received++
	if len(c.lat) < 1_000_000 {
		c.lat = append(c.lat, at.Sub(m.Time))
	}
	select {
	case c.cond <- struct{}{}:
	default:
	}
}
