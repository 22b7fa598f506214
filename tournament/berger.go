package tournament

// bergerSize is the size of the Berger table for n players: n, or n+1 with
// an odd number (the last number is then the bye).
func bergerSize(n int) int {
	if n%2 == 1 {
		return n + 1
	}
	return n
}

// BergerRound returns round r (from 1) of the Berger table for n players
// (n even), as [white, black] pairs from board 1, the way FIDE's Handbook
// (C.05 Annex 1) prints them: player n meets, on board 1, the player at the
// head of a list of 1..n-1 that turns by n/2 each round; the others pair from
// the list's two ends; player n has Black in odd rounds and White in even
// ones.
func BergerRound(n, r int) [][2]int {
	if n < 2 || n%2 == 1 || r < 1 || r > n-1 {
		return nil
	}
	m := n - 1
	start := (r - 1) * (n / 2) % m // the list's head, from 0
	at := func(i int) int { return (start+i)%m + 1 }
	pairs := make([][2]int, 0, n/2)
	if r%2 == 1 {
		pairs = append(pairs, [2]int{at(0), n})
	} else {
		pairs = append(pairs, [2]int{n, at(0)})
	}
	for k := 1; k < n/2; k++ {
		pairs = append(pairs, [2]int{at(k), at(m - k)})
	}
	return pairs
}

// bergerRound pairs round no of a round robin: the table's pairs, a free
// round (worth nothing: C.05 Annex 1 pairs the odd player out against no
// one) for whoever meets the extra number, and a forfeit for whoever meets
// a withdrawn player.
func (t *Tournament) bergerRound(no int) []Game {
	n := bergerSize(len(t.Players))
	var games, byes []Game
	for _, p := range BergerRound(n, no) {
		w, b := p[0], p[1]
		if w > len(t.Players) {
			byes = append(byes, Game{White: b, Result: FreeRound, Reason: "free round"})
			continue
		}
		if b > len(t.Players) {
			byes = append(byes, Game{White: w, Result: FreeRound, Reason: "free round"})
			continue
		}
		g := Game{White: w, Black: b}
		wo, bo := t.Players[w-1].Withdrawn, t.Players[b-1].Withdrawn
		switch {
		case wo && bo:
			g.Result, g.Reason = DoubleForfeit, "both withdrawn"
		case wo:
			g.Result, g.Reason = BlackForfeit, "white withdrawn"
		case bo:
			g.Result, g.Reason = WhiteForfeit, "black withdrawn"
		}
		games = append(games, g)
	}
	games = append(games, byes...)
	for i := range games {
		games[i].Board = i + 1
	}
	return games
}
