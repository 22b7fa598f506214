package game

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/internal/durable"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// Opts are the options of New and Open.
type Opts struct {
	// Now is the clock: game ids, the Date tag, move times. nil means
	// time.Now.
	Now func() time.Time
	// Systems are the rule systems a journal may name (Open), besides
	// those of the registry (rules/systems), which resolves any system's
	// name with its options; nil means the registry alone.
	Systems []rules.System
	// ReadOnly opens a journal to read it (an export while the daemon
	// plays): Open and OpenGame never write, create or cut anything, a
	// damaged or half-written tail is left as it is (the records before it
	// are the game), and every change is refused with ErrReadOnly.
	ReadOnly bool
	// Published, if set, is the highest seq of a game that may have been
	// published outside the journal (the MQTT outbox's). Open never hands
	// out a seq up to it again: when the journal ends below it (a damaged
	// record cut off), the seqs in between are skipped (Skipped).
	Published func(game string) int

	openFile func(name string, flag int) (file, error) // tests
}

// DefaultOpts returns the defaults: the system clock and the registry's
// systems.
func DefaultOpts() Opts {
	return Opts{Now: time.Now}
}

// Tags describe a game, as in a game record.
type Tags struct {
	Event string `json:"event,omitempty"`
	Site  string `json:"site,omitempty"`
	Date  string `json:"date,omitempty"` // "2025.01.02"; New fills it from the clock when empty
	Round string `json:"round,omitempty"`
	// Board is the board number in the event's round, when an event set
	// the game up.
	Board string `json:"board,omitempty"`
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
	// The players' ratings, FIDE titles and FIDE ids (PGN's WhiteElo,
	// WhiteTitle, WhiteFideId, ...); empty when unknown.
	WhiteElo    string `json:"white_elo,omitempty"`
	BlackElo    string `json:"black_elo,omitempty"`
	WhiteTitle  string `json:"white_title,omitempty"`
	BlackTitle  string `json:"black_title,omitempty"`
	WhiteFideID string `json:"white_fide_id,omitempty"`
	BlackFideID string `json:"black_fide_id,omitempty"`
	// Opponent says who plays a side from elsewhere, as Opponent.String
	// writes it ("black=set:enterprise", "white=engine:3"); empty when both
	// sides play on this set.
	Opponent string `json:"opponent,omitempty"`
	// TimeControl is the game's time control as clock.Parse reads it
	// ("180+2"); "" is a game without a clock.
	TimeControl string `json:"time_control,omitempty"`
	// Play is how the game is played (Play); "" is PlayCasual.
	Play Play `json:"play,omitempty"`
}

// Play is how a game is played: the rules of the hand on the set.
type Play string

// The plays. Casual and lesson games forgive: a move completed by the settle
// window can be corrected, a take-back by hand takes the move back. A
// tournament game follows the laws of over-the-board play: touch-move (the
// first move released stands), a take-back by hand is refused and shown
// to the arbiter as an illegal move, and illegal moves are counted (FIDE
// Laws 7.5.5: the first gives the opponent time, the second loses).
const (
	PlayCasual     Play = "casual"
	PlayTournament Play = "tournament"
	PlayLesson     Play = "lesson"
)

// ParsePlay reads a play's name; "" is PlayCasual.
func ParsePlay(s string) (Play, error) {
	switch p := Play(s); p {
	case "":
		return PlayCasual, nil
	case PlayCasual, PlayTournament, PlayLesson:
		return p, nil
	}
	return "", fmt.Errorf("play %q: want casual, tournament or lesson", s)
}

// Reason says why a game ended. The values are those of the MQTT state's
// "termination".
type Reason string

// Reasons.
const (
	ReasonNone         Reason = ""
	ReasonCheckmate    Reason = "checkmate"
	ReasonStalemate    Reason = "stalemate"
	ReasonDeadPosition Reason = "dead position"
	ReasonResignation  Reason = "resignation"
	ReasonAgreement    Reason = "agreement"
	ReasonThreefold    Reason = "threefold repetition"
	ReasonFiftyMoves   Reason = "50-move rule"
	// ReasonTime: a flag fell (a loss, or a draw when the opponent cannot
	// mate: FlagFell).
	ReasonTime Reason = "time"
	// ReasonIllegal: a player's second completed illegal move in a
	// tournament game (FIDE Laws 7.5.5): a loss, or a draw when the
	// opponent cannot mate (Forfeit).
	ReasonIllegal Reason = "illegal moves"
)

