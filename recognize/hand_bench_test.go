package recognize

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sim"
)

// benchHand is the hand of BenchmarkHand (sim.QuirkyHand).
func benchHand(rng *rand.Rand, touch, reply time.Duration) *sim.Hand {
	return sim.QuirkyHand(rng, touch, reply)
}

// handStats are the figures of BenchmarkHand.
type handStats struct {
	moves, ghosts, misses, mismatches, tails int
	// swaps counts captures made faster than the debounce by a piece that
	// had several victims: no reading tells which it took, so the board
	// must report a mismatch (swapsReported) within the bound.
	swaps, swapsReported int
	silent, unexplained  time.Duration
	latency              map[Confirmation][]time.Duration
	// first describes the first game that went wrong.
	first string
}

// playHandGame plays one random legal game of sys with the hand through
// the simulated set, the scanner and the recognizer, and counts what went
// wrong. A game stops at its first error. It returns the corrections made
// (Corrected events).
func playHandGame(tb testing.TB, sys rules.System, opts Opts, h *sim.Hand, press sim.Span, plies int, st *handStats) int {
	r := newRigAt(tb, sys.Start(), opts)
	pos := sys.Start()
	var played []string
	var prev []sim.Touch
	var placedAt []time.Time
	lastSwap := -10 // the ply of the last capture swapped faster than the debounce
	fail := func(n *int, what string) bool {
		if len(played)-1-lastSwap <= 2 {
			// The failure follows a swap the sensors cannot see (and a
			// reply that lifts the captor first, or several victims).
			st.swaps++
			if what == "mismatch" {
				st.swapsReported++
			}
			return false
		}
		*n++
		if st.first == "" {
			var evs []string
			for _, e := range r.log {
				evs = append(evs, fmt.Sprintf("%s %s", e.At.Format("05.000"), e))
			}
			st.first = fmt.Sprintf("%s: played %q, recognized %q, status %+v\nevents %q", what, played, r.moves, r.rec.Status(), evs)
		}
		return false
	}
	check := func(final bool) bool {
		for i, m := range r.moves {
			if i == len(r.moves)-1 && r.rec.corr.reopened && !final {
				continue // a change of mind under way: corrected when complete
			}
			if i >= len(played) || m != played[i] {
				return fail(&st.ghosts, "ghost")
			}
		}
		// A move may still wait for the next one's first lift to be read:
		// by the end of the next move it must be in.
		if n := len(r.moves); n < len(played)-2 || final && n < len(played) {
			if final && n == len(played)-1 {
				return fail(&st.tails, "tail") // the last move waits for a reply or a press
			}
			return fail(&st.misses, "miss")
		}
		for _, e := range r.log {
			if e.Kind == StatusChanged && e.Status.State == Mismatch {
				return fail(&st.mismatches, "mismatch")
			}
		}
		return true
	}
	ok := true
	for ply := 0; ply < plies && pos.Status() == rules.Ongoing && ok; ply++ {
		moves := pos.LegalMoves(nil)
		m := moves[h.Rand.Intn(len(moves))]
		if pos.Info(m).Promotion {
			m = queenOf(pos, m)
		}
		touches := h.Move(pos, m)
		if prev != nil {
			r.wait(h.Pause(prev, touches))
		}
		for _, tc := range touches {
			r.touch(tc)
		}
		if fastSwap(pos, m, touches) {
			lastSwap = len(played)
		}
		if ambiguousSwap(pos, m, touches) {
			// No reading tells which victim was taken: once the other
			// side replies, the board must say so within the bound.
			st.swaps++
			silent := r.silent
			n := len(r.log)
			next := pos.Play(m)
			if replies := next.LegalMoves(nil); len(replies) > 0 {
				rm := replies[h.Rand.Intn(len(replies))]
				reply := h.Move(next, rm)
				r.wait(h.Pause(touches, reply))
				for _, tc := range reply {
					r.touch(tc)
				}
				r.wait(opts.MismatchAfter + time.Second)
				for _, e := range r.log[n:] {
					if e.Kind == StatusChanged && e.Status.State == Mismatch {
						st.swapsReported++
						break
					}
				}
			}
			r.silent = silent
			st.unexplained = max(st.unexplained, r.unexplained)
			ok = false
			break
		}
		placedAt = append(placedAt, r.board.Clock.Now())
		if opts.ConfirmByPress {
			r.pressAt(r.board.Clock.Now().Add(press.Min+time.Duration(h.Rand.Int63n(int64(press.Max-press.Min)+1))), pos.Turn())
		}
		played = append(played, pos.Long(m))
		st.moves++
		prev = touches
		pos = pos.Play(m)
		ok = check(false)
	}
	if ok {
		r.wait(3 * time.Second)
		check(true)
	}
	if ok || st.first == "" || !strings.HasPrefix(st.first, "tail") {
		st.silent = max(st.silent, r.silent)
	}
	st.unexplained = max(st.unexplained, r.unexplained)
	i := 0
	last := Confirmation(0) // the latency list the last move went to
	for _, e := range r.log {
		switch {
		case e.Kind == Corrected && i > 0:
			// The ply's move is the correction: its latency replaces the
			// withdrawn move's.
			if d := st.latency[last]; last != 0 {
				st.latency[last] = d[:len(d)-1]
			}
			i--
		case e.Kind != Moved:
			continue
		}
		last = 0
		if i < len(placedAt) && !e.Before.Info(e.Move).Promotion {
			st.latency[e.By] = append(st.latency[e.By], e.At.Sub(placedAt[i]))
			last = e.By
		}
		i++
	}
	return r.corrections
}

