package engine

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Opts bounds and shapes a search. A zero bound is no bound; with no bound
// at all the search stops at MaxDepth.
type Opts struct {
	// Depth is the deepest iteration, in plies (0: MaxDepth).
	Depth int
	// Nodes is the node budget (0: none).
	Nodes int64
	// Time is the time budget (0: none): no new iteration starts after half
	// of it, and the running one stops when it is spent.
	Time time.Duration
	// Now is the clock the time budget is measured on (nil: time.Now).
	Now func() time.Time
	// CheckEvery is how many nodes pass between two looks at the clock and
	// the context; a power of two (0: 1024).
	CheckEvery int64
	// TableEntries is the size of the transposition table, rounded up to a
	// power of two (0: 1<<16, 1.5 MiB).
	TableEntries int
	// Noise, when above 0, scores every root move exactly and picks the
	// best after adding a uniform random term in [-Noise, Noise]
	// centipawns; mates are never blurred and a move that is not mated is
	// always preferred to one that is. It makes the weak levels.
	Noise int
	// Seed seeds the noise.
	Seed uint64
	// History holds the game's earlier positions, oldest first, so that
	// the search scores a repetition as a draw.
	History []rules.Position
	// OnIteration, when set, is called after each completed iteration.
	OnIteration func(Iteration)
}

// MaxDepth is the deepest iteration a search makes.
const MaxDepth = 32

// maxPly bounds the plies below the root, quiescence included.
const maxPly = 64

// DefaultOpts searches to depth 6 or 200,000 nodes on the system clock.
func DefaultOpts() Opts {
	return Opts{Depth: 6, Nodes: 200_000, Now: time.Now}
}

// Iteration reports one completed iteration of a search, or, with
// LowerBound, the part of an iteration done when the search stopped: its
// best move so far and that move's score, a lower bound of the
// iteration's.
type Iteration struct {
	Depth int
	// SelDepth is the deepest ply the search reached so far, quiescence
	// and extensions included.
	SelDepth   int
	Score      Score
	LowerBound bool
	Nodes      int64
	Elapsed    time.Duration
	// PV is the principal variation, starting with the best move.
	PV []rules.Move
}

// Result is what a search found.
type Result struct {
	// Move is the move to play: always one of the root's legal moves.
	Move rules.Move
	// Score is Move's score at Depth (0 when no iteration completed).
	Score Score
	// Depth is the deepest completed iteration (0: none; Move is then the
	// first in the search's move order), or, with LowerBound, the
	// iteration the search stopped in after it searched at least the
	// previous best move: Move is the best so far and Score a lower bound.
	// The last Iteration reported (OnIteration) is this result.
	Depth      int
	LowerBound bool
	// SelDepth is the deepest ply the search reached.
	SelDepth int
	// Nodes counts the positions the search visited.
	Nodes int64
	// PV is the principal variation of the last completed iteration.
	PV []rules.Move
	// Elapsed is the search's time on Opts.Now.
	Elapsed time.Duration
}
