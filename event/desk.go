package event

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/tournament"
)

// Entrant is what the desk knows of a registered player beyond the
// tournament's own record: the festival's id on their badge and their
// category (newcomer, junior, ...), for category prizes and the lists.
type Entrant struct {
	FestivalID string `json:"festival_id,omitempty"`
	Category   string `json:"category,omitempty"`
}

// Prize is one prize of the tournament: for a place overall (Category
// empty) or for the best of a category (Place 1 the best of it, 2 the
// next...).
type Prize struct {
	Place    int    `json:"place"`
	Category string `json:"category,omitempty"`
	Prize    string `json:"prize"`
}

// Settings are the tournament's settings the desk may change until round 1
// is paired (Rounds, System, TimeControl, Tiebreaks) or at any time
// (Prizes, CheckIn).
type Settings struct {
	System      tournament.System `json:"system,omitempty"`
	Rounds      int               `json:"rounds,omitempty"`
	TimeControl string            `json:"time_control,omitempty"`
	Prizes      []Prize           `json:"prizes,omitempty"`
	// CheckIn: only players checked in for a round are paired in it.
	CheckIn *bool `json:"check_in,omitempty"`
	// Tiebreaks are the tie-breaks in the order they decide (of DE, SB,
	// BH, BH-C1, WIN), announced before round 1 is paired.
	Tiebreaks []string `json:"tiebreaks,omitempty"`
}

// desk is the desk's state: entrants, check-ins and requested byes.
type desk struct {
	entrants map[int]Entrant
	checked  map[[2]int]bool   // round, player
	byes     map[[2]int]string // round, player -> tournament.HalfBye or ZeroBye
}

var errNotDesk = errors.New("not a desk decision")

// checkLabel checks a festival id or a category: up to 24 characters, no
// control characters.
func checkLabel(what, s string) error {
	if len([]rune(s)) > 24 || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return fmt.Errorf("event: %s %q: up to 24 characters, no control characters", what, s)
	}
	return nil
}

// applyDesk applies the desk's decisions; errNotDesk for any other.
func (r *Runner) applyDesk(d Decision) error {
	switch d.Op {
	case "entrant":
		if len(d.Players) != 1 || d.Entrant == nil {
			return fmt.Errorf("event: entrant takes one player")
		}
		no := d.Players[0].No
		if _, ok := r.t.Player(no); !ok {
			return fmt.Errorf("event: no player %d: %w", no, ErrNotFound)
		}
		for n, e := range r.desk.entrants {
			if n != no && d.Entrant.FestivalID != "" && e.FestivalID == d.Entrant.FestivalID {
				return fmt.Errorf("event: festival id %s is player %d's already", e.FestivalID, n)
			}
		}
		r.desk.entrants[no] = *d.Entrant
	case "checkin", "bye":
		if len(d.Players) != 1 {
			return fmt.Errorf("event: %s takes one player", d.Op)
		}
		p, ok := r.t.Player(d.Players[0].No)
		if !ok {
			return fmt.Errorf("event: no player %d: %w", d.Players[0].No, ErrNotFound)
		}
		if d.Round <= len(r.t.Rounds) || d.Round > r.t.Opts.Rounds && r.t.Opts.Rounds > 0 {
			return fmt.Errorf("event: round %d is paired already or is not one of the event's", d.Round)
		}
		if p.Withdrawn {
			return fmt.Errorf("event: %s has withdrawn", p.Name)
		}
		k := [2]int{d.Round, p.No}
		if d.Op == "checkin" {
			r.desk.checked[k] = d.Result != "out"
			return nil
		}
		switch tournament.Result(d.Result) {
		case tournament.HalfBye, tournament.ZeroBye:
			if r.t.Opts.System == tournament.RoundRobin {
				return fmt.Errorf("event: %s: a round robin has no byes: a player who cannot play forfeits the scheduled game (record its result)", p.Name)
			}
			r.desk.byes[k] = d.Result
		case tournament.None:
			delete(r.desk.byes, k)
		default:
			return fmt.Errorf("event: bye %q: want %s, %s or none", d.Result, tournament.HalfBye, tournament.ZeroBye)
		}
	case "settings":
		s := d.Settings
		if s == nil {
			return fmt.Errorf("event: settings: none given")
		}
		if s.Tiebreaks != nil {
			if len(r.t.Rounds) > 0 {
				return fmt.Errorf("event: the tie-breaks are fixed once round 1 is paired")
			}
			if err := tournament.CheckTiebreaks(s.Tiebreaks); err != nil {
				return err
			}
			r.t.Opts.Tiebreaks = s.Tiebreaks
		}
		if s.System != "" || s.Rounds != 0 || s.TimeControl != "" {
			if len(r.t.Rounds) > 0 {
				return fmt.Errorf("event: the system, the rounds and the time control are fixed once round 1 is paired")
			}
			o := r.t.Opts
			if s.System != "" {
				o.System = s.System
			}
			if s.Rounds != 0 {
				o.Rounds = s.Rounds
			}
			if o.System != tournament.Swiss && o.System != tournament.RoundRobin {
				return fmt.Errorf("event: system %q: want swiss or round-robin", o.System)
			}
			if s.Rounds < 0 || s.Rounds > 99 {
				return fmt.Errorf("event: %d rounds: want 1 to 99", s.Rounds)
			}
			if s.TimeControl != "" && s.TimeControl != "-" {
				if _, err := clock.Parse(s.TimeControl); err != nil {
					return fmt.Errorf("event: time control: %w", err)
				}
				r.cfg.TimeControl = s.TimeControl
			}
			r.t.Opts, r.cfg.System, r.cfg.Rounds = o, o.System, o.Rounds
		}
		for _, p := range s.Prizes {
			if p.Place < 1 || p.Place > 999 || p.Prize == "" || len(p.Prize) > 80 || checkLabel("category", p.Category) != nil {
				return fmt.Errorf("event: prize %+v: a place from 1, a prize of up to 80 characters, a category of up to 24", p)
			}
		}
		if s.Prizes != nil {
			r.cfg.Prizes = s.Prizes
		}
		if s.CheckIn != nil {
			r.cfg.CheckIn = *s.CheckIn
		}
	case "seed":
		if len(r.t.Rounds) > 0 {
			return fmt.Errorf("event: seeding is fixed once round 1 is paired")
		}
		for _, p := range d.Players {
			if _, ok := r.t.Player(p.No); !ok || p.Rating < 0 || p.Rating > 3500 {
				return fmt.Errorf("event: seed: player %d rating %d", p.No, p.Rating)
			}
			r.t.Players[p.No-1].Rating = p.Rating
		}
	case "exhibition", "exhibition-start":
		return r.applyExhibition(d)
	default:
		return errNotDesk
	}
	return nil
}

