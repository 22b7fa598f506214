package tournament

import (
	"fmt"
	"sort"
	"strings"
)

// The Swiss pairing follows the basic rules of FIDE's Dutch system (C.04.3)
// and the general Swiss rules (C.04.1), simplified where said:
//
//   - Players are ranked by score, then by their initial ranking (rating,
//     then title, then name: C.04.3 A.2).
//   - With an odd number, the bye goes to the lowest-ranked player who has
//     neither had a bye nor won by forfeit (C.04.1 d), and who leaves the
//     others pairable.
//   - Absolute criteria: no two players meet twice (a forfeit is no game:
//     they may meet again), and two players with the same absolute colour
//     preference (a colour difference of 2, or the same colour in the last
//     two games) never meet, so nobody gets a colour three times in a row or
//     three more of one colour than of the other (C.04.1 b, f; C.04.3 C.1-C.3).
//   - Each score group, with the players floated down into it, is halved: the
//     top half (S1) meets the bottom half (S2) in order, 1 v k+1, 2 v k+2...;
//     when the criteria forbid that, the next player of S2 is tried, then
//     players of S1, then of the groups below (a down-float). An odd group
//     floats its lowest player. The search backtracks over every earlier
//     choice, so it finds a pairing whenever one exists. Simplified: the
//     Dutch system's quality criteria past these (C.6-C.19: minimising
//     colour preferences not met and repeated floats across groups) are not
//     weighed; its transpositions and exchanges are tried in the order above.
//   - Colours (C.04.3 E): both preferences when they differ; else the
//     stronger one; else alternate from the last round where the two had
//     different colours; else the higher-ranked player's preference. In
//     round 1 the top player of board 1 has White and colours alternate down
//     the boards.

// initialRanks returns every player's initial rank (index: player number).
func (t *Tournament) initialRanks() []int {
	order := make([]Player, len(t.Players))
	copy(order, t.Players)
	titleRank := map[string]int{"GM": 1, "IM": 2, "WGM": 3, "FM": 4, "WIM": 5, "CM": 6, "WFM": 7, "WCM": 8, "": 9}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		if titleRank[a.Title] != titleRank[b.Title] {
			return titleRank[a.Title] < titleRank[b.Title]
		}
		if !strings.EqualFold(a.Name, b.Name) {
			return strings.ToLower(a.Name) < strings.ToLower(b.Name)
		}
		return a.No < b.No
	})
	rank := make([]int, len(t.Players)+1)
	for i, p := range order {
		rank[p.No] = i + 1
	}
	return rank
}

type colourPref struct {
	want     Colour
	strength int // 3 absolute, 2 strong, 1 mild, 0 none
}

func opposite(c Colour) Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColour
}

func colours(es []entry) []Colour {
	var cs []Colour
	for _, e := range es {
		if e.colour != NoColour && e.played {
			cs = append(cs, e.colour)
		}
	}
	return cs
}

func prefOf(es []entry) colourPref {
	cs := colours(es)
	if len(cs) == 0 {
		return colourPref{}
	}
	cd := 0
	for _, c := range cs {
		if c == White {
			cd++
		} else {
			cd--
		}
	}
	last := cs[len(cs)-1]
	switch {
	case cd > 1:
		return colourPref{Black, 3}
	case cd < -1:
		return colourPref{White, 3}
	case len(cs) >= 2 && cs[len(cs)-2] == last:
		return colourPref{opposite(last), 3}
	case cd == 1:
		return colourPref{Black, 2}
	case cd == -1:
		return colourPref{White, 2}
	}
	return colourPref{opposite(last), 1}
}

type swissPairer struct {
	t      *Tournament
	hist   [][]entry
	score  []int
	rank   []int
	met    map[[2]int]bool
	pref   []colourPref
	budget int
}

// swissRound pairs round no by the rules above.
func (t *Tournament) swissRound(no int) ([]Game, error) {
	sp := &swissPairer{t: t, hist: t.history(), score: t.scores(), rank: t.initialRanks(),
		met: map[[2]int]bool{}, budget: 2_000_000}
	sp.pref = make([]colourPref, len(t.Players)+1)
	for p, es := range sp.hist {
		if p == 0 {
			continue
		}
		sp.pref[p] = prefOf(es)
		for _, e := range es {
			if e.played && e.opp != 0 {
				sp.met[key(p, e.opp)] = true
			}
		}
	}
	var ps []int
	for _, p := range t.Players {
		if !p.Withdrawn && p.From <= no {
			ps = append(ps, p.No)
		}
	}
	if len(ps) < 2 {
		return nil, fmt.Errorf("tournament: round %d: %d players to pair", no, len(ps))
	}
	sort.SliceStable(ps, func(i, j int) bool { return sp.before(ps[i], ps[j]) })

	var games []Game
	pool := ps
	if len(ps)%2 == 1 {
		bye := 0
		for i := len(ps) - 1; i >= 0 && bye == 0; i-- {
			p := ps[i]
			if sp.hadByeOrForfeitWin(p) {
				continue
			}
			rest := append(append([]int(nil), ps[:i]...), ps[i+1:]...)
			if pairs, ok := sp.solve(rest); ok {
				bye, pool = p, nil
				games = sp.allocate(pairs, no)
			}
		}
		if bye == 0 {
			return nil, fmt.Errorf("tournament: round %d: no player can take the bye and leave the others pairable without a rematch", no)
		}
		games = append(games, Game{White: bye, Result: Bye})
	}
	if pool != nil {
		pairs, ok := sp.solve(pool)
		if !ok {
			return nil, fmt.Errorf("tournament: round %d: no pairing without a rematch or a third colour in a row exists", no)
		}
		games = sp.allocate(pairs, no)
	}
	numberBoards(games, func(p int) int { return sp.score[p] }, func(p int) int { return sp.rank[p] })
	return games, nil
}

