package main

// A load test's simulated sets and the subscriber's bookkeeping.

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// loadSet is one simulated set: a game played at random, published through
// an mqtt.Client (outbox and all) with its own state directory.
type loadSet struct {
	// sent, if set, is told of every move enqueued.
	sent  func(board, game string, seq int, at time.Time)
	id    string
	cli   *mqtt.Client
	sys   rules.System
	g     *rules.Game
	moves []game.Move // the game's moves as the journal would hold them
	game  string
	seq   int
	n     int
	rng   *rand.Rand
}

func (s *loadSet) newGame(now time.Time) {
	s.g = rules.NewGame(s.sys.Start())
	s.game = now.UTC().Format("20060102-150405.000") + "-" + s.id
	s.seq, s.moves = 0, nil
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
	gm := game.Move{Seq: s.seq, Game: s.game, Move: long, SAN: short, Position: next.String(), Time: now.UTC()}
	s.moves = append(s.moves, gm)
	mv := protocol.Move(gm)
	if s.sent != nil {
		s.sent(s.id, s.game, s.seq, now)
	}
	if err := s.cli.Enqueue(mv); err != nil {
		return false, err
	}
	s.publishState(next, now)
	s.n++
	return true, nil
}

// publishState publishes the game's state as the daemon does: from a
// table's snapshot, the board in sync at p.
func (s *loadSet) publishState(p rules.Position, now time.Time) {
	s.cli.PublishState(protocol.StateOf(&table.Snapshot{Board: s.id, Game: s.game, System: s.sys, Start: s.sys.Start(),
		Position: p, Expected: p, Moves: s.moves, Result: rules.NoResult, Time: now}))
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
