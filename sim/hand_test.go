package sim

import (
	"math/rand"
	"reflect"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/systems"
)

const ms = time.Millisecond

// quirky is a hand that does everything it can, at random.
func quirky(seed int64) *Hand {
	return &Hand{
		Rand: rand.New(rand.NewSource(seed)), Carry: Span{50 * ms, 400 * ms}, Gap: Span{0, 150 * ms},
		BothHands: 0.3, TouchDown: 0.4, Touch: Span{20 * ms, 200 * ms}, TouchLegal: 0.5,
		Slide: 0.4, Step: Span{30 * ms, 90 * ms}, Overlap: Span{0, 20 * ms},
		Wobble: 0.3, RockAfter: Span{10 * ms, 60 * ms}, Rock: Span{5 * ms, 60 * ms}, Bounce: true,
		FastSwap: 0.3, Swap: Span{5 * ms, 25 * ms}, Reply: Span{0, time.Second},
	}
}

// Along random games of every system, a quirky hand's touches take the
// occupancy from the position's to the one after the move, only ever open
// closed cells and close open ones, never wait a negative time, and end
// with one LastOfMove.
func TestHandPlaysEveryMoveOfEverySystem(t *testing.T) {
	for _, name := range []string{"st3d", "st3d+V.A1,V.A2,V.A3", "millennium", "first-contact", "first-contact-up"} {
		sys, err := systems.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		h := quirky(int64(len(name)))
		for game := 0; game < 10; game++ {
			pos := sys.Start()
			for ply := 0; ply < 60 && pos.Status() == rules.Ongoing; ply++ {
				moves := pos.LegalMoves(nil)
				m := moves[h.Rand.Intn(len(moves))]
				occ := pos.Occupancy()
				touches := h.Move(pos, m)
				last := 0
				for i, tc := range touches {
					if tc.Wait < 0 {
						t.Fatalf("%s %q %s: touch %d waits %v", name, pos, pos.Long(m), i, tc.Wait)
					}
					if !tc.Open.Minus(occ).Empty() || !tc.Close.Intersect(occ).Empty() {
						t.Fatalf("%s %q %s: touch %d %+v on occupancy %v", name, pos, pos.Long(m), i, tc, occ.Names(sys.Cells()))
					}
					if tc.LastOfMove {
						last++
					}
					occ = tc.ApplyTo(occ)
				}
				next := pos.Play(m)
				if occ != next.Occupancy() || last != 1 || !touches[len(touches)-1].LastOfMove {
					t.Fatalf("%s %q %s: touches end on %v with %d last, want %v", name, pos, pos.Long(m),
						occ.Names(sys.Cells()), last, next.Occupancy().Names(sys.Cells()))
				}
				pos = next
			}
		}
	}
}

func cells(t *testing.T, names ...string) rules.CellSet {
	t.Helper()
	var s rules.CellSet
	for _, n := range names {
		sq, err := st3d.ParseSquare(n)
		if err != nil {
			t.Fatal(err)
		}
		s.Add(st3d.SquareCell(sq))
	}
	return s
}

func handMove(t *testing.T, h *Hand, pos, move string) []Touch {
	t.Helper()
	p, err := st3d.System.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := p.ParseMove(move)
	if err != nil {
		t.Fatal(err)
	}
	return h.Move(p, m)
}

const (
	capturePos = "QL1:w,QL6:b,KL1:w,KL6:b Na1W,pb3N,pc2W,Kd0KL1,kd9KL6 w - - - 0 10"
	rookPos    = "QL1:w,QL6:b,KL1:w,KL6:b Ra1W,Kd0KL1,kd9KL6 w - - - 0 10"
	castlePos  = "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 5"
)

