package event

import (
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/tournament"
)

// Config is what an event plays: its pairing system and rounds, the sets it
// plays on (board 1 on Boards[0]...), and the games' rules and clock.
type Config struct {
	Name        string            `json:"name"`
	Site        string            `json:"site,omitempty"`
	System      tournament.System `json:"system"`
	Rounds      int               `json:"rounds"`
	Boards      []string          `json:"boards"`
	TimeControl string            `json:"time_control,omitempty"`
	Variant     string            `json:"variant"`
	Options     string            `json:"options,omitempty"`
}

// Link sends a set a command (new_game, clock, ...) and waits for its reply:
// nil when the set accepted it, else an error saying why (offline, refused).
type Link interface {
	Send(set, command string, payload map[string]any) error
}

// Opts configure a Runner.
type Opts struct {
	// Dir holds the event's journal.
	Dir string
	// Now is the clock decisions are stamped with.
	Now func() time.Time
	Log *slog.Logger
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
	Result      string          `json:"result,omitempty"`
	Termination string          `json:"termination,omitempty"`
	Moves       int             `json:"moves"`
	Status      string          `json:"status,omitempty"` // in_sync, mismatch, ...
	Clock       *clock.Snapshot `json:"clock,omitempty"`
	// InSync says whether the set plays the game the event paired on it
	// for the round being played.
	InSync bool `json:"in_sync"`
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
}

// Errors for the API to map.
var (
	ErrExists   = errors.New("event: the state dir already holds an event")
	ErrNotFound = errors.New("event: not found")
)

// Create starts a new event in o.Dir with cfg and players; it fails if the
// directory already holds one (Open resumes it).
func Create(o Opts, cfg Config, players []tournament.Player, link Link) (*Runner, error) {
	if len(cfg.Boards) == 0 {
		return nil, fmt.Errorf("event: no boards: name the sets the event plays on")
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
		if _, err := mqtt.NewTopics("x", b); err != nil || b == "" || seen[b] {
			return nil, fmt.Errorf("event: board %q: not a board id, or named twice", b)
		}
		seen[b] = true
	}
	t, err := tournament.New(tournament.Opts{Name: cfg.Name, System: cfg.System, Rounds: cfg.Rounds}, players)
	if err != nil {
		return nil, err
	}
	cfg.Rounds = t.Opts.Rounds
	j, ds, err := openJournal(o.Dir)
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
	j, ds, err := openJournal(o.Dir)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 || ds[0].Op != "create" || ds[0].Config == nil {
		j.close()
		return nil, fmt.Errorf("event: %s holds no event: create one with --players", o.Dir)
	}
	cfg := *ds[0].Config
	t, err := tournament.New(*ds[0].Opts, ds[0].Players)
	if err != nil {
		j.close()
		return nil, fmt.Errorf("event: journal: %w", err)
	}
	r := newRunner(o, cfg, t, j, link)
	for i, d := range ds[1:] {
		if err := r.apply(d); err != nil {
			j.close()
			return nil, fmt.Errorf("event: journal record %d (%s): %w", i+2, d.Op, err)
		}
	}
	return r, nil
}

func newRunner(o Opts, cfg Config, t *tournament.Tournament, j *journal, link Link) *Runner {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	r := &Runner{o: o, cfg: cfg, t: t, j: j, link: link, sets: map[string]*SetStatus{}, recs: map[[2]int]*gameRecord{}}
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
	return r.apply(d)
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
	tmp := &Runner{cfg: r.cfg, t: &cp}
	return tmp.apply(d)
}

