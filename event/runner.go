package event

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/tournament"
	"github.com/tridboard/tridboard/trust"
)

// Config is what an event plays: its pairing system and rounds, the sets it
// plays on (board 1 on Boards[0]...), and the games' rules and clock.
type Config struct {
	Name   string            `json:"name"`
	Site   string            `json:"site,omitempty"`
	System tournament.System `json:"system"`
	Rounds int               `json:"rounds"`
	// Boards are the sets (with sensors) the event plays on, in the order
	// the games go to them; sets can be added and removed as it runs.
	Boards []string `json:"boards"`
	// Tables are boards without sensors (their names as the hall labels
	// them): a game there is played over the board and its result entered
	// by the arbiter. Games that find neither a free set nor a free table
	// wait for one.
	Tables      []string `json:"tables,omitempty"`
	TimeControl string   `json:"time_control,omitempty"`
	Variant     string   `json:"variant"`
	Options     string   `json:"options,omitempty"`
	// ExhibitionTC is the exhibition games' clock (TimeControl when empty).
	ExhibitionTC string `json:"exhibition_time_control,omitempty"`
	// Prizes are the tournament's prizes; CheckIn pairs only the players
	// checked in for a round (the desk's settings).
	Prizes  []Prize `json:"prizes,omitempty"`
	CheckIn bool    `json:"check_in,omitempty"`
}

// Link sends a set a command (new_game, clock, ...) and waits for its reply:
// nil when the set accepted it, else an error saying why (offline, refused).
type Link interface {
	Send(set, command string, payload map[string]any) error
}

// GameLink is a Link that tells which game a set started for a new_game
// command (the set's reply names it): the event then takes that game for
// the board, and no other (MQTTLink is one).
type GameLink interface {
	Link
	NewGame(set string, payload map[string]any) (game string, err error)
}

// Opts configure a Runner.
type Opts struct {
	// Dir holds the event's journal.
	Dir string
	// SiteDir, when set, is where the results site is kept (WriteSite):
	// rewritten when a round is paired, when one is over, and when an
	// exhibition game ends.
	SiteDir string
	// Now is the clock decisions are stamped with.
	Now func() time.Time
	Log *slog.Logger
	// Keys, when set, is the event's keyring (OpenKeyring): the desk
	// enrols, re-enrols and forgets the sets' keys in it (journaled).
	Keys *trust.Ring
}

// DefaultOpts returns Opts with the wall clock and the default logger.
func DefaultOpts() Opts { return Opts{Now: time.Now, Log: slog.Default()} }

// SetStatus is what the event knows of one set.
type SetStatus struct {
	Set    string `json:"set"`
	Online bool   `json:"online"`
	// Round and Board are the pairing the set's current game carries (0:
	// none of this event's).
	Round int    `json:"round,omitempty"`
	Board int    `json:"board,omitempty"`
	Game  string `json:"game,omitempty"`
	// Result and Termination are its current game's.
	Result      string `json:"result,omitempty"`
	Termination string `json:"termination,omitempty"`
	Moves       int    `json:"moves"`
	// Disbelieved counts the set's states the event did not believe:
	// moves that do not replay by the rules, a result that follows neither
	// from the position nor from a resignation, agreement, flag or an
	// arbiter's decision (each logged).
	Disbelieved int `json:"disbelieved,omitempty"`
	// Sensors is the set's own word on its pieces against its game
	// ("in_sync": the board shows the game's position; "mismatch": a piece
	// is out of place), as its state's board status says it.
	Sensors string          `json:"sensors,omitempty"`
	Clock   *clock.Snapshot `json:"clock,omitempty"`
	// PlaysPairing says whether the set plays the game the event paired on
	// it for the round being played (whatever its sensors say).
	PlaysPairing bool `json:"plays_pairing"`
}

// gameRecord is what the event saw of one game: its moves and, where a
// state showed them, the mover's clock after each.
type gameRecord struct {
	Start  string
	Moves  []string
	ClkMS  []int64 // -1 where unknown
	TC     string
	Result string
}

// Runner runs one event. Its methods are safe for concurrent use.
type Runner struct {
	o    Opts
	mu   sync.Mutex
	cfg  Config
	t    *tournament.Tournament
	j    *journal
	link Link
	sets map[string]*SetStatus
	recs map[[2]int]*gameRecord
	// damage is what Open cut out of a damaged journal.
	damage []Damage
	desk   desk
	exhib  exhib
	// sending counts the new_game commands waiting for a set's answer, by
	// round and board.
	sending map[[2]int]int
	// replays are the games the sets' last states replayed to (verify.go).
	replays map[string]*replayed
	// announced are the keys the sets announce on <prefix>/<set>/key.
	announced map[string]trust.PublicKey
}

// Errors for the API to map.
var (
	ErrExists   = errors.New("event: the state dir already holds an event")
	ErrNotFound = errors.New("event: not found")
	// ErrNoEvent is a state dir that holds no event yet (Create makes one).
	ErrNoEvent = errors.New("holds no event")
)