func key(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// before orders players for pairing: score, then initial rank.
func (sp *swissPairer) before(a, b int) bool {
	if sp.score[a] != sp.score[b] {
		return sp.score[a] > sp.score[b]
	}
	return sp.rank[a] < sp.rank[b]
}

func (sp *swissPairer) hadByeOrForfeitWin(p int) bool {
	for _, e := range sp.hist[p] {
		if !e.played && e.half == 2 {
			return true
		}
	}
	return false
}

func (sp *swissPairer) compatible(a, b int) bool {
	if sp.met[key(a, b)] {
		return false
	}
	pa, pb := sp.pref[a], sp.pref[b]
	return !(pa.strength == 3 && pb.strength == 3 && pa.want == pb.want)
}

// solve pairs the players of list (ordered by before), S1 against S2 in
// each score group, backtracking until every player is paired.
func (sp *swissPairer) solve(list []int) ([][2]int, bool) {
	if len(list) == 0 {
		return nil, true
	}
	if sp.budget--; sp.budget < 0 {
		return nil, false
	}
	p := list[0]
	rest := list[1:]
	// p's bracket: the players of its score (p may have floated down into a
	// group, and then meets its top player first).
	group := 1
	for group < len(list) && sp.score[list[group]] == sp.score[p] {
		group++
	}
	k := group / 2
	var order []int
	if group == 1 {
		order = make([]int, 0, len(rest))
		for i := range rest {
			order = append(order, i)
		}
	} else {
		for i := k; i < group; i++ {
			order = append(order, i-1)
		}
		for i := k - 1; i >= 1; i-- {
			order = append(order, i-1)
		}
		for i := group - 1; i < len(rest); i++ {
			order = append(order, i)
		}
	}
	for _, i := range order {
		q := rest[i]
		if !sp.compatible(p, q) {
			continue
		}
		left := make([]int, 0, len(rest)-1)
		left = append(left, rest[:i]...)
		left = append(left, rest[i+1:]...)
		if pairs, ok := sp.solve(left); ok {
			return append([][2]int{{p, q}}, pairs...), true
		}
		if sp.budget < 0 {
			return nil, false
		}
	}
	return nil, false
}

// allocate gives each pair its colours (C.04.3 E); a is the higher-ranked.
func (sp *swissPairer) allocate(pairs [][2]int, no int) []Game {
	games := make([]Game, 0, len(pairs))
	first := true
	for _, pr := range pairs {
		a, b := pr[0], pr[1]
		if sp.before(b, a) {
			a, b = b, a
		}
		pa, pb := sp.pref[a], sp.pref[b]
		var ca Colour
		switch {
		case pa.want == NoColour && pb.want == NoColour:
			// Nobody has played yet: White for the top of board 1, then
			// alternating (C.04.3 E.5 with the initial colour White).
			ca = White
			if !first {
				ca = NoColour // decided after the boards are numbered
			}
		case pa.want != NoColour && pb.want != NoColour && pa.want != pb.want:
			ca = pa.want
		case pb.want == NoColour:
			ca = pa.want
		case pa.want == NoColour:
			ca = opposite(pb.want)
		case pa.strength != pb.strength:
			if pa.strength > pb.strength {
				ca = pa.want
			} else {
				ca = opposite(pb.want)
			}
		default:
			ca = sp.alternate(a, b, pa.want)
		}
		g := Game{White: a, Black: b}
		if ca == Black {
			g.White, g.Black = b, a
		}
		if ca == NoColour {
			g.Reason = "initial" // marker, resolved below
		}
		games = append(games, g)
		first = false
	}
	if no == 1 || allInitial(games) {
		numberBoards(games, func(p int) int { return sp.score[p] }, func(p int) int { return sp.rank[p] })
		for i := range games {
			g := &games[i]
			g.Reason = ""
			top, other := g.White, g.Black
			if sp.rank[other] < sp.rank[top] {
				top, other = other, top
			}
			if i%2 == 0 {
				g.White, g.Black = top, other
			} else {
				g.White, g.Black = other, top
			}
		}
	}
	for i := range games {
		games[i].Reason = ""
	}
	return games
}

func allInitial(games []Game) bool {
	for _, g := range games {
		if g.Reason != "initial" && !(g.White == 0 && g.Black == 0) {
			return false
		}
	}
	return len(games) > 0
}

// alternate gives a (the higher-ranked) the colour opposite to the one it
// had in the latest round where a and b had different colours, or its own
// preference when they never did (C.04.3 E.3, E.4).
func (sp *swissPairer) alternate(a, b int, want Colour) Colour {
	ca, cb := colours(sp.hist[a]), colours(sp.hist[b])
	for i, j := len(ca)-1, len(cb)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if ca[i] != cb[j] {
			return opposite(ca[i])
		}
	}
	return want
}
