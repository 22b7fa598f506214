package tournament

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// System is a pairing system.
type System string

// The pairing systems.
const (
	RoundRobin System = "round-robin"
	Swiss      System = "swiss"
)

// Opts describe an event.
type Opts struct {
	Name   string `json:"name"`
	System System `json:"system"`
	// Rounds is the number of rounds; for a round robin 0 means one cycle
	// (players - 1 rounds, or players with an odd number).
	Rounds int `json:"rounds"`
	// Pairing names a Swiss's pairing system; "" is FIDE's Dutch system.
	Pairing string `json:"pairing,omitempty"`
	// InitialColour is the colour drawn by lot before round 1 for the
	// top player (C.04.3 5.1): White ("" or White) or Black.
	InitialColour Colour `json:"initial_colour,omitempty"`
	// ByNumber says the pairing numbers are the players' numbers (a TRF's
	// start ranks, an arbiter's list); otherwise a Swiss ranks the players
	// by rating, then title, then name (C.04.2 2.2).
	ByNumber bool `json:"by_number,omitempty"`
	// Accel are the fictitious points of an accelerated Swiss (C.04.7,
	// TRF 250 records), added to the scores the pairing uses.
	Accel []Accel `json:"accel,omitempty"`
	// Event holds the header a rating officer needs (TRF 022-132).
	Event EventInfo `json:"event,omitempty"`
	// Tiebreaks, when set, are the tie-breaks in the order they decide
	// (of DE, SB, BH, BH-C1, WIN); empty: the system's (TiebreakNames).
	Tiebreaks []string `json:"tiebreaks,omitempty"`
}

// Accel gives players First..Last (pairing numbers) Half half-points more
// for the pairing of rounds FromRound..ToRound.
type Accel struct {
	Half      int `json:"half"`
	FromRound int `json:"from_round"`
	ToRound   int `json:"to_round"`
	First     int `json:"first"`
	Last      int `json:"last"`
}

// EventInfo is the event's record for FIDE (TRF's tournament section).
type EventInfo struct {
	City        string   `json:"city,omitempty"`
	Federation  string   `json:"federation,omitempty"`
	Start       string   `json:"start,omitempty"` // YYYY/MM/DD
	End         string   `json:"end,omitempty"`
	Arbiter     string   `json:"arbiter,omitempty"`  // chief arbiter
	Deputies    []string `json:"deputies,omitempty"` // deputy chief arbiters
	TimeControl string   `json:"time_control,omitempty"`
	RoundDates  []string `json:"round_dates,omitempty"` // YY/MM/DD, one a round
}

// DefaultOpts returns a Swiss event of five rounds.
func DefaultOpts() Opts { return Opts{Name: "tridboard event", System: Swiss, Rounds: 5} }

// Tournament is an event's players, rounds and results. It is not safe for
// concurrent use; the event command serialises access.
type Tournament struct {
	Opts    Opts     `json:"opts"`
	Players []Player `json:"players"`
	Rounds  []Round  `json:"rounds"`
	// roundsUnknown: read from a TRF that did not say how many rounds
	// the event has (no 142 or XXR line).
	roundsUnknown bool
}

// RoundsKnown reports whether the number of rounds was given (a TRF may
// leave it out: then Opts.Rounds is the rounds it holds).
func (t *Tournament) RoundsKnown() bool { return !t.roundsUnknown }

// Errors a caller can test for.
var (
	ErrRoundNotOver = errors.New("the current round is not over")
	ErrNoMoreRounds = errors.New("all rounds are paired")
	ErrStarted      = errors.New("the round has started: its pairings can no longer change")
	ErrNoSuchGame   = errors.New("no such round or board")
)

// New returns an event of players under o.
func New(o Opts, players []Player) (*Tournament, error) {
	switch o.System {
	case RoundRobin, Swiss:
	default:
		return nil, fmt.Errorf("tournament: system %q: want round-robin or swiss", o.System)
	}
	if len(players) < 2 {
		return nil, fmt.Errorf("tournament: %d players; an event needs at least 2", len(players))
	}
	if err := checkNames(players); err != nil {
		return nil, fmt.Errorf("tournament: %v", err)
	}
	ps := make([]Player, len(players))
	copy(ps, players)
	for i := range ps {
		ps[i].No = i + 1
	}
	t := &Tournament{Opts: o, Players: ps}
	if o.System == RoundRobin {
		n := bergerSize(len(ps))
		if o.Rounds == 0 {
			t.Opts.Rounds = n - 1
		} else if o.Rounds > n-1 {
			return nil, fmt.Errorf("tournament: a round robin of %d players has %d rounds, not %d", len(ps), n-1, o.Rounds)
		}
	}
	if t.Opts.Rounds < 1 {
		return nil, fmt.Errorf("tournament: %d rounds; want at least 1", t.Opts.Rounds)
	}
	return t, nil
}

