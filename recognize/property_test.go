package recognize

import (
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sim"
)

// TestRandomGamesPlayedByHand plays seeded random legal games on the
// simulated set with random lift orders, pieces set down for a moment on
// the way, and contact bounce, and checks that the recognized moves are
// exactly the played ones: no ghost move, no missed move.
func TestRandomGamesPlayedByHand(t *testing.T) {
	games, plies := 60, 80
	for g := 0; g < games; g++ {
		rng := rand.New(rand.NewSource(int64(g)))
		r := newRig(t, st3d.StartString, DefaultOpts())
		style := sim.Style{Pause: 80 * time.Millisecond, Jitter: 150 * time.Millisecond, Rand: rng, Quirks: true,
			Brief: 40 * time.Millisecond}
		var played []string
		cur := r.rec.Position()
		for ply := 0; ply < plies; ply++ {
			p := cur
			moves := p.LegalMoves(nil)
			if len(moves) == 0 || p.Status() != rules.Ongoing {
				break
			}
			m := moves[rng.Intn(len(moves))]
			r.do(sim.Gestures(p, m, style)...)
			r.wait(600 * time.Millisecond)
			if r.rec.Status().State == NeedsChoice {
				// Promotions: choose, or (half the time) let the queen stand
				// until the next move starts.
				if rng.Intn(2) == 0 {
					evs, err := r.rec.Choose(r.board.Clock.Now(), p.Info(m).PromoteTo)
					if err != nil {
						t.Fatal(err)
					}
					for _, e := range evs {
						r.record(e, r.board.Clock.Now())
					}
				} else {
					m = queenOf(p, m)
				}
			}
			played = append(played, p.Long(m))
			cur = p.Play(m)
			n := len(r.moves)
			if r.rec.Status().State == NeedsChoice {
				n++
			}
			if n != len(played) || len(r.moves) > 0 && r.moves[len(r.moves)-1] != played[len(r.moves)-1] {
				t.Fatalf("game %d ply %d: played %q, recognized %q (status %+v)", g, ply, played, r.moves, r.rec.Status())
			}
		}
		r.wait(time.Second)
		n := len(r.moves)
		if r.rec.Status().State == NeedsChoice {
			n++ // the last promotion is still open
		}
		if n != len(played) {
			t.Fatalf("game %d: played %d moves, recognized %d:\n%q\n%q", g, len(played), n, played, r.moves)
		}
		for i := range r.moves {
			if r.moves[i] != played[i] {
				t.Fatalf("game %d move %d: played %s, recognized %s", g, i+1, played[i], r.moves[i])
			}
		}
	}
}

// queenOf is the queen promotion of the same play as m.
func queenOf(p rules.Position, m rules.Move) rules.Move {
	in := p.Info(m)
	for _, o := range p.LegalMoves(nil) {
		oi := p.Info(o)
		if oi.From == in.From && oi.To == in.To && oi.PromoteTo == 'Q' {
			return o
		}
	}
	return m
}

// BenchmarkRecognitionLatency measures, in simulated time, how long after
// the last physical change a move is recognized, for moves the piece could
// not extend (settle 60 ms) and moves it could (250 ms); the sensors add
// their 30 ms debounce and the 5 ms scan period.
func BenchmarkRecognitionLatency(b *testing.B) {
	var short, long []time.Duration
	for i := 0; i < b.N; i++ {
		rng := rand.New(rand.NewSource(int64(i)))
		r := newRig(b, st3d.StartString, DefaultOpts())
		style := sim.Style{Pause: 100 * time.Millisecond, Jitter: 100 * time.Millisecond, Rand: rng}
		for ply := 0; ply < 40; ply++ {
			p := r.rec.Position()
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.Intn(len(moves))]
			if p.Info(m).Promotion {
				continue
			}
			ext := r.rec.settleFor(candidate{m: m, info: p.Info(m)}) == r.rec.opts.SettleExtended
			n := len(r.latencies)
			r.do(sim.Gestures(p, m, style)...)
			r.wait(600 * time.Millisecond)
			if len(r.latencies) != n+1 {
				b.Fatalf("move %s not recognized once", p.Long(m))
			}
			if ext {
				long = append(long, r.latencies[n])
			} else {
				short = append(short, r.latencies[n])
			}
		}
	}
	report := func(name string, d []time.Duration) {
		if len(d) == 0 {
			return
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		b.ReportMetric(float64(d[len(d)/2])/1e6, name+"-p50-ms")
		b.ReportMetric(float64(d[len(d)*99/100])/1e6, name+"-p99-ms")
	}
	report("settle", short)
	report("extended", long)
}

// BenchmarkObserveIdle is the recognizer's cost per scan while nothing
// moves: the case it spends nearly all its time in.
func BenchmarkObserveIdle(b *testing.B) {
	p := st3d.Start()
	r := New(p, DefaultOpts())
	occ := p.Occupancy()
	now := time.Unix(0, 0)
	r.Observe(now, occ, rules.CellSet{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now = now.Add(5 * time.Millisecond)
		r.Observe(now, occ, rules.CellSet{})
	}
}

// BenchmarkObserveLift is the cost of a scan whose reading changed (a lift).
func BenchmarkObserveLift(b *testing.B) {
	p := st3d.Start()
	r := New(p, DefaultOpts())
	occ := p.Occupancy()
	lifted := occ
	lifted.Remove(rules.Cell(5)) // b2W
	now := time.Unix(0, 0)
	r.Observe(now, occ, rules.CellSet{})
	r.Observe(now.Add(time.Second), occ, rules.CellSet{}) // in sync
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now = now.Add(5 * time.Millisecond)
		if i%2 == 0 {
			r.Observe(now, lifted, rules.CellSet{})
		} else {
			r.Observe(now, occ, rules.CellSet{})
		}
	}
}
