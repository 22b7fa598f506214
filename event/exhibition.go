package event

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tridboard/tridboard/event/glicko"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/tournament"
)

// ExGame is one exhibition game: walk-up play at any free set on the
// festival's exhibition days, recorded with both names.
type ExGame struct {
	Set    string `json:"set"`
	GameID string `json:"game_id"`
	White  string `json:"white"`
	Black  string `json:"black"`
	Result string `json:"result,omitempty"`
	Reason string `json:"reason,omitempty"`
	Moves  int    `json:"moves"`
	// Day is the festival day (YYYY-MM-DD, UTC) it ended on: the rating
	// period it counts in.
	Day string `json:"day,omitempty"`
}

// exhib is the exhibition's state: games over, games in progress by set,
// and the records of both.
type exhib struct {
	games   []ExGame
	playing map[string]ExGame      // set -> game in progress
	recs    map[string]*gameRecord // game id -> moves and clocks
}

// exhibitionEvent is the Event tag of the exhibition's games.
func (r *Runner) exhibitionEvent() string { return r.cfg.Name + " exhibition" }

// known reports whether name is a registered player's.
func (r *Runner) known(name string) bool {
	for _, p := range r.t.Players {
		if strings.EqualFold(p.Name, name) {
			return true
		}
	}
	return false
}

// exhibitionGame reports whether a set's state is an exhibition game: one
// started as such (its Event tag), or one between two players the desk
// knows (or one of them and the engine).
func (r *Runner) exhibitionGame(st protocol.State) bool {
	w, b := st.Tags["White"], st.Tags["Black"]
	if w == "" || b == "" || st.Game == "" {
		return false
	}
	if st.Tags["Event"] == r.exhibitionEvent() {
		return true
	}
	return (r.known(w) || isEngine(w)) && (r.known(b) || isEngine(b)) && !(isEngine(w) && isEngine(b))
}

func isEngine(name string) bool { return strings.HasPrefix(strings.ToLower(name), "engine") }

// observeExhibition journals an exhibition game's moves as they come and
// the game once it is over; it reports whether the set was playing one and
// is free now. The caller holds r.mu.
func (r *Runner) observeExhibition(set string, st protocol.State) (freed bool) {
	_, was := r.exhib.playing[set]
	if !r.exhibitionGame(st) {
		delete(r.exhib.playing, set)
		return was
	}
	for _, g := range r.exhib.games {
		if g.GameID == st.Game && g.Set == set {
			delete(r.exhib.playing, set)
			return was // recorded already
		}
	}
	// A game of the event's variant is believed as a round's game is
	// (verify.go); one of another variant (a walk-up game the players set
	// up on the set) is taken as the set signed it.
	var rg *rules.Game
	if st.Variant == "" || st.Variant == r.cfg.Variant {
		var err error
		if rg, err = r.replaySet(set, r.cfg.Variant, r.cfg.Options, st); err != nil {
			if s := r.sets[set]; s != nil {
				r.disbelieve(s, 0, 0, st, err)
			}
			return false
		}
	}
	if d, ok := recordDiff(r.exhib.recs[st.Game], st); ok {
		d.Op, d.GameID, d.Set, d.By = "moves", st.Game, set, "set "+set
		if err := r.decide(d); err != nil {
			r.o.Log.Error("event: journal", "err", err)
			return false
		}
	}
	g := ExGame{Set: set, GameID: st.Game, White: st.Tags["White"], Black: st.Tags["Black"], Moves: len(st.Moves)}
	if st.Result == "" || st.Result == "*" {
		r.exhib.playing[set] = g
		return false
	}
	if rg != nil {
		if err := credible(rg, st); err != nil {
			if s := r.sets[set]; s != nil {
				r.disbelieve(s, 0, 0, st, err)
			}
			r.exhib.playing[set] = g // still playing, as far as the event knows
			return false
		}
	}
	delete(r.exhib.playing, set)
	if _, err := tournament.ParseResult(st.Result); err != nil {
		return was
	}
	// A remote game is seen from both of its sets: the same players and
	// moves are one game.
	rec := r.exhib.recs[st.Game]
	for _, o := range r.exhib.games {
		if o.White == g.White && o.Black == g.Black && o.Result == st.Result {
			if orec := r.exhib.recs[o.GameID]; orec != nil && rec != nil && slices.Equal(orec.Moves, rec.Moves) {
				return was
			}
		}
	}
	if err := r.decide(Decision{Op: "exhibition", Set: set, GameID: st.Game, Result: st.Result, Reason: st.Reason,
		Players: []tournament.Player{{Name: g.White}, {Name: g.Black}}, By: "set " + set}); err != nil {
		r.o.Log.Error("event: journal", "err", err)
	}
	return was
}