// pairNext pairs the next round on a copy of the tournament in which the
// players not to pair sit out: in a Swiss event by the tournament's own
// requested byes (tournament.Player.Byes: the one asked for at the desk, a
// zero-point one for a player not checked in when check-in is required),
// so the pairing and its TRF see them as FIDE's checkers do; in a round
// robin, which has no byes, an absent player's scheduled game is
// forfeited.
func (r *Runner) pairNext() ([]tournament.Game, error) {
	t := r.t
	no := len(t.Rounds) + 1
	if no == 1 {
		if _, err := tournament.New(t.Opts, t.Players); err != nil {
			return nil, err
		}
	}
	cp := *t
	cp.Rounds = append([]tournament.Round(nil), t.Rounds...)
	cp.Players = append([]tournament.Player(nil), t.Players...)
	if no == 1 {
		nt, _ := tournament.New(t.Opts, t.Players)
		cp.Opts = nt.Opts
	}
	absent := map[int]bool{}
	for i, p := range cp.Players {
		if p.Withdrawn || p.From > no {
			continue
		}
		bye := r.desk.byes[[2]int{no, p.No}]
		if bye == "" && r.cfg.CheckIn && !r.desk.checked[[2]int{no, p.No}] {
			bye = string(tournament.ZeroBye)
		}
		switch {
		case bye == "":
		case cp.Opts.System == tournament.RoundRobin:
			cp.Players[i].Withdrawn = true
			absent[p.No] = true
		default:
			byes := maps.Clone(p.Byes)
			if byes == nil {
				byes = map[int]tournament.Result{}
			}
			byes[no] = tournament.Result(bye)
			cp.Players[i].Byes = byes
		}
	}
	rd, err := cp.NextRound()
	if err != nil {
		return nil, err
	}
	games := append([]tournament.Game(nil), rd.Games...)
	for i, g := range games {
		switch {
		case absent[g.White] && absent[g.Black]:
			games[i].Reason = "both absent"
		case absent[g.White]:
			games[i].Reason = "white absent"
		case absent[g.Black]:
			games[i].Reason = "black absent"
		}
	}
	return games, nil
}

// Register enters a player at the desk with their festival id and
// category: before round 1 one of the field, after it a late entry paired
// from the next round.
func (r *Runner) Register(p tournament.Player, e Entrant) (tournament.Player, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.FestivalID, e.Category = strings.TrimSpace(e.FestivalID), strings.TrimSpace(e.Category)
	if err := checkLabel("festival id", e.FestivalID); err != nil {
		return tournament.Player{}, err
	}
	if err := checkLabel("category", e.Category); err != nil {
		return tournament.Player{}, err
	}
	for n, x := range r.desk.entrants {
		if e.FestivalID != "" && x.FestivalID == e.FestivalID {
			return tournament.Player{}, fmt.Errorf("event: festival id %s is registered already (player %d)", e.FestivalID, n)
		}
	}
	if err := r.decide(Decision{Op: "add", Players: []tournament.Player{p}, By: "desk"}); err != nil {
		return tournament.Player{}, err
	}
	np := r.t.Players[len(r.t.Players)-1]
	if e != (Entrant{}) {
		if err := r.decide(Decision{Op: "entrant", Players: []tournament.Player{{No: np.No}}, Entrant: &e, By: "desk"}); err != nil {
			return np, err
		}
	}
	return np, nil
}

