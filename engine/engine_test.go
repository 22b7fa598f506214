package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// system is a rule system by name and options, as systems.Lookup takes them.
type system struct{ variant, options string }

// allSystems are the systems the engine plays, st3d with Meder's options
// too.
var allSystems = []system{
	{"st3d", ""}, {"st3d", "V.A1,V.A2"}, {"st3d", "V.A3,V.A4,V.A5"}, {"st3d", "V.A2,V.A2.1,V.P5:518"}, {"st3d", "V.P6"},
	{"millennium", ""}, {"first-contact", ""}, {"first-contact-up", ""},
}

func lookup(t testing.TB, s system) rules.System {
	t.Helper()
	sys, err := systems.Lookup(s.variant, s.options)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func parse(t testing.TB, s system, pos string) rules.Position {
	t.Helper()
	p, err := lookup(t, s).ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func legal(p rules.Position, m rules.Move) bool { return slices.Contains(p.LegalMoves(nil), m) }

// randomPositions plays random games of sys and returns n of their
// positions that still have a move, seeded so that runs repeat.
func randomPositions(sys rules.System, n int, seed uint64) []rules.Position {
	rnd := rand.New(rand.NewPCG(seed, 1))
	var out []rules.Position
	var buf []rules.Move
	for len(out) < n {
		p := sys.Start()
		for ply := 0; ply < 160 && len(out) < n; ply++ {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			out = append(out, p)
			p = p.Play(buf[rnd.IntN(len(buf))])
		}
	}
	return out
}

// TestLegalAlways searches thousands of random positions of every system
// with budgets from one node up and checks that the move is legal.
func TestLegalAlways(t *testing.T) {
	budgets := []int64{1, 2, 40, 400}
	one := 0
	for i, s := range allSystems {
		sys := lookup(t, s)
		n := 500
		if testing.Short() {
			n = 60
		}
		for j, p := range randomPositions(sys, n, uint64(i)) {
			if len(p.LegalMoves(nil)) == 1 {
				one++
			}
			o := Opts{Nodes: budgets[j%len(budgets)], Seed: uint64(j)}
			if j%7 == 0 {
				o.Noise = 100
				o.Depth = 2
			}
			r, err := Search(context.Background(), p, o)
			if err != nil || !legal(p, r.Move) {
				t.Fatalf("%s: %s with %d nodes: move %d (%v) is not legal", sys.Name(), p, o.Nodes, r.Move, err)
			}
			if o.Nodes == 1 && r.Nodes > 2 {
				t.Errorf("%s: budget of 1 node, searched %d", sys.Name(), r.Nodes)
			}
		}
	}
	if one == 0 {
		t.Errorf("no random position had a single legal move")
	}
	t.Logf("%d positions with a single legal move", one)
}

// TestSingleMove: a position with one legal move gets it, at once.
func TestSingleMove(t *testing.T) {
	// The reference checkmate of st3d's tests without Black's pawn a8B:
	// the rook on e9KL6 checks the king on z9QL6 along rank 9, its own
	// pawns stand on z8QL6 and a8QL6, so the only way out is a8B.
	p := parse(t, system{"st3d", ""}, "QL6:b,KL6:w Kb2W,pz8QL6,pa8QL6,kz9QL6,Re9KL6 b - - - 0 60")
	moves := p.LegalMoves(nil)
	if len(moves) != 1 {
		t.Fatalf("%d legal moves (%v), want 1", len(moves), longs(p, moves))
	}
	for _, nodes := range []int64{1, 1000} {
		r, err := Search(context.Background(), p, Opts{Nodes: nodes})
		if err != nil || r.Move != moves[0] {
			t.Errorf("nodes %d: %s, %v; want %s", nodes, p.Long(r.Move), err, p.Long(moves[0]))
		}
	}
}

func longs(p rules.Position, ms []rules.Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, p.Long(m))
	}
	return out
}

func TestNoMoves(t *testing.T) {
	// The reference checkmate of st3d's tests: Black is mated.
	p := parse(t, system{"st3d", ""}, "QL6:b,KL6:w Kb2W,pa8B,pz8QL6,pa8QL6,kz9QL6,Re9KL6 b - - - 0 60")
	if _, err := Search(context.Background(), p, DefaultOpts()); !errors.Is(err, ErrNoMoves) {
		t.Errorf("err = %v, want ErrNoMoves", err)
	}
}

// TestTimeBudget runs on a clock that advances a millisecond a reading:
// the search stops once its time is spent and still returns a legal move.
func TestTimeBudget(t *testing.T) {
	for _, s := range []system{{"st3d", ""}, {"millennium", ""}} {
		var now time.Time
		clock := func() time.Time { now = now.Add(time.Millisecond); return now }
		p := lookup(t, s).Start()
		r, err := Search(context.Background(), p, Opts{Time: 50 * time.Millisecond, Now: clock, CheckEvery: 16})
		if err != nil || !legal(p, r.Move) {
			t.Fatalf("%s: %v %v", s.variant, r, err)
		}
		if r.Elapsed > 60*time.Millisecond || r.Elapsed < 25*time.Millisecond {
			t.Errorf("%s: elapsed %v on the fake clock, want about 25..50ms", s.variant, r.Elapsed)
		}
	}
}