// Create starts a new event in o.Dir with cfg and players; it fails if the
// directory already holds one (Open resumes it).
func Create(o Opts, cfg Config, players []tournament.Player, link Link) (*Runner, error) {
	if len(cfg.Boards)+len(cfg.Tables) == 0 {
		return nil, fmt.Errorf("event: no boards: name the sets (and tables without sensors) the event plays on")
	}
	if cfg.Variant == "" {
		cfg.Variant = "st3d"
	}
	if cfg.TimeControl != "" && cfg.TimeControl != "-" {
		if _, err := clock.Parse(cfg.TimeControl); err != nil {
			return nil, fmt.Errorf("event: time control: %w", err)
		}
	}
	seen := map[string]bool{}
	for _, b := range cfg.Boards {
		if err := checkSetID(b, seen); err != nil {
			return nil, err
		}
	}
	for _, b := range cfg.Tables {
		if b == "" || len(b) > 40 || seen[b] {
			return nil, fmt.Errorf("event: table %q: empty, longer than 40 characters, or named twice", b)
		}
		seen[b] = true
	}
	t, err := newTournament(tournament.Opts{Name: cfg.Name, System: cfg.System, Rounds: cfg.Rounds}, players)
	if err != nil {
		return nil, err
	}
	cfg.Rounds = t.Opts.Rounds
	j, ds, _, err := openJournal(o.Dir)
	if err != nil {
		return nil, err
	}
	if len(ds) > 0 {
		j.close()
		return nil, ErrExists
	}
	r := newRunner(o, cfg, t, j, link)
	if err := r.decide(Decision{Op: "create", Config: &cfg, Opts: &t.Opts, Players: t.Players}); err != nil {
		j.close()
		return nil, err
	}
	return r, nil
}

// Open resumes the event journaled in o.Dir.
func Open(o Opts, link Link) (*Runner, error) {
	j, ds, damage, err := openJournal(o.Dir)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 || ds[0].Op != "create" || ds[0].Config == nil {
		j.close()
		return nil, fmt.Errorf("event: %s %w: create one with --boards (and --players, or register them at the desk)", o.Dir, ErrNoEvent)
	}
	cfg := *ds[0].Config
	t, err := newTournament(*ds[0].Opts, ds[0].Players)
	if err != nil {
		j.close()
		return nil, fmt.Errorf("event: journal: %w", err)
	}
	r := newRunner(o, cfg, t, j, link)
	r.damage = damage
	for i, d := range ds[1:] {
		if err := r.apply(d); err != nil {
			if len(damage) == 0 {
				j.close()
				return nil, fmt.Errorf("event: journal record %d (%s): %w", i+2, d.Op, err)
			}
			// A decision that followed from one cut out: reported, not taken.
			last := &r.damage[len(r.damage)-1]
			last.Skipped = append(last.Skipped, fmt.Sprintf("%s round %d board %d: %v", d.Op, d.Round, d.Board, err))
		}
	}
	for _, d := range r.damage {
		r.o.Log.Error("event: the journal was damaged; the damaged records were cut out", "dir", o.Dir, "damage", d.String())
	}
	return r, nil
}

