package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Level is a playing strength: the bounds and the noise of its search.
type Level struct {
	// Name says what the level does, for menus and logs.
	Name string
	// Depth, Nodes and Time bound the search (0: no bound of that kind).
	Depth int
	Nodes int64
	Time  time.Duration
	// Noise blurs the root scores (see Opts.Noise).
	Noise int
}

// Levels run from 0, the weakest, to the strongest a Raspberry Pi Zero 2 W
// affords in a few seconds a move (the note in engine_test.go's benchmark
// section and the package's report give each level's cost on the Pi).
var Levels = []Level{
	{Name: "random move that does not allow mate in one", Depth: 2, Nodes: 50_000, Noise: 1_000_000},
	{Name: "one ply, strong noise", Depth: 1, Nodes: 20_000, Noise: 150},
	{Name: "two plies, some noise", Depth: 2, Nodes: 50_000, Noise: 40},
	{Name: "5,000 nodes", Nodes: 5_000},
	{Name: "25,000 nodes", Nodes: 25_000},
	{Name: "100,000 nodes", Nodes: 100_000},
	{Name: "400,000 nodes or 20 s", Nodes: 400_000, Time: 20 * time.Second},
}

// Opts are the search options of level l on the clock now (nil:
// time.Now), with the noise seeded by seed.
func (l Level) Opts(now func() time.Time, seed uint64) Opts {
	return Opts{Depth: l.Depth, Nodes: l.Nodes, Time: l.Time, Now: now, Noise: l.Noise, Seed: seed}
}

// LevelMove is the move level (an index into Levels) plays in pos, with
// history the game's earlier positions (for repetitions; may be nil). It
// returns an error for an unknown level or a position without moves.
func LevelMove(ctx context.Context, pos rules.Position, level int, history []rules.Position, now func() time.Time, seed uint64) (rules.Move, error) {
	if level < 0 || level >= len(Levels) {
		return 0, fmt.Errorf("engine: level %d unknown (0..%d)", level, len(Levels)-1)
	}
	o := Levels[level].Opts(now, seed)
	o.History = history
	r, err := Search(ctx, pos, o)
	return r.Move, err
}