// byPosition reports whether the position itself decided the game.
func (r Reason) byPosition() bool {
	return r == ReasonCheckmate || r == ReasonStalemate || r == ReasonDeadPosition
}

// Claim is what a draw claim invokes.
type Claim uint8

// Claims.
const (
	ClaimAny        Claim = iota // threefold repetition if it holds, else the 50-move rule
	ClaimThreefold               // the current position has stood three times (5.4)
	ClaimFiftyMoves              // 50 moves by each side without capture or pawn move (5.5)
)

func (c Claim) String() string {
	switch c {
	case ClaimAny:
		return "any"
	case ClaimThreefold:
		return "threefold repetition"
	case ClaimFiftyMoves:
		return "50-move rule"
	}
	return fmt.Sprintf("Claim(%d)", uint8(c))
}

// Move is an accepted move as the daemon publishes it. Its fields are those
// of protocol.Move, so protocol.Move(m) converts it.
type Move struct {
	Seq      int       // counts the game's moves from 1, never repeats
	Game     string    // the game id
	Move     string    // long form, "b2W-b4N"
	SAN      string    // Meder notation with + or #
	Position string    // position string after the move
	Time     time.Time // when it was played (UTC)
	// ClkMS is the mover's time left on the clock after the move, in
	// milliseconds; nil without a clock.
	ClkMS *int64
}

// Errors a Session returns, wrapped in errors that say more.
var (
	// ErrNoGame: Open found no current game in the state directory.
	ErrNoGame = errors.New("no current game")
	// ErrGameOver: the game has a result and refuses the command.
	ErrGameOver = errors.New("game over")
	// ErrClosed: the session was closed.
	ErrClosed = errors.New("session closed")
	// ErrReadOnly: the session was opened with Opts.ReadOnly.
	ErrReadOnly = errors.New("opened read-only")
)

// Session is one game: its history, result, pending draw offer and journal.
// Every change is appended to the journal and fsync'd before it takes effect
// and before the method returns, so whatever a method returned may be
// published. A refused command (bad input, a game over) changes nothing.
// A Session is safe for concurrent use.
type Session struct {
	mu      sync.Mutex
	opts    Opts
	dir     string
	id      string
	sys     rules.System
	tags    Tags
	created time.Time

	g       *rules.Game
	line    []Move // the moves of g, as published
	all     []Move // every move accepted, taken back or not, by seq
	skipped int    // seqs skipped (never handed out): the next seq is len(all)+skipped+1
	result  rules.Result
	reason  Reason
	by      rules.Color // who resigned, accepted or claimed
	offered bool
	offerBy rules.Color
	j       *journal
	damage  *Damage
	skip    *Skip
	clk     clockState // clock.go
	teach   teachState // teach.go
	closed  bool
}

func (o *Opts) fill() Opts {
	d := DefaultOpts()
	if o == nil {
		return d
	}
	r := *o
	if r.Now == nil {
		r.Now = d.Now
	}
	if r.Systems == nil {
		r.Systems = d.Systems
	}
	return r
}

func (o *Opts) open(name string, flag int) (file, error) {
	if o.openFile != nil {
		return o.openFile(name, flag)
	}
	return openFile(name, flag)
}

func (o *Opts) now() time.Time { return o.Now().UTC() }

