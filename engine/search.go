package engine

import (
	"context"
	"errors"
	"hash/maphash"
	"math/rand/v2"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// ErrNoMoves is returned by Search for a position without a legal move.
var ErrNoMoves = errors.New("engine: the position has no legal move")

// Search finds a move for the side to move of pos within o's bounds. It
// stops early, with the best move found so far, when ctx is done. It
// returns ErrNoMoves when pos has no legal move, and otherwise always a
// legal move of pos.
func Search(ctx context.Context, pos rules.Position, o Opts) (Result, error) {
	if m, ok := pos.(rules.Maker); ok {
		return run(ctx, m.Clone(), o)
	}
	return run(ctx, &boxed{pos}, o)
}

// boxed makes any rules.Position a rules.Maker, through Play (one
// allocation a node).
type boxed struct{ rules.Position }

func (b *boxed) Make(m rules.Move)        { b.Position = b.Position.Play(m) }
func (b *boxed) Clone() rules.Maker       { return &boxed{b.Position} }
func (b *boxed) CopyFrom(src rules.Maker) { b.Position = src.(*boxed).Position }

// hasher is a position with a cheap hash of its Key.
type hasher interface{ Hash() uint64 }

// facter is a position that tells the fields of Info move ordering needs
// without building the rest.
type facter interface {
	MoveFacts(m rules.Move) (from, to, captured rules.Cell, promotion, board bool)
}

var keySeed = maphash.MakeSeed()

// positionHash is the table key of p: its own Hash when it has one, else
// a hash of Key.
func positionHash(p rules.Position) uint64 {
	if h, ok := p.(hasher); ok {
		return h.Hash()
	}
	if b, ok := p.(*boxed); ok {
		return positionHash(b.Position)
	}
	return maphash.String(keySeed, p.Key())
}

type searcher struct {
	ctx    context.Context
	o      Opts
	start  time.Time
	stopAt time.Time
	timed  bool
	stop   bool
	nodes  int64
	// seldepth is the deepest ply reached.
	seldepth int
	every    int64
	tt       *table
	ev       *evaluator
	stack    []rules.Maker // the position at each ply, made in place
	moves    [maxPly + 1][]rules.Move
	order    [maxPly + 1][]int32
	mob      [maxPly + 1]int32 // legal moves at each ply
	boards   [maxPly + 1]int32 // board moves among them (ST3D)
	path     [maxPly + 1]uint64
	hist     []uint64
	killers  [maxPly + 1][2]rules.Move
	history  *[256][256]int32
	pv       [maxPly + 1][maxPly + 1]rules.Move
	pvLen    [maxPly + 1]int
	cells    []rules.Cell
	rnd      *rand.Rand
	// root
	rootMoves  []rules.Move
	rootScores []Score
	iterMove   rules.Move
	iterScore  Score
	iterDone   bool
}

func run(ctx context.Context, root rules.Maker, o Opts) (Result, error) {
	s := &searcher{ctx: ctx, o: o}
	if s.o.Now == nil {
		s.o.Now = time.Now
	}
	s.every = o.CheckEvery
	if s.every <= 0 || s.every&(s.every-1) != 0 {
		s.every = 1024
	}
	if s.o.Depth <= 0 || s.o.Depth > MaxDepth {
		s.o.Depth = MaxDepth
	}
	if o.TableEntries <= 0 {
		o.TableEntries = 1 << 16
	}
	s.start = s.o.Now()
	if o.Time > 0 {
		s.timed, s.stopAt = true, s.start.Add(o.Time)
	}
	s.stack = make([]rules.Maker, maxPly+2)
	s.stack[0] = root
	rp := root
	s.rootMoves = rp.LegalMoves(nil)
	if len(s.rootMoves) == 0 {
		return Result{}, ErrNoMoves
	}
	s.tt = newTable(o.TableEntries)
	s.ev = evaluatorFor(rp)
	s.history = new([256][256]int32)
	s.rnd = rand.New(rand.NewPCG(o.Seed, 0x656e67696e65))
	for _, h := range o.History {
		s.hist = append(s.hist, positionHash(h))
	}
	for i := range s.moves {
		s.moves[i] = make([]rules.Move, 0, 256)
		s.order[i] = make([]int32, 0, 256)
	}
	// Order the root once as any node, so that a search stopped before its
	// first iteration still returns the most promising capture.
	s.mob[0] = int32(len(s.rootMoves))
	s.scoreMoves(0, rp, s.rootMoves, 0)
	sortByOrder(s.rootMoves, s.order[0])
	s.rootScores = make([]Score, len(s.rootMoves))

	res := Result{Move: s.rootMoves[0]}
	for depth := 1; depth <= s.o.Depth; depth++ {
		s.iterDone = false
		sc := s.rootSearch(depth)
		if s.stop {
			if s.iterDone && s.o.Noise == 0 {
				// The moves searched so far in this iteration include the
				// last one's best, searched first: the best of them is at
				// least as good, and its score a lower bound.
				res.Move, res.Score, res.Depth, res.LowerBound = s.iterMove, s.iterScore, depth, true
				res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
				s.report(res)
			}
			break
		}
		res.Move, res.Score, res.Depth = s.iterMove, sc, depth
		res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
		s.report(res)
		if len(s.rootMoves) == 1 && s.o.Noise == 0 && depth >= 2 {
			break // the only move: no need to look further
		}
		if sc.IsMate() && depth >= 2*abs(sc.MateIn())+1 {
			break // a mate found at full width cannot get shorter
		}
		if s.timed && s.o.Now().Sub(s.start) > o.Time/2 {
			break
		}
	}
	if s.o.Noise > 0 && res.Depth > 0 {
		res.Move, res.Score = s.noisyPick()
		res.PV = []rules.Move{res.Move}
	}
	res.Nodes = s.nodes
	res.SelDepth = s.seldepth
	res.Elapsed = s.o.Now().Sub(s.start)
	return res, nil
}

// report hands res, the search's result so far, to OnIteration.
func (s *searcher) report(res Result) {
	if s.o.OnIteration != nil {
		s.o.OnIteration(Iteration{Depth: res.Depth, SelDepth: s.seldepth, Score: res.Score, LowerBound: res.LowerBound,
			Nodes: s.nodes, Elapsed: s.o.Now().Sub(s.start), PV: append([]rules.Move(nil), res.PV...)})
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// noisyPick picks among the root moves by their exact scores plus noise:
// a mate it sees is played (the shortest), a move that is mated comes
// last, the others compete with their blurred scores.
func (s *searcher) noisyPick() (rules.Move, Score) {
	bestI, bestClass, best := 0, -1, int64(0)
	for i, sc := range s.rootScores {
		class, v := 1, int64(sc)
		switch {
		case sc > mateBound:
			class = 2
		case sc < -mateBound:
			class = 0
		default:
			v += int64(s.rnd.IntN(2*s.o.Noise+1) - s.o.Noise)
		}
		if class > bestClass || class == bestClass && v > best {
			bestI, bestClass, best = i, class, v
		}
	}
	return s.rootMoves[bestI], s.rootScores[bestI]
}

// tick counts a node and looks at the budgets.
func (s *searcher) tick() {
	s.nodes++
	if s.o.Nodes > 0 && s.nodes > s.o.Nodes {
		s.stop = true
	}
	if s.nodes&(s.every-1) == 0 {
		if s.timed && !s.o.Now().Before(s.stopAt) {
			s.stop = true
		}
		if s.ctx != nil && s.ctx.Err() != nil {
			s.stop = true
		}
	}
}

// child plays m from ply into ply+1 and returns the new position.
func (s *searcher) child(ply int, m rules.Move) rules.Maker {
	c := s.stack[ply+1]
	if c == nil {
		c = s.stack[ply].Clone()
		s.stack[ply+1] = c
	} else {
		c.CopyFrom(s.stack[ply])
	}
	c.Make(m)
	return c
}

func (s *searcher) rootSearch(depth int) Score {
	s.tick()
	s.pvLen[0] = 0
	s.path[0] = positionHash(s.stack[0])
	alpha, beta := -Inf, Inf
	best := -Inf
	for i, m := range s.rootMoves {
		s.child(0, m)
		var sc Score
		switch {
		case s.o.Noise > 0:
			sc = -s.search(1, depth-1, -Inf, Inf)
		case i == 0:
			sc = -s.search(1, depth-1, -beta, -alpha)
		default:
			sc = -s.search(1, depth-1, -alpha-1, -alpha)
			if sc > alpha && !s.stop {
				sc = -s.search(1, depth-1, -beta, -alpha)
			}
		}
		if s.stop {
			return best
		}
		s.rootScores[i] = sc
		if sc > best {
			best = sc
			s.iterMove, s.iterScore, s.iterDone = m, sc, true
			s.setPV(0, m)
			if sc > alpha {
				alpha = sc
			}
		}
	}
	// The next iteration searches this one's best first, the others by
	// their scores (exact with noise, bounds without).
	bi := 0
	for i, m := range s.rootMoves {
		if m == s.iterMove {
			bi = i
		}
	}
	s.rootMoves[0], s.rootMoves[bi] = s.rootMoves[bi], s.rootMoves[0]
	s.rootScores[0], s.rootScores[bi] = s.rootScores[bi], s.rootScores[0]
	for i := 2; i < len(s.rootMoves); i++ {
		for j := i; j > 1 && s.rootScores[j] > s.rootScores[j-1]; j-- {
			s.rootMoves[j], s.rootMoves[j-1] = s.rootMoves[j-1], s.rootMoves[j]
			s.rootScores[j], s.rootScores[j-1] = s.rootScores[j-1], s.rootScores[j]
		}
	}
	s.tt.store(s.path[0], s.iterMove, best, depth, boundExact, 0)
	return best
}

// setPV makes m followed by the child's variation the variation at ply.
func (s *searcher) setPV(ply int, m rules.Move) {
	s.pv[ply][0] = m
	n := 1
	if ply+1 <= maxPly {
		n += copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	}
	s.pvLen[ply] = n
}

// repeated reports whether the position at ply with hash h stood earlier
// on the search path or in the game.
func (s *searcher) repeated(ply int, h uint64) bool {
	for i := ply - 2; i >= 0; i -= 2 {
		if s.path[i] == h {
			return true
		}
	}
	for _, g := range s.hist {
		if g == h {
			return true
		}
	}
	return false
}

// search is the principal-variation search of the position at ply.
func (s *searcher) search(ply, depth int, alpha, beta Score) Score {
	s.pvLen[ply] = 0
	s.seldepth = max(s.seldepth, ply)
	s.tick()
	if s.stop {
		return 0
	}
	pos := s.stack[ply]
	h := positionHash(pos)
	s.path[ply] = h
	if s.repeated(ply, h) || pos.HalfmoveClock() >= 100 {
		return 0
	}
	moves, inCheck, sc, done := s.expand(ply, pos)
	if done {
		return sc
	}
	// Mate-distance pruning.
	alpha = max(alpha, -Mate+Score(ply))
	beta = min(beta, Mate-Score(ply)-1)
	if alpha >= beta {
		return alpha
	}
	if inCheck && ply < maxPly/2 {
		depth++
	}
	if depth <= 0 {
		return s.quiesce(ply, alpha, beta, moves, inCheck)
	}
	var ttMove rules.Move
	if e, ok := s.tt.probe(h); ok {
		ttMove = e.move
		if int(e.depth) >= depth {
			v := fromTable(e.score, ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && v >= beta,
				e.bound == boundUpper && v <= alpha:
				return v
			}
		}
	}
	s.scoreMoves(ply, pos, moves, ttMove)
	order := s.order[ply]
	best, bestMove, bound := -Inf, rules.Move(0), boundUpper
	for i := range moves {
		pickNext(moves, order, i)
		m := moves[i]
		quiet := order[i] < tacticalFloor
		c := s.child(ply, m)
		var sc Score
		if i == 0 {
			sc = -s.search(ply+1, depth-1, -beta, -alpha)
		} else {
			r := 0
			if depth >= 3 && i >= 3 && quiet && !inCheck {
				if chk, _ := c.InCheck(); !chk {
					r = 1
					if i >= 12 && depth >= 5 {
						r = 2
					}
				}
			}
			sc = -s.search(ply+1, depth-1-r, -alpha-1, -alpha)
			if sc > alpha && r > 0 && !s.stop {
				sc = -s.search(ply+1, depth-1, -alpha-1, -alpha)
			}
			if sc > alpha && sc < beta && !s.stop {
				sc = -s.search(ply+1, depth-1, -beta, -alpha)
			}
		}
		if s.stop {
			return 0
		}
		if sc > best {
			best, bestMove = sc, m
			if sc > alpha {
				alpha, bound = sc, boundExact
				s.setPV(ply, m)
				if sc >= beta {
					bound = boundLower
					if quiet {
						s.rewardQuiet(ply, pos, m, depth)
					}
					break
				}
			}
		}
	}
	s.tt.store(h, bestMove, best, depth, bound, ply)
	return best
}

// rewardQuiet keeps a quiet move that refuted a line as a killer at ply
// and raises its history.
func (s *searcher) rewardQuiet(ply int, pos rules.Maker, m rules.Move, depth int) {
	if s.killers[ply][0] != m {
		s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], m
	}
	in := pos.Info(m) // once per cut-off: the slow path is fine
	hv := &s.history[in.From][in.To]
	*hv += int32(depth * depth)
	if *hv > 1<<20 {
		for i := range s.history {
			for j := range s.history[i] {
				s.history[i][j] /= 2
			}
		}
	}
}

// quiesce searches captures and promotions only (every move when in check)
// below the stand-pat score. moves are the legal moves of the position at
// ply, which has some.
func (s *searcher) quiesce(ply int, alpha, beta Score, moves []rules.Move, inCheck bool) Score {
	pos := s.stack[ply]
	s.scoreMoves(ply, pos, moves, 0)
	best := -Inf
	if !inCheck {
		best = s.evaluate(pos, ply)
		if best >= beta || ply >= maxPly-1 {
			return best
		}
		alpha = max(alpha, best)
	}
	order := s.order[ply]
	for i := range moves {
		pickNext(moves, order, i)
		if !inCheck && order[i] < tacticalFloor {
			break
		}
		m := moves[i]
		s.child(ply, m)
		sc := -s.qnode(ply+1, -beta, -alpha)
		if s.stop {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				s.setPV(ply, m)
				if sc >= beta {
					break
				}
			}
		}
	}
	return best
}

// expand generates the legal moves at ply, in pos: done, with its score,
// for a node without moves (mate or stalemate) or at the last ply.
func (s *searcher) expand(ply int, pos rules.Maker) (moves []rules.Move, inCheck bool, sc Score, done bool) {
	moves = pos.LegalMoves(s.moves[ply][:0])
	s.moves[ply] = moves
	inCheck, _ = pos.InCheck()
	if len(moves) == 0 {
		if inCheck {
			return moves, inCheck, -Mate + Score(ply), true
		}
		return moves, inCheck, 0, true
	}
	s.mob[ply] = int32(len(moves))
	if ply >= maxPly-1 {
		return moves, inCheck, s.evaluate(pos, ply), true
	}
	return moves, inCheck, 0, false
}

// qnode is a node of the quiescence search.
func (s *searcher) qnode(ply int, alpha, beta Score) Score {
	s.pvLen[ply] = 0
	s.seldepth = max(s.seldepth, ply)
	s.tick()
	if s.stop {
		return 0
	}
	pos := s.stack[ply]
	moves, inCheck, sc, done := s.expand(ply, pos)
	if done {
		return sc
	}
	if inCheck && ply >= maxPly/2 {
		inCheck = false // deep in a checking sequence: stand pat after all
	}
	return s.quiesce(ply, alpha, beta, moves, inCheck)
}

// Move order keys: the table's move, then captures and promotions by
// MVV-LVA, killers, and quiet moves by history.
const (
	orderTT       = 1 << 30
	tacticalFloor = 1 << 28
	orderKiller   = tacticalFloor - 2
)

var orderValue = [8]int32{0, 1, 3, 3, 5, 9, 20, 0}

// scoreMoves fills the order keys of the moves at ply and counts the
// board moves among them.
func (s *searcher) scoreMoves(ply int, pos rules.Maker, moves []rules.Move, ttMove rules.Move) {
	order := s.order[ply][:0]
	var boards int32
	k := &s.killers[ply]
	mf, fast := any(pos).(facter)
	for _, m := range moves {
		var from, to, captured rules.Cell
		var promotion, board bool
		if fast {
			from, to, captured, promotion, board = mf.MoveFacts(m)
		} else {
			in := pos.Info(m)
			from, to, captured, promotion, board = in.From, in.To, in.Captured, in.Promotion, in.Board
		}
		var v int32
		switch {
		case m == ttMove:
			v = orderTT
		case captured != rules.NoCell || promotion:
			v = tacticalFloor + 64
			if captured != rules.NoCell {
				victim, _ := pos.CellPiece(captured)
				v += 16 * orderValue[victim.Kind()]
			}
			if promotion {
				v += 16 * 8
			}
			if from != rules.NoCell && !board {
				attacker, _ := pos.CellPiece(from)
				v -= orderValue[attacker.Kind()]
			}
		case m == k[0]:
			v = orderKiller + 1
		case m == k[1]:
			v = orderKiller
		default:
			v = s.history[from][to]
			if v >= orderKiller {
				v = orderKiller - 1
			}
		}
		if board {
			boards++
		}
		order = append(order, v)
	}
	s.order[ply] = order
	s.boards[ply] = boards
}

// pickNext moves the best remaining move to index i (selection sort, so
// that a cut-off early saves sorting the rest).
func pickNext(moves []rules.Move, order []int32, i int) {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if order[j] > order[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	order[i], order[b] = order[b], order[i]
}

// sortByOrder sorts the moves by their keys, best first, stably.
func sortByOrder(moves []rules.Move, order []int32) {
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && order[j] > order[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}