// apply makes decision d; it is what replay does too.
func (r *Runner) apply(d Decision) error {
	t := r.t
	switch d.Op {
	case "pair":
		return t.SetPairings(d.Round, d.Games)
	case "start":
		rd, err := r.round(d.Round)
		if err != nil {
			return err
		}
		if rd.Started {
			return fmt.Errorf("event: round %d has started already", d.Round)
		}
		rd.Started = true
		for i := range rd.Games {
			if g := &rd.Games[i]; !g.IsBye() && g.Set == "" {
				g.Set = r.cfg.Boards[i]
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
	case "swap":
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
	case "replay":
		g, err := r.gameRef(d.Round, d.Board)
		if err != nil {
			return err
		}
		if !r.isBoard(d.Reason) {
			return fmt.Errorf("event: %q is not one of the event's sets", d.Reason)
		}
		g.Set, g.GameID, g.Result = d.Reason, "", tournament.None
	case "create", "clock":
		// The event's start, and clock commands sent to the sets: journaled
		// for the record; Open reads the first, the sets keep the clocks.
	default:
		return fmt.Errorf("event: unknown decision %q", d.Op)
	}
	return nil
}

func (r *Runner) isBoard(set string) bool {
	for _, b := range r.cfg.Boards {
		if b == set {
			return true
		}
	}
	return false
}

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

// PairNext pairs the next round by the event's system.
func (r *Runner) PairNext() (tournament.Round, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cp := *r.t
	cp.Rounds = append([]tournament.Round(nil), r.t.Rounds...)
	rd, err := cp.NextRound()
	if err != nil {
		return tournament.Round{}, err
	}
	if n := games(rd); n > len(r.cfg.Boards) {
		return tournament.Round{}, fmt.Errorf("event: round %d has %d games and the event %d sets", rd.No, n, len(r.cfg.Boards))
	}
	if err := r.decide(Decision{Op: "pair", Round: rd.No, Games: rd.Games, By: "pairing"}); err != nil {
		return tournament.Round{}, err
	}
	return r.t.Rounds[rd.No-1], nil
}

func games(rd tournament.Round) int {
	n := 0
	for _, g := range rd.Games {
		if !g.IsBye() {
			n++
		}
	}
	return n
}

// SetPairings sets round n's pairings by hand (or from an imported TRF).
func (r *Runner) SetPairings(n int, gs []tournament.Game, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if games(tournament.Round{Games: gs}) > len(r.cfg.Boards) {
		return fmt.Errorf("event: %d games for %d sets", len(gs), len(r.cfg.Boards))
	}
	return r.decide(Decision{Op: "pair", Round: n, Games: gs, By: "arbiter", Reason: reason})
}

// Swap swaps the colours on a board of a round not yet started.
func (r *Runner) Swap(round, board int, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
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

// BoardReport says how sending one board its game went.
type BoardReport struct {
	Board int    `json:"board"`
	Set   string `json:"set"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// StartRound journals round n's start and sends every set its game. A set
// that does not take it is reported, never skipped silently: the round has
// started, and Replay sends the game again (to that set or another).
func (r *Runner) StartRound(n int) ([]BoardReport, error) {
	r.mu.Lock()
	if c := r.t.Current(); c == nil || c.No != n {
		r.mu.Unlock()
		return nil, fmt.Errorf("event: round %d is not the round paired last", n)
	}
	if err := r.decide(Decision{Op: "start", Round: n, By: "arbiter"}); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	rd := r.t.Rounds[n-1]
	r.mu.Unlock()
	var reps []BoardReport
	for _, g := range rd.Games {
		if g.IsBye() || g.Result.Over() {
			continue
		}
		reps = append(reps, r.send(n, g))
	}
	return reps, nil
}

// send sends game g of round n to its set.
func (r *Runner) send(n int, g tournament.Game) BoardReport {
	rep := BoardReport{Board: g.Board, Set: g.Set}
	w, _ := r.t.Player(g.White)
	b, _ := r.t.Player(g.Black)
	// An event's games are tournament games (touch-move, no take-back by
	// hand, illegal moves counted: docs/game.md, "Plays").
	p := map[string]any{"variant": r.cfg.Variant, "white": w.Name, "black": b.Name,
		"event": r.cfg.Name, "round": strconv.Itoa(n), "board": strconv.Itoa(g.Board), "play": "tournament"}
	if r.cfg.Options != "" {
		p["options"] = r.cfg.Options
	}
	if r.cfg.TimeControl != "" {
		p["time_control"] = r.cfg.TimeControl
	}
	if err := r.link.Send(g.Set, protocol.CmdNewGame, p); err != nil {
		rep.Error = err.Error()
		r.o.Log.Warn("event: a set did not take its game", "round", n, "board", g.Board, "set", g.Set, "err", err)
	} else {
		rep.OK = true
	}
	return rep
}

// Replay sends round/board's game again, to set (its own when empty),
// clearing its result: a game replayed on another board.
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
	if rd := r.t.Rounds[round-1]; !rd.Started {
		r.mu.Unlock()
		return BoardReport{}, fmt.Errorf("event: round %d has not started", round)
	}
	if err := r.decide(Decision{Op: "replay", Round: round, Board: board, Reason: set, By: "arbiter " + reason}); err != nil {
		r.mu.Unlock()
		return BoardReport{}, err
	}
	gg := *g
	delete(r.recs, [2]int{round, board})
	r.mu.Unlock()
	return r.send(round, gg), nil
}

// SetResult records the arbiter's result for round/board (an override, a
// forfeit of a no-show, an illegal-move claim), with the reason.
func (r *Runner) SetResult(round, board int, result, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if reason == "" {
		return fmt.Errorf("event: the arbiter's result needs a reason")
	}
	return r.decide(Decision{Op: "result", Round: round, Board: board, Result: result, Reason: reason, By: "arbiter"})
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
	if set != "" && !r.isBoard(set) {
		return nil, fmt.Errorf("event: %q is not one of the event's sets", set)
	}
	r.mu.Lock()
	if err := r.decide(Decision{Op: "clock", Reason: fmt.Sprintf("%s %s %s %d", action, set, side, ms), By: "arbiter"}); err != nil {
		r.mu.Unlock()
		return nil, err
	}
	targets := []string{set}
	if set == "" {
		targets = nil
		if c := r.t.Current(); c != nil && c.Started {
			for _, g := range c.Games {
				if !g.IsBye() && !g.Result.Over() {
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
// clock for the records, and its result once the game is over. A state of
// another event, round or board changes no result.
func (r *Runner) Observe(set string, st protocol.State) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sets[set]
	if !ok || st.Supported() != nil {
		return // not a set of the event, or a state it cannot read
	}
	s.Online = true
	s.Game, s.Result, s.Termination, s.Moves, s.Status, s.Clock = st.Game, st.Result, st.Reason, len(st.Moves), st.Board.Status, st.Clock
	s.Round, s.Board, s.InSync = 0, 0, false
	if st.Tags["Event"] != r.cfg.Name {
		return
	}
	round, _ := strconv.Atoi(st.Tags["Round"])
	board, _ := strconv.Atoi(st.Tags["Board"])
	g, err := r.gameRef(round, board)
	if err != nil {
		return
	}
	s.Round, s.Board = round, board
	w, _ := r.t.Player(g.White)
	b, _ := r.t.Player(g.Black)
	if g.Set != set || st.Tags["White"] != w.Name || st.Tags["Black"] != b.Name {
		return // an old game of this pairing, or one replayed elsewhere
	}
	c := r.t.Current()
	s.InSync = c != nil && c.No == round
	if g.GameID == "" {
		if err := r.decide(Decision{Op: "game", Round: round, Board: board, GameID: st.Game, By: "set " + set}); err != nil {
			r.o.Log.Error("event: journal", "err", err)
			return
		}
	} else if g.GameID != st.Game {
		return // a second game with the same tags: the first one counts
	}
	r.record(round, board, st)
	if st.Result != "" && st.Result != "*" && !g.Result.Over() {
		if err := r.decide(Decision{Op: "result", Round: round, Board: board, Result: st.Result,
			Reason: st.Reason, GameID: st.Game, By: "set " + set}); err != nil {
			r.o.Log.Error("event: a set's result", "set", set, "err", err)
		}
	}
}

// record keeps the moves and the mover's clock after each.
func (r *Runner) record(round, board int, st protocol.State) {
	k := [2]int{round, board}
	rec := r.recs[k]
	if rec == nil {
		rec = &gameRecord{}
		r.recs[k] = rec
	}
	rec.Start, rec.Result = st.Start, st.Result
	if st.Clock != nil {
		rec.TC = st.Clock.Control
	}
	for len(rec.ClkMS) < len(st.Moves) {
		rec.ClkMS = append(rec.ClkMS, -1)
	}
	rec.ClkMS = rec.ClkMS[:len(st.Moves)]
	rec.Moves = append(rec.Moves[:0], st.Moves...)
	if n := len(st.Moves); n > 0 && st.Clock != nil && st.LastMove != nil && st.LastMove.Seq > 0 {
		// The state after a move holds the mover's time as of the move.
		if st.Turn.String() == "black" {
			rec.ClkMS[n-1] = st.Clock.WhiteMS
		} else {
			rec.ClkMS[n-1] = st.Clock.BlackMS
		}
	}
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
}

// Snapshot returns the event now.
func (r *Runner) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Snapshot{Name: r.cfg.Name, Site: r.cfg.Site, System: r.cfg.System, Rounds: r.t.Opts.Rounds,
		Variant: r.cfg.Variant, Options: r.cfg.Options, Control: r.cfg.TimeControl,
		Players: append([]tournament.Player(nil), r.t.Players...), Tiebreaks: r.t.TiebreakNames(),
		Standings: r.t.Standings()}
	for _, rd := range r.t.Rounds {
		rd.Games = append([]tournament.Game(nil), rd.Games...)
		s.Paired = append(s.Paired, rd)
	}
	for _, b := range r.cfg.Boards {
		s.Sets = append(s.Sets, *r.sets[b])
	}
	return s
}
