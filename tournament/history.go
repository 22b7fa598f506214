package tournament

// Colour is the colour a player had in a round.
type Colour byte

// The colours; NoColour for a bye, a forfeit or a round not played.
const (
	NoColour Colour = iota
	White
	Black
)

// entry is one round of one player's history.
type entry struct {
	round  int
	opp    int // 0: no opponent (bye, absent)
	colour Colour
	half   int // the player's score this round, in half points
	played bool
	over   bool
}

// history returns every player's rounds (index: player number), from the
// rounds paired so far. A round a player was not paired in is absent.
func (t *Tournament) history() [][]entry {
	h := make([][]entry, len(t.Players)+1)
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			w, b := g.Result.points()
			if g.IsBye() {
				h[g.White] = append(h[g.White], entry{round: r.No, half: w, over: true})
				continue
			}
			played := g.Result.Played()
			cw, cb := NoColour, NoColour
			if played || !g.Result.Over() {
				// A game not over yet counts for colours already (it is being
				// played); a forfeit does not (C.04.2 F.2 / C.04.3 A.6).
				cw, cb = White, Black
			}
			h[g.White] = append(h[g.White], entry{r.No, g.Black, cw, w, played, g.Result.Over()})
			h[g.Black] = append(h[g.Black], entry{r.No, g.White, cb, b, played, g.Result.Over()})
		}
	}
	return h
}

// scores returns every player's score in half points.
func (t *Tournament) scores() []int {
	s := make([]int, len(t.Players)+1)
	for no, es := range t.history() {
		for _, e := range es {
			s[no] += e.half
		}
	}
	return s
}

// Score returns player no's score in points.
func (t *Tournament) Score(no int) float64 {
	s := t.scores()
	if no < 1 || no >= len(s) {
		return 0
	}
	return float64(s[no]) / 2
}
