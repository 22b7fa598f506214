package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/systems"
)

func init() {
	register("perft", "count the leaf nodes of the legal move tree", runPerft)
	register("moves", "list the legal moves of a position in long form", runMoves)
	register("replay", "replay a game record, printing each move's long form and the final position", runReplay)
}

// newFlags makes a flag set whose --help prints usage to stdout.
func newFlags(name, args, summary string, stdout, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: tridboard %s %s\n\n%s\n\nflags:\n", name, args, summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; done is true when the command must return code.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (done bool, code int) {
	// The flag package prints the usage itself on -help, to the error
	// output; help asked for goes to stdout, once.
	stderr := fs.Output()
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return true, exitOK
	}
	if err != nil {
		fs.SetOutput(stderr)
		fs.Usage()
		return true, exitUsage
	}
	return false, 0
}

type positionFlags struct {
	variant  *string
	options  *string
	position *string
}

// optionsUsage documents --options (st3d's variant options, docs/rules.md).
const optionsUsage = "st3d variant options, comma-separated: V.A1, V.A2, V.A2.1, V.A3[:BOARDS], V.A4, V.A5, " +
	"and one setup of V.P1, V.P2, V.P3, V.P4 (custom: give --position), V.P5:N (0-959, or random), V.P6 " +
	"(default: the tournament rules)"

func addPositionFlags(fs *flag.FlagSet) positionFlags {
	return positionFlags{
		variant:  fs.String("variant", systems.Default().Name(), "rule system: "+systemNames()),
		options:  fs.String("options", "", optionsUsage),
		position: fs.String("position", "", "position string (default: the start position)"),
	}
}

func (pf positionFlags) load() (rules.System, rules.Position, error) {
	sys, err := systemFor(*pf.variant, *pf.options)
	if err != nil {
		return nil, nil, err
	}
	if *pf.position == "" {
		if systems.NeedsPosition(sys) {
			return nil, nil, usageError{fmt.Errorf("%s: a custom setup (V.P3, V.P4) starts from --position", sys.Name())}
		}
		return sys, sys.Start(), nil
	}
	p, err := sys.ParsePosition(*pf.position)
	return sys, p, err
}

func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("perft", "[--variant V] [--options LIST] [--position STR] [--divide] DEPTH",
		"Counts the leaf nodes of the legal move tree; the last line is the bare count.", stdout, stderr)
	pf := addPositionFlags(fs)
	divide := fs.Bool("divide", false, "print '<long move> <count>' for every root move first")
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "tridboard perft: want one DEPTH argument")
		return exitUsage
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 0 {
		fmt.Fprintf(stderr, "tridboard perft: depth %q: want a number >= 0\n", fs.Arg(0))
		return exitUsage
	}
	_, pos, err := pf.load()
	if err != nil {
		fmt.Fprintf(stderr, "tridboard perft: %v\n", err)
		return exitCode(err)
	}
	if *divide {
		var total uint64
		for _, e := range divideSorted(pos, depth) {
			fmt.Fprintf(stdout, "%s %d\n", e.Move, e.Nodes)
			total += e.Nodes
		}
		fmt.Fprintln(stdout, total)
		return exitOK
	}
	fmt.Fprintln(stdout, rules.Perft(pos, depth))
	return exitOK
}

// divideSorted is rules.Divide sorted by move, as --divide prints it.
func divideSorted(pos rules.Position, depth int) []rules.DivideEntry {
	out := rules.Divide(pos, depth)
	sort.Slice(out, func(i, j int) bool { return out[i].Move < out[j].Move })
	return out
}

func runMoves(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("moves", "[--variant V] [--options LIST] [--position STR]",
		"Prints the legal moves in long form, one a line, sorted.", stdout, stderr)
	pf := addPositionFlags(fs)
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "tridboard moves: no arguments expected")
		return exitUsage
	}
	_, pos, err := pf.load()
	if err != nil {
		fmt.Fprintf(stderr, "tridboard moves: %v\n", err)
		return exitCode(err)
	}
	var longs []string
	for _, m := range pos.LegalMoves(nil) {
		longs = append(longs, pos.Long(m))
	}
	sort.Strings(longs)
	for _, l := range longs {
		fmt.Fprintln(stdout, l)
	}
	return exitOK
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", "[--variant V] [--options LIST] FILE",
		"Reads a game record in short notation and prints each move's long form,\nthen the final position string. FILE - reads standard input.", stdout, stderr)
	variant := fs.String("variant", systems.Default().Name(), "rule system: "+systemNames())
	options := fs.String("options", "", optionsUsage)
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "tridboard replay: want one FILE argument")
		return exitUsage
	}
	sys, err := systemFor(*variant, *options)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard replay: %v\n", err)
		return exitUsage
	}
	var in io.Reader = os.Stdin
	if fs.Arg(0) != "-" {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "tridboard replay: %v\n", err)
			return exitFailure
		}
		defer f.Close()
		in = f
	}
	rec, err := record.Read(in)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard replay: %s: %v\n", fs.Arg(0), err)
		return exitFailure
	}
	pos := sys.Start()
	if rec.Tag("Position") == "" && systems.NeedsPosition(sys) {
		fmt.Fprintf(stderr, "tridboard replay: %s: %s: a custom setup (V.P3, V.P4) needs a Position tag\n", fs.Arg(0), sys.Name())
		return exitFailure // the file lacks it
	}
	if rec.Tag("Position") == "" && drawsSetup(*variant, *options) {
		// A setup drawn now is not the game's: refused before any move.
		fmt.Fprintf(stderr, "tridboard replay: %s: --options %s draws a setup at random: the record needs its Position tag (or give the setup's number, V.P5:N)\n", fs.Arg(0), *options)
		return exitFailure
	}
	if fen := rec.Tag("Position"); fen != "" {
		if pos, err = sys.ParsePosition(fen); err != nil {
			fmt.Fprintf(stderr, "tridboard replay: %s: Position tag: %v\n", fs.Arg(0), err)
			return exitFailure
		}
	}
	g := rules.NewGame(pos)
	for _, tok := range rec.Moves {
		p := g.Position()
		m, note, err := g.PlayNotation(tok)
		if err != nil {
			side := "white"
			if p.Turn() == rules.Black {
				side = "black"
			}
			msg := strings.TrimPrefix(err.Error(), sys.Name()+": ")
			msg = strings.TrimPrefix(msg, fmt.Sprintf("move %q: ", tok))
			fmt.Fprintf(stderr, "tridboard replay: %s: move %d (%s) %s: %s\n", fs.Arg(0), p.FullmoveNumber(), side, tok, msg)
			return exitFailure
		}
		if note != "" {
			fmt.Fprintf(stderr, "tridboard replay: move %d: %s\n", p.FullmoveNumber(), note)
		}
		fmt.Fprintln(stdout, p.Long(m))
	}
	fmt.Fprintln(stdout, g.Position().String())
	return exitOK
}