// New starts a game of sys in the state directory stateDir, from start (a
// position string; "" is the system's start position), and makes it the
// current game. Its id is the time (20250102-030405-123), later than every
// game already there. An empty tags.Date is set to today.
func New(stateDir string, sys rules.System, start string, tags Tags, opts *Opts) (*Session, error) {
	o := opts.fill()
	if sys == nil {
		return nil, errors.New("game: new: no rule system")
	}
	pos := sys.Start()
	if start != "" {
		var err error
		if pos, err = sys.ParsePosition(start); err != nil {
			return nil, fmt.Errorf("game: new: start position: %w", err)
		}
	}
	if _, err := clock.Parse(tags.TimeControl); err != nil {
		return nil, fmt.Errorf("game: new: %w", err)
	}
	gdir := filepath.Join(stateDir, GamesDir)
	if err := os.MkdirAll(gdir, 0o755); err != nil {
		return nil, fmt.Errorf("game: new: %w", err)
	}
	now := o.now()
	if tags.Date == "" {
		tags.Date = now.Format("2006.01.02")
	}
	ids, err := Games(stateDir)
	if err != nil {
		return nil, err
	}
	var (
		id   string
		path string
		f    file
	)
	for range 100 {
		id = newID(now, ids)
		path = filepath.Join(gdir, id+JournalExt)
		f, err = o.open(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL)
		if !errors.Is(err, os.ErrExist) {
			break
		}
		ids = append(ids, id) // another daemon took it: go past it
	}
	if err != nil {
		return nil, fmt.Errorf("game: new: %w", err)
	}
	s := &Session{opts: o, dir: stateDir, j: &journal{path: path, f: f}}
	h := &entry{T: kindHeader, V: FormatVersion, Game: id, System: sys.Name(), Start: pos.String(), Tags: &tags, Time: now}
	s.header(h, sys, pos)
	if err := s.j.append(h); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("game: new: %w", err)
	}
	if err := durable.SyncDir(gdir); err != nil {
		f.Close()
		return nil, fmt.Errorf("game: new: %s: %w", gdir, err)
	}
	if err := durable.WriteAtomic(filepath.Join(stateDir, CurrentFile), []byte(id+"\n")); err != nil {
		f.Close()
		return nil, fmt.Errorf("game: new %s: making it current: %w", id, err)
	}
	return s, nil
}

// header sets the session up from its header record.
func (s *Session) header(h *entry, sys rules.System, pos rules.Position) {
	s.id, s.sys, s.created = h.Game, sys, h.Time
	if h.Tags != nil {
		s.tags = *h.Tags
	}
	s.g = rules.NewGame(pos)
	s.result = rules.NoResult
	s.clk.ctl, _ = clock.Parse(s.tags.TimeControl) // checked by New and replayHeader
	s.outcome()
}

// Open resumes the current game of stateDir: it reads the game's journal
// and replays every record through the rules. It returns an error wrapping
// ErrNoGame when there is no current game, and a *JournalError when a record
// does not replay or a bad record is followed by good ones.
//
// A torn or corrupt tail is not an error: the game resumes from the records
// before it, the damaged file is copied aside (<id>.journal.damaged-<time>)
// and the journal cut back. Recovered reports it. When the cut records were
// complete (damaged after they were written, so perhaps published), their
// seqs are skipped: Skipped reports it. With Opts.ReadOnly nothing is
// cut, written or skipped.
func Open(stateDir string, opts *Opts) (*Session, error) {
	cur := filepath.Join(stateDir, CurrentFile)
	b, err := os.ReadFile(cur)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("game: open %s: %w", stateDir, ErrNoGame)
		}
		return nil, fmt.Errorf("game: open: %w", err)
	}
	id := strings.TrimSpace(string(b))
	if !validID(id) {
		return nil, fmt.Errorf("game: open: %s: %q is not a game id", cur, id)
	}
	return OpenGame(stateDir, id, opts)
}