// newTournament is tournament.New, but an event may start with fewer than
// two players: the desk registers them (the checks run when round 1 is
// paired).
func newTournament(o tournament.Opts, players []tournament.Player) (*tournament.Tournament, error) {
	if len(players) >= 2 {
		return tournament.New(o, players)
	}
	if _, err := tournament.New(o, []tournament.Player{{Name: "a"}, {Name: "b"}}); err != nil {
		return nil, err
	}
	t := &tournament.Tournament{Opts: o}
	for _, p := range players {
		if _, err := t.AddPlayer(p); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func newRunner(o Opts, cfg Config, t *tournament.Tournament, j *journal, link Link) *Runner {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	r := &Runner{o: o, cfg: cfg, t: t, j: j, link: link, sets: map[string]*SetStatus{}, recs: map[[2]int]*gameRecord{},
		desk:  desk{entrants: map[int]Entrant{}, checked: map[[2]int]bool{}, byes: map[[2]int]string{}},
		exhib: exhib{playing: map[string]ExGame{}, recs: map[string]*gameRecord{}}, announced: map[string]trust.PublicKey{}, sending: map[[2]int]int{}, replays: map[string]*replayed{}}
	for _, b := range cfg.Boards {
		r.sets[b] = &SetStatus{Set: b}
	}
	return r
}

// Close closes the journal.
func (r *Runner) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.j.close()
}

// decide journals d, then applies it; d is applied only once it is on disk.
// The caller holds r.mu (or owns r alone).
func (r *Runner) decide(d Decision) error {
	d.Time = r.o.Now().UTC()
	if err := r.dryRun(d); err != nil {
		return err
	}
	if err := r.j.append(d); err != nil {
		return err
	}
	if err := r.apply(d); err != nil {
		return err
	}
	if r.o.SiteDir != "" && (d.Op == "pair" || d.Op == "exhibition" || d.Op == "result" && r.t.Rounds[d.Round-1].Over()) {
		if err := r.writeSite(r.o.SiteDir); err != nil {
			r.o.Log.Error("event: the results site", "err", err)
		}
	}
	return nil
}

// dryRun checks that d applies, on a copy, so that a refused decision is
// never journaled.
func (r *Runner) dryRun(d Decision) error {
	if d.Op == "create" {
		return nil
	}
	cp := *r.t
	cp.Players = append([]tournament.Player(nil), r.t.Players...)
	cp.Rounds = make([]tournament.Round, len(r.t.Rounds))
	for i, rd := range r.t.Rounds {
		cp.Rounds[i] = rd
		cp.Rounds[i].Games = append([]tournament.Game(nil), rd.Games...)
	}
	tmp := &Runner{cfg: r.cfg, t: &cp, desk: desk{entrants: maps.Clone(r.desk.entrants),
		checked: maps.Clone(r.desk.checked), byes: maps.Clone(r.desk.byes)}}
	return tmp.apply(d)
}

// apply makes decision d; it is what replay does too.
func (r *Runner) apply(d Decision) error {
	t := r.t
	switch d.Op {
	case "pair":
		if d.Round == 1 && len(t.Rounds) == 0 {
			nt, err := tournament.New(t.Opts, t.Players)
			if err != nil {
				return err
			}
			t.Opts = nt.Opts // a round robin's rounds, once its players are known
		}
		set := t.SetPairings
		if override(d.Reason) {
			set = func(no int, gs []tournament.Game) error { return t.OverridePairings(no, gs, d.Reason) }
		}
		if err := set(d.Round, d.Games); err != nil {
			return err
		}
		// The byes asked for (or an absence), and a round robin's games
		// forfeited by an absence: SetPairings makes every bye the
		// pairing's own and leaves every game to be played.
		for i, g := range d.Games {
			switch {
			case g.IsBye() && (g.Result == tournament.HalfBye || g.Result == tournament.ZeroBye),
				!g.IsBye() && (g.Result == tournament.WhiteForfeit || g.Result == tournament.BlackForfeit || g.Result == tournament.DoubleForfeit):
				t.Rounds[d.Round-1].Games[i].Result, t.Rounds[d.Round-1].Games[i].Reason = g.Result, g.Reason
			}
		}
	case "start":
		rd, err := r.round(d.Round)
		if err != nil {
			return err
		}
		if rd.Started {
			return fmt.Errorf("event: round %d has started already", d.Round)
		}
		if d.Games != nil && len(d.Games) != len(rd.Games) {
			return fmt.Errorf("event: round %d has %d boards, the start assigns %d", d.Round, len(rd.Games), len(d.Games))
		}
		for i, g := range d.Games {
			if g.Set != "" && !r.isBoard(g.Set) && !r.isTable(g.Set) {
				return fmt.Errorf("event: board %d to %q: neither a set nor a table of the event", i+1, g.Set)
			}
		}
		rd.Started = true
		for i := range rd.Games {
			g := &rd.Games[i]
			switch {
			case g.IsBye() || g.Result.Over() || g.Set != "":
			case d.Games != nil:
				g.Set = d.Games[i].Set // where the start sent it
			default:
				g.Set = r.freeBoard(rd, false) // a journal from before the start said
			}
		}
	case "result":
		res, err := tournament.ParseResult(d.Result)
		if err != nil {
			return err
		}
		if err := t.SetResult(d.Round, d.Board, res, d.Reason); err != nil {
			return err
		}
		if d.GameID != "" {
			r.t.Rounds[d.Round-1].Games[d.Board-1].GameID = d.GameID
		}
	case "game":
		g, err := r.gameRef(d.Round, d.Board)
		if err != nil {
			return err
		}
		g.GameID = d.GameID
	case "moves":
		if d.Round != 0 || d.GameID == "" {
			if _, err := r.gameRef(d.Round, d.Board); err != nil {
				return err
			}
		}
		if len(d.Clk) != len(d.Moves) || d.From < 0 {
			return fmt.Errorf("event: moves: %d moves and %d clocks from %d", len(d.Moves), len(d.Clk), d.From)
		}
		if r.recs == nil {
			return nil // a dry run
		}
		var rec *gameRecord
		if d.Round == 0 {
			if rec = r.exhib.recs[d.GameID]; rec == nil {
				rec = &gameRecord{}
				r.exhib.recs[d.GameID] = rec
			}
		} else if rec = r.recs[[2]int{d.Round, d.Board}]; rec == nil {
			rec = &gameRecord{}
			r.recs[[2]int{d.Round, d.Board}] = rec
		}
		if d.From > len(rec.Moves) {
			return fmt.Errorf("event: moves from %d of a record of %d", d.From, len(rec.Moves))
		}
		rec.Moves = append(rec.Moves[:d.From:d.From], d.Moves...)
		rec.ClkMS = append(rec.ClkMS[:d.From:d.From], d.Clk...)
		if d.Start != "" {
			rec.Start = d.Start
		}
		if d.TC != "" {
			rec.TC = d.TC
		}
	case "swap":
		if override(d.Reason) {
			return t.SwapColoursOverride(d.Round, d.Board, d.Reason)
		}
		return t.SwapColours(d.Round, d.Board)
	case "add":
		if len(d.Players) != 1 {
			return fmt.Errorf("event: add takes one player")
		}
		_, err := t.AddPlayer(d.Players[0])
		return err
	case "withdraw":
		if len(d.Players) != 1 {
			return fmt.Errorf("event: withdraw takes one player")
		}
		return t.Withdraw(d.Players[0].No)
	case "replay", "assign":
		// replay: the game is played again (its result cleared), on the
		// board named in Reason (replay, as journaled before sets could
		// wait) or Set. assign: a game not over goes to a board.
		g, err := r.gameRef(d.Round, d.Board)
		if err != nil {
			return err
		}
		to := d.Set
		if d.Op == "replay" && to == "" {
			to = d.Reason
		}
		rd := &r.t.Rounds[d.Round-1]
		switch {
		case !rd.Started:
			return fmt.Errorf("event: round %d has not started", d.Round)
		case d.Op == "assign" && g.Result.Over():
			return fmt.Errorf("event: round %d board %d is over", d.Round, d.Board)
		case g.IsBye():
			return fmt.Errorf("event: round %d board %d is a bye", d.Round, d.Board)
		case to != "" && !r.isBoard(to) && !r.isTable(to):
			return fmt.Errorf("event: %q is neither one of the event's sets nor one of its tables: %w", to, ErrNotFound)
		case to != "" && to != g.Set && r.busy(rd, to):
			return fmt.Errorf("event: %s is playing another game of round %d", to, d.Round)
		}
		g.Set, g.GameID = to, ""
		if d.Op == "replay" {
			g.Result, g.Reason = tournament.None, ""
		}
		if r.recs != nil {
			delete(r.recs, [2]int{d.Round, d.Board})
		}
	case "addset":
		seen := map[string]bool{}
		for _, b := range append(append([]string(nil), r.cfg.Boards...), r.cfg.Tables...) {
			seen[b] = true
		}
		if err := checkSetID(d.Set, seen); err != nil {
			return err
		}
		if d.Key != "" {
			if err := r.applyKey(d); err != nil {
				return err
			}
		}
		r.cfg.Boards = append(r.cfg.Boards, d.Set)
		if r.sets != nil {
			r.sets[d.Set] = &SetStatus{Set: d.Set}
		}
	case "key", "key-forget":
		return r.applyKey(d)
	case "removeset":
		if !r.isBoard(d.Set) {
			return fmt.Errorf("event: %q is not one of the event's sets: %w", d.Set, ErrNotFound)
		}
		if c := r.t.Current(); c != nil && c.Started && r.busy(c, d.Set) {
			return fmt.Errorf("event: %s is playing a game of round %d: let it end, or move the game first", d.Set, c.No)
		}
		r.cfg.Boards = slices.DeleteFunc(slices.Clone(r.cfg.Boards), func(b string) bool { return b == d.Set })
		if r.sets != nil {
			delete(r.sets, d.Set)
		}
	case "create", "clock":
		// The event's start, and clock commands sent to the sets: journaled
		// for the record; Open reads the first, the sets keep the clocks.
	default:
		if err := r.applyDesk(d); err != errNotDesk {
			return err
		}
		return fmt.Errorf("event: unknown decision %q", d.Op)
	}
	return nil
}

// checkSetID checks a set's board id: one MQTT topics take, and not one
// named in seen; it adds it to seen.
func checkSetID(b string, seen map[string]bool) error {
	if _, err := mqtt.NewTopics("x", b); err != nil || b == "" || seen[b] {
		return fmt.Errorf("event: board %q: not a board id, or named twice", b)
	}
	seen[b] = true
	return nil
}

// busy reports whether board (a set or a table) holds a game of rd not over.
func (r *Runner) busy(rd *tournament.Round, board string) bool {
	for _, g := range rd.Games {
		if g.Set == board && !g.IsBye() && !g.Result.Over() {
			return true
		}
	}
	return false
}

// freeBoard returns the first set, then the first table, free in rd; ""
// when every one is busy (the game waits).
// With exhibition, a set playing an exhibition game is not free either
// (not for a replay: the exhibition is not journaled move by move as the
// round's assignment is).
func (r *Runner) freeBoard(rd *tournament.Round, exhibition bool) string {
	for _, b := range append(append([]string(nil), r.cfg.Boards...), r.cfg.Tables...) {
		if _, playing := r.exhib.playing[b]; exhibition && playing {
			continue
		}
		if !r.busy(rd, b) {
			return b
		}
	}
	return ""
}

func (r *Runner) isBoard(set string) bool { return slices.Contains(r.cfg.Boards, set) }

func (r *Runner) isTable(name string) bool { return slices.Contains(r.cfg.Tables, name) }

func (r *Runner) round(n int) (*tournament.Round, error) {
	if n < 1 || n > len(r.t.Rounds) {
		return nil, fmt.Errorf("event: no round %d: %w", n, ErrNotFound)
	}
	return &r.t.Rounds[n-1], nil
}

func (r *Runner) gameRef(round, board int) (*tournament.Game, error) {
	rd, err := r.round(round)
	if err != nil {
		return nil, err
	}
	if board < 1 || board > len(rd.Games) {
		return nil, fmt.Errorf("event: round %d has no board %d: %w", round, board, ErrNotFound)
	}
	return &rd.Games[board-1], nil
}

// PairNext pairs the next round by the event's system. More games than
// sets is no obstacle: games go to the sets, then to the tables, and the
// rest wait for a board to come free.
func (r *Runner) PairNext() (tournament.Round, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	games, err := r.pairNext()
	if err != nil {
		return tournament.Round{}, err
	}
	no := len(r.t.Rounds) + 1
	if err := r.decide(Decision{Op: "pair", Round: no, Games: games, By: "pairing"}); err != nil {
		return tournament.Round{}, err
	}
	return r.t.Rounds[no-1], nil
}

// SetPairings sets round n's pairings by hand (or from an imported TRF),
// with the reason journaled. The pairing's own checks apply (every player
// once, nobody against themselves, nobody who does not play the round);
// games between players who met already are refused unless the reason
// says the arbiter overrides ("override: ..."). Players who asked for a
// bye and are paired here get no bye.
func (r *Runner) SetPairings(n int, gs []tournament.Game, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("event: pairings by hand need a reason")
	}
	if !override(reason) {
		// The rules' absolute criteria (a rematch, a second bye, a colour a
		// player may not have): the arbiter imposes such pairings only
		// explicitly, and the reason is journaled.
		if v := r.t.Violations(n, gs); len(v) > 0 {
			return fmt.Errorf("event: %s (start the reason with \"override:\" to impose the pairing)", strings.Join(v, "; "))
		}
	}
	return r.decide(Decision{Op: "pair", Round: n, Games: gs, By: "arbiter", Reason: reason})
}

