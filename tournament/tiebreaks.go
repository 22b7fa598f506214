package tournament

import (
	"fmt"
	"slices"
	"strings"
)

// Tiebreaks are the tie-breaks Standings computes, as Opts.Tiebreaks names
// them.
var Tiebreaks = []string{TBDirect, TBSonneborn, TBBuchholz, TBBuchholzCut1, TBWins}

// CheckTiebreaks checks a choice of tie-breaks for Opts.Tiebreaks: known
// ones, each once, at most five.
func CheckTiebreaks(names []string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if !slices.Contains(Tiebreaks, n) || seen[n] {
			return fmt.Errorf("tournament: tie-break %q: want each of %s at most once", n, strings.Join(Tiebreaks, ", "))
		}
		seen[n] = true
	}
	return nil
}