// OpenGame opens the game id of stateDir (one of Games), current or not,
// as Open does: to export a finished game, say. It does not make it current.
func OpenGame(stateDir, id string, opts *Opts) (*Session, error) {
	o := opts.fill()
	if !validID(id) {
		return nil, fmt.Errorf("game: open: %q is not a game id", id)
	}
	path := filepath.Join(stateDir, GamesDir, id+JournalExt)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("game: open: %w", err)
	}
	recs, good, bad, err := scan(path, data)
	if err != nil {
		if o.ReadOnly {
			return nil, err
		}
		// Damage in the middle: cut out, the records after it kept as far
		// as they replay (mend.go).
		return mendGame(stateDir, id, path, data, o, err)
	}
	if len(recs) == 0 {
		err := errors.New("no header record")
		if bad != nil {
			err = fmt.Errorf("no header record: %s", bad.Reason)
		}
		return nil, &JournalError{Path: path, Err: err}
	}
	s := &Session{opts: o, dir: stateDir}
	if err := s.replay(path, id, recs); err != nil {
		return nil, err
	}
	if o.ReadOnly {
		// A reader never repairs: a bad tail may be a write in progress.
		s.j = &journal{path: path, size: int64(good), records: len(recs), broken: fmt.Errorf("game %s: %w", id, ErrReadOnly)}
		return s, nil
	}
	f, err := o.open(path, os.O_RDWR|os.O_APPEND)
	if err != nil {
		return nil, fmt.Errorf("game: open: %w", err)
	}
	s.j = &journal{path: path, f: f, size: int64(good), records: len(recs)}
	if bad != nil {
		if err := s.cutTail(data, good, len(recs)+1, bad); err != nil {
			f.Close()
			return nil, err
		}
	}
	if err := s.skipPublished(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// cutTail saves the damaged file aside and cuts the journal back to good.
func (s *Session) cutTail(data []byte, good, record int, bad *durable.Corrupt) error {
	path := s.j.path
	aside := fmt.Sprintf("%s.damaged-%s", path, formatID(s.opts.now()))
	tail := data[good:]
	d := &Damage{Path: path, Record: record, Offset: int64(good), Lost: int64(len(tail)),
		Reason: bad.Reason, What: describe(tail), Aside: aside, Complete: bad.Complete}
	if d.Complete {
		// Each complete record cut may have been a move handed out for
		// publication: none of their seqs is handed out again.
		d.Seqs = max(1, bytes.Count(tail, []byte{'\n'}))
	}
	if err := durable.CutTail(s.j.f, filepath.Dir(path), data, int64(good), aside); err != nil {
		return fmt.Errorf("%v; %w", d, err)
	}
	s.damage = d
	return nil
}

// skipPublished skips the seqs that may have been published but that the
// journal no longer holds: those of complete records cut off, and those up
// to Opts.Published. It journals the skip before any move can take them.
func (s *Session) skipPublished() error {
	last := s.lastSeq()
	to, why := last, ""
	if d := s.damage; d != nil && d.Seqs > 0 {
		to, why = last+d.Seqs, "the damaged records cut off may have held them"
	}
	if s.opts.Published != nil {
		if p := s.opts.Published(s.id); p > to {
			to, why = p, "the MQTT outbox has published up to them"
		}
	}
	if to <= last {
		return nil
	}
	e := &entry{T: kindSkip, Seq: to, Time: s.opts.now()}
	if err := s.j.append(e); err != nil {
		return fmt.Errorf("game: open %s: skipping seqs %d-%d: %w", s.id, last+1, to, err)
	}
	s.apply(e, 0)
	s.skip = &Skip{Game: s.id, From: last + 1, To: to, Why: why}
	return nil
}

// lastSeq is the highest seq handed out (or skipped); the next move is
// lastSeq()+1.
func (s *Session) lastSeq() int { return len(s.all) + s.skipped }

// replay rebuilds the session from the records of a journal.
func (s *Session) replay(path, id string, recs []rawRecord) error {
	for i, r := range recs {
		fail := func(err error) error {
			return &JournalError{Path: path, Record: i + 1, Offset: int64(r.off), Err: err}
		}
		e, err := decode(r.body)
		if err != nil {
			return fail(err)
		}
		if i == 0 {
			if err := s.replayHeader(id, e); err != nil {
				return fail(err)
			}
			continue
		}
		if err := s.replayEntry(e); err != nil {
			return fail(fmt.Errorf("%s: %w", e.T, err))
		}
	}
	return nil
}

func (s *Session) replayHeader(id string, h *entry) error {
	switch {
	case h.T != kindHeader:
		return fmt.Errorf("%q record where the header should be", h.T)
	case h.V != FormatVersion:
		return fmt.Errorf("format version %d, want %d", h.V, FormatVersion)
	case h.Game != id:
		return fmt.Errorf("header names game %q, the file game %q", h.Game, id)
	}
	var sys rules.System
	if i := slices.IndexFunc(s.opts.Systems, func(sys rules.System) bool { return sys.Name() == h.System }); i >= 0 {
		sys = s.opts.Systems[i]
	} else if found, err := systems.ByName(h.System); err == nil {
		sys = found
	} else {
		return fmt.Errorf("unknown rule system %q", h.System)
	}
	pos, err := sys.ParsePosition(h.Start)
	if err != nil {
		return fmt.Errorf("start position: %w", err)
	}
	if h.Tags != nil {
		if _, err := clock.Parse(h.Tags.TimeControl); err != nil {
			return err
		}
	}
	s.header(h, sys, pos)
	return nil
}

// replayEntry checks a record against the game so far and applies it, as
// the method that wrote it did.
func (s *Session) replayEntry(e *entry) error {
	switch e.T {
	case kindMove:
		if err := s.canMove(); err != nil {
			return err
		}
		if e.Seq != s.lastSeq()+1 {
			return fmt.Errorf("seq %d, want %d", e.Seq, s.lastSeq()+1)
		}
		pos := s.g.Position()
		m, _, err := pos.ParseMove(e.Move)
		if err != nil {
			return fmt.Errorf("seq %d: %w", e.Seq, err)
		}
		if l := pos.Long(m); l != e.Move {
			return fmt.Errorf("seq %d: %q is not a long form (%s)", e.Seq, e.Move, l)
		}
		if after := pos.Play(m).String(); after != e.Pos {
			return fmt.Errorf("seq %d %s: the rules give %q, the journal %q", e.Seq, e.Move, after, e.Pos)
		}
		s.apply(e, m)
		return nil
	case kindTakeBack:
		last, err := s.canTakeBack()
		if err != nil {
			return err
		}
		if e.Seq != last.Seq {
			return fmt.Errorf("takes back seq %d, the last move is seq %d", e.Seq, last.Seq)
		}
	case kindOffer, kindDecline, kindResult:
		side, err := rules.ParseColor(e.Side)
		if err != nil {
			return err
		}
		switch {
		case e.T == kindOffer:
			err = s.canOffer(side)
		case e.T == kindDecline:
			err = s.canAnswer(side)
		case e.Reason == ReasonResignation:
			err = s.canMove()
		case e.Reason == ReasonAgreement:
			err = s.canAnswer(side)
		case e.Reason == ReasonThreefold:
			_, err = s.canClaim(ClaimThreefold)
		case e.Reason == ReasonFiftyMoves:
			_, err = s.canClaim(ClaimFiftyMoves)
		case e.Reason == ReasonTime:
			err = s.canFlag(side, rules.Result(e.Result))
		case e.Reason == ReasonIllegal:
			err = s.canLose(side, rules.Result(e.Result), "for illegal moves")
		default:
			err = fmt.Errorf("unknown reason %q", e.Reason)
		}
		if err != nil {
			return err
		}
		if e.T == kindResult && e.Reason != ReasonTime && e.Reason != ReasonIllegal {
			if want := resultOf(e.Reason, side); string(want) != e.Result {
				return fmt.Errorf("result %q, want %q for %s by %s", e.Result, want, e.Reason, side)
			}
		}
	case kindClock:
		if err := s.canChangeClock(e); err != nil {
			return err
		}
	case kindSkip:
		if e.Seq <= s.lastSeq() {
			return fmt.Errorf("skips to seq %d, seq %d is already used", e.Seq, s.lastSeq())
		}
	case kindTeach, kindHint:
		if err := s.replayTeach(e); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown record kind")
	}
	s.apply(e, 0)
	return nil
}

// apply makes a checked record take effect.
func (s *Session) apply(e *entry, m rules.Move) {
	switch e.T {
	case kindMove:
		mover := s.g.Position().Turn()
		s.g.Play(m)
		mv := Move{Seq: e.Seq, Game: s.id, Move: e.Move, SAN: e.SAN, Position: e.Pos, Time: e.Time}
		if e.Clock != nil {
			ms := e.Clock.MS(mover)
			mv.ClkMS = &ms
		}
		s.all = append(s.all, mv)
		s.line = append(s.line, mv)
		s.clk.moved(e.Clock)
		if s.offered && s.offerBy != mover {
			s.offered = false // moving declines the opponent's offer
		}
		s.outcome()
	case kindSkip:
		s.skipped = e.Seq - len(s.all)
	case kindTakeBack:
		s.g.TakeBack()
		s.line = s.line[:len(s.line)-1]
		s.clk.tookBack()
		s.offered = false
		s.result, s.reason = rules.NoResult, ReasonNone
	case kindOffer:
		s.offered, s.offerBy = true, sideOf(e.Side)
	case kindDecline:
		s.offered = false
	case kindResult:
		s.result, s.reason, s.by = rules.Result(e.Result), e.Reason, sideOf(e.Side)
		s.offered = false
	case kindClock:
		s.clk.changed(e)
	case kindTeach, kindHint:
		s.applyTeach(e)
	}
}

// outcome ends the game when the position decides it.
func (s *Session) outcome() {
	r, why := s.g.Outcome()
	if r == rules.NoResult {
		return
	}
	s.result = r
	switch why {
	case "checkmate":
		s.reason = ReasonCheckmate
	case "stalemate":
		s.reason = ReasonStalemate
	default:
		s.reason = ReasonDeadPosition
	}
}

// do journals e, then applies it.
func (s *Session) do(e *entry, m rules.Move) error {
	if err := s.j.append(e); err != nil {
		return fmt.Errorf("game %s: %w", s.id, err)
	}
	s.apply(e, m)
	return nil
}

func (s *Session) usable() error {
	if s.closed {
		return fmt.Errorf("game %s: %w", s.id, ErrClosed)
	}
	if s.opts.ReadOnly {
		return fmt.Errorf("game %s: %w", s.id, ErrReadOnly)
	}
	return nil
}

func (s *Session) canMove() error {
	if s.result != rules.NoResult {
		return fmt.Errorf("%w (%s, %s)", ErrGameOver, s.result, s.reason)
	}
	return nil
}

func (s *Session) canTakeBack() (Move, error) {
	if len(s.line) == 0 {
		return Move{}, errors.New("no move to take back")
	}
	if s.result != rules.NoResult && !s.reason.byPosition() {
		return Move{}, fmt.Errorf("%w (%s, %s)", ErrGameOver, s.result, s.reason)
	}
	return s.line[len(s.line)-1], nil
}

func (s *Session) canOffer(side rules.Color) error {
	if err := s.canMove(); err != nil {
		return err
	}
	if s.offered {
		if s.offerBy == side {
			return fmt.Errorf("%s has already offered a draw", side)
		}
		return fmt.Errorf("%s's draw offer is pending: accept or decline it", s.offerBy)
	}
	return nil
}

// canAnswer checks that side may accept or decline a draw offer.
func (s *Session) canAnswer(side rules.Color) error {
	if err := s.canMove(); err != nil {
		return err
	}
	if !s.offered || s.offerBy == side {
		return fmt.Errorf("%s has no draw offer to answer", side)
	}
	return nil
}

func (s *Session) canClaim(c Claim) (Reason, error) {
	if err := s.canMove(); err != nil {
		return ReasonNone, err
	}
	three, fifty := s.g.CanClaimThreefold(), s.g.CanClaimFiftyMoves()
	switch {
	case three && (c == ClaimAny || c == ClaimThreefold):
		return ReasonThreefold, nil
	case fifty && (c == ClaimAny || c == ClaimFiftyMoves):
		return ReasonFiftyMoves, nil
	}
	whyThree := fmt.Sprintf("the position has stood %d times, 3 are needed", s.g.Repetitions())
	if s.g.Repetitions() == 1 {
		whyThree = "the position has stood once, 3 times are needed"
	}
	whyFifty := fmt.Sprintf("the halfmove clock is %d, 100 are needed", s.g.Position().HalfmoveClock())
	switch c {
	case ClaimThreefold:
		return ReasonNone, fmt.Errorf("no draw by threefold repetition: %s", whyThree)
	case ClaimFiftyMoves:
		return ReasonNone, fmt.Errorf("no draw by the 50-move rule: %s", whyFifty)
	case ClaimAny:
		return ReasonNone, fmt.Errorf("no draw to claim: %s; %s", whyThree, whyFifty)
	}
	return ReasonNone, fmt.Errorf("unknown claim %v", c)
}

func resultOf(r Reason, side rules.Color) rules.Result {
	if r == ReasonResignation {
		if side == rules.White {
			return rules.BlackWins
		}
		return rules.WhiteWins
	}
	return rules.Draw
}

func sideOf(s string) rules.Color {
	c, _ := rules.ParseColor(s)
	return c
}

// refuse wraps why a command was refused.
func (s *Session) refuse(what string, err error) error {
	return fmt.Errorf("game %s: %s: %w", s.id, what, err)
}

// Play plays m, which must be one of the current position's legal moves,
// and returns the move to publish.
func (s *Session) Play(m rules.Move) (Move, error) { return s.PlayAt(m, time.Time{}, nil) }

func (s *Session) play(pos rules.Position, m rules.Move) (Move, error) {
	return s.playAt(pos, m, time.Time{}, nil)
}

// playAt plays m, completed at at (zero: now), with the clock's reading
// after it (nil: none).
func (s *Session) playAt(pos rules.Position, m rules.Move, at time.Time, r *clock.Reading) (Move, error) {
	if at.IsZero() {
		at = s.opts.now()
	}
	e := &entry{T: kindMove, Seq: s.lastSeq() + 1, Move: pos.Long(m), SAN: pos.Short(m),
		Pos: pos.Play(m).String(), Time: at.UTC(), Clock: r}
	if err := s.do(e, m); err != nil {
		return Move{}, err
	}
	return s.all[len(s.all)-1], nil
}

// PlayNotation plays a move given in long form or short notation. The note
// is non-empty when the notation was ambiguous and read by a stated
// convention (D17).
func (s *Session) PlayNotation(move string) (Move, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return Move{}, "", err
	}
	if err := s.canMove(); err != nil {
		return Move{}, "", s.refuse("play "+move, err)
	}
	pos := s.g.Position()
	m, note, err := pos.ParseMove(move)
	if err != nil {
		return Move{}, "", s.refuse("play", err)
	}
	mv, err := s.play(pos, m)
	if err != nil {
		return Move{}, "", err
	}
	return mv, note, nil
}

