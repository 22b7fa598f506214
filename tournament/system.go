package tournament

import (
	"errors"
	"fmt"
	"slices"
	"sort"
)

// PairingSystem pairs one round of a Swiss. Dutch is FIDE's Dutch system
// (C.04.3); Burstein, Dubov and Lim are further implementations of this
// interface, chosen by Opts.Pairing.
type PairingSystem interface {
	// Name is the system's name as Opts.Pairing and `tridboard pair` say
	// it ("dutch").
	Name() string
	// Pair returns round no's games of t (the rounds before no played
	// and over, none after): pairs with their colours and the
	// pairing-allocated bye, if any, unnumbered. Players who do not play
	// the round (withdrawn, entering later, a bye they asked for) are left
	// out. ErrNoPairing when the absolute criteria leave no pairing.
	Pair(t *Tournament, no int) ([]Game, error)
}

// ErrNoPairing says that no pairing of the round meets the absolute
// criteria (no rematch, no second pairing-allocated bye, no two players
// with the same absolute colour preference meeting): the arbiter pairs
// the round by hand.
var ErrNoPairing = errors.New("no legal pairing exists")

// pairingSystems are the Swiss systems by name.
var pairingSystems = map[string]PairingSystem{"dutch": Dutch{}}

// System returns the pairing system named name ("" is the Dutch system).
func SystemNamed(name string) (PairingSystem, error) {
	if name == "" {
		name = "dutch"
	}
	ps, ok := pairingSystems[name]
	if !ok {
		return nil, fmt.Errorf("tournament: pairing system %q: want dutch", name)
	}
	return ps, nil
}

// PairRound pairs round no (the next one) by the event's Swiss system,
// without adding it: the games as they would be published (boards in
// C.04.2's order, byes last). The requested byes of round no are among
// them.
func (t *Tournament) PairRound(no int) ([]Game, error) {
	ps, err := SystemNamed(t.Opts.Pairing)
	if err != nil {
		return nil, err
	}
	games, err := ps.Pair(t, no)
	if err != nil {
		return nil, err
	}
	for _, p := range t.Players {
		if r, ok := p.Byes[no]; ok && t.plays(p, no) {
			games = append(games, Game{White: p.No, Result: r})
		}
	}
	sc := t.scores()
	rank := t.PairingNumbers()
	numberBoards(games, func(p int) int { return sc[p] }, func(p int) int { return rank[p] })
	return games, nil
}

// plays reports whether p is in the event in round no (entered, not
// withdrawn), whether paired or on a requested bye.
func (t *Tournament) plays(p Player, no int) bool {
	if p.Withdrawn {
		for _, r := range t.Rounds {
			if r.No == no {
				return r.has(p.No)
			}
		}
		return false
	}
	return p.From <= no
}

// toPair returns the players the pairing of round no places: in the
// event, without a requested bye, in pairing order (score, then pairing
// number).
func (t *Tournament) toPair(no int) []int {
	var ps []int
	for _, p := range t.Players {
		if _, bye := p.Byes[no]; t.plays(p, no) && !bye {
			ps = append(ps, p.No)
		}
	}
	return ps
}

// PairingNumbers returns every player's pairing number (index: player
// number): the players' own numbers when Opts.ByNumber (a TRF's start
// ranks), else their initial rank (rating, title, name: C.04.2 2.2). A TRF
// written by WriteTRF numbers the players so (its start ranks).
func (t *Tournament) PairingNumbers() []int {
	if t.Opts.ByNumber {
		r := make([]int, len(t.Players)+1)
		for i := range r {
			r[i] = i
		}
		return r
	}
	return t.initialRanks()
}

// sortPlayers orders ps by score (descending), then pairing number.
func sortPlayers(ps []int, score, tpn []int) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if score[a] != score[b] {
			return score[a] > score[b]
		}
		return tpn[a] < tpn[b]
	})
}

// Before returns the event as it stood before round no was paired: the
// rounds before it, and round no's byes that were not the pairing's (a
// half-, full- or zero-point bye, a player not in the round) as requests,
// so that pairing it again (PairRound) can be compared with what was
// played: a pairing checker's view.
func (t *Tournament) Before(no int) *Tournament {
	b := &Tournament{Opts: t.Opts, Rounds: append([]Round(nil), t.Rounds[:min(no-1, len(t.Rounds))]...)}
	b.Players = make([]Player, len(t.Players))
	for i, p := range t.Players {
		p.Byes = nil
		for r, res := range t.Players[i].Byes {
			if p.Byes == nil {
				p.Byes = map[int]Result{}
			}
			p.Byes[r] = res
		}
		b.Players[i] = p
	}
	if no > len(t.Rounds) {
		return b
	}
	rd := t.Rounds[no-1]
	for i := range b.Players {
		p := &b.Players[i]
		g, in := Game{}, false
		for _, x := range rd.Games {
			if x.White == p.No || x.Black == p.No {
				g, in = x, true
			}
		}
		var req Result
		switch {
		case !in && p.From <= no:
			req = ZeroBye
		case in && g.IsBye() && g.Result != Bye:
			req = g.Result
		default:
			continue
		}
		if p.Byes == nil {
			p.Byes = map[int]Result{}
		}
		p.Byes[no] = req
		p.Withdrawn = false
	}
	return b
}

// ByPairingNumber returns games whose players are numbered by pairing
// number (as a TRF written by WriteTRF numbers them) with the players'
// own numbers; a number no player has is an error.
func (t *Tournament) ByPairingNumber(games []Game) ([]Game, error) {
	tpn := t.PairingNumbers()
	no := make(map[int]int, len(tpn))
	for p := 1; p < len(tpn); p++ {
		no[tpn[p]] = p
	}
	out := make([]Game, len(games))
	for i, g := range games {
		w, ok := no[g.White]
		b, okB := no[g.Black]
		if g.Black == 0 {
			b, okB = 0, true
		}
		if !ok || !okB {
			return nil, fmt.Errorf("tournament: board %d: no player with pairing number %d or %d", i+1, g.White, g.Black)
		}
		g.White, g.Black = w, b
		out[i] = g
	}
	return out, nil
}

// Difference is a round that the pairing rules pair otherwise than it was
// paired: the pairs ("white-black", "N-0" for the pairing-allocated bye,
// sorted) as the rules make them and as the event has them; Err says why
// the rules found no pairing at all.
type Difference struct {
	Round      int
	Rules, Had []string
	Err        error
}

// Check pairs every round of t again from the rounds before it (Before,
// PairRound) and returns the rounds the rules pair otherwise: a pairing
// checker's verdict on the event (`tridboard pair -c`).
func (t *Tournament) Check() []Difference {
	var out []Difference
	for no := 1; no <= len(t.Rounds); no++ {
		b := t.Before(no)
		b.Opts.Rounds = max(b.Opts.Rounds, no)
		want, err := b.PairRound(no)
		d := Difference{Round: no, Had: PairSet(t.Rounds[no-1].Games), Err: err}
		if err == nil {
			d.Rules = PairSet(want)
			if slices.Equal(d.Rules, d.Had) {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// PairSet writes a round's pairs as "white-black" (and "N-0" for the
// pairing-allocated bye), sorted, so that two rounds compare.
func PairSet(games []Game) []string {
	var s []string
	for _, g := range games {
		switch {
		case !g.IsBye():
			s = append(s, fmt.Sprintf("%d-%d", g.White, g.Black))
		case g.Result == Bye:
			s = append(s, fmt.Sprintf("%d-0", g.White))
		}
	}
	sort.Strings(s)
	return s
}
