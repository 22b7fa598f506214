// Package rulestest holds the test helpers and checks that the rule
// systems' tests share: parsing or failing, listing legal moves in long
// form, playing moves by notation, and the checks every system's Perft and
// notation must pass. It works on rules.Position (and, for Perft, on the
// Perft method every system has), so each system's tests call it with
// their own positions; what only one system knows stays in its package.
package rulestest

import (
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

// MustParse reads a position string with parse or fails the test.
func MustParse[P any](t testing.TB, parse func(string) (P, error), s string) *P {
	t.Helper()
	p, err := parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return &p
}

// Longs lists the legal moves of p in long form, sorted.
func Longs(p rules.Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		out = append(out, p.Long(m))
	}
	sort.Strings(out)
	return out
}

// MovesFrom lists the legal moves of p in long form that start with prefix
// (such as "a1W-", "1e2-", "QL3u-", "N@"), sorted.
func MovesFrom(p rules.Position, prefix string) []string {
	var out []string
	for _, l := range Longs(p) {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// HasMove reports whether the move written long in long form is legal in p.
func HasMove(p rules.Position, long string) bool {
	for _, l := range Longs(p) {
		if l == long {
			return true
		}
	}
	return false
}

// Play plays a move given in any notation and returns the new position,
// of p's own type; it fails the test when the move does not parse.
func Play[P rules.Position](t testing.TB, p P, move string) P {
	t.Helper()
	m, _, err := p.ParseMove(move)
	if err != nil {
		t.Fatalf("in %s: %v", p, err)
	}
	return p.Play(m).(P)
}

// Sorted is a sorted copy of s.
func Sorted(s ...string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// Rand is a seeded source, so random tests repeat.
func Rand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

// Perfter is a position with a Perft, as every system has.
type Perfter interface {
	rules.Position
	Perft(depth int) uint64
}

// CheckPerft checks that p's perft at depths 1, 2, ... is nodes, and that
// counting leaves p as it was.
func CheckPerft(t testing.TB, name string, p Perfter, nodes []uint64) {
	t.Helper()
	before := p.String()
	for i, want := range nodes {
		if got := p.Perft(i + 1); got != want {
			t.Errorf("%s: perft(%d) = %d, want %d", name, i+1, got, want)
		}
	}
	if got := p.String(); got != before {
		t.Errorf("%s: perft changed the position to %s", name, got)
	}
}

// CheckShort checks that the move long of p is written short in short
// notation, and that short reads back as the same move.
func CheckShort(t testing.TB, name string, p rules.Position, long, short string) {
	t.Helper()
	m, _, err := p.ParseMove(long)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if got := p.Short(m); got != short {
		t.Errorf("%s: Short(%s) = %q, want %q", name, long, got, short)
	}
	back, _, err := p.ParseMove(short)
	if err != nil || back != m {
		t.Errorf("%s: ParseMove(%q) = %s, %v; want %s", name, short, p.Long(back), err, long)
	}
}