// Each habit of the hand, with fixed spans, gives exactly its touches.
func TestHandHabits(t *testing.T) {
	plain := func() *Hand {
		return &Hand{Rand: rand.New(rand.NewSource(1)), Carry: Fixed(200 * ms), Gap: Fixed(100 * ms)}
	}
	for _, tc := range []struct {
		name  string
		hand  func() *Hand
		pos   string
		move  string
		check func(t *testing.T, ts []Touch)
	}{
		{"quiet move: lift, carry, place", plain, rookPos, "a1W-a2W", func(t *testing.T, ts []Touch) {
			want := []Touch{{Open: cells(t, "a1W")}, {Wait: 200 * ms, Close: cells(t, "a2W"), Placed: true, LastOfMove: true}}
			if !reflect.DeepEqual(ts, want) {
				t.Fatalf("%+v, want %+v", ts, want)
			}
		}},
		{"capture with both hands: both lifted at once", func() *Hand { h := plain(); h.BothHands = 1; return h },
			capturePos, "a1W-b3N", func(t *testing.T, ts []Touch) {
				if len(ts) != 2 || ts[0].Open != cells(t, "a1W", "b3N") || ts[1].Close != cells(t, "b3N") {
					t.Fatalf("%+v", ts)
				}
			}},
		{"castling with both hands: placed at once", func() *Hand { h := plain(); h.BothHands = 1; return h },
			castlePos, "0-0", func(t *testing.T, ts []Touch) {
				if len(ts) != 2 || ts[0].Open != cells(t, "d0KL1", "e0KL1") || ts[1].Close != cells(t, "d0KL1", "e0KL1") {
					t.Fatalf("%+v", ts)
				}
			}},
		{"fast swap: the victim's square open for Swap only", func() *Hand { h := plain(); h.FastSwap, h.Swap = 1, Fixed(12*ms); return h },
			capturePos, "a1W-b3N", func(t *testing.T, ts []Touch) {
				if len(ts) != 3 || ts[1].Open != cells(t, "b3N") || ts[2].Close != cells(t, "b3N") || ts[2].Wait != 12*ms {
					t.Fatalf("%+v", ts)
				}
			}},
		{"touch-down on a legal target of the piece", func() *Hand {
			h := plain()
			h.TouchDown, h.TouchLegal, h.Touch = 1, 1, Fixed(150*ms)
			return h
		}, rookPos, "a1W-a2W", func(t *testing.T, ts []Touch) {
			if len(ts) != 4 || ts[1].Close != ts[2].Open || ts[2].Wait != 150*ms || ts[1].Wait != 100*ms || ts[3].Wait != 100*ms {
				t.Fatalf("%+v", ts)
			}
			x := ts[1].Close
			p, _ := st3d.System.ParsePosition(rookPos)
			legal := false
			for _, m := range p.LegalMoves(nil) {
				if in := p.Info(m); in.From == st3d.SquareCell(mustSq(t, "a1W")) && x == rules.CellSetOf(in.To) {
					legal = true
				}
			}
			if !legal || x == cells(t, "a2W") {
				t.Fatalf("touch-down on %v: not another legal target of the rook", x.Names(st3d.CellNames()))
			}
		}},
		{"slide through the squares of the line, overlapping", func() *Hand {
			h := plain()
			h.Slide, h.Step, h.Overlap, h.Gap = 1, Fixed(60*ms), Fixed(10*ms), Fixed(0)
			return h
		}, rookPos, "a1W-a4N", func(t *testing.T, ts []Touch) {
			var order []string
			for _, x := range ts[1:] {
				if !x.Close.Empty() {
					order = append(order, x.Close.Names(st3d.CellNames())...)
				}
			}
			if want := []string{"a2W", "a3W", "a4N"}; !reflect.DeepEqual(order, want) && !reflect.DeepEqual(order, []string{"a2W", "a3W", "a3N", "a4N"}) {
				t.Fatalf("slid through %v, want %v", order, want)
			}
			if ts[2].Wait != 60*ms || ts[3].Wait != 10*ms || ts[3].Open != cells(t, "a2W") {
				t.Fatalf("%+v", ts)
			}
		}},
		{"wobble: the placed piece rocks once", func() *Hand {
			h := plain()
			h.Wobble, h.RockAfter, h.Rock = 1, Fixed(30*ms), Fixed(40*ms)
			return h
		}, rookPos, "a1W-a2W", func(t *testing.T, ts []Touch) {
			a2 := cells(t, "a2W")
			if len(ts) != 4 || ts[1].LastOfMove || ts[2].Open != a2 || ts[2].Wait != 30*ms || ts[3].Close != a2 ||
				ts[3].Wait != 40*ms || !ts[3].LastOfMove {
				t.Fatalf("%+v", ts)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, handMove(t, tc.hand(), tc.pos, tc.move)) })
	}
}

func mustSq(t *testing.T, s string) st3d.Square {
	t.Helper()
	sq, err := st3d.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

// The same seed plays the same touches.
func TestHandIsSeeded(t *testing.T) {
	p := st3d.Start()
	moves := p.LegalMoves(nil)
	a, b := quirky(7), quirky(7)
	for _, m := range moves {
		if x, y := a.Move(p, m), b.Move(p, m); !reflect.DeepEqual(x, y) {
			t.Fatalf("%s: %+v != %+v", p.Long(m), x, y)
		}
	}
}

// Apply sets the set's cells as the touch says, and refuses cells the set
// does not have.
func TestSetApply(t *testing.T) {
	s := NewSet(NewTimeSource(time.Time{}))
	s.Start()
	b2, b3 := cells(t, "b2W"), cells(t, "b3W")
	if err := s.Apply(Touch{Open: b2}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(Touch{Close: b3, Bounce: b3}); err != nil {
		t.Fatal(err)
	}
	if got := s.Closed(); got.Has(st3d.SquareCell(mustSq(t, "b2W"))) || !got.Has(st3d.SquareCell(mustSq(t, "b3W"))) {
		t.Fatalf("closed %v", got.Names(s.Cells()))
	}
	if s.Reading().Has(st3d.SquareCell(mustSq(t, "b3W"))) {
		t.Fatal("b3W reads closed at once: no bounce")
	}
	if err := s.Apply(Touch{Close: rules.CellSetOf(250)}); err == nil {
		t.Fatal("Apply on cell 250: no error")
	}
}

// Pause is the reply pause, but at least Regrab before lifting a piece
// the last move set down.
func TestHandPause(t *testing.T) {
	h := &Hand{Reply: Fixed(10 * ms), Regrab: 80 * ms}
	white := handMove(t, h, rookPos, "a1W-a2W")
	a2 := cells(t, "a2W")
	if got := h.Pause(white, []Touch{{Open: a2}}); got != 80*ms {
		t.Fatalf("pause before lifting the piece just placed: %v, want 80ms", got)
	}
	if got := h.Pause(white, []Touch{{Open: cells(t, "b2W")}}); got != 10*ms {
		t.Fatalf("pause before another lift: %v, want 10ms", got)
	}
	if got := h.Pause(white, []Touch{{Open: cells(t, "b2W")}, {Wait: 30 * ms, Open: a2}}); got != 50*ms {
		t.Fatalf("pause before lifting the piece just placed second: %v, want 50ms", got)
	}
}