// CheckIn checks player no in (in true) or out for round n.
func (r *Runner) CheckIn(n, no int, in bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := "in"
	if !in {
		res = "out"
	}
	return r.decide(Decision{Op: "checkin", Round: n, Players: []tournament.Player{{No: no}}, Result: res, By: "desk"})
}

// RequestBye records player no's request for a bye in round n (not yet
// paired): tournament.HalfBye, ZeroBye, or None to take it back.
func (r *Runner) RequestBye(n, no int, bye tournament.Result, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.decide(Decision{Op: "bye", Round: n, Players: []tournament.Player{{No: no}}, Result: string(bye), Reason: reason, By: "desk"})
}

// Configure changes the tournament's settings (see Settings).
func (r *Runner) Configure(s Settings, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.decide(Decision{Op: "settings", Settings: &s, Reason: reason, By: "desk"})
}

// DeskPlayer is one line of the desk's list.
type DeskPlayer struct {
	tournament.Player
	Entrant
	// Bye is the bye asked for the next round; CheckedIn whether the
	// player is checked in for it.
	Bye       string `json:"bye,omitempty"`
	CheckedIn bool   `json:"checked_in"`
}

// DeskView is what the desk shows: every player with the next round's
// check-in and bye, the settings, the exhibition's sets and leaderboard.
type DeskView struct {
	Next      int          `json:"next_round"`
	Tiebreaks []string     `json:"tiebreaks"`
	Rounds    int          `json:"rounds"`
	CheckIn   bool         `json:"check_in"`
	Prizes    []Prize      `json:"prizes"`
	Players   []DeskPlayer `json:"players"`
	Free      []string     `json:"free_sets"`
	Playing   []ExGame     `json:"exhibition_playing"`
	Leaders   []Leader     `json:"leaderboard"`
	ExGames   int          `json:"exhibition_games"`
	Tables    []string     `json:"tables"`
	Boards    []string     `json:"sets"`
	Waiting   []int        `json:"waiting"`
	Messages  []string     `json:"messages,omitempty"`
	// Keys are the sets' keys: announced, trusted, to enrol.
	Keys []SetKey `json:"keys"`
}

// Desk returns the desk's view.
func (r *Runner) Desk() DeskView {
	r.mu.Lock()
	defer r.mu.Unlock()
	next := len(r.t.Rounds) + 1
	if c := r.t.Current(); c != nil && !c.Started {
		next = c.No
	}
	v := DeskView{Next: next, Tiebreaks: r.t.TiebreakNames(), Rounds: r.t.Opts.Rounds, CheckIn: r.cfg.CheckIn, Prizes: append([]Prize{}, r.cfg.Prizes...),
		Players: []DeskPlayer{}, Tables: append([]string{}, r.cfg.Tables...), Boards: append([]string{}, r.cfg.Boards...)}
	for _, p := range r.t.Players {
		v.Players = append(v.Players, DeskPlayer{Player: p, Entrant: r.desk.entrants[p.No],
			Bye: r.desk.byes[[2]int{next, p.No}], CheckedIn: r.desk.checked[[2]int{next, p.No}]})
	}
	v.Free, v.Playing = r.freeSets()
	v.Leaders = r.leaderboard()
	v.ExGames = len(r.exhib.games)
	v.Waiting = r.waiting()
	v.Keys = r.keys()
	for _, d := range r.damage {
		v.Messages = append(v.Messages, "journal: "+d.String())
	}
	return v
}

// PrizeWinner is one prize and who takes it.
type PrizeWinner struct {
	Prize
	Player tournament.Player `json:"player"`
	Points float64           `json:"points"`
}

// Prizes gives the prizes by the standings: place prizes first, then each
// category's, one prize a player (the first one they are due, in the order
// the prizes are listed); a prize nobody is due stays unawarded.
func (r *Runner) Prizes() []PrizeWinner {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.prizes()
}

func (r *Runner) prizes() []PrizeWinner {
	st := r.t.Standings()
	won := map[int]bool{}
	var out []PrizeWinner
	ps := slices.Clone(r.cfg.Prizes)
	slices.SortStableFunc(ps, func(a, b Prize) int {
		if (a.Category == "") != (b.Category == "") {
			if a.Category == "" {
				return -1
			}
			return 1
		}
		return 0
	})
	for _, p := range ps {
		k, want := 0, p.Place
		for _, s := range st {
			if p.Category != "" && !strings.EqualFold(r.desk.entrants[s.Player.No].Category, p.Category) {
				continue
			}
			k++
			if k == want {
				if won[s.Player.No] {
					// Already has a prize: the next of the list takes it.
					want++
					continue
				}
				won[s.Player.No] = true
				out = append(out, PrizeWinner{Prize: p, Player: s.Player, Points: s.Points})
				break
			}
		}
	}
	return out
}
