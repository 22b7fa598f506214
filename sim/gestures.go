package sim

import (
	"math/rand"
	"sort"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Style says how a simulated person makes moves.
type Style struct {
	// Pause is the time between two actions; Jitter adds up to that much
	// at random (with a Rand).
	Pause, Jitter time.Duration
	// Rand, when set, varies the lift order of captures and castlings and
	// adds the quirks below at random; nil makes every gesture the plain one.
	Rand *rand.Rand
	// Quirks, with Rand: slides across a neighbouring square and brief wrong
	// placements on the way (the piece set down for less than the settle
	// window), and contact bounce on every placement.
	Quirks bool
	// Brief is how long a piece rests on a square on its way.
	Brief time.Duration
}

// PlainStyle moves pieces the plain way with pauses of 150 ms.
var PlainStyle = Style{Pause: 150 * time.Millisecond, Brief: 40 * time.Millisecond}

// Gestures lists the actions a person makes to play m in p on the set of
// p's system: the lifts of every cell the move touches, then the
// placements. A placement from off the set (V.P6, First Contact's king
// placements and introductions, a platform placed) is one place with
// nothing in the hand. A board move lifts the board and places it on its
// new pin, turned half round when the position after the move says so
// (V.A2); then whatever the move adds or takes away beyond what the board
// carried is put on or taken off: V.A3's promoting pawn taken off the set
// and a spare board put on the pin. Which of these a move needs is read from
// m's Info and the occupancy before and after it, played on a scratch set:
// playing the gestures on a set showing p's occupancy leaves it showing the
// occupancy after m.
func Gestures(p rules.Position, m rules.Move, st Style) []Action {
	names := p.System().Cells()
	in := p.Info(m)
	before := p.Occupancy()
	after := p.Play(m).Occupancy()
	scratch := NewSetFor(p.System(), NewTimeSource(time.Time{}))
	var out []Action
	pause := func() {
		d := st.Pause
		if st.Rand != nil && st.Jitter > 0 {
			d += time.Duration(st.Rand.Int63n(int64(st.Jitter)))
		}
		out = append(out, Action{Op: OpWait, Wait: d})
	}
	if in.Board && in.From != rules.NoCell {
		out = append(out, Action{Op: OpLift, Cell: names[in.From]})
		pause()
		out = append(out, boardPlacement(scratch, before, after, names[in.From], names[in.To]))
		pause()
		if in.Promoted != rules.NoCell && after.Has(in.Promoted) && st.Rand != nil && st.Rand.Intn(2) == 0 {
			// Swap the promoted pawn for its new piece.
			out = append(out, Action{Op: OpLift, Cell: names[in.Promoted]})
			pause()
			out = append(out, Action{Op: OpPlace, Cell: names[in.Promoted]})
			pause()
		}
		// What the board did not carry: a pawn taken off, a spare board.
		scratch.SetUp(before)
		for _, a := range out {
			_ = scratch.Do(a)
		}
		now := scratch.Closed()
		for _, c := range now.Minus(after).Cells(nil) {
			out = append(out, Action{Op: OpLift, Cell: names[c]})
			pause()
		}
		for _, c := range socketsFirst(scratch, after.Minus(now).Cells(nil)) {
			out = append(out, Action{Op: OpPlace, Cell: names[c]})
			pause()
		}
		return out
	}
	lifts := in.Touched.Cells(nil)
	// The mover's own piece first, or (at random) the victim first.
	for i, c := range lifts {
		if c == in.From {
			lifts[0], lifts[i] = lifts[i], lifts[0]
		}
	}
	if st.Rand != nil && len(lifts) > 1 {
		st.Rand.Shuffle(len(lifts), func(i, j int) { lifts[i], lifts[j] = lifts[j], lifts[i] })
	}
	places := after.Intersect(in.Touched).Union(after.Minus(before)).Cells(nil)
	if st.Rand != nil && len(places) > 1 {
		st.Rand.Shuffle(len(places), func(i, j int) { places[i], places[j] = places[j], places[i] })
	}
	places = socketsFirst(scratch, places)
	if in.From == rules.NoCell && in.To != rules.NoCell {
		// A placement puts the piece it names down first (V.P6's queen,
		// then the king and rooks its square decides).
		for i, c := range places {
			if c == in.To {
				copy(places[1:i+1], places[:i])
				places[0] = c
				break
			}
		}
	}
	for _, c := range lifts {
		out = append(out, Action{Op: OpLift, Cell: names[c]})
		pause()
	}
	for _, c := range places {
		if st.Rand != nil && st.Quirks && st.Rand.Intn(3) == 0 && !scratch.IsSocket(names[c]) {
			// Set the piece down for a moment on an empty square on the way.
			var empties []rules.Cell
			for _, o := range p.LegalMoves(nil) {
				oi := p.Info(o)
				if !oi.Board && oi.To != rules.NoCell && !scratch.IsSocket(names[oi.To]) &&
					!after.Has(oi.To) && !before.Has(oi.To) && oi.To != c && onStandingBoard(scratch, before, after, oi.To) {
					empties = append(empties, oi.To)
				}
			}
			if len(empties) > 0 {
				e := empties[st.Rand.Intn(len(empties))]
				out = append(out, Action{Op: OpPlace, Cell: names[e]},
					Action{Op: OpWait, Wait: st.Brief},
					Action{Op: OpLift, Cell: names[e]})
				pause()
			}
		}
		out = append(out, Action{Op: OpPlace, Cell: names[c]})
		if st.Rand != nil && st.Quirks {
			out = append(out, Action{Op: OpBounce, Cell: names[c]})
		}
		pause()
	}
	return out
}

// boardPlacement is the placement of the board lifted off from on to:
// straight, or turned half round when only that gives the occupancy after
// the move on the squares of to.
func boardPlacement(scratch *Set, before, after rules.CellSet, from, to string) Action {
	straight := Action{Op: OpPlace, Cell: to}
	turned := Action{Op: OpPlace, Cell: to, Turned: true}
	for _, a := range []Action{straight, turned} {
		scratch.SetUp(before)
		if scratch.LiftBoard(from) != nil || scratch.Do(a) != nil {
			continue
		}
		if onBoard(scratch, to, scratch.Closed()) == onBoard(scratch, to, after) {
			return a
		}
	}
	return straight
}

// onBoard is cells restricted to the squares of the board on socket.
func onBoard(s *Set, socket string, cells rules.CellSet) rules.CellSet {
	var out rules.CellSet
	c, _ := s.Cell(socket)
	for _, sq := range s.carried[c] {
		out.Set(sq, cells.Has(sq))
	}
	return out
}

// onStandingBoard reports whether c is a square whose board stands both
// before and after the move (or no board's square at all).
func onStandingBoard(s *Set, before, after rules.CellSet, c rules.Cell) bool {
	sock := s.socketOf[c]
	return sock == rules.NoCell || before.Has(sock) && after.Has(sock)
}

// socketsFirst puts the sockets of cells first (a spare board goes on its
// pin before a piece goes on the board), keeping the order otherwise.
func socketsFirst(s *Set, cells []rules.Cell) []rules.Cell {
	sort.SliceStable(cells, func(i, j int) bool {
		return s.carried[cells[i]] != nil && s.carried[cells[j]] == nil
	})
	return cells
}