// TakeBack takes the last move back and returns it. The next move gets the
// next seq, never this one's. A game decided by its position (checkmate,
// stalemate, dead position) goes on again; one ended by resignation,
// agreement or claim refuses.
func (s *Session) TakeBack() (Move, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return Move{}, err
	}
	last, err := s.canTakeBack()
	if err != nil {
		return Move{}, s.refuse("take back", err)
	}
	if err := s.do(&entry{T: kindTakeBack, Seq: last.Seq, Time: s.opts.now()}, 0); err != nil {
		return Move{}, err
	}
	return last, nil
}

// Resign ends the game: side loses.
func (s *Session) Resign(side rules.Color) error {
	return s.command("resign", side, func() error { return s.canMove() },
		&entry{T: kindResult, Result: string(resultOf(ReasonResignation, side)), Reason: ReasonResignation})
}

// Forfeit ends the game for side's second completed illegal move (FIDE
// Laws 7.5.5): res is side's loss, or a draw when its opponent cannot mate
// (as clock.FlagResult decides). The termination is ReasonIllegal.
func (s *Session) Forfeit(side rules.Color, res rules.Result) error {
	return s.command("forfeit", side, func() error { return s.canLose(side, res, "for illegal moves") },
		&entry{T: kindResult, Result: string(res), Reason: ReasonIllegal})
}