// applyExhibition applies the exhibition's decisions.
func (r *Runner) applyExhibition(d Decision) error {
	if len(d.Players) != 2 || d.Players[0].Name == "" || d.Players[1].Name == "" {
		return fmt.Errorf("event: an exhibition game needs both names")
	}
	if d.Op == "exhibition-start" {
		return nil // the desk's start, journaled for the record
	}
	if _, err := tournament.ParseResult(d.Result); err != nil {
		return err
	}
	if r.exhib.playing == nil {
		return nil // a dry run
	}
	g := ExGame{Set: d.Set, GameID: d.GameID, White: d.Players[0].Name, Black: d.Players[1].Name,
		Result: d.Result, Reason: d.Reason, Day: d.Time.UTC().Format("2006-01-02")}
	if rec := r.exhib.recs[d.GameID]; rec != nil {
		g.Moves = len(rec.Moves)
	}
	r.exhib.games = append(r.exhib.games, g)
	return nil
}

// ExStart is an exhibition game to start: at Set, White and Black (a
// festival id or a registered name). Engine > 0 has the engine play
// EngineSide ("black" unless "white") at that level, named "Engine (level
// N)"; Remote names a second free set where Black plays (a remote game:
// each set gets its new_game with the other as its opponent).
type ExStart struct {
	Set        string `json:"set"`
	White      string `json:"white"`
	Black      string `json:"black"`
	Engine     int    `json:"engine,omitempty"`
	EngineSide string `json:"engine_side,omitempty"`
	Remote     string `json:"remote,omitempty"`
}

// StartExhibition starts an exhibition game at a free set; by says who
// asked (the desk, or the players at the set's page).
func (r *Runner) StartExhibition(x ExStart, by string) (ExGame, error) {
	r.mu.Lock()
	var err error
	resolve := func(s string) string {
		s = strings.TrimSpace(s)
		for no, e := range r.desk.entrants {
			if e.FestivalID != "" && strings.EqualFold(e.FestivalID, s) {
				return r.t.Players[no-1].Name
			}
		}
		for _, p := range r.t.Players {
			if strings.EqualFold(p.Name, s) {
				return p.Name
			}
		}
		if err == nil {
			err = fmt.Errorf("event: %q is neither a festival id nor a registered name: register at the desk first", s)
		}
		return ""
	}
	white, black := x.White, x.Black
	var opp *protocol.Opponent
	if x.Engine > 0 {
		side := "black"
		if x.EngineSide == "white" {
			side = "white"
		}
		opp = &protocol.Opponent{Side: side, Engine: x.Engine}
		name := fmt.Sprintf("Engine (level %d)", x.Engine)
		if side == "white" {
			white, black = name, resolve(black)
		} else {
			white, black = resolve(white), name
		}
	} else {
		white, black = resolve(white), resolve(black)
		if err == nil && strings.EqualFold(white, black) {
			err = fmt.Errorf("event: %s cannot play themselves", white)
		}
	}
	free, _ := r.freeSets()
	for _, s := range []string{x.Set, x.Remote} {
		if err == nil && s != "" && !slices.Contains(free, s) {
			err = fmt.Errorf("event: set %q is not free (playing, offline, or not one of the event's)", s)
		}
	}
	if err == nil && x.Remote != "" && (x.Remote == x.Set || x.Engine > 0) {
		err = fmt.Errorf("event: a remote game needs a second set and no engine")
	}
	if err == nil {
		err = r.decide(Decision{Op: "exhibition-start", Set: x.Set, Players: []tournament.Player{{Name: white}, {Name: black}},
			Reason: x.Remote, By: by})
	}
	cfg := r.cfg
	r.mu.Unlock()
	if err != nil {
		return ExGame{}, err
	}
	p := map[string]any{"variant": cfg.Variant, "white": white, "black": black, "event": r.exhibitionEvent()}
	if cfg.Options != "" {
		p["options"] = cfg.Options
	}
	if tc := or(cfg.ExhibitionTC, cfg.TimeControl); tc != "" {
		p["time_control"] = tc
	}
	sends := []struct {
		set string
		opp *protocol.Opponent
	}{{x.Set, opp}}
	if x.Remote != "" {
		sends = []struct {
			set string
			opp *protocol.Opponent
		}{{x.Set, &protocol.Opponent{Side: "black", Set: x.Remote}}, {x.Remote, &protocol.Opponent{Side: "white", Set: x.Set}}}
	}
	for _, s := range sends {
		if s.opp != nil {
			p["opponent"] = s.opp
		}
		if err := r.link.Send(s.set, protocol.CmdNewGame, p); err != nil {
			return ExGame{}, fmt.Errorf("event: set %s did not take the game: %w", s.set, err)
		}
	}
	return ExGame{Set: x.Set, White: white, Black: black}, nil
}