// override says whether the arbiter's reason imposes a decision that breaks
// the pairing rules' absolute criteria ("override: ...").
func override(reason string) bool { return strings.HasPrefix(strings.TrimSpace(reason), "override") }

// Swap swaps the colours on a board of a round not yet started.
func (r *Runner) Swap(round, board int, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("event: a colour swap needs a reason")
	}
	return r.decide(Decision{Op: "swap", Round: round, Board: board, By: "arbiter", Reason: reason})
}

// AddPlayer enters a late player; Withdraw takes one out.
func (r *Runner) AddPlayer(p tournament.Player) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.decide(Decision{Op: "add", Players: []tournament.Player{p}, By: "arbiter"})
}

// Withdraw takes player no out of the rounds not yet paired.
func (r *Runner) Withdraw(no int, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.decide(Decision{Op: "withdraw", Players: []tournament.Player{{No: no}}, By: "arbiter", Reason: reason})
}

// AddSet adds a set to a running event: a game waiting for a board goes to
// it at once.
func (r *Runner) AddSet(set, reason string) ([]BoardReport, error) {
	return r.AddKeyedSet(set, "", "", reason)
}

// AddKeyedSet is AddSet with the set's key enrolled at once (key as
// "ed25519:...", or "" for the one the set announces, checked against the
// fingerprint the organiser read on the set's page, as EnrollKey does);
// fingerprint "" adds the set without a key.
func (r *Runner) AddKeyedSet(set, key, fingerprint, reason string) ([]BoardReport, error) {
	r.mu.Lock()
	d := Decision{Op: "addset", Set: set, By: "arbiter", Reason: reason}
	if fingerprint != "" || key != "" {
		pub, err := r.keyToEnroll(set, key, fingerprint)
		if err != nil {
			r.mu.Unlock()
			return nil, err
		}
		d.Key = pub.String()
	}
	if err := r.decide(d); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	n, out := r.fillFree()
	r.mu.Unlock()
	return r.sendAll(n, out), nil
}

