package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// stdin is what uci reads its commands from (tests replace it).
var stdin io.Reader = os.Stdin

func init() {
	register("uci", "speak the UCI protocol on stdin and stdout, for GUIs and scripts", runUCI)
}

func runUCI(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("uci", "",
		"Reads UCI commands from stdin and answers on stdout: uci, isready, setoption (UCI_Variant: "+systemNames()+";\n"+
			"Options: the variant's options, as --options; empty: none), ucinewgame, position startpos|fen STR [moves M...],\n"+
			"go [movetime MS | depth N | nodes N | wtime MS btime MS [winc MS] [binc MS] [movestogo N] | infinite],\n"+
			"stop, quit. Moves are in long form (b2W-b4N, KL1-KL3); a position is the system's position string.\n"+
			"After a position that fails, go answers bestmove 0000 with the reason.", stdout, stderr)
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "tridboard uci: takes no arguments (got %q)\n", strings.Join(fs.Args(), " "))
		return exitUsage
	}
	u := newUCI(stdout)
	u.serve(stdin)
	return exitOK
}

// uci is one UCI session: the rules, the position, the search under way.
type uci struct {
	mu      sync.Mutex // serializes the output
	out     io.Writer
	variant string
	options string
	sys     rules.System
	pos     rules.Position
	history []rules.Position // the positions before pos, for repetitions
	// noPos says why pos is nil: a go without a position answers
	// "bestmove 0000" with it, never a search of a stale position.
	noPos string

	cancel context.CancelFunc
	done   chan struct{} // closed when the search under way has printed bestmove
}

func newUCI(out io.Writer) *uci {
	u := &uci{out: out, variant: systems.Default().Name()}
	u.sys, _ = systemFor(u.variant, "")
	u.pos = u.sys.Start()
	return u
}

func (u *uci) say(format string, a ...any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	fmt.Fprintf(u.out, format+"\n", a...)
}

// serve reads commands until quit or the end of input; a search under way
// at the end is stopped and its bestmove printed.
func (u *uci) serve(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		cmd, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch cmd {
		case "":
		case "uci":
			u.say("id name tridboard %s", fullVersion())
			u.say("id author the tridboard authors")
			u.say("option name UCI_Variant type combo default st3d%s", " var "+strings.Join(systems.Names(), " var "))
			u.say("option name Options type string default <empty>")
			u.say("uciok")
		case "isready":
			u.say("readyok")
		case "setoption":
			u.setOption(rest)
		case "ucinewgame":
			u.stop()
			u.startPos()
		case "position":
			u.stop()
			u.position(rest)
		case "go":
			u.stop()
			u.goSearch(rest)
		case "stop":
			u.stop()
		case "quit":
			u.stop()
			return
		default:
			u.say("info string unknown command %q", cmd)
		}
	}
	u.stop()
}

// stop stops the search under way, if any, and waits for its bestmove.
func (u *uci) stop() {
	if u.cancel == nil {
		return
	}
	u.cancel()
	<-u.done
	u.cancel, u.done = nil, nil
}

// parseSetOption splits "name NAME [value VALUE]" (UCI's setoption): the
// name may have spaces, the value may be empty or absent ("" either way).
func parseSetOption(rest string) (name, value string, err error) {
	f := strings.Fields(rest)
	if len(f) < 2 || f[0] != "name" {
		return "", "", fmt.Errorf("want setoption name NAME [value VALUE], got %q", rest)
	}
	i := 1
	for i < len(f) && f[i] != "value" {
		i++
	}
	name = strings.Join(f[1:i], " ")
	if i < len(f) {
		value = strings.Join(f[i+1:], " ")
	}
	if name == "" {
		return "", "", fmt.Errorf("want setoption name NAME [value VALUE], got %q", rest)
	}
	return name, value, nil
}

// setOption reads "name NAME [value VALUE]". An empty value, or the
// "<empty>" a GUI shows, clears the string option Options. A new
// UCI_Variant drops the options that do not apply to it (only st3d has
// options), and says so; options a variant refuses are refused and change
// nothing.
func (u *uci) setOption(rest string) {
	name, value, err := parseSetOption(rest)
	if err != nil {
		u.say("info string setoption: %v", err)
		return
	}
	variant, options := u.variant, u.options
	switch name {
	case "UCI_Variant":
		variant = value
		if variant != u.variant && options != "" {
			if _, err := systemFor(variant, options); err != nil {
				if _, plain := systemFor(variant, ""); plain == nil {
					u.say("info string setoption: options %q do not apply to %s: dropped", options, variant)
					options = ""
				}
			}
		}
	case "Options":
		options = value
		if options == "<empty>" {
			options = ""
		}
	default:
		u.say("info string unknown option %q", name)
		return
	}
	sys, err := systemFor(variant, options)
	if err != nil {
		u.say("info string setoption: %v", err)
		return
	}
	u.stop()
	u.variant, u.options, u.sys = variant, options, sys
	u.startPos()
}

