package tournament

import (
	"sort"
	"strings"
)

// The Swiss pairing is FIDE's Dutch system: see dutch.go. This file holds
// what every Swiss system shares: the initial ranking (C.04.2 2.2), colour
// histories and preferences (C.04.3 1.6-1.7, C.04.2 3.4).

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

func key(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}