// Player returns the player numbered no.
func (t *Tournament) Player(no int) (Player, bool) {
	if no < 1 || no > len(t.Players) {
		return Player{}, false
	}
	return t.Players[no-1], true
}

// Current returns the last paired round, or nil before the first.
func (t *Tournament) Current() *Round {
	if len(t.Rounds) == 0 {
		return nil
	}
	return &t.Rounds[len(t.Rounds)-1]
}

// AddPlayer enters a late player, paired from the next round on (Swiss
// only: a round robin's tables are fixed).
func (t *Tournament) AddPlayer(p Player) (Player, error) {
	if t.Opts.System == RoundRobin && len(t.Rounds) > 0 {
		return Player{}, fmt.Errorf("tournament: a round robin takes no late entries once paired")
	}
	if err := checkName(p.Name); err != nil {
		return Player{}, fmt.Errorf("tournament: %v", err)
	}
	if err := checkNames(append(append([]Player(nil), t.Players...), p)); err != nil {
		return Player{}, fmt.Errorf("tournament: %v", err)
	}
	p.No = len(t.Players) + 1
	p.From = len(t.Rounds) + 1
	p.Withdrawn = false
	t.Players = append(t.Players, p)
	return p, nil
}

// Withdraw takes player no out of the rounds not yet paired. In a round
// robin the games left are forfeited to the opponents as they come.
func (t *Tournament) Withdraw(no int) error {
	if _, ok := t.Player(no); !ok {
		return fmt.Errorf("tournament: no player %d", no)
	}
	t.Players[no-1].Withdrawn = true
	return nil
}

// NextRound pairs the next round by the event's system and appends it.
func (t *Tournament) NextRound() (Round, error) {
	if len(t.Rounds) >= t.Opts.Rounds {
		return Round{}, ErrNoMoreRounds
	}
	if c := t.Current(); c != nil && !c.Over() {
		return Round{}, ErrRoundNotOver
	}
	no := len(t.Rounds) + 1
	var games []Game
	var err error
	switch t.Opts.System {
	case RoundRobin:
		games = t.bergerRound(no)
	default:
		games, err = t.PairRound(no)
		if err != nil {
			return Round{}, fmt.Errorf("tournament: round %d: %w", no, err)
		}
	}
	r := Round{No: no, Games: games}
	t.Rounds = append(t.Rounds, r)
	return r, nil
}

// SetPairings replaces the pairings of round no (not started yet), or adds
// them as the next round: an imported TRF round, or the arbiter's own. Every
// active player must stand in exactly one game (or bye); boards are
// renumbered in the order given. Pairings that break an absolute criterion
// (Violations) are refused with ErrAbsolute: OverridePairings imposes them.
func (t *Tournament) SetPairings(no int, games []Game) error {
	return t.setPairings(no, games, "")
}

// OverridePairings sets round no's pairings as SetPairings does, even when
// they break an absolute criterion: the arbiter's decision, whose reason
// (required) is kept with the round (Round.Override) for the journal and
// the records.
func (t *Tournament) OverridePairings(no int, games []Game, reason string) error {
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("tournament: overriding the pairing rules needs a reason")
	}
	return t.setPairings(no, games, reason)
}

func (t *Tournament) setPairings(no int, games []Game, override string) error {
	switch {
	case no == len(t.Rounds)+1:
		if no > t.Opts.Rounds {
			return ErrNoMoreRounds
		}
		if c := t.Current(); c != nil && !c.Over() {
			return ErrRoundNotOver
		}
	case no >= 1 && no <= len(t.Rounds):
		if t.Rounds[no-1].Started {
			return ErrStarted
		}
		if no != len(t.Rounds) {
			return fmt.Errorf("tournament: round %d is not the last round", no)
		}
	default:
		return fmt.Errorf("tournament: no round %d to pair", no)
	}
	seen := map[int]bool{}
	out := make([]Game, 0, len(games))
	for i, g := range games {
		for _, p := range []int{g.White, g.Black} {
			if p == 0 && p == g.Black {
				continue
			}
			pl, ok := t.Player(p)
			if !ok {
				return fmt.Errorf("tournament: board %d: no player %d", i+1, p)
			}
			if seen[p] {
				return fmt.Errorf("tournament: board %d: %s is paired twice", i+1, pl.Name)
			}
			if !t.active(pl, no) {
				return fmt.Errorf("tournament: board %d: %s does not play round %d", i+1, pl.Name, no)
			}
			seen[p] = true
		}
		if g.White == g.Black {
			return fmt.Errorf("tournament: board %d: a player cannot play themselves", i+1)
		}
		res := None
		if g.IsBye() {
			res = Bye
			if g.Result.IsBye() {
				res = g.Result
			}
		}
		out = append(out, Game{Board: i + 1, White: g.White, Black: g.Black, Result: res})
	}
	for _, p := range t.Players {
		if t.active(p, no) && !seen[p.No] {
			return fmt.Errorf("tournament: %s is not paired in round %d", p.Name, no)
		}
	}
	if override == "" {
		if v := t.Violations(no, out); len(v) > 0 {
			return absoluteError(v)
		}
	}
	r := Round{No: no, Games: out, Override: override}
	if no == len(t.Rounds)+1 {
		t.Rounds = append(t.Rounds, r)
	} else {
		t.Rounds[no-1] = r
	}
	return nil
}

