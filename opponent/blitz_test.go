package opponent_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// simTime is the clock a search looks at: every look at it comes after
// engine.ClockCheckEvery more nodes (at most: a few looks come between
// iterations), so a search stops on it as it would on a board that searches
// 1/nodeCost nodes a second, whatever this machine's speed. The game's
// clock is then charged the search's nodes at nodeCost each.
type simTime struct {
	t    time.Time
	step time.Duration
}

func (s *simTime) now() time.Time {
	s.t = s.t.Add(s.step)
	return s.t
}

// blitzGame plays one engine-against-engine game on a clock of control
// ctl in simulated time, each side managing its time through TimeLeft and
// engine.Level.ClockOpts as the Engine opponent does. It returns how the
// game ended ("flag white", "mate", "draw", "plies") and the least time a
// side had left after a move.
func blitzGame(t testing.TB, ctl string, levels [2]int, seed uint64, nodeCost, latency time.Duration) (string, time.Duration) {
	c, err := clock.Parse(ctl)
	if err != nil {
		t.Fatal(err)
	}
	clk, err := clock.New(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &simTime{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), step: engine.ClockCheckEvery * nodeCost}
	var pos rules.Position = st3d.Start()
	// Two random plies open each game, so that the games differ.
	rnd := rand.New(rand.NewPCG(seed, 7))
	for range 2 {
		ms := pos.LegalMoves(nil)
		pos = pos.Play(ms[rnd.IntN(len(ms))])
	}
	if err := clk.Start(st.t, pos.Turn()); err != nil {
		t.Fatal(err)
	}
	least := c.Initial()
	var history []rules.Position
	seen := map[string]int{}
	for ply := 0; ply < 400; ply++ {
		if pos.Status() != rules.Ongoing {
			return "over: " + pos.Status().String(), least
		}
		if pos.HalfmoveClock() >= 100 || seen[pos.Key()] >= 2 {
			return "draw", least
		}
		seen[pos.Key()]++
		side := pos.Turn()
		tl, ok := opponent.TimeLeft(new(clk.Snapshot(st.t)), side, st.t, 0)
		if !ok {
			t.Fatalf("ply %d: no time left to manage on %s", ply, ctl)
		}
		search := &simTime{t: st.t, step: st.step}
		o := engine.Levels[levels[side]].ClockOpts(search.now, seed+uint64(ply), tl)
		o.History = history
		res, err := engine.Search(context.Background(), pos, o)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		st.t = st.t.Add(time.Duration(res.Nodes)*nodeCost + latency)
		if _, err := clk.Moved(st.t); err != nil {
			return fmt.Sprintf("flag %s at ply %d (budget %v, %d nodes, had %v)", side, ply, o.Time, res.Nodes, tl.Left), least
		}
		least = min(least, clk.Remaining(side, st.t))
		history = append(history, pos)
		pos = pos.Play(res.Move)
	}
	return "plies", least
}

// blitzLevels are the pairs of levels of the blitz games, the strongest
// (whose node budget would flag at once without time management) against
// each of the others.
var blitzLevels = [][2]int{{6, 6}, {6, 5}, {5, 6}, {6, 0}, {2, 6}}

// The engine never loses on time (issue 24): engine-against-engine games
// at 60+0 and 180+2 on a simulated board that searches 1,000 nodes a
// second (so level 6's 400,000 nodes would take 400 s a move) and presses
// its clock 20 ms after its search ends. Two games a control here; the
// benchmark plays 20.
func TestEngineBlitzNoFlag(t *testing.T) {
	for _, ctl := range []string{"60", "180+2"} {
		for i := range 2 {
			levels := blitzLevels[i%len(blitzLevels)]
			end, least := blitzGame(t, ctl, levels, uint64(i), time.Millisecond, 20*time.Millisecond)
			t.Logf("%s game %d, levels %v: %s, least time left %v", ctl, i, levels, end, least)
			if len(end) > 4 && end[:4] == "flag" {
				t.Errorf("%s game %d, levels %v: %s", ctl, i, levels, end)
			}
		}
	}
}

// BenchmarkEngineBlitz plays 20 games at each of 60+0 and 180+2 per
// iteration (see TestEngineBlitzNoFlag) and fails on a loss on time.
func BenchmarkEngineBlitz(b *testing.B) {
	for b.Loop() {
		for _, ctl := range []string{"60", "180+2"} {
			least, ends := time.Hour, map[string]int{}
			for i := range 20 {
				levels := blitzLevels[i%len(blitzLevels)]
				end, l := blitzGame(b, ctl, levels, uint64(i), time.Millisecond, 20*time.Millisecond)
				if len(end) > 4 && end[:4] == "flag" {
					b.Fatalf("%s game %d, levels %v: %s", ctl, i, levels, end)
				}
				least = min(least, l)
				ends[end]++
			}
			b.Logf("%s: 20 games, %v, least time left after a move %v", ctl, ends, least)
			b.ReportMetric(float64(least.Milliseconds()), "least_ms_"+ctl)
		}
	}
}
