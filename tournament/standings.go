package tournament

import "sort"

// Tie-break names, as FIDE's tie-break regulations (C.07) abbreviate them.
const (
	TBDirect       = "DE"    // direct encounter among the tied players
	TBSonneborn    = "SB"    // Sonneborn-Berger
	TBBuchholz     = "BH"    // Buchholz
	TBBuchholzCut1 = "BH-C1" // Buchholz without the least significant value
	TBWins         = "WIN"   // games won over the board
)

// Standing is one line of the standings.
type Standing struct {
	Rank   int     `json:"rank"`
	Player Player  `json:"player"`
	Points float64 `json:"points"`
	// Tiebreaks holds the values of TiebreakNames, in that order.
	Tiebreaks []float64 `json:"tiebreaks"`
}

// TiebreakNames returns the event's tie-breaks in the order they decide:
// Opts.Tiebreaks when set, else for a round robin DE, SB, WIN; for a Swiss
// BH-C1, BH, DE (FIDE C.07's recommendations for each kind).
func (t *Tournament) TiebreakNames() []string {
	if len(t.Opts.Tiebreaks) > 0 {
		return t.Opts.Tiebreaks
	}
	if t.Opts.System == RoundRobin {
		return []string{TBDirect, TBSonneborn, TBWins}
	}
	return []string{TBBuchholzCut1, TBBuchholz, TBDirect}
}

// Standings ranks the players by points, then by the tie-breaks. Players
// equal in all share a rank (listed by pairing number). Unplayed rounds
// follow C.07 article 16 as we read it: for the opponents' Buchholz a
// player's unplayed rounds (byes, forfeits, rounds not paired) count as
// draws; a player's own unplayed round counts as a game against a dummy
// opponent with the player's own score; a cut drops unplayed rounds first.
func (t *Tournament) Standings() []Standing {
	h := t.history()
	half := t.scores()
	rounds := 0
	for _, r := range t.Rounds {
		if r.Over() {
			rounds = r.No
		}
	}
	// Adjusted score (half points): unplayed rounds, and rounds a player
	// was not paired in, as draws.
	adj := make([]int, len(half))
	for p := 1; p < len(half); p++ {
		n := 0
		for _, e := range h[p] {
			if e.round > rounds {
				continue
			}
			n++
			if e.played {
				adj[p] += e.half
			} else {
				adj[p]++
			}
		}
		adj[p] += rounds - n
	}
	names := t.TiebreakNames()
	out := make([]Standing, 0, len(t.Players))
	for _, pl := range t.Players {
		p := pl.No
		var bh []tbValue
		sb, wins := 0, 0
		n := 0
		for _, e := range h[p] {
			if e.round > rounds {
				continue
			}
			n++
			if e.played {
				bh = append(bh, tbValue{adj[e.opp], true})
				sb += half[e.opp] * e.half // quarter points
				if e.half == 2 {
					wins++
				}
			} else {
				bh = append(bh, tbValue{half[p], false})
				sb += half[p] * e.half
			}
		}
		for ; n < rounds; n++ {
			bh = append(bh, tbValue{half[p], false})
		}
		s := Standing{Player: pl, Points: float64(half[p]) / 2}
		for _, name := range names {
			switch name {
			case TBSonneborn:
				s.Tiebreaks = append(s.Tiebreaks, float64(sb)/4)
			case TBBuchholz:
				s.Tiebreaks = append(s.Tiebreaks, float64(sum(bh))/2)
			case TBBuchholzCut1:
				s.Tiebreaks = append(s.Tiebreaks, float64(sum(cut1(bh)))/2)
			case TBWins:
				s.Tiebreaks = append(s.Tiebreaks, float64(wins))
			case TBDirect:
				s.Tiebreaks = append(s.Tiebreaks, 0) // below, per tied group
			}
		}
		out = append(out, s)
	}
	if i := indexOf(names, TBDirect); i >= 0 {
		t.directEncounter(out, h, i)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := compare(out[i], out[j]); c != 0 {
			return c > 0
		}
		return out[i].Player.No < out[j].Player.No
	})
	for i := range out {
		if i > 0 && compare(out[i], out[i-1]) == 0 {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out
}

type tbValue struct {
	half   int
	played bool
}

func sum(vs []tbValue) int {
	s := 0
	for _, v := range vs {
		s += v.half
	}
	return s
}

// cut1 drops the least significant value, an unplayed round's first.
func cut1(vs []tbValue) []tbValue {
	if len(vs) == 0 {
		return vs
	}
	low := -1
	for i, v := range vs {
		if low < 0 {
			low = i
			continue
		}
		l := vs[low]
		if (!v.played && l.played) || (v.played == l.played && v.half < l.half) {
			low = i
		}
	}
	out := append([]tbValue(nil), vs[:low]...)
	return append(out, vs[low+1:]...)
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// compare orders two standings by points, then the tie-breaks.
func compare(a, b Standing) int {
	if a.Points != b.Points {
		if a.Points > b.Points {
			return 1
		}
		return -1
	}
	for i := range a.Tiebreaks {
		if a.Tiebreaks[i] != b.Tiebreaks[i] {
			if a.Tiebreaks[i] > b.Tiebreaks[i] {
				return 1
			}
			return -1
		}
	}
	return 0
}

// directEncounter fills tie-break column col: among players tied on points
// and on the tie-breaks before col, the points each scored in their games
// against the others of the group, when every two of them have played each
// other; otherwise it separates nobody (C.07: the encounters must be
// complete).
func (t *Tournament) directEncounter(out []Standing, h [][]entry, col int) {
	groups := map[string][]int{}
	for i, s := range out {
		k := groupKey(s, col)
		groups[k] = append(groups[k], i)
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		in := map[int]bool{}
		for _, i := range g {
			in[out[i].Player.No] = true
		}
		pts := map[int]int{}
		met := map[[2]int]bool{}
		for _, i := range g {
			p := out[i].Player.No
			for _, e := range h[p] {
				if e.played && in[e.opp] {
					pts[p] += e.half
					met[key(p, e.opp)] = true
				}
			}
		}
		if len(met) != len(g)*(len(g)-1)/2 {
			continue
		}
		for _, i := range g {
			out[i].Tiebreaks[col] = float64(pts[out[i].Player.No]) / 2
		}
	}
}

func groupKey(s Standing, col int) string {
	b := make([]byte, 0, 32)
	b = appendFloat(b, s.Points)
	for _, v := range s.Tiebreaks[:col] {
		b = append(b, '/')
		b = appendFloat(b, v)
	}
	return string(b)
}

func appendFloat(b []byte, f float64) []byte {
	n := int(f * 4)
	return append(b, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}