// TestContextStops: a cancelled context stops the search at its first
// look, with a legal move.
func TestContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := lookup(t, system{"millennium", ""}).Start()
	r, err := Search(ctx, p, Opts{CheckEvery: 1})
	if err != nil || !legal(p, r.Move) || r.Nodes > 2 {
		t.Errorf("%d nodes, %v", r.Nodes, err)
	}
}

// TestNodeBudget: the search visits no more nodes than its budget (the
// root's first child tips it over).
func TestNodeBudget(t *testing.T) {
	for _, s := range allSystems {
		p := lookup(t, s).Start()
		for _, n := range []int64{1, 10, 1000, 20000} {
			r, err := Search(context.Background(), p, Opts{Nodes: n})
			if err != nil || !legal(p, r.Move) {
				t.Fatalf("%v: %v", s, err)
			}
			if r.Nodes > n+1 {
				t.Errorf("%v: budget %d, %d nodes", s, n, r.Nodes)
			}
		}
	}
}

func TestLevels(t *testing.T) {
	for _, s := range []system{{"st3d", ""}, {"millennium", ""}, {"first-contact", ""}} {
		sys := lookup(t, s)
		for _, p := range randomPositions(sys, 3, 7)[1:] {
			for l := range Levels {
				// The clock runs a second a reading, so that every level
				// stops early; what is checked is the move's legality.
				var now time.Time
				clock := func() time.Time { now = now.Add(time.Second); return now }
				ctx, cancel := context.WithCancel(context.Background())
				if Levels[l].Nodes > 25_000 {
					cancel() // the strong levels: stopped at their first look
				}
				m, err := LevelMove(ctx, p, l, nil, clock, uint64(l))
				cancel()
				if err != nil || !legal(p, m) {
					t.Errorf("%s level %d: %d %v", s.variant, l, m, err)
				}
			}
		}
	}
	if _, err := LevelMove(context.Background(), lookup(t, allSystems[0]).Start(), len(Levels), nil, nil, 0); err == nil {
		t.Errorf("level %d accepted", len(Levels))
	}
}

// TestLevelZeroAvoidsMate: the weakest level plays at random but never a
// move that allows mate in one (checked by the rules core, over many seeds).
func TestLevelZeroAvoidsMate(t *testing.T) {
	s := system{"millennium", ""}
	// White's king on 1a1 is boxed in by its own pawns; its flights 2a1 and
	// 2b1 are on the line of Black's rook 2h1. White's rook on 1c1 shields
	// rank 1 of level 1 from Black's rook 1h1: moved to 1d1..1g1 it hangs,
	// and 1h1 takes it with mate (M2).
	p := parse(t, s, "K1a1,P1a2,P1b2,P2a2,P2b2,R1c1,r1h1,r2h1,k3e8 w - - - 0 30")
	losing := 0
	for _, m := range p.LegalMoves(nil) {
		if mates(p.Play(m), 1) {
			losing++
		}
	}
	if losing == 0 {
		t.Fatalf("no move of %s allows mate in one", p)
	}
	seen := map[rules.Move]bool{}
	for seed := range uint64(40) {
		m, err := LevelMove(context.Background(), p, 0, nil, nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		if mates(p.Play(m), 1) {
			t.Errorf("seed %d: %s allows mate in one", seed, p.Long(m))
		}
		seen[m] = true
	}
	if len(seen) < 5 {
		t.Errorf("level 0 played only %d different moves in 40 games", len(seen))
	}
}

// TestHashFollowsKey: over random positions of each system, equal keys
// give equal hashes and different keys different ones.
func TestHashFollowsKey(t *testing.T) {
	for i, s := range allSystems {
		byKey := map[string]uint64{}
		byHash := map[uint64]string{}
		for _, p := range randomPositions(lookup(t, s), 400, uint64(100+i)) {
			k, h := p.Key(), positionHash(p)
			if g, ok := byKey[k]; ok && g != h {
				t.Errorf("%v: key %q hashed %x and %x", s, k, g, h)
			}
			if g, ok := byHash[h]; ok && g != k {
				t.Errorf("%v: keys %q and %q share hash %x", s, g, k, h)
			}
			byKey[k], byHash[h] = h, k
			if positionHash(&boxed{p}) != h {
				t.Errorf("%v: a boxed position hashes differently", s)
			}
		}
	}
}

func TestScoreString(t *testing.T) {
	for _, c := range []struct {
		s    Score
		want string
	}{
		{35, "cp 35"}, {-120, "cp -120"}, {Mate - 1, "mate 1"}, {Mate - 3, "mate 2"},
		{-(Mate - 2), "mate -1"}, {-(Mate - 4), "mate -2"}, {0, "cp 0"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("Score(%d) = %q, want %q", int32(c.s), got, c.want)
		}
	}
}

// TestMoveFactsMatchInfo: the systems' MoveFacts agree with Info on every
// move of random positions.
func TestMoveFactsMatchInfo(t *testing.T) {
	for i, s := range allSystems {
		for _, p := range randomPositions(lookup(t, s), 300, uint64(200+i)) {
			f, ok := p.(facter)
			if !ok {
				t.Fatalf("%v has no MoveFacts", s)
			}
			for _, m := range p.LegalMoves(nil) {
				in := p.Info(m)
				from, to, c, pr, b := f.MoveFacts(m)
				if from != in.From || to != in.To || c != in.Captured || pr != in.Promotion || b != in.Board {
					t.Fatalf("%v %s: %s: facts %d %d %d %v %v, info %+v", s, p, p.Long(m), from, to, c, pr, b, in)
				}
			}
		}
	}
}
