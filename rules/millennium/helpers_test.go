package millennium

import (
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

// mustParse reads a position string or fails the test.
func mustParse(t testing.TB, s string) *Position {
	t.Helper()
	p, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return &p
}

// longs lists the legal moves of p in long form, sorted.
func longs(p *Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, p.Long(m))
	}
	sort.Strings(out)
	return out
}

// movesFrom lists the legal moves in long form that start with prefix
// ("1e2-"), sorted.
func movesFrom(p *Position, prefix string) []string {
	var out []string
	for _, l := range longs(p) {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// play plays a move given in any notation and returns the new position.
func play(t testing.TB, p *Position, move string) *Position {
	t.Helper()
	m, _, err := p.ParseMove(move)
	if err != nil {
		t.Fatalf("in %s: %v", p, err)
	}
	return p.Play(m).(*Position)
}

func hasMove(p *Position, long string) bool {
	for _, l := range longs(p) {
		if l == long {
			return true
		}
	}
	return false
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sorted(s ...string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// cells names the cells of a set.
func cells(s rules.CellSet) []string { return s.Names(CellNames()) }

// newRand is a seeded source, so random tests repeat.
func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }
