// Package rulestest holds the test helpers and checks that the rule
// systems' tests share: parsing or failing, listing legal moves in long
// form, playing moves by notation, and the checks every system's Perft and
// notation must pass. It works on rules.Position (and, for Perft, on the
// Perft method every system has), so each system's tests call it with
// their own positions; what only one system knows stays in its package.
package rulestest

import (
	"flag"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
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

// CheckPerftAllocs checks that p's Perft allocates nothing per node: at
// most its copy of the position and its move buffers, once per call, so as
// often at depth as at depth 1 (rules.Walk.Perft).
func CheckPerftAllocs(t testing.TB, p Perfter, depth int) {
	t.Helper()
	shallow := testing.AllocsPerRun(3, func() { p.Perft(1) })
	deep := testing.AllocsPerRun(3, func() { p.Perft(depth) })
	if deep > 2 || deep != shallow {
		t.Errorf("Perft(%d) allocates %v times and Perft(1) %v times; want the copy and the buffers, at most 2, at any depth", depth, deep, shallow)
	}
}

// BenchPerft measures p's Perft of the given depth, reporting nodes/s and
// allocations.
func BenchPerft(b *testing.B, p Perfter, depth int) {
	var nodes uint64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// Named is a position with a name, for a sub-benchmark.
type Named struct {
	Name string
	Pos  rules.Position
}

// BenchLegalMoves measures LegalMoves of each position into a buffer with
// room for maxMoves, which allocates nothing.
func BenchLegalMoves(b *testing.B, maxMoves int, positions ...Named) {
	for _, tc := range positions {
		b.Run(tc.Name, func(b *testing.B) {
			buf := make([]rules.Move, 0, maxMoves)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf = tc.Pos.LegalMoves(buf[:0])
			}
		})
	}
}

// CheckAnyOrder checks that canon, a canonical position string, reads back
// as itself however the items of its comma-list fields (lists, by index)
// are shuffled and however vary (when not nil) rewrites its fields with
// rng, such as castling letters or reserves in another order.
func CheckAnyOrder(t testing.TB, sys rules.System, canon string, lists []int, vary func(f []string, rng *rand.Rand)) {
	t.Helper()
	fields := strings.Split(canon, " ")
	rng := Rand(1)
	for i := 0; i < 20; i++ {
		f := append([]string(nil), fields...)
		for _, k := range lists {
			parts := strings.Split(f[k], ",")
			rng.Shuffle(len(parts), func(a, b int) { parts[a], parts[b] = parts[b], parts[a] })
			f[k] = strings.Join(parts, ",")
		}
		if vary != nil {
			vary(f, rng)
		}
		in := strings.Join(f, " ")
		p, err := sys.ParsePosition(in)
		if err != nil {
			t.Fatalf("shuffled input %q: %v", in, err)
		}
		if got := p.String(); got != canon {
			t.Fatalf("shuffled input %q written as %q", in, got)
		}
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

// roundTrips scales the notation round trips up (see Scale).
var roundTrips = flag.Int("rulestest.roundtrip", 0,
	"multiply the sizes of the notation round-trip tests (random games, crowded positions) by N, for a large run")

// Scale returns quick, the number of games or positions a round-trip test
// checks in the ordinary tests (a quarter of it with -short), multiplied by
// the -rulestest.roundtrip flag when it is given, for a large run:
//
//	go test ./rules/st3d -run NotationRoundTrip -rulestest.roundtrip 100 -v
func Scale(quick int) int {
	if *roundTrips > 0 {
		return quick * *roundTrips
	}
	if testing.Short() {
		// The ARM runs under emulation (deploy/arm-test.sh): a quarter.
		return max(1, quick/4)
	}
	return quick
}

// CheckRoundTrip writes every legal move of p in short notation and in
// long form and reads each back with ParseMove: it must give the same
// move, with no error and no note. A check or mate mark comes last, after
// "e.p.". It returns the number of moves checked, and stops the test at
// the first failure.
func CheckRoundTrip(t testing.TB, p rules.Position) int {
	t.Helper()
	moves := p.LegalMoves(nil)
	for _, m := range moves {
		short := p.Short(m)
		if i := strings.Index(short, "e.p."); i >= 0 && strings.TrimRight(short[i+4:], "+#") != "" {
			t.Fatalf("%s: %s written %q: a check mark goes last", p, p.Long(m), short)
		}
		for _, s := range [2]string{short, p.Long(m)} {
			back, note, err := p.ParseMove(s)
			if err != nil || note != "" || back != m {
				t.Fatalf("%s: %s written %q reads back as %s (note %q, error %v)", p, p.Long(m), s, p.Long(back), note, err)
			}
		}
	}
	return len(moves)
}

// RoundTripGames plays games random games of at most plies moves from
// start and checks the round trip of every legal move of every position on
// the way (CheckRoundTrip); each game is then written as a record in short
// notation, read back and replayed to the same position. It returns the
// number of moves checked.
func RoundTripGames(t testing.TB, start rules.Position, rng *rand.Rand, games, plies int) int {
	t.Helper()
	n := 0
	for g := 0; g < games; g++ {
		game := rules.NewGame(start)
		for ply := 0; ply < plies; ply++ {
			p := game.Position()
			n += CheckRoundTrip(t, p)
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			game.Play(moves[rng.Intn(len(moves))])
		}
		CheckRecord(t, start, game)
	}
	return n
}

// CheckRecord writes game, played from start, as a record in short
// notation, reads it back and replays it: it must end in the same position.
func CheckRecord(t testing.TB, start rules.Position, game *rules.Game) {
	t.Helper()
	var b strings.Builder
	rec := &record.Record{Tags: []record.Tag{{Name: "Position", Value: start.String()}}, Moves: game.Short()}
	if err := record.Write(&b, rec, start.FullmoveNumber(), start.Turn() == rules.White); err != nil {
		t.Fatal(err)
	}
	back, err := record.Read(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("record %q: %v", b.String(), err)
	}
	replay := rules.NewGame(start)
	for _, mv := range back.Moves {
		if _, note, err := replay.PlayNotation(mv); err != nil || note != "" {
			t.Fatalf("record %q: move %q: note %q, error %v", b.String(), mv, note, err)
		}
	}
	if got, want := replay.Position().String(), game.Position().String(); got != want {
		t.Fatalf("record %q replays to %s, want %s", b.String(), got, want)
	}
}

// CheckReads checks that p reads the move in, written in any form people
// write it, as the move whose long form is long, with no note.
func CheckReads(t testing.TB, p rules.Position, in, long string) {
	t.Helper()
	m, note, err := p.ParseMove(in)
	if err != nil || note != "" || p.Long(m) != long {
		t.Errorf("ParseMove(%q) = %s, note %q, error %v; want %s", in, p.Long(m), note, err, long)
	}
}
