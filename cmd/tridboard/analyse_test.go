package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestAnalyseCommand: UCI info lines, the last one the result (its score
// the one score of the search, its pv starting with the best move), then
// bestmove in long form (issue 24).
func TestAnalyseCommand(t *testing.T) {
	iteration := regexp.MustCompile(`^info depth \d+ seldepth \d+ score (cp -?\d+|mate -?\d+)( lowerbound)? nodes \d+ nps \d+ time \d+ pv \S+( \S+)*$`)
	for _, tc := range []struct {
		args  []string
		score string // the score line, or "" for any cp score
		move  string
	}{
		// Millennium: the rook 3h1 goes up file h to 3h8; the king 3a8 has
		// its own pawns on 2a7, 2b7, 3a7, 3b7, and 3b8, 2a8, 2b8 are on the
		// lines of the rooks 3h8 and 2h8 (M2).
		{[]string{"--variant", "millennium", "--position", "K1e1,R2h8,R3h1,p2a7,p2b7,p3a7,p3b7,k3a8 w - - - 0 40", "--nodes", "20000"},
			"score mate 1", "3h1-3h8"},
		// st3d's reference board-move mate: KL4-KL6 carries the rook to
		// e9KL6, checking z9QL6 along rank 9 over the voids (D5, D13).
		{[]string{"--position", "QL6:b,KL4:w Kb2W,pa8B,Re7KL4,pz8QL6,pa8QL6,kz9QL6 w - - - 0 60", "--depth", "3"},
			"score mate 1", "KL4-KL6"},
		// Mates in two (engine/mate_test.go gives their reasons): two board
		// moves in st3d, a rook lift in Millennium, a queen's step down in
		// First Contact (where the check that follows wins).
		{[]string{"--position", "QL6:b,KL2:w Kb2W,Re5KL2,pz8QL6,pa8QL6,kz9QL6,Nb6N,Nc6N w - - - 0 60", "--nodes", "50000"},
			"score mate 2", "KL2-KL4"},
		{[]string{"--variant", "millennium", "--position", "K1e1,R2h8,R1b1,p2a7,p2b7,p3a7,p3b7,k3a8 w - - - 0 40", "--nodes", "50000"},
			"score mate 2", "1b1-1b8"},
		{[]string{"--variant", "first-contact", "--position", "QL5u:-,QL6u:-,KL5u:-,KL6u:- kb7B,pd7B,Ra8QL6u,Kz9QL6u,Qe9KL6u w - - - 0 20 -/- -",
			"--depth", "4"}, "score mate 2", "e9KL6u-d8B"},
		{[]string{"--depth", "2"}, "", ""},
		{[]string{"--variant", "first-contact", "--movetime", "50"}, "", ""},
	} {
		code, out, errs := run(append([]string{"analyse"}, tc.args...)...)
		if code != exitOK {
			t.Errorf("%v: exit %d, %s", tc.args, code, errs)
			continue
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(lines) < 2 {
			t.Errorf("%v: output %q, want info lines and bestmove", tc.args, out)
			continue
		}
		for _, l := range lines[:len(lines)-1] {
			if !iteration.MatchString(l) {
				t.Errorf("%v: info line %q", tc.args, l)
			}
		}
		last, best := lines[len(lines)-2], lines[len(lines)-1]
		move, ok := strings.CutPrefix(best, "bestmove ")
		if !ok || tc.move != "" && move != tc.move {
			t.Errorf("%v: last line %q, want bestmove %s", tc.args, best, tc.move)
		}
		if score := regexp.MustCompile(`score (\S+ -?\d+)`).FindStringSubmatch(last); tc.score != "" && (score == nil || "score "+score[1] != tc.score) {
			t.Errorf("%v: last info line %q, want %q", tc.args, last, tc.score)
		}
		if !strings.HasSuffix(last, " pv "+move) && !strings.Contains(last, " pv "+move+" ") {
			t.Errorf("%v: last info line %q does not start its pv with the best move %s", tc.args, last, move)
		}
	}
}

func TestAnalyseBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--depth", "2", "--movetime", "10"}, exitUsage, "not both"},
		{[]string{"--depth", "-1"}, exitUsage, "--depth -1"},
		{[]string{"--depth", "99"}, exitUsage, "--depth 99"},
		{[]string{"--movetime", "-5"}, exitUsage, "--movetime -5"},
		{[]string{"--nodes", "-5"}, exitUsage, "--nodes -5"},
		{[]string{"--depth", "x"}, exitUsage, "invalid value"},
		{[]string{"extra"}, exitUsage, "takes no arguments"},
		{[]string{"--variant", "chess"}, exitFailure, `unknown variant "chess"`},
		{[]string{"--position", "nonsense"}, exitFailure, "want 8 separated by single spaces"},
		// The reference checkmate: nothing to search.
		{[]string{"--position", "QL6:b,KL6:w Kb2W,pa8B,pz8QL6,pa8QL6,kz9QL6,Re9KL6 b - - - 0 60"}, exitFailure, "no legal move (checkmate)"},
	} {
		code, out, errs := run(append([]string{"analyse"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.msg)
		}
		if code == exitFailure && out != "" {
			t.Errorf("%v: failed but printed %q", tc.args, out)
		}
	}
}

// The demo refuses a hand faster than the sensors can see, and bad usage,
// before it starts anything.
func TestDemoBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--pause", "20"}, "--pause 20: a hand that fast swaps a capture's pieces within the sensors' 30 ms debounce"},
		{[]string{"--pause", "-1"}, "usage: tridboard demo"},
		{[]string{"--variant", "chess"}, `unknown variant "chess"`},
		{[]string{"extra"}, "usage: tridboard demo"},
	} {
		code, out, errs := run(append([]string{"demo"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.msg) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errs, exitUsage, tc.msg)
		}
	}
}