// BenchmarkHand plays random legal games (one per iteration) with the hand
// model through the simulated set, the sensors' debounce and the
// recognizer, in simulated time, and reports per setting: ghost moves,
// missed moves and mismatches (each ends its game), tails (the last move
// of a game still waiting, which only a victim swapped faster than the
// debounce leaves), the longest silence out of sync after the hand
// finished a move, the longest stretch of unexplained readings in play,
// and latency percentiles from the hand letting go to the Moved event per
// confirmation. Run: go test ./recognize -run - -bench Hand -benchtime 40x
func BenchmarkHand(b *testing.B) {
	for _, name := range []string{"st3d", "st3d+V.A1,V.A2,V.A3"} {
		sys, err := systems.ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, byPress := range []bool{false, true} {
			for _, touch := range []time.Duration{0, 60, 120, 200} {
				for _, reply := range []time.Duration{0, 50, 280, 1000} {
					confirm := "settle"
					if byPress {
						confirm = "press"
					}
					b.Run(fmt.Sprintf("%s/%s/touch=%dms/reply=%dms", name, confirm, touch, reply), func(b *testing.B) {
						opts := DefaultOpts()
						opts.ConfirmByPress = byPress
						st := handStats{latency: map[Confirmation][]time.Duration{}}
						for i := 0; i < b.N; i++ {
							rng := rand.New(rand.NewSource(int64(i)))
							h := benchHand(rng, touch*time.Millisecond, reply*time.Millisecond)
							playHandGame(b, sys, opts, h, sim.Span{Min: 30 * time.Millisecond, Max: 150 * time.Millisecond}, 60, &st)
						}
						reportHand(b, &st)
						if st.first != "" {
							b.Log(st.first)
						}
					})
				}
			}
		}
	}
}

// fastSwap reports whether the hand captured with m faster than the
// debounce: the victim's square read open for less than it.
func fastSwap(p rules.Position, m rules.Move, touches []sim.Touch) bool {
	in := p.Info(m)
	if in.Captured == rules.NoCell || in.Captured != in.To {
		return false
	}
	var openAt time.Duration
	var t time.Duration
	fast := false
	for _, tc := range touches {
		t += tc.Wait
		if tc.Open.Has(in.To) {
			openAt = t
		}
		if tc.Close.Has(in.To) && t-openAt < debounce {
			fast = true
		}
	}
	return fast
}

// ambiguousSwap reports whether m is a fastSwap by a piece that had other
// captures: the occupancy is the same whichever it took.
func ambiguousSwap(p rules.Position, m rules.Move, touches []sim.Touch) bool {
	if !fastSwap(p, m, touches) {
		return false
	}
	in := p.Info(m)
	var victims rules.CellSet
	for _, o := range p.LegalMoves(nil) {
		if oi := p.Info(o); oi.From == in.From && oi.Captured == oi.To && oi.Captured != rules.NoCell && !oi.Board {
			victims.Add(oi.To)
		}
	}
	return victims.Len() > 1
}

// BenchmarkHandTouchMargin finds where touch-downs start to be taken for
// moves: every move has one, of exactly the given length, on a legal
// target of the piece, and the other side replies after a second.
func BenchmarkHandTouchMargin(b *testing.B) {
	sys, err := systems.ByName("st3d")
	if err != nil {
		b.Fatal(err)
	}
	for _, touch := range []time.Duration{200, 250, 290, 300, 310, 325, 350, 400} {
		b.Run(fmt.Sprintf("touch=%dms", touch), func(b *testing.B) {
			st := handStats{latency: map[Confirmation][]time.Duration{}}
			for i := 0; i < b.N; i++ {
				h := benchHand(rand.New(rand.NewSource(int64(i))), 0, time.Second)
				h.TouchDown, h.TouchLegal, h.Touch, h.Slide = 1, 1, sim.Fixed(touch*time.Millisecond), 0
				playHandGame(b, sys, DefaultOpts(), h, sim.Span{}, 60, &st)
			}
			b.ReportMetric(float64(st.moves), "moves")
			b.ReportMetric(float64(st.ghosts), "ghosts")
			b.ReportMetric(float64(st.misses+st.mismatches), "misses+mismatches")
		})
	}
}

func reportHand(b *testing.B, st *handStats) {
	b.ReportMetric(float64(st.swaps), "swaps")
	b.ReportMetric(float64(st.swapsReported), "swaps-mismatch")
	b.ReportMetric(float64(st.moves), "moves")
	b.ReportMetric(float64(st.ghosts), "ghosts")
	b.ReportMetric(float64(st.misses), "misses")
	b.ReportMetric(float64(st.mismatches), "mismatches")
	b.ReportMetric(float64(st.tails), "tails")
	b.ReportMetric(float64(st.silent)/1e6, "silent-max-ms")
	b.ReportMetric(float64(st.unexplained)/1e6, "unexplained-max-ms")
	for by, d := range st.latency {
		if len(d) == 0 {
			continue
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		b.ReportMetric(float64(len(d)), by.String()+"-n")
		b.ReportMetric(float64(d[len(d)/2])/1e6, by.String()+"-p50-ms")
		b.ReportMetric(float64(d[len(d)*99/100])/1e6, by.String()+"-p99-ms")
	}
}
