package sim

import (
	"fmt"
	"math/rand"
	"sort"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Span is a range of durations a Hand draws from, uniformly; Max below Min
// counts as Min.
type Span struct{ Min, Max time.Duration }

// Fixed is the span of exactly d.
func Fixed(d time.Duration) Span { return Span{d, d} }

func (s Span) draw(r *rand.Rand) time.Duration {
	if s.Max <= s.Min || r == nil {
		return s.Min
	}
	return s.Min + time.Duration(r.Int63n(int64(s.Max-s.Min)+1))
}

// Touch is one instant of a hand's play, at the level of the sensing
// cells: after Wait, the cells of Open read open and those of Close read
// closed, and the cells of Bounce bounce as they make contact. Cells are a
// rules.System's, so a hand plays any system whose set models its cells.
type Touch struct {
	Wait               time.Duration
	Open, Close        rules.CellSet
	Bounce             rules.CellSet
	Placed, LastOfMove bool // Placed: the touch sets a piece down; LastOfMove: the move is complete with it
}

// Hand is a seeded model of a person's hands playing moves on a set: how
// long a piece is in the air, where and how long it is set down on its
// way (legal targets too), slides through the squares of a line, wobble
// and contact bounce, captures and castlings in either order or with both
// hands at once, a victim swapped for its captor faster than the sensors'
// debounce, and the pause before the other side replies. The zero value
// plays every move the plain way at once; a nil Rand makes every draw its
// Span's Min and every chance never happen.
type Hand struct {
	Rand *rand.Rand
	// Carry is the time from the last lift of a move to its first
	// placement (slides and touch-downs on the way come out of it).
	Carry Span
	// Gap is the time between two lifts, or two placements, of one move
	// made with one hand.
	Gap Span
	// BothHands is the chance a move of several pieces (a capture, a
	// castling) is made with both hands: the lifts at once, the
	// placements at once.
	BothHands float64
	// TouchDown is the chance, per move, that the piece is set down on its
	// way for Touch; TouchLegal the chance the square is a legal target of
	// the piece (else any empty square a piece of the side could reach).
	TouchDown  float64
	Touch      Span
	TouchLegal float64
	// Slide is the chance a piece that passes over squares of its line is
	// slid through them, Step on each; Overlap is how long two squares of
	// the slide read closed together (drawn; the piece straddles them).
	Slide   float64
	Step    Span
	Overlap Span
	// Wobble is the chance a placed piece is rocked RockAfter its
	// placement: it reads open for Rock, then closed again.
	Wobble    float64
	RockAfter Span
	Rock      Span
	// Bounce gives every placement contact bounce.
	Bounce bool
	// FastSwap is the chance a capture's victim is taken off and the
	// captor set down on its square within Swap (below the debounce, the
	// square never reads open).
	FastSwap float64
	Swap     Span
	// Reply is the pause between one side's last placement and the other
	// side's first lift.
	Reply Span
	// Regrab is the least pause before the other side lifts a piece the
	// last move has just set down (a recapture): two hands need room.
	Regrab time.Duration
}

// QuirkyHand is a hand that does everything a hand does, at random: pieces
// in the air 80-400 ms, slides, wobble, contact bounce, both hands for
// captures and castlings, victims swapped for their captor faster than the
// debounce (one capture in ten), touch-downs on the way (one move in two,
// touch/2 to touch long, legal targets mostly; none when touch is 0) and a
// pause of reply before the other side's first lift. The benchmarks of the
// recognizer and the table play with it.
func QuirkyHand(r *rand.Rand, touch, reply time.Duration) *Hand {
	h := &Hand{
		Rand: r, Carry: Span{Min: 80 * time.Millisecond, Max: 400 * time.Millisecond},
		Gap: Span{Max: 150 * time.Millisecond}, BothHands: 0.2,
		TouchLegal: 0.7, Slide: 0.3,
		Step:    Span{Min: 30 * time.Millisecond, Max: 90 * time.Millisecond},
		Overlap: Span{Max: 20 * time.Millisecond},
		Wobble:  0.2, RockAfter: Span{Min: 10 * time.Millisecond, Max: 60 * time.Millisecond},
		Rock:   Span{Min: 5 * time.Millisecond, Max: 60 * time.Millisecond},
		Bounce: true, FastSwap: 0.1, Swap: Span{Min: 5 * time.Millisecond, Max: 25 * time.Millisecond},
		Reply: Fixed(reply), Regrab: 100 * time.Millisecond,
	}
	if touch > 0 {
		h.TouchDown, h.Touch = 0.5, Span{Min: touch / 2, Max: touch}
	}
	return h
}

// HastyHand is QuirkyHand at blitz pace and hesitating at once (issue
// 21): every moved piece set down on a square on its way for exactly
// touch (a legal target of its own in nine cases of ten) unless it is slid
// through its line (one move of two that can be), pieces in the air
// 60-250 ms, and the other side's first lift exactly reply after the last
// placement. The benchmarks of late scans and the low-time tests play with
// it.
func HastyHand(r *rand.Rand, touch, reply time.Duration) *Hand {
	h := QuirkyHand(r, touch, reply)
	h.Carry = Span{Min: 60 * time.Millisecond, Max: 250 * time.Millisecond}
	h.Slide, h.TouchLegal = 0.5, 0.9
	if touch > 0 {
		h.TouchDown, h.Touch = 1, Fixed(touch)
	}
	return h
}

// LearnerHand is QuirkyHand changing its mind (issue 21): in one move of
// four it sets the piece down on another square, a legal target of its
// own where it has one, rests there for rest (drawn), then goes on to the
// square it means; no other touch-downs.
func LearnerHand(r *rand.Rand, rest Span, reply time.Duration) *Hand {
	h := QuirkyHand(r, 0, reply)
	h.TouchDown, h.TouchLegal, h.Touch = 0.25, 1, rest
	return h
}

// Pause draws the pause between the touches of one move (prev) and those
// of the next (next): Reply, and long enough that next lifts a piece prev
// set down no sooner than Regrab after.
func (h *Hand) Pause(prev, next []Touch) time.Duration {
	d := h.Reply.draw(h.Rand)
	var placed rules.CellSet
	for _, t := range prev {
		placed = placed.Union(t.Close).Minus(t.Open)
	}
	var at time.Duration
	for i, t := range next {
		if i > 0 {
			at += t.Wait
		}
		if !t.Open.Intersect(placed).Empty() {
			return max(d, h.Regrab-at)
		}
	}
	return d
}

func (h *Hand) chance(p float64) bool { return h.Rand != nil && p > 0 && h.Rand.Float64() < p }

func (h *Hand) pick(n int) int {
	if h.Rand == nil || n <= 1 {
		return 0
	}
	return h.Rand.Intn(n)
}

func (h *Hand) shuffle(cells []rules.Cell) {
	if h.Rand != nil {
		h.Rand.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	}
}

// Move lists the touches that play m in p: the first comes at once (no
// pause before it), the last completes the move (LastOfMove).
func (h *Hand) Move(p rules.Position, m rules.Move) []Touch {
	in := p.Info(m)
	before := p.Occupancy()
	after := p.Play(m).Occupancy()
	lifts := in.Touched.Intersect(before).Cells(nil)
	places := after.Intersect(in.Touched).Union(after.Minus(before)).Cells(nil)
	var out []Touch
	wait := time.Duration(0)
	emit := func(t Touch) {
		t.Wait += max(wait, 0)
		wait = 0
		out = append(out, t)
	}
	both := in.Board || h.chance(h.BothHands)
	if in.Captured != rules.NoCell && in.Captured == in.To && !in.Board && h.chance(h.FastSwap) {
		// Captor lifted first; the victim off and the captor on within Swap.
		emit(Touch{Open: rules.CellSetOf(in.From)})
		wait += h.Carry.draw(h.Rand)
		emit(Touch{Open: rules.CellSetOf(in.To)})
		wait += h.Swap.draw(h.Rand)
		out = h.place(out, in.To, wait, true)
		return out
	}
	h.shuffle(lifts)
	h.shuffle(places)
	if both {
		emit(Touch{Open: rules.CellSetOf(lifts...)})
	} else {
		for i, c := range lifts {
			if i > 0 {
				wait += h.Gap.draw(h.Rand)
			}
			emit(Touch{Open: rules.CellSetOf(c)})
		}
	}
	carry := h.Carry.draw(h.Rand)
	// On the way: a slide over the squares of the line, or a touch-down.
	if !in.Board && in.From != rules.NoCell {
		occupied := before.Minus(in.Touched).Union(after)
		if path := slidePath(p, m); len(path) > 0 && h.chance(h.Slide) {
			wait += h.Gap.draw(h.Rand)
			path = append(path, in.To)
			for i, x := range path {
				t := Touch{Close: rules.CellSetOf(x)}
				if x == in.To {
					t.Placed = true
					if h.Bounce {
						t.Bounce = t.Close
					}
				}
				emit(t)
				if i > 0 {
					ov := h.Overlap.draw(h.Rand)
					wait += ov
					emit(Touch{Open: rules.CellSetOf(path[i-1])})
					wait -= ov
				}
				wait += h.Step.draw(h.Rand)
			}
			wait = 0
			places = remove(places, in.To)
			carry = 0
		} else if h.chance(h.TouchDown) {
			if x := h.touchSquare(p, m, occupied); x != rules.NoCell {
				wait += carry / 2
				emit(Touch{Close: rules.CellSetOf(x)})
				wait += h.Touch.draw(h.Rand)
				emit(Touch{Open: rules.CellSetOf(x)})
				carry -= carry / 2
			}
		}
	}
	wait += max(carry, 0)
	if len(places) == 0 {
		// Slid all the way.
	} else if both {
		if len(places) > 0 {
			out = h.placeAll(out, places, wait)
			wait = 0
		}
	} else {
		for i, c := range places {
			if i > 0 {
				wait += h.Gap.draw(h.Rand)
			}
			out = h.place(out, c, wait, i == len(places)-1)
			wait = 0
		}
	}
	if len(out) > 0 {
		out[len(out)-1].LastOfMove = true
	}
	return out
}

// place sets a piece down on c after wait, with bounce and wobble.
func (h *Hand) place(out []Touch, c rules.Cell, wait time.Duration, last bool) []Touch {
	t := Touch{Wait: wait, Close: rules.CellSetOf(c), Placed: true, LastOfMove: last}
	if h.Bounce {
		t.Bounce = t.Close
	}
	out = append(out, t)
	if h.chance(h.Wobble) {
		out[len(out)-1].LastOfMove = false
		out = append(out, Touch{Wait: h.RockAfter.draw(h.Rand), Open: t.Close},
			Touch{Wait: h.Rock.draw(h.Rand), Close: t.Close, Bounce: t.Bounce, Placed: true, LastOfMove: last})
	}
	return out
}

// placeAll sets several pieces (or a board and its pieces) down at once.
func (h *Hand) placeAll(out []Touch, cells []rules.Cell, wait time.Duration) []Touch {
	t := Touch{Wait: wait, Close: rules.CellSetOf(cells...), Placed: true}
	if h.Bounce {
		t.Bounce = t.Close
	}
	return append(out, t)
}

// touchSquare picks an empty square to set the piece of m down on: a legal
// target of it (not its own), or another square a piece of the side could
// reach, none of them in occupied; NoCell when there is none.
func (h *Hand) touchSquare(p rules.Position, m rules.Move, occupied rules.CellSet) rules.Cell {
	in := p.Info(m)
	var own, any []rules.Cell
	seen := rules.CellSet{}
	for _, o := range p.LegalMoves(nil) {
		oi := p.Info(o)
		if oi.Board || oi.To == in.To || oi.To == rules.NoCell || occupied.Has(oi.To) || seen.Has(oi.To) {
			continue
		}
		seen.Add(oi.To)
		if oi.From == in.From {
			own = append(own, oi.To)
		} else {
			any = append(any, oi.To)
		}
	}
	if len(own) > 0 && (len(any) == 0 || h.chance(h.TouchLegal)) {
		return own[h.pick(len(own))]
	}
	if len(any) > 0 {
		return any[h.pick(len(any))]
	}
	return rules.NoCell
}

// slidePath lists, nearest first, the squares the piece of m passes over:
// the targets of shorter moves m extends along its line (positions that
// can tell, through an Extends method).
func slidePath(p rules.Position, m rules.Move) []rules.Cell {
	ext, ok := p.(interface {
		Extends(m, further rules.Move) bool
	})
	if !ok {
		return nil
	}
	in := p.Info(m)
	var short []rules.Move
	for _, o := range p.LegalMoves(nil) {
		oi := p.Info(o)
		if oi.From == in.From && oi.To != in.To && !oi.Board && oi.Captured == rules.NoCell && !oi.Promotion &&
			ext.Extends(o, m) {
			short = append(short, o)
		}
	}
	// Nearer squares are extended by the farther ones.
	sort.SliceStable(short, func(i, j int) bool { return ext.Extends(short[i], short[j]) })
	path := make([]rules.Cell, len(short))
	for i, o := range short {
		path[i] = p.Info(o).To
	}
	return path
}

func remove(cells []rules.Cell, c rules.Cell) []rules.Cell {
	out := cells[:0]
	for _, x := range cells {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}

// ApplyTo is the occupancy s after the touch.
func (t Touch) ApplyTo(s rules.CellSet) rules.CellSet { return s.Minus(t.Open).Union(t.Close) }

// Apply carries out a touch on the set (the caller runs the clock for its
// Wait first): its cells, named by the set's own cell list, open and
// close, with contact bounce where asked.
func (s *Set) Apply(t Touch) error {
	names := s.Cells()
	for _, set := range []struct {
		cells  rules.CellSet
		closed bool
	}{{t.Open, false}, {t.Close, true}} {
		for _, c := range set.cells.Cells(nil) {
			if int(c) >= len(names) {
				return fmt.Errorf("sim: touch: no cell %d on the set", c)
			}
			if err := s.SetCell(names[c], set.closed); err != nil {
				return err
			}
		}
	}
	for _, c := range t.Bounce.Cells(nil) {
		if int(c) >= len(names) {
			return fmt.Errorf("sim: touch: no cell %d on the set", c)
		}
		if err := s.Bounce(names[c], 0, 300*time.Microsecond, 500*time.Microsecond, 900*time.Microsecond); err != nil {
			return err
		}
	}
	return nil
}
