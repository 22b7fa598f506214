package tournament

import (
	"errors"
	"fmt"
	"strings"
)

// ErrAbsolute says that pairings set by hand break an absolute criterion
// of the Swiss rules (C.04.3 2.1, C.04.1): a rematch, a second
// pairing-allocated bye (or one after a win without playing), or a colour
// a non-topscorer may not have. The arbiter may still impose them, with
// OverridePairings and a reason.
var ErrAbsolute = errors.New("the pairing breaks an absolute criterion")

// Violations lists what in games, as round no's pairings, breaks an
// absolute criterion of the Swiss rules (none for a round robin, whose
// tables are fixed). Each says the board and the rule.
func (t *Tournament) Violations(no int, games []Game) []string {
	if t.Opts.System == RoundRobin {
		return nil
	}
	d := newDutchRound(t.Before(no), no)
	var v []string
	for i, g := range games {
		if g.White == g.Black {
			continue
		}
		if g.Board > 0 {
			i = g.Board - 1
		}
		pw, okW := d.ps[g.White]
		if !okW {
			continue
		}
		if g.IsBye() {
			if (g.Result == Bye || g.Result == None) && !pw.canBye {
				v = append(v, fmt.Sprintf("board %d: %s cannot have the pairing-allocated bye: had one, or a win's points without playing (C2)", i+1, t.name(g.White)))
			}
			continue
		}
		pb, okB := d.ps[g.Black]
		if !okB {
			continue
		}
		if d.met[key(g.White, g.Black)] {
			v = append(v, fmt.Sprintf("board %d: %s and %s have played each other (C1)", i+1, t.name(g.White), t.name(g.Black)))
		}
		for _, side := range []struct {
			p   *dplayer
			c   Colour
			opp *dplayer
		}{{pw, White, pb}, {pb, Black, pw}} {
			p := side.p
			if p.top || side.opp.top {
				continue // topscorers in the final round (C3)
			}
			cd := p.cd
			if side.c == White {
				cd++
			} else {
				cd--
			}
			three := len(p.cs) >= 2 && p.cs[len(p.cs)-1] == side.c && p.cs[len(p.cs)-2] == side.c
			switch {
			case cd > 2 || cd < -2:
				v = append(v, fmt.Sprintf("board %d: %s would have a colour difference of %+d (C3)", i+1, t.name(p.no), cd))
			case three:
				v = append(v, fmt.Sprintf("board %d: %s would have %s three times running (C3)", i+1, t.name(p.no), colourName(side.c)))
			}
		}
	}
	return v
}

func colourName(c Colour) string {
	if c == White {
		return "White"
	}
	return "Black"
}

func (t *Tournament) name(no int) string {
	if p, ok := t.Player(no); ok {
		return p.Name
	}
	return fmt.Sprint(no)
}

func absoluteError(v []string) error {
	return fmt.Errorf("tournament: %w: %s", ErrAbsolute, strings.Join(v, "; "))
}
