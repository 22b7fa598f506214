package firstcontact

import (
	"math/bits"
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
// ("a1W-", "QL3u-", "N@"), sorted.
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

// cells names the cells of a set under the full system.
func cells(s rules.CellSet) []string { return s.Names(CellNames()) }

// newRand is a seeded source, so random tests repeat.
func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

// randomGame plays random legal moves from p (at most plies) and calls
// visit on every position reached, the first included.
func randomGame(p Position, rng *rand.Rand, plies int, visit func(p *Position)) {
	for ply := 0; ply < plies; ply++ {
		visit(&p)
		moves := p.LegalMoves(nil)
		if len(moves) == 0 {
			return
		}
		p.make(moves[rng.Intn(len(moves))])
	}
	visit(&p)
}

func mustSquare(name string) Square {
	s, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

func bitsCount(x uint32) int       { return bits.OnesCount32(x) }
func trailingZeros32(x uint32) int { return bits.TrailingZeros32(x) }