// canLose checks a result res that side's fault gives (why: "on time",
// "for illegal moves"): the game goes on, and res is side's loss or a draw.
func (s *Session) canLose(side rules.Color, res rules.Result, why string) error {
	if err := s.canMove(); err != nil {
		return err
	}
	if res != rules.Draw && res != resultOf(ReasonResignation, side) {
		return fmt.Errorf("result %q %s for %s: want %q or %q", res, why, side,
			resultOf(ReasonResignation, side), rules.Draw)
	}
	return nil
}

// OfferDraw records side's draw offer. It stands until the opponent accepts
// or declines it, or plays a move (which declines it), or a move is taken
// back.
func (s *Session) OfferDraw(side rules.Color) error {
	return s.command("offer a draw", side, func() error { return s.canOffer(side) }, &entry{T: kindOffer})
}

// AcceptDraw accepts the opponent's draw offer: the game is drawn.
func (s *Session) AcceptDraw(side rules.Color) error {
	return s.command("accept a draw", side, func() error { return s.canAnswer(side) },
		&entry{T: kindResult, Result: string(rules.Draw), Reason: ReasonAgreement})
}

// DeclineDraw declines the opponent's draw offer.
func (s *Session) DeclineDraw(side rules.Color) error {
	return s.command("decline a draw", side, func() error { return s.canAnswer(side) }, &entry{T: kindDecline})
}

