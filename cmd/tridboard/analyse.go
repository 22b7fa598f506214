package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules"
)

func init() {
	register("analyse", "search a position and print the best move in long form", runAnalyse)
}

func runAnalyse(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("analyse", "[--variant V] [--options LIST] [--position STR] [--depth N | --movetime MS] [--nodes N]",
		"Searches the position with the engine: a line per completed iteration (depth, score, nodes, principal\n"+
			"variation in long form), then the score ('score cp 35', or 'score mate 2' when a mate is found,\n"+
			"from the side to move's view), and the best move in long form as the last line.\n"+
			"Without --depth, --movetime or --nodes it searches to depth 6 or 200000 nodes.", stdout, stderr)
	pf := addPositionFlags(fs)
	depth := fs.Int("depth", 0, "deepest iteration in plies (1.."+fmt.Sprint(engine.MaxDepth)+")")
	movetime := fs.Int("movetime", 0, "time budget in milliseconds")
	nodes := fs.Int64("nodes", 0, "node budget")
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tridboard analyse: "+format+"\n", a...)
		return exitUsage
	}
	switch {
	case fs.NArg() != 0:
		return bad("takes no arguments (got %q)", strings.Join(fs.Args(), " "))
	case *depth != 0 && *movetime != 0:
		return bad("give --depth or --movetime, not both")
	case *depth < 0 || *depth > engine.MaxDepth:
		return bad("--depth %d: want 1..%d", *depth, engine.MaxDepth)
	case *movetime < 0:
		return bad("--movetime %d: want a number of milliseconds > 0", *movetime)
	case *nodes < 0:
		return bad("--nodes %d: want a number > 0", *nodes)
	}
	_, pos, err := pf.load()
	if err != nil {
		fmt.Fprintf(stderr, "tridboard analyse: %v\n", err)
		return exitFailure
	}
	o := engine.Opts{Depth: *depth, Nodes: *nodes, Time: time.Duration(*movetime) * time.Millisecond, Now: time.Now}
	if *depth == 0 && *movetime == 0 && *nodes == 0 {
		o = engine.DefaultOpts()
	}
	o.OnIteration = func(it engine.Iteration) {
		fmt.Fprintf(stdout, "depth %d score %s nodes %d pv %s\n", it.Depth, it.Score, it.Nodes, pvLong(pos, it.PV))
	}
	res, err := engine.Search(context.Background(), pos, o)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard analyse: %s: %v (%s)\n", pos.System().Name(), err, pos.Status())
		return exitFailure
	}
	fmt.Fprintf(stdout, "score %s\n", res.Score)
	fmt.Fprintln(stdout, pos.Long(res.Move))
	return exitOK
}

// pvLong writes a variation in long form, each move in the position it is
// played from.
func pvLong(pos rules.Position, pv []rules.Move) string {
	parts := make([]string, 0, len(pv))
	for _, m := range pv {
		parts = append(parts, pos.Long(m))
		pos = pos.Play(m)
	}
	return strings.Join(parts, " ")
}
