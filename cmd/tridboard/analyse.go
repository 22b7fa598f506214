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
		"Searches the position with the engine and prints what a UCI engine prints: an 'info' line per\n"+
			"completed iteration ('info depth D seldepth S score cp 35|mate 2 nodes N nps N time MS pv MOVES',\n"+
			"scores from the side to move's view, moves in long form; 'lowerbound' after the score for the part\n"+
			"of an iteration a bound stopped), the last one the result, then 'bestmove MOVE'.\n"+
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
	o.OnIteration = func(it engine.Iteration) { fmt.Fprintln(stdout, infoLine(pos, it)) }
	res, err := engine.Search(context.Background(), pos, o)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard analyse: %s: %v (%s)\n", pos.System().Name(), err, pos.Status())
		return exitFailure
	}
	if line, ok := noIterationLine(pos, res); ok {
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintln(stdout, "bestmove "+pos.Long(res.Move))
	return exitOK
}

// noIterationLine is the info line of a result that no iteration
// reported (a search stopped before its first), so that the last info line
// is always the result; false when an iteration reported it.
func noIterationLine(pos rules.Position, res engine.Result) (string, bool) {
	if res.Depth != 0 {
		return "", false
	}
	return infoLine(pos, engine.Iteration{Nodes: res.Nodes, SelDepth: res.SelDepth, Elapsed: res.Elapsed,
		PV: []rules.Move{res.Move}}), true
}

// infoLine is a UCI info line of an iteration in pos: depth, seldepth,
// score (with "lowerbound" for a stopped iteration), nodes, nodes per
// second, time in milliseconds and the variation in long form.
func infoLine(pos rules.Position, it engine.Iteration) string {
	ms := it.Elapsed.Milliseconds()
	nps := int64(0)
	if it.Elapsed > 0 {
		nps = int64(float64(it.Nodes) / it.Elapsed.Seconds())
	}
	bound := ""
	if it.LowerBound {
		bound = " lowerbound"
	}
	return fmt.Sprintf("info depth %d seldepth %d score %s%s nodes %d nps %d time %d pv %s", it.Depth, it.SelDepth,
		it.Score, bound, it.Nodes, nps, ms, pvLong(pos, it.PV))
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