// ClaimDraw claims a draw for side by threefold repetition or the 50-move
// rule, in the current position, and returns the reason granted. Either
// side may claim (on a sensor board the move that repeats is already on
// it). It is refused, with the reason, unless the claim holds.
func (s *Session) ClaimDraw(side rules.Color, c Claim) (Reason, error) {
	e := &entry{T: kindResult, Result: string(rules.Draw)}
	err := s.command("claim a draw", side, func() (err error) { e.Reason, err = s.canClaim(c); return err }, e)
	if err != nil {
		return ReasonNone, err
	}
	return e.Reason, nil
}

// command runs a command on behalf of side: check, then journal e (with
// the side and the time), then apply.
func (s *Session) command(what string, side rules.Color, check func() error, e *entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return err
	}
	if side != rules.White && side != rules.Black {
		return s.refuse(what, fmt.Errorf("side %d: want white or black", side))
	}
	if err := check(); err != nil {
		return s.refuse(side.String()+": "+what, err)
	}
	e.Side, e.Time = side.String(), s.opts.now()
	return s.do(e, 0)
}

// Result is the game's result and why; rules.NoResult and ReasonNone while
// it goes on.
func (s *Session) Result() (rules.Result, Reason) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result, s.reason
}

// DrawOffer reports the side whose draw offer is pending, if any.
func (s *Session) DrawOffer() (rules.Color, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offerBy, s.offered
}

// ID is the game id.
func (s *Session) ID() string { return s.id }

// System is the game's rule system.
func (s *Session) System() rules.System { return s.sys }

// Tags are the game's tags.
func (s *Session) Tags() Tags { return s.tags }

// Path is the journal's file.
func (s *Session) Path() string { return s.j.path }

// Start is the position the game started from.
func (s *Session) Start() rules.Position {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.g.Start()
}

// Position is the current position.
func (s *Session) Position() rules.Position {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.g.Position()
}

// Moves are the moves of the game as it stands (without those taken back),
// with their seqs, in order.
func (s *Session) Moves() []Move {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.line)
}

// Published are every move accepted in this game, taken back or not, in seq
// order (1, 2, 3, ...; a gap where seqs were skipped, see Skipped): what
// was handed out for publication. The daemon enqueues them again at
// start-up.
func (s *Session) Published() []Move {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.all)
}

// Recovered reports the damaged tail Open cut off the journal, or nil.
func (s *Session) Recovered() *Damage { return s.damage }

// Skipped reports the seqs Open skipped because they may have been
// published already, or nil.
func (s *Session) Skipped() *Skip { return s.skip }

// Close closes the journal. Every change is already on disk.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.j.close()
}
