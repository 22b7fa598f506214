package sim

import (
	"math/rand"
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

// Gestures lists the actions a person makes to play m in p on the set: the
// lifts of every cell the move touches, then the placements. Board moves
// lift the board and place it on its new pin.
func Gestures(p rules.Position, m rules.Move, st Style) []Action {
	names := p.System().Cells()
	in := p.Info(m)
	before := p.Occupancy()
	after := p.Play(m).Occupancy()
	var out []Action
	pause := func() {
		d := st.Pause
		if st.Rand != nil && st.Jitter > 0 {
			d += time.Duration(st.Rand.Int63n(int64(st.Jitter)))
		}
		out = append(out, Action{Op: OpWait, Wait: d})
	}
	if in.Board {
		out = append(out, Action{Op: OpLift, Cell: names[in.From]})
		pause()
		out = append(out, Action{Op: OpPlace, Cell: names[in.To]})
		pause()
		if in.Promoted != rules.NoCell && st.Rand != nil && st.Rand.Intn(2) == 0 {
			// Swap the promoted pawn for its new piece.
			out = append(out, Action{Op: OpLift, Cell: names[in.Promoted]})
			pause()
			out = append(out, Action{Op: OpPlace, Cell: names[in.Promoted]})
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
	for _, c := range lifts {
		out = append(out, Action{Op: OpLift, Cell: names[c]})
		pause()
	}
	for _, c := range places {
		if st.Rand != nil && st.Quirks && st.Rand.Intn(3) == 0 {
			// Set the piece down for a moment on an empty square on the way.
			free := p.Play(m).Occupancy()
			var empties []rules.Cell
			for _, o := range p.LegalMoves(nil) {
				oi := p.Info(o)
				if !oi.Board && !free.Has(oi.To) && !before.Has(oi.To) && oi.To != c {
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
