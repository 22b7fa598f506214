package table

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
)

// Opts are the dependencies and settings of a Table.
type Opts struct {
	// BoardID names the set (the Site tag of its games).
	BoardID string
	// StateDir holds the game journals. Required.
	StateDir string
	// Published, if set, is the highest seq of a game that may have been
	// published (the MQTT outbox's, mqtt.HighestSeq): the resumed game
	// never hands one out again (game.Opts.Published).
	Published func(game string) int
	// System is the rules of a new game when the state directory has none
	// to resume. Required.
	System rules.System
	// NewGames, if set, is the rules of a new game that names none (a
	// button's, a command's without a variant); nil: the current game's.
	// The setup page sets it to the rules it chose, which a resumed game
	// of other rules does not take.
	NewGames rules.System
	// Bus is the I2C bus of the sensors: periph's, or sim's. Required.
	Bus i2c.Bus
	// Wiring says which switch is which cell. Required; it decides which
	// systems the set can play (those whose cells it wires).
	Wiring *sensors.Wiring
	// Sensors tunes the scanner; its Cells are set by the table.
	Sensors sensors.Opts
	// Recognize tunes the recognizer.
	Recognize recognize.Opts
	// Now is the clock: the real one, or a simulated one.
	Now func() time.Time
	// Buttons says what each button of the wiring does, by name.
	Buttons map[string]Button
	// Sinks are the outputs; more can be added with AddSink before Run.
	Sinks []Sink
	// SinkQueue is how many events wait for a slow sink before they are
	// dropped (and the sink is given the whole table again).
	SinkQueue int
	// Hints tune the hints (Hint).
	Hints HintOpts
	// Log receives what an operator should know; nil means slog.Default().
	Log *slog.Logger
	// Clock configures the chess clock of games with a time control.
	Clock ClockOpts
	// Game is how a new game is played when its NewGame does not say.
	Game GameOpts

	// slowJournal, when set (tests), runs before each journal write.
	slowJournal func()
	// slowHint, when set (tests), runs before each hint's search, on the
	// goroutine that searches.
	slowHint func()
}

// DefaultOpts returns the defaults: the scanner's and the recognizer's,
// the real clock, 256 queued events a sink.
func DefaultOpts() Opts {
	return Opts{Sensors: sensors.DefaultOpts(), Recognize: recognize.DefaultOpts(), Now: time.Now, SinkQueue: 256,
		Hints: DefaultHintOpts(), Clock: DefaultClockOpts(), Game: DefaultGameOpts()}
}

// Health is the state of the table's hardware and outputs.
type Health struct {
	// Expanders are the scanner's expanders.
	Expanders []sensors.Health
	// Scans counts the scans, Changes those that changed a cell.
	Scans, Changes uint64
	// Skipped counts the scan periods missed because a scan (or the
	// system) was late.
	Skipped uint64
	// Paused is true while the table is paused (Pause): it does not scan.
	Paused bool
	// Journaling is the number of moves waiting for the disk.
	Journaling int
	// Sinks are the outputs' counts, in the order they were added.
	Sinks []SinkStats
}

// Table is one set and the game on it. Tick, Exec and Close belong to one
// goroutine (Run's, or the caller's); Do, Snapshot, Health and Synced may
// be called from any.
type Table struct {
	o      Opts
	log    *slog.Logger
	sys    rules.System
	sc     *sensors.Scanner
	rec    *recognize.Recognizer
	sess   *game.Session
	jr     *journal
	gen    int // journal generation: a failed job voids the rest of its generation
	queues []*queue

	buttons  buttonPanel // the set's buttons (buttons.go)
	health   []sensors.Health
	faulty   string
	lastMove rules.CellSet
	// remoteFrom/To show a move made elsewhere until the set shows it,
	// and unseen one the switches cannot see (unseen.go).
	remoteFrom, remoteTo rules.CellSet
	unseen               unseen
	prevState            recognize.State
	// reset is true from a change of the expected position by the table
	// (a new game, a take-back, a move made elsewhere) until the set shows
	// it: a mismatch meanwhile is the game's change, not the players'.
	reset bool
	// observed is true once the recognizer had a reading.
	observed bool
	// illegalWhy and culprits explain the illegal move the set shows.
	illegalWhy string
	culprits   rules.CellSet

	latest   atomic.Pointer[Snapshot]
	cmds     chan cmdReq
	pauses   chan pauseReq // Pause, Resume (pause.go)
	paused   atomic.Bool
	running  atomic.Bool
	synced   chan struct{}
	syncOnce sync.Once
	skipped  atomic.Uint64
	closed   bool
	hmu      sync.Mutex // health
	hints    hints
	ck       clockState // the chess clock (clock.go)
	remote   remotePeer // the other set of a remote game (remote.go)
}

// New builds a table: it resumes the state directory's current game (or
// starts one of o.System), configures the sensors and waits for the set to
// show the position. On error it leaves nothing open.
func New(o *Opts) (*Table, error) {
	opts := *o
	switch {
	case opts.StateDir == "":
		return nil, errors.New("table: no state directory")
	case opts.System == nil:
		return nil, errors.New("table: no rule system")
	case opts.Bus == nil:
		return nil, errors.New("table: no I2C bus")
	case opts.Wiring == nil:
		return nil, errors.New("table: no wiring")
	}
	if _, err := game.ParsePlay(string(opts.Game.Play)); err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.SinkQueue <= 0 {
		opts.SinkQueue = DefaultOpts().SinkQueue
	}
	t := &Table{o: opts, log: opts.Log, cmds: make(chan cmdReq), pauses: make(chan pauseReq), synced: make(chan struct{}), prevState: 255}
	t.hints = newHints(opts.Hints)
	if t.log == nil {
		t.log = slog.Default()
	}
	sess, err := t.openGame()
	if err != nil {
		return nil, err
	}
	if err := t.start(sess); err != nil {
		_ = sess.Close()
		return nil, err
	}
	t.jr = newJournal(opts.slowJournal)
	for _, s := range opts.Sinks {
		t.AddSink(s)
	}
	return t, nil
}