// startPos sets the position to the system's start, or to none (and says
// why at the next go) when its games start only from a position string.
func (u *uci) startPos() {
	u.history = nil
	if systems.NeedsPosition(u.sys) {
		u.pos, u.noPos = nil, fmt.Sprintf("%s starts from a position string (position fen ...)", u.sys.Name())
		return
	}
	u.pos, u.noPos = u.sys.Start(), ""
}

// position reads "startpos [moves ...]" or "fen STR [moves ...]". A bad
// position or move is reported and leaves no position: the next go answers
// "bestmove 0000" with the reason rather than search the previous one.
func (u *uci) position(rest string) {
	pos, history, err := u.parsePosition(rest)
	if err != nil {
		u.pos, u.history, u.noPos = nil, nil, "position: "+err.Error()
		u.say("info string %s", u.noPos)
		return
	}
	u.pos, u.history, u.noPos = pos, history, ""
}

func (u *uci) parsePosition(rest string) (rules.Position, []rules.Position, error) {
	var pos rules.Position
	spec, moves, _ := strings.Cut(rest+" ", " moves ")
	spec = strings.TrimSpace(spec)
	switch {
	case spec == "startpos":
		if systems.NeedsPosition(u.sys) {
			return nil, nil, fmt.Errorf("%s starts from a position string (position fen ...)", u.sys.Name())
		}
		pos = u.sys.Start()
	case strings.HasPrefix(spec, "fen "):
		p, err := u.sys.ParsePosition(strings.TrimSpace(strings.TrimPrefix(spec, "fen ")))
		if err != nil {
			return nil, nil, err
		}
		pos = p
	default:
		return nil, nil, fmt.Errorf("want startpos or fen STR, then moves")
	}
	var history []rules.Position
	for i, long := range strings.Fields(moves) {
		m, _, err := pos.ParseMove(long)
		if err != nil {
			return nil, nil, fmt.Errorf("move %d %s: %w", i+1, long, err)
		}
		history = append(history, pos)
		pos = pos.Play(m)
	}
	return pos, history, nil
}

// goSearch reads the search's bounds and starts it on its own goroutine.
func (u *uci) goSearch(rest string) {
	if u.pos == nil {
		// A GUI waits for a bestmove: the null move, with the reason.
		u.say("info string go: no position: %s", u.noPos)
		u.say("bestmove 0000")
		return
	}
	f := strings.Fields(rest)
	num := map[string]int64{}
	infinite := false
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "infinite":
			infinite = true
		case "movetime", "depth", "nodes", "wtime", "btime", "winc", "binc", "movestogo":
			if i+1 >= len(f) {
				u.say("info string go: %s wants a number", f[i])
				return
			}
			n, err := strconv.ParseInt(f[i+1], 10, 64)
			if err != nil {
				u.say("info string go: %s %q: want a number", f[i], f[i+1])
				return
			}
			num[f[i]] = n
			i++
		default:
			u.say("info string go: %q ignored", f[i])
		}
	}
	ms := func(k string) time.Duration { return time.Duration(num[k]) * time.Millisecond }
	o := engine.Opts{Depth: int(num["depth"]), Nodes: num["nodes"], Time: ms("movetime"), Now: time.Now}
	left, inc := "wtime", "winc"
	if u.pos.Turn() == rules.Black {
		left, inc = "btime", "binc"
	}
	if _, ok := num[left]; ok && num["movetime"] == 0 {
		tl := engine.TimeLeft{Left: ms(left), Inc: ms(inc), MovesToGo: int(num["movestogo"])}
		lo := engine.Level{Depth: o.Depth, Nodes: o.Nodes}.ClockOpts(time.Now, 0, tl)
		o.Time, o.CheckEvery = lo.Time, lo.CheckEvery
	}
	if !infinite && o.Depth == 0 && o.Nodes == 0 && o.Time == 0 {
		o = engine.DefaultOpts()
	}
	o.History = u.history
	pos := u.pos
	o.OnIteration = func(it engine.Iteration) { u.say("%s", infoLine(pos, it)) }
	ctx, cancel := context.WithCancel(context.Background())
	u.cancel, u.done = cancel, make(chan struct{})
	done := u.done
	go func() {
		defer close(done)
		res, err := engine.Search(ctx, pos, o)
		if err != nil {
			u.say("info string %s: %v (%s)", pos.System().Name(), err, pos.Status())
			u.say("bestmove (none)")
			return
		}
		if line, ok := noIterationLine(pos, res); ok {
			u.say("%s", line)
		}
		u.say("bestmove %s", pos.Long(res.Move))
	}()
}