// freeSets returns the sets online that play nothing now (no game of the
// round, no exhibition game in progress), and the exhibition games in
// progress. The caller holds r.mu.
func (r *Runner) freeSets() (free []string, playing []ExGame) {
	free, playing = []string{}, []ExGame{}
	c := r.t.Current()
	for _, b := range r.cfg.Boards {
		s := r.sets[b]
		if g, ok := r.exhib.playing[b]; ok {
			playing = append(playing, g)
			continue
		}
		if !s.Online || (c != nil && c.Started && r.busy(c, b)) {
			continue
		}
		free = append(free, b)
	}
	return free, playing
}

// Leader is one line of the exhibition's leaderboard.
type Leader struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	No     int     `json:"no,omitempty"` // the registered player's number
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
	Won    int     `json:"won"`
	Drawn  int     `json:"drawn"`
	Lost   int     `json:"lost"`
	Engine bool    `json:"engine,omitempty"`
}

// Leaderboard rates the exhibition's games by Glicko-2, a festival day a
// rating period, and ranks everyone who played by rating.
func (r *Runner) Leaderboard() []Leader {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.leaderboard()
}

func (r *Runner) leaderboard() []Leader {
	o := glicko.DefaultOpts()
	ratings := map[string]glicko.Rating{}
	lines := map[string]*Leader{}
	var days []string
	byDay := map[string][]ExGame{}
	for _, g := range r.exhib.games {
		if _, ok := byDay[g.Day]; !ok {
			days = append(days, g.Day)
		}
		byDay[g.Day] = append(byDay[g.Day], g)
	}
	sort.Strings(days)
	for _, day := range days {
		games := map[string][]glicko.Game{}
		for _, g := range byDay[day] {
			res, _ := tournament.ParseResult(g.Result)
			ws := map[tournament.Result]float64{tournament.WhiteWins: 1, tournament.Draw: 0.5, tournament.WhiteForfeit: 1}
			if !res.Played() {
				continue // a forfeit tells nothing of strength
			}
			for _, n := range []string{g.White, g.Black} {
				if _, ok := ratings[n]; !ok {
					ratings[n] = o.New()
					lines[n] = &Leader{Name: n, Engine: isEngine(n)}
				}
			}
			sw := ws[res]
			games[g.White] = append(games[g.White], glicko.Game{Opponent: ratings[g.Black], Score: sw})
			games[g.Black] = append(games[g.Black], glicko.Game{Opponent: ratings[g.White], Score: 1 - sw})
			for n, s := range map[string]float64{g.White: sw, g.Black: 1 - sw} {
				l := lines[n]
				l.Games++
				switch s {
				case 1:
					l.Won++
				case 0.5:
					l.Drawn++
				default:
					l.Lost++
				}
			}
		}
		next := map[string]glicko.Rating{}
		for n, rt := range ratings {
			nr, err := o.Update(rt, games[n])
			if err != nil {
				nr = rt
			}
			next[n] = nr
		}
		ratings = next
	}
	out := []Leader{}
	for n, l := range lines {
		l.Rating, l.RD = math.Round(ratings[n].Rating*10)/10, math.Round(ratings[n].RD*10)/10
		for _, p := range r.t.Players {
			if strings.EqualFold(p.Name, n) {
				l.No = p.No
			}
		}
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rating != out[j].Rating {
			return out[i].Rating > out[j].Rating
		}
		return out[i].Name < out[j].Name
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// SeedFromExhibition gives every registered player without a rating of
// their own their exhibition rating (rounded), so that the tournament's
// initial ranking (by rating) follows the exhibition days. Before round 1.
func (r *Runner) SeedFromExhibition(reason string) ([]tournament.Player, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ps []tournament.Player
	for _, l := range r.leaderboard() {
		if l.No == 0 || l.Engine {
			continue
		}
		if p := r.t.Players[l.No-1]; p.Rating == 0 {
			ps = append(ps, tournament.Player{No: l.No, Rating: int(math.Round(l.Rating))})
		}
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("event: nobody unrated has an exhibition rating")
	}
	if err := r.decide(Decision{Op: "seed", Players: ps, Reason: reason, By: "desk"}); err != nil {
		return nil, err
	}
	return ps, nil
}

// ExhibitionPGN writes the exhibition game with id as PGN.
func (r *Runner) ExhibitionPGN(w interface{ Write([]byte) (int, error) }, id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, g := range r.exhib.games {
		if g.GameID == id {
			return r.writePGN(w, pgnGame{event: r.exhibitionEvent(), white: tournament.Player{Name: g.White},
				black: tournament.Player{Name: g.Black}, result: g.Result, reason: g.Reason, rec: r.exhib.recs[id], date: g.Day})
		}
	}
	return fmt.Errorf("event: no exhibition game %q: %w", id, ErrNotFound)
}

// Exhibition returns the exhibition's games over, oldest first.
func (r *Runner) Exhibition() []ExGame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ExGame{}, r.exhib.games...)
}