// openGame resumes the current game, or starts one.
func (t *Table) openGame() (*game.Session, error) {
	gopts := t.gameOpts()
	s, err := game.Open(t.o.StateDir, &gopts)
	switch {
	case errors.Is(err, game.ErrNoGame):
		s, err = game.New(t.o.StateDir, t.o.System, "", game.Tags{Site: t.o.BoardID, TimeControl: controlTag(t.o.Clock.Default), Play: t.o.Game.Play}, &gopts)
		if err != nil {
			return nil, err
		}
		t.log.Info("new game", "game", s.ID(), "variant", s.System().Name(), "journal", s.Path())
	case err != nil:
		return nil, err
	default:
		t.ck.resumed = true
		t.log.Info("resumed game", "game", s.ID(), "variant", s.System().Name(), "moves", len(s.Moves()),
			"journal", s.Path())
	}
	if dmg := s.Recovered(); dmg != nil {
		t.log.Warn("the journal was damaged and the damage cut out; what was cut is kept aside", "copy", dmg.Aside, "err", dmg)
	}
	if k := s.Skipped(); k != nil {
		t.log.Warn("seqs that may have been published are not used again", "from", k.From, "to", k.To, "err", k)
	}
	return s, nil
}

func (t *Table) gameOpts() game.Opts {
	g := game.DefaultOpts()
	g.Now = t.o.Now
	g.Published = t.o.Published
	return g
}

// start makes sess the table's game: a scanner over its system's cells (a
// new one when the cells change) and a recognizer expecting its position.
func (t *Table) start(sess *game.Session) error {
	sys := sess.System()
	if t.sc == nil || !slices.Equal(t.sys.Cells(), sys.Cells()) {
		w, err := wiringFor(t.o.Wiring, sys)
		if err != nil {
			return err
		}
		so := t.o.Sensors
		so.Cells = sys.Cells()
		if so.Now == nil {
			so.Now = t.o.Now // each reading stamped with when it was read
		}
		sc, err := sensors.New(t.o.Bus, w, &so)
		if err != nil {
			return err
		}
		t.sc = sc
		t.buttons.wire(sc.Buttons(), t.o.Buttons)
	}
	t.sys, t.sess = sys, sess
	t.hints.game(sess.Teaching())
	t.lastMove, t.remoteFrom, t.remoteTo, t.unseen = rules.CellSet{}, rules.CellSet{}, rules.CellSet{}, unseen{}
	if moves := sess.Moves(); len(moves) > 0 {
		t.lastMove = t.lastMoveCells()
	}
	if t.rec == nil {
		t.rec = recognize.New(sess.Position(), t.o.Recognize)
		t.reset = true
	} else {
		t.setExpected(sess.Position(), "set up the position of the new game")
	}
	t.clockGame(t.o.Now())
	t.snapshot(t.o.Now())
	return nil
}

// setExpected makes the set expect pos; until it shows it, the board is in
// mismatch for reason.
// What explained the players' last illegal move belongs to the position
// they made it in: it goes, and the next mismatch is reported afresh.
func (t *Table) setExpected(pos rules.Position, reason string) {
	t.rec.SetPosition(pos, reason)
	t.expectedSet()
}

// expectedSet follows a new expected position of the recognizer: until
// the set shows it, a mismatch is the game's, not an illegal move.
func (t *Table) expectedSet() {
	t.reset = true
	t.illegalWhy, t.culprits = "", rules.CellSet{}
	t.prevState = 255
}

// AddSink adds an output. It must be called before Run (or between Ticks,
// on their goroutine). The sink first gets a Started event.
func (t *Table) AddSink(s Sink) {
	q := newQueue(s, t.o.SinkQueue)
	t.queues = append(t.queues, q)
	now := t.o.Now()
	q.put(Event{Kind: Started, At: now, Snap: t.latest.Load()})
	if dmg := t.sess.Recovered(); dmg != nil {
		// A journal damage cut out at start-up is a fault every output hears of.
		q.put(Event{Kind: Fault, At: now, Snap: t.latest.Load(), Detail: "journal: " + dmg.Error()})
	}
	t.clockAddSink(q, now)
}

// Snapshot is the table as of the last change. Safe from any goroutine.
func (t *Table) Snapshot() *Snapshot { return t.latest.Load() }

// Synced is closed the first time the set shows the expected position.
func (t *Table) Synced() <-chan struct{} { return t.synced }

// Health reports the sensors, the scan loop, the journal and the sinks.
func (t *Table) Health() Health {
	t.hmu.Lock()
	h := Health{Expanders: slices.Clone(t.health)}
	t.hmu.Unlock()
	st := t.sc.Stats()
	h.Scans, h.Changes, h.Skipped = st.Scans, st.Changes, st.Skipped+t.skipped.Load()
	h.Journaling = len(t.jr.jobs)
	h.Paused = t.paused.Load()
	for _, q := range t.queues {
		h.Sinks = append(h.Sinks, q.stats())
	}
	return h
}
