package web

import (
	"context"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules"
)

// EvalView is the engine's evaluation of a position for spectators, from
// White's view: CP centipawns (positive: White is better) or Mate (n > 0:
// White mates in n moves, n < 0: Black mates in -n), the depth searched
// and the best line in the system's notation; Result for a position where
// the game is over (checkmate, stalemate).
type EvalView struct {
	CP     int      `json:"cp"`
	Mate   int      `json:"mate,omitempty"`
	Depth  int      `json:"depth,omitempty"`
	Best   []string `json:"best,omitempty"`
	Result string   `json:"result,omitempty"`
}

// evalLine is how many moves of the best line are shown.
const evalLine = 6

// evaluate searches p with the engine within a node budget: the hub's
// analysis for spectators.
func evaluate(ctx context.Context, p rules.Position, nodes int64, depth int) (*EvalView, error) {
	if len(p.LegalMoves(nil)) == 0 {
		ev := &EvalView{Result: "1/2-1/2"}
		if in, _ := p.InCheck(); in {
			ev.Result = "1-0"
			if p.Turn() == rules.White {
				ev.Result = "0-1"
			}
		}
		return ev, nil
	}
	res, err := engine.Search(ctx, p, engine.Opts{Nodes: nodes, Depth: depth, TableEntries: 1 << 14})
	if err != nil {
		return nil, err
	}
	sign := 1
	if p.Turn() == rules.Black {
		sign = -1
	}
	ev := &EvalView{Depth: res.Depth}
	if res.Score.IsMate() {
		ev.Mate = sign * res.Score.MateIn()
		ev.CP = sign * int(res.Score)
	} else {
		ev.CP = sign * int(res.Score)
	}
	pv := res.PV
	if len(pv) == 0 {
		pv = []rules.Move{res.Move}
	}
	q := p
	for i, m := range pv {
		if i == evalLine {
			break
		}
		ev.Best = append(ev.Best, q.Short(m))
		q = q.Play(m)
	}
	return ev, nil
}

// evalTask is a position the analysis has still to search: ply i of board
// id's game (0 the start) in the history epoch it was taken from.
type evalTask struct {
	id    string
	epoch uint64
	ply   int
	long  string // the move of ply (none for the start)
	pos   rules.Position
}

// nextEval finds the next position to analyse: on each board the newest
// one without an evaluation (within the last EvalPlies of its game), and
// of those the one fewest moves behind its game. h.mu is held.
func (h *Hub) nextEval() (evalTask, bool) {
	var best evalTask
	bestAge := -1
	for _, id := range h.boardIDs() {
		b := h.boards[id]
		if b.sys == nil || b.g == nil {
			continue
		}
		n := len(b.plies)
		for i := n; i >= 0 && i >= n-h.opts.EvalPlies; i-- {
			if i == 0 && b.startEval != nil || i > 0 && b.plies[i-1].Eval != nil {
				continue
			}
			if age := n - i; bestAge < 0 || age < bestAge {
				best, bestAge = evalTask{id: id, epoch: b.epoch, ply: i}, age
				if i > 0 {
					best.long = b.plies[i-1].Long
				}
				if i == n {
					best.pos = b.g.Position()
				} else {
					_, best.pos = b.g.Move(i)
				}
			}
			break
		}
		if bestAge == 0 {
			break
		}
	}
	return best, bestAge >= 0
}

// EvalOnce analyses one position waiting for its evaluation, the newest
// first, and reports whether there was one. The hub analyses only what it
// has applied, so with a broadcast delay the evaluation is never ahead of
// the broadcast.
func (h *Hub) EvalOnce(ctx context.Context) bool {
	if !h.opts.Eval {
		return false
	}
	h.mu.Lock()
	t, ok := h.nextEval()
	h.mu.Unlock()
	if !ok {
		return false
	}
	ev, err := evaluate(ctx, t.pos, h.opts.EvalNodes, h.opts.EvalDepth)
	if err != nil {
		ev = &EvalView{} // nothing found: do not search it again
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[t.id]
	if b == nil || b.epoch != t.epoch || len(b.plies) < t.ply || t.ply > 0 && b.plies[t.ply-1].Long != t.long {
		return true // the game moved on meanwhile
	}
	b.touch(false)
	if t.ply == 0 {
		b.startEval, b.startEvalVer = ev, b.ver
	} else {
		// A new MoveView: the views handed out share the old one.
		c := *b.plies[t.ply-1]
		c.Eval, c.evalVer = ev, b.ver
		b.plies[t.ply-1] = &c
	}
	h.wake(t.id)
	return true
}

// RunEval analyses the positions the boards reach, one after the other,
// until done is closed (the daemon and `tridboard view` run it; nothing
// with HubOpts.Eval off).
func (h *Hub) RunEval(done <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-done; cancel() }()
	for {
		for h.EvalOnce(ctx) {
			if ctx.Err() != nil {
				return
			}
		}
		select {
		case <-done:
			return
		case <-h.evalWake:
		}
	}
}
