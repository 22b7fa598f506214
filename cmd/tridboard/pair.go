package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tridboard/tridboard/tournament"
)

func init() {
	register("pair", "pair a Swiss's next round from a TRF, or check its rounds, as FIDE's endorsed engines do", runPair)
}

// The exit statuses of `pair`, as the endorsed pairing engines (bbpPairings,
// JaVaFo) give them.
const (
	pairOK       = 0 // done
	pairNone     = 1 // no legal pairing exists
	pairBadFile  = 3 // the file (or the request) is wrong: line and column said
	pairNoAccess = 5 // the file cannot be read or written
)

const pairUsage = "usage: tridboard pair --dutch FILE.trf -p [OUTPUT]\n" +
	"       tridboard pair --dutch FILE.trf -c\n\n" +
	"Pairs the next round of the Swiss in FILE (TRF-2026 or TRF-16, with the pairing engines' lines XXR,\n" +
	"XXC, XXA and the next round's byes) by FIDE's Dutch system, the way the FIDE-endorsed engines are\n" +
	"called: -p writes the number of pairs on the first line, then one pair a line, White's and Black's\n" +
	"start ranks, \"N 0\" for the pairing-allocated bye (to OUTPUT, or standard output). -c checks every\n" +
	"round in FILE and lists the rounds the Dutch rules pair otherwise.\n" +
	"Exit status: 0 done, 1 no legal pairing exists, 3 a bad file or request (line and column said),\n" +
	"5 a file that cannot be read or written.\n\n" +
	"flags:\n" +
	"  -dutch FILE\n    \tthe tournament (TRF), paired by FIDE's Dutch system (C.04.3, 2026)\n" +
	"  -p [OUTPUT]\n    \tpair the next round (to OUTPUT, else standard output)\n" +
	"  -c\n    \tcheck every round in the file"

func runPair(args []string, stdout, stderr io.Writer) int {
	var in, out string
	var pairMode, check bool
	system := ""
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "tridboard pair: "+format+"\n", a...)
		return pairBadFile
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-h", "-help", "--help":
			fmt.Fprintln(stdout, pairUsage)
			return pairOK
		case "--dutch", "--burstein", "--dubov", "--lim":
			system = strings.TrimPrefix(a, "--")
			if i+1 >= len(args) {
				return bad("%s wants the tournament file", a)
			}
			i++
			in = args[i]
		case "-p":
			pairMode = true
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				out = args[i]
			}
		case "-c":
			check = true
		default:
			return bad("%q: %s", a, strings.SplitN(pairUsage, "\n\n", 2)[0])
		}
	}
	switch {
	case in == "":
		return bad("no tournament file: %s", strings.SplitN(pairUsage, "\n\n", 2)[0])
	case pairMode == check:
		return bad("give -p (pair the next round) or -c (check the rounds), one of them")
	}
	if _, err := tournament.SystemNamed(system); err != nil {
		return bad("%v (this build pairs by the Dutch system only)", err)
	}
	f, err := os.Open(in)
	if err != nil {
		fmt.Fprintf(stderr, "tridboard pair: %v\n", err)
		return pairNoAccess
	}
	t, err := tournament.ReadTRF(f, in)
	f.Close()
	if err != nil {
		fmt.Fprintln(stderr, "tridboard pair:", err)
		return pairBadFile
	}
	t.Opts.System = tournament.Swiss
	t.Opts.Pairing = system
	if check {
		return pairCheck(t, stdout, stderr)
	}
	no := len(t.Rounds) + 1
	if c := t.Current(); c != nil && !c.Over() {
		return bad("%s: round %d is not over (every game needs its result before the next round is paired)", in, c.No)
	}
	if !t.RoundsKnown() {
		return bad("%s: the number of rounds is not given (an XXR or 142 line): the last round pairs by its own rules", in)
	}
	if no > t.Opts.Rounds {
		return bad("%s: all %d rounds are paired (XXR/142)", in, t.Opts.Rounds)
	}
	games, err := t.PairRound(no)
	if errors.Is(err, tournament.ErrNoPairing) {
		fmt.Fprintf(stderr, "tridboard pair: %s: round %d: %v\n", in, no, err)
		return pairNone
	}
	if err != nil {
		return bad("%s: round %d: %v", in, no, err)
	}
	w := stdout
	var file *os.File
	if out != "" {
		if file, err = os.Create(out); err != nil {
			fmt.Fprintf(stderr, "tridboard pair: %v\n", err)
			return pairNoAccess
		}
		w = file
	}
	bw := bufio.NewWriter(w)
	writePairs(bw, games)
	err = bw.Flush()
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "tridboard pair: %v\n", err)
		return pairNoAccess
	}
	return pairOK
}

// writePairs writes the engines' output: the number of pairs, then
// "white black" a line, the pairing-allocated bye as "N 0". Byes asked for
// are no pairs.
func writePairs(w io.Writer, games []tournament.Game) {
	var lines []string
	for _, g := range games {
		switch {
		case !g.IsBye():
			lines = append(lines, fmt.Sprintf("%d %d", g.White, g.Black))
		case g.Result == tournament.Bye:
			lines = append(lines, fmt.Sprintf("%d 0", g.White))
		}
	}
	fmt.Fprintln(w, len(lines))
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// pairCheck pairs every round of t again from the rounds before it and
// lists those the rules pair otherwise.
func pairCheck(t *tournament.Tournament, stdout, stderr io.Writer) int {
	diffs := t.Check()
	for _, d := range diffs {
		if d.Err != nil {
			fmt.Fprintf(stdout, "round %d: the rules find no pairing (%v); the file has %s\n", d.Round, d.Err, strings.Join(d.Had, " "))
			continue
		}
		fmt.Fprintf(stdout, "round %d: the Dutch rules pair %s; the file has %s\n", d.Round, strings.Join(d.Rules, " "), strings.Join(d.Had, " "))
	}
	if len(diffs) == 0 {
		fmt.Fprintf(stdout, "%d rounds checked: every one is paired as the Dutch rules pair it\n", len(t.Rounds))
	}
	return pairOK
}
