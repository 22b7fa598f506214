package engine

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// benchSearch searches the start position and nine positions of random
// games of s to 20,000 nodes each and reports nodes per second.
func benchSearch(b *testing.B, s system, wrap func(rules.Position) rules.Position) {
	var ps []rules.Position
	for i, p := range randomPositions(lookup(b, s), 40, 3) {
		if i%4 == 0 {
			ps = append(ps, p)
		}
	}
	var nodes int64
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range ps {
			r, err := Search(context.Background(), wrap(p), Opts{Nodes: 20_000})
			if err != nil {
				b.Fatal(err)
			}
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	// Nodes per second of the process's CPU time: steadier than the wall
	// clock on a shared machine.
	b.ReportMetric(float64(nodes)/(cpuTime()-cpu0).Seconds(), "nodes/cpu-s")
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func same(p rules.Position) rules.Position { return p }

// keyOnly hides a position's Hash and Make: the search goes through Play
// and hashes Key, as it does for a system it does not know.
type keyOnly struct{ rules.Position }

func (k keyOnly) Play(m rules.Move) rules.Position { return keyOnly{k.Position.Play(m)} }

func playOnly(p rules.Position) rules.Position { return &boxed{p} }

func BenchmarkSearchST3D(b *testing.B)         { benchSearch(b, system{"st3d", ""}, same) }
func BenchmarkSearchST3DOptions(b *testing.B)  { benchSearch(b, system{"st3d", "V.A1,V.A2,V.A4"}, same) }
func BenchmarkSearchMillennium(b *testing.B)   { benchSearch(b, system{"millennium", ""}, same) }
func BenchmarkSearchFirstContact(b *testing.B) { benchSearch(b, system{"first-contact", ""}, same) }

// BenchmarkSearchST3DPlay and ...KeyHash measure what the in-place search
// and the Zobrist hash save: the same search through Play (one allocation
// a node), and through Play hashing Key.
func BenchmarkSearchST3DPlay(b *testing.B) { benchSearch(b, system{"st3d", ""}, playOnly) }
func BenchmarkSearchST3DKeyHash(b *testing.B) {
	benchSearch(b, system{"st3d", ""}, func(p rules.Position) rules.Position { return keyOnly{p} })
}

var (
	strengthGames = flag.Int("strength.games", 100, "games per pair of levels in BenchmarkStrength")
	strengthSys   = flag.String("strength.system", "st3d", "system of BenchmarkStrength's games")
	strengthFrom  = flag.Int("strength.from", 1, "first level of BenchmarkStrength (played against the one below)")
	strengthTo    = flag.Int("strength.to", 4, "last level of BenchmarkStrength")
	strengthCap   = flag.Int("strength.cap", 120, "plies after which a game is adjudicated")
	strengthFirst = flag.Int("strength.first", 0, "number of BenchmarkStrength's first game (its seed and colours), so that runs in parallel processes can share a match")
)

// BenchmarkStrength plays each level against the one below (go test
// ./engine -run XXX -bench Strength -benchtime 1x; the strength.* flags
// choose the system, the levels and the games; strength.first lets two
// processes each play a share of one match): colours alternate, each game opens with a
// random legal first move for each side, and ends by the rules' Status,
// a repetition (a draw, three times by Key) or the ply cap, where a lead
// of 300 centipawns of material wins and anything less is a draw. It
// reports the upper level's mean score with ±1.96σ of the mean.
func BenchmarkStrength(b *testing.B) {
	sys := lookup(b, system{*strengthSys, ""})
	for hi := max(*strengthFrom, 1); hi <= min(*strengthTo, len(Levels)-1); hi++ {
		var sum, sq float64
		var w, d, l int
		for g := *strengthFirst; g < *strengthFirst+*strengthGames; g++ {
			r := playGame(sys, hi, hi-1, g%2 == 0, uint64(g))
			fmt.Fprintf(os.Stderr, "strength: level %d v %d, game %d: %.1f\n", hi, hi-1, g, r)
			switch r {
			case 1:
				w++
			case 0.5:
				d++
			default:
				l++
			}
			sum += r
			sq += r * r
		}
		n := float64(*strengthGames)
		mean := sum / n
		sd := math.Sqrt(max(sq/n-mean*mean, 0))
		b.Logf("%s: level %d v level %d, games %d-%d: +%d =%d -%d, score %.3f ± %.3f (1.96σ of the mean, %d games)",
			sys.Name(), hi, hi-1, *strengthFirst, *strengthFirst+*strengthGames-1, w, d, l, mean, 1.96*sd/math.Sqrt(n), *strengthGames)
	}
}

// playGame plays level a against level b and returns a's score.
func playGame(sys rules.System, a, b int, aWhite bool, seed uint64) float64 {
	rnd := rand.New(rand.NewPCG(seed, 99))
	p := sys.Start()
	var hist []rules.Position
	seen := map[string]int{}
	for ply := 0; ; ply++ {
		moves := p.LegalMoves(nil)
		st := p.Status()
		if st != rules.Ongoing || len(moves) == 0 {
			if st != rules.Checkmate {
				return 0.5
			}
			// The side to move has lost.
			if (p.Turn() == rules.White) == aWhite {
				return 0
			}
			return 1
		}
		if seen[p.Key()]++; seen[p.Key()] >= 3 || p.HalfmoveClock() >= 100 {
			return 0.5
		}
		if ply >= *strengthCap {
			var ev evaluator
			lead := ev.material(p)
			if !aWhite {
				lead = -lead
			}
			switch {
			case lead >= 300:
				return 1
			case lead <= -300:
				return 0
			}
			return 0.5
		}
		var m rules.Move
		if ply < 2 {
			m = moves[rnd.IntN(len(moves))]
		} else {
			lv := b
			if (p.Turn() == rules.White) == aWhite {
				lv = a
			}
			var err error
			m, err = LevelMove(context.Background(), p, lv, hist, nil, rnd.Uint64())
			if err != nil {
				panic(err)
			}
		}
		hist = append(hist, p)
		p = p.Play(m)
	}
}

// BenchmarkLevels reports each level's mean nodes per move over positions
// of random games of each system (the figure a level's cost on the Pi is
// estimated from).
func BenchmarkLevels(b *testing.B) {
	for _, s := range []system{{"st3d", ""}, {"millennium", ""}, {"first-contact", ""}} {
		var ps []rules.Position
		for i, p := range randomPositions(lookup(b, s), 60, 11) {
			if i%6 == 5 {
				ps = append(ps, p)
			}
		}
		for l, lv := range Levels {
			b.Run(s.variant+"/"+strconv.Itoa(l), func(b *testing.B) {
				var nodes int64
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					for j, p := range ps {
						r, err := Search(context.Background(), p, lv.Opts(nil, uint64(j)))
						if err != nil {
							b.Fatal(err)
						}
						nodes += r.Nodes
					}
				}
				moves := float64(b.N * len(ps))
				b.ReportMetric(float64(nodes)/moves, "nodes/move")
				b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/moves, "cpu-ms/move")
			})
		}
	}
}