// RemoveSet takes a set out of the event (it must not be playing one of
// the round's games: move that game first).
func (r *Runner) RemoveSet(set, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.decide(Decision{Op: "removeset", Set: set, By: "arbiter", Reason: reason})
}

// BoardReport says how sending one board its game went.
type BoardReport struct {
	Board int    `json:"board"`
	Set   string `json:"set"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Table: the game is on a board without sensors (nothing sent).
	// Waiting: no board is free; the game goes to the first one that is.
	Table   bool `json:"table,omitempty"`
	Waiting bool `json:"waiting,omitempty"`
}

// StartRound journals round n's start and sends every set its game: games
// go to the sets in board order, then to the tables, the rest wait. A set
// that does not take its game is reported, never skipped silently: the
// round has started, and Replay sends the game again (to that set or
// another).
func (r *Runner) StartRound(n int) ([]BoardReport, error) {
	r.mu.Lock()
	if c := r.t.Current(); c == nil || c.No != n {
		r.mu.Unlock()
		return nil, fmt.Errorf("event: round %d is not the round paired last", n)
	}
	// Where each game goes is decided here and journaled with the start, so
	// that a replay puts every game where it went.
	plan := tournament.Round{Games: slices.Clone(r.t.Rounds[n-1].Games)}
	for i := range plan.Games {
		if g := &plan.Games[i]; !g.IsBye() && !g.Result.Over() && g.Set == "" {
			g.Set = r.freeBoard(&plan, true)
		}
	}
	if err := r.decide(Decision{Op: "start", Round: n, Games: plan.Games, By: "arbiter"}); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	var out []tournament.Game
	for _, g := range r.t.Rounds[n-1].Games {
		if !g.IsBye() && !g.Result.Over() {
			out = append(out, g)
		}
	}
	r.mu.Unlock()
	return r.sendAll(n, out), nil
}

// sendAll sends each game of round n to its set.
func (r *Runner) sendAll(n int, gs []tournament.Game) []BoardReport {
	var reps []BoardReport
	for _, g := range gs {
		reps = append(reps, r.send(n, g))
	}
	return reps
}

// send sends game g of round n to its set; a table or a waiting game is
// reported as such.
func (r *Runner) send(n int, g tournament.Game) BoardReport {
	rep := BoardReport{Board: g.Board, Set: g.Set}
	r.mu.Lock()
	w, _ := r.t.Player(g.White)
	b, _ := r.t.Player(g.Black)
	table, cfg := r.isTable(g.Set), r.cfg
	r.mu.Unlock()
	switch {
	case g.Set == "":
		rep.Waiting = true
		return rep
	case table:
		rep.Table, rep.OK = true, true
		return rep
	}
	// An event's games are tournament games (touch-move, no take-back by
	// hand, illegal moves counted: docs/game.md, "Plays").
	p := map[string]any{"variant": cfg.Variant, "white": w.Name, "black": b.Name,
		"event": cfg.Name, "round": strconv.Itoa(n), "board": strconv.Itoa(g.Board), "play": "tournament"}
	if cfg.Options != "" {
		p["options"] = cfg.Options
	}
	if cfg.TimeControl != "" {
		p["time_control"] = cfg.TimeControl
	}
	err := r.newGame(n, g, p)
	if err != nil {
		rep.Error = err.Error()
		r.o.Log.Warn("event: a set did not take its game", "round", n, "board", g.Board, "set", g.Set, "err", err)
	} else {
		rep.OK = true
	}
	return rep
}

// newGame sends g's set its game. Through a GameLink, the game the set
// answers with is journaled as the board's (By "event"): a state of any
// other game of that set, an older one with the same tags included, is
// ignored for the board; while the command waits for its answer, no state
// binds a game to the board.
func (r *Runner) newGame(n int, g tournament.Game, p map[string]any) error {
	gl, ok := r.link.(GameLink)
	if !ok || n == 0 {
		return r.link.Send(g.Set, protocol.CmdNewGame, p)
	}
	k := [2]int{n, g.Board}
	r.mu.Lock()
	r.sending[k]++
	r.mu.Unlock()
	id, err := gl.NewGame(g.Set, p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sending[k]--; r.sending[k] <= 0 {
		delete(r.sending, k)
	}
	if err != nil || id == "" {
		return err
	}
	cur, gerr := r.gameRef(n, g.Board)
	if gerr != nil || cur.Set != g.Set || cur.GameID == id {
		return nil // moved elsewhere meanwhile, or bound already
	}
	if err := r.decide(Decision{Op: "game", Round: n, Board: g.Board, GameID: id, Set: g.Set, By: "event"}); err != nil {
		r.o.Log.Error("event: journal", "err", err)
	}
	return nil
}

// fillFree sends the games waiting for a board, first board first, to the
// boards free now (sets first, then tables); the caller holds r.mu and
// sends what it returns once it has let go.
func (r *Runner) fillFree() (int, []tournament.Game) {
	c := r.t.Current()
	if c == nil || !c.Started {
		return 0, nil
	}
	var out []tournament.Game
	for i := range c.Games {
		g := c.Games[i]
		if g.IsBye() || g.Result.Over() || g.Set != "" {
			continue
		}
		to := r.freeBoard(c, true)
		if to == "" {
			break
		}
		if err := r.decide(Decision{Op: "assign", Round: c.No, Board: g.Board, Set: to, By: "queue", Reason: "the first free board"}); err != nil {
			r.o.Log.Error("event: a waiting game", "board", g.Board, "err", err)
			break
		}
		out = append(out, c.Games[i])
	}
	return c.No, out
}

// Replay sends round/board's game again, to set (its own when empty; a set
// or a table), clearing its result: a game replayed on another board.
func (r *Runner) Replay(round, board int, set, reason string) (BoardReport, error) {
	r.mu.Lock()
	g, err := r.gameRef(round, board)
	if err != nil {
		r.mu.Unlock()
		return BoardReport{}, err
	}
	if set == "" {
		set = g.Set
	}
	if err := r.decide(Decision{Op: "replay", Round: round, Board: board, Set: set, Reason: reason, By: "arbiter"}); err != nil {
		r.mu.Unlock()
		return BoardReport{}, err
	}
	gg := *g
	r.mu.Unlock()
	return r.send(round, gg), nil
}

// Assign moves a game not over to a board (a set, a table, or "" to wait):
// a waiting game sent to a table, a game moved off a broken set.
func (r *Runner) Assign(round, board int, to, reason string) (BoardReport, error) {
	r.mu.Lock()
	if g, ok := r.exhib.playing[to]; ok {
		r.mu.Unlock()
		return BoardReport{}, fmt.Errorf("event: %s is playing an exhibition game (%s-%s)", to, g.White, g.Black)
	}
	if err := r.decide(Decision{Op: "assign", Round: round, Board: board, Set: to, Reason: reason, By: "arbiter"}); err != nil {
		r.mu.Unlock()
		return BoardReport{}, err
	}
	g := r.t.Rounds[round-1].Games[board-1]
	r.mu.Unlock()
	return r.send(round, g), nil
}

// SetResult records the arbiter's result for round/board (an override, a
// forfeit of a no-show, an illegal-move claim, a game on a table), with
// the reason. The board it frees takes the next waiting game.
func (r *Runner) SetResult(round, board int, result, reason string) ([]BoardReport, error) {
	r.mu.Lock()
	if reason == "" {
		r.mu.Unlock()
		return nil, fmt.Errorf("event: the arbiter's result needs a reason")
	}
	if err := r.decide(Decision{Op: "result", Round: round, Board: board, Result: result, Reason: reason, By: "arbiter"}); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	rn, out := r.fillFree()
	r.mu.Unlock()
	return r.sendAll(rn, out), nil
}

// Clock sends every set playing the current round (or one set) a clock
// command: pause, resume, or add ms to side. It is journaled.
func (r *Runner) Clock(action, set, side string, ms int64) ([]BoardReport, error) {
	switch action {
	case "pause", "resume":
	case "add":
		if set == "" || (side != "white" && side != "black") || ms <= 0 {
			return nil, fmt.Errorf("event: add needs a set, a side (white or black) and ms > 0")
		}
	default:
		return nil, fmt.Errorf("event: clock action %q: want pause, resume or add", action)
	}
	r.mu.Lock()
	if set != "" && !r.isBoard(set) {
		r.mu.Unlock()
		return nil, fmt.Errorf("event: %q is not one of the event's sets", set)
	}
	if err := r.decide(Decision{Op: "clock", Reason: fmt.Sprintf("%s %s %s %d", action, set, side, ms), By: "arbiter"}); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	targets := []string{set}
	if set == "" {
		targets = nil
		if c := r.t.Current(); c != nil && c.Started {
			for _, g := range c.Games {
				if !g.IsBye() && !g.Result.Over() && r.isBoard(g.Set) {
					targets = append(targets, g.Set)
				}
			}
		}
	}
	r.mu.Unlock()
	p := map[string]any{"action": action}
	if action == "add" {
		p["side"], p["ms"] = side, ms
	}
	var reps []BoardReport
	for _, s := range targets {
		rep := BoardReport{Set: s, OK: true}
		if err := r.link.Send(s, protocol.CmdClock, p); err != nil {
			rep.OK, rep.Error = false, err.Error()
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// Online records whether a set is reachable (its availability topic).
func (r *Runner) Online(set string, online bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sets[set]; ok {
		s.Online = online
	}
}

// Observe takes a set's state: the pairing its game carries, its moves and
// clock for the records (journaled as they come), and its result once the
// game is over. A state of another event, round or board changes no
// result; a game that is none of the event's is an exhibition game (see
// exhibition.go). A game ending frees its set for the next waiting game.
func (r *Runner) Observe(set string, st protocol.State) {
	r.mu.Lock()
	n, out := r.observe(set, st)
	r.mu.Unlock()
	if len(out) > 0 {
		go r.sendAll(n, out) // not on the link's delivery goroutine
	}
}

func (r *Runner) observe(set string, st protocol.State) (int, []tournament.Game) {
	s, ok := r.sets[set]
	if !ok || st.Supported() != nil {
		return 0, nil // not a set of the event, or a state it cannot read
	}
	s.Online = true
	s.Game, s.Result, s.Termination, s.Moves, s.Sensors, s.Clock = st.Game, st.Result, st.Reason, len(st.Moves), st.Board.Status, st.Clock
	s.Round, s.Board, s.PlaysPairing = 0, 0, false
	if st.Tags["Event"] != r.cfg.Name {
		if r.observeExhibition(set, st) {
			return r.fillFree() // the set is free for a waiting game
		}
		return 0, nil
	}
	round, _ := strconv.Atoi(st.Tags["Round"])
	board, _ := strconv.Atoi(st.Tags["Board"])
	g, err := r.gameRef(round, board)
	if err != nil {
		return 0, nil
	}
	s.Round, s.Board = round, board
	w, _ := r.t.Player(g.White)
	b, _ := r.t.Player(g.Black)
	if g.Set != set || st.Tags["White"] != w.Name || st.Tags["Black"] != b.Name {
		return 0, nil // an old game of this pairing, or one replayed elsewhere
	}
	c := r.t.Current()
	s.PlaysPairing = c != nil && c.No == round
	if g.GameID != "" && g.GameID != st.Game {
		return 0, nil // a game other than the one the event's set took: not this board's
	}
	rg, err := r.replaySet(set, r.cfg.Variant, r.cfg.Options, st)
	if err != nil {
		r.disbelieve(s, round, board, st, err)
		return 0, nil
	}
	if g.GameID == "" {
		if r.sending[[2]int{round, board}] > 0 {
			return 0, nil // the set's answer names the game
		}
		if err := r.decide(Decision{Op: "game", Round: round, Board: board, GameID: st.Game, By: "set " + set}); err != nil {
			r.o.Log.Error("event: journal", "err", err)
			return 0, nil
		}
	}
	if err := r.record(round, board, set, st); err != nil {
		r.o.Log.Error("event: journal", "err", err)
		return 0, nil
	}
	if st.Result != "" && st.Result != "*" && !g.Result.Over() {
		if err := credible(rg, st); err != nil {
			r.disbelieve(s, round, board, st, err)
			return 0, nil
		}
		if err := r.decide(Decision{Op: "result", Round: round, Board: board, Result: st.Result,
			Reason: st.Reason, GameID: st.Game, By: "set " + set}); err != nil {
			r.o.Log.Error("event: a set's result", "set", set, "err", err)
			return 0, nil
		}
		return r.fillFree()
	}
	return 0, nil
}

// disbelieve logs and counts a state of set s that the event does not
// believe (ErrNotCredible): nothing of it is taken.
func (r *Runner) disbelieve(s *SetStatus, round, board int, st protocol.State, err error) {
	s.Disbelieved++
	r.o.Log.Warn("event: a set's state not believed", "set", s.Set, "round", round, "board", board, "game", st.Game, "err", err)
}

// record journals what a state adds to round/board's record: the moves it
// holds that the record does not, and the mover's clock after the last move
// (the state after a move holds the mover's time as of the move).
func (r *Runner) record(round, board int, set string, st protocol.State) error {
	d, ok := recordDiff(r.recs[[2]int{round, board}], st)
	if !ok {
		return nil
	}
	d.Op, d.Round, d.Board, d.By = "moves", round, board, "set "+set
	return r.decide(d)
}

// recordDiff returns the "moves" decision that brings rec up to st, and
// whether there is anything to bring.
func recordDiff(rec *gameRecord, st protocol.State) (Decision, bool) {
	if rec == nil {
		rec = &gameRecord{}
	}
	moves := st.Moves
	clk := make([]int64, len(moves))
	for i := range clk {
		clk[i] = -1
		if i < len(rec.ClkMS) && i < len(rec.Moves) && rec.Moves[i] == moves[i] {
			clk[i] = rec.ClkMS[i]
		}
	}
	if len(st.ClkMS) == len(moves) {
		// The set's own record of every move's clock: a game the event was
		// away for keeps its clocks too.
		copy(clk, st.ClkMS)
	} else if n := len(moves); n > 0 && st.Clock != nil && st.LastMove != nil && st.LastMove.Seq > 0 {
		if st.Turn.String() == "black" {
			clk[n-1] = st.Clock.WhiteMS
		} else {
			clk[n-1] = st.Clock.BlackMS
		}
	}
	from := 0
	for from < len(moves) && from < len(rec.Moves) && moves[from] == rec.Moves[from] && clk[from] == rec.ClkMS[from] {
		from++
	}
	tc := ""
	if st.Clock != nil && st.Clock.Control != rec.TC {
		tc = st.Clock.Control
	}
	start := ""
	if st.Start != rec.Start {
		start = st.Start
	}
	if from == len(moves) && from == len(rec.Moves) && tc == "" && start == "" {
		return Decision{}, false
	}
	return Decision{From: from, Moves: moves[from:], Clk: clk[from:], TC: tc, Start: start}, true
}

// Snapshot is the event as GET /api/event shows it.
type Snapshot struct {
	Name      string                `json:"name"`
	Site      string                `json:"site,omitempty"`
	System    tournament.System     `json:"system"`
	Rounds    int                   `json:"rounds"`
	Variant   string                `json:"variant"`
	Options   string                `json:"options,omitempty"`
	Control   string                `json:"time_control,omitempty"`
	Players   []tournament.Player   `json:"players"`
	Paired    []tournament.Round    `json:"paired"`
	Tiebreaks []string              `json:"tiebreaks"`
	Standings []tournament.Standing `json:"standings"`
	Sets      []SetStatus           `json:"sets"`
	// Tables are the boards without sensors; Waiting the boards of the
	// round being played whose game waits for a free board.
	Tables  []string `json:"tables"`
	Waiting []int    `json:"waiting"`
	// Damage is what was cut out of a damaged journal when the event
	// started (empty when it was whole).
	Damage []Damage `json:"journal_damage,omitempty"`
}

// Snapshot returns the event now.
func (r *Runner) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Snapshot{Name: r.cfg.Name, Site: r.cfg.Site, System: r.cfg.System, Rounds: r.t.Opts.Rounds,
		Variant: r.cfg.Variant, Options: r.cfg.Options, Control: r.cfg.TimeControl,
		Players: append([]tournament.Player(nil), r.t.Players...), Tiebreaks: r.t.TiebreakNames(),
		Standings: r.t.Standings(), Tables: append([]string{}, r.cfg.Tables...), Waiting: []int{},
		Damage: r.damage}
	for _, rd := range r.t.Rounds {
		rd.Games = append([]tournament.Game(nil), rd.Games...)
		s.Paired = append(s.Paired, rd)
	}
	s.Waiting = r.waiting()
	for _, b := range r.cfg.Boards {
		s.Sets = append(s.Sets, *r.sets[b])
	}
	return s
}

// waiting returns the boards of the round being played whose game waits
// for a free board.
func (r *Runner) waiting() []int {
	w := []int{}
	if c := r.t.Current(); c != nil && c.Started {
		for _, g := range c.Games {
			if !g.IsBye() && !g.Result.Over() && g.Set == "" {
				w = append(w, g.Board)
			}
		}
	}
	return w
}