// SwapColours gives White's pieces to Black and Black's to White on a board
// of a round not yet started; refused with ErrAbsolute when a player would
// get a colour the rules forbid (SwapColoursOverride imposes it).
func (t *Tournament) SwapColours(round, board int) error {
	return t.swapColours(round, board, "")
}

// SwapColoursOverride swaps colours as SwapColours does, even against the
// rules, for the reason given (kept with the round).
func (t *Tournament) SwapColoursOverride(round, board int, reason string) error {
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("tournament: overriding the pairing rules needs a reason")
	}
	return t.swapColours(round, board, reason)
}

func (t *Tournament) swapColours(round, board int, override string) error {
	g, r, err := t.game(round, board)
	if err != nil {
		return err
	}
	if r.Started {
		return ErrStarted
	}
	if g.IsBye() {
		return fmt.Errorf("tournament: round %d board %d is a bye", round, board)
	}
	swapped := *g
	swapped.White, swapped.Black = g.Black, g.White
	if override == "" {
		if v := t.Violations(round, []Game{swapped}); len(v) > 0 {
			return absoluteError(v)
		}
	} else {
		r.Override = strings.TrimSpace(strings.Join([]string{r.Override, override}, "; "))
		r.Override = strings.TrimPrefix(r.Override, "; ")
	}
	g.White, g.Black = g.Black, g.White
	return nil
}

// SetResult records a game's result. Reason says why (as the set reported,
// or the arbiter's decision); a result already there is replaced.
func (t *Tournament) SetResult(round, board int, res Result, reason string) error {
	g, _, err := t.game(round, board)
	if err != nil {
		return err
	}
	if g.IsBye() {
		return fmt.Errorf("tournament: round %d board %d is a bye", round, board)
	}
	if res == Bye {
		return fmt.Errorf("tournament: a bye is not a result")
	}
	g.Result, g.Reason = res, reason
	return nil
}

func (t *Tournament) game(round, board int) (*Game, *Round, error) {
	if round < 1 || round > len(t.Rounds) {
		return nil, nil, fmt.Errorf("tournament: no round %d: %w", round, ErrNoSuchGame)
	}
	r := &t.Rounds[round-1]
	if board < 1 || board > len(r.Games) {
		return nil, nil, fmt.Errorf("tournament: round %d has no board %d: %w", round, board, ErrNoSuchGame)
	}
	return &r.Games[board-1], r, nil
}

// Game returns round's game on board.
func (t *Tournament) Game(round, board int) (Game, error) {
	g, _, err := t.game(round, board)
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}

// active reports whether p is paired in round no.
func (t *Tournament) active(p Player, no int) bool {
	if p.Withdrawn {
		// Withdrawn from the rounds not yet paired: still in those paired.
		for _, r := range t.Rounds {
			if r.No == no {
				return r.has(p.No)
			}
		}
		return false
	}
	return p.From <= no
}

func (r Round) has(no int) bool {
	for _, g := range r.Games {
		if g.White == no || g.Black == no {
			return true
		}
	}
	return false
}

// numberBoards sorts a round's games the way they are published (FIDE
// C.04.2 F.1 as the Dutch rules say it: the higher player's score, the sum
// of scores, the higher player's rank) and numbers them, byes last.
func numberBoards(games []Game, score func(int) int, rank func(int) int) {
	key := func(g Game) (int, int, int) {
		if g.IsBye() {
			return -1, -1, 1 << 30
		}
		a, b := score(g.White), score(g.Black)
		hi, ra := a, rank(g.White)
		if b > a || (b == a && rank(g.Black) < ra) {
			hi, ra = b, rank(g.Black)
		}
		return hi, a + b, ra
	}
	sort.SliceStable(games, func(i, j int) bool {
		h1, s1, r1 := key(games[i])
		h2, s2, r2 := key(games[j])
		if h1 != h2 {
			return h1 > h2
		}
		if s1 != s2 {
			return s1 > s2
		}
		return r1 < r2
	})
	for i := range games {
		games[i].Board = i + 1
	}
}
