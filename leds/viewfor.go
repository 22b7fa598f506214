package leds

import (
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/targets"
)

// ViewFor is the view of position p while the cells in lifted are lifted:
// Lifted, their targets (targets.Lifted), the king in check, and the end of the game (the king of the
// side to move when it is mated, or on stalemate or a dead position, then a
// draw). The caller adds LastMove, the remote move, Fix and NoTargets.
func ViewFor(p rules.Position, lifted rules.CellSet) View {
	var v View
	v.SetPosition(p, lifted, nil)
	return v
}

// SetPosition sets Lifted, the targets, Check, GameOver and Draw of v from position p
// and the lifted cells, as ViewFor does, using buf as scratch for the legal
// moves; it returns buf for reuse, so that a caller keeping buf does not
// allocate.
func (v *View) SetPosition(p rules.Position, lifted rules.CellSet, buf []rules.Move) []rules.Move {
	var t targets.Set
	t, buf = targets.Lifted(p, lifted, buf)
	v.Lifted, v.Targets, v.Captures, v.Pins = lifted, t.Targets, t.Captures, t.Pins
	v.Check, v.GameOver, v.Draw = rules.CellSet{}, rules.CellSet{}, false
	check, king := p.InCheck()
	st := p.Status()
	if check && king != rules.NoCell && st == rules.Ongoing {
		v.Check.Add(king)
	}
	if st != rules.Ongoing {
		if king != rules.NoCell {
			v.GameOver.Add(king)
		}
		v.Draw = st != rules.Checkmate
	}
	return buf
}
