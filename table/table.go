package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
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
	// Play is how a new game is played when its NewGame does not say
	// (game.Play: casual, tournament, lesson); "" is casual.
	Play game.Play

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
		Hints: DefaultHintOpts(), Clock: DefaultClockOpts()}
}

// ButtonKind is what a button does.
type ButtonKind uint8

const (
	// ButtonPromote chooses Button.Piece for a waiting promotion, or for
	// a placement of one of several pieces (First Contact's pawn or king).
	ButtonPromote ButtonKind = iota + 1
	// ButtonNewGame starts a new game of the current system.
	ButtonNewGame
	// ButtonTakeBack takes the last move back.
	ButtonTakeBack
	// ButtonClockWhite and ButtonClockBlack are the sides' clock buttons
	// (clock.go).
	ButtonClockWhite
	ButtonClockBlack
	// ButtonHint asks for a hint (Hint).
	ButtonHint
)

// Button is the meaning of one button of the wiring.
type Button struct {
	Kind  ButtonKind
	Piece byte // ButtonPromote: 'Q', 'R', 'B', 'N', or for placements 'P', 'K'
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

	buttons []Button // by scanner button index
	pressed uint64
	// choice is the piece of a choice button pressed while the board
	// showed a promotion (or placement) still to be completed: it is
	// chosen once the move is (a player choosing, then pressing the
	// clock).
	choice   byte
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
	running  atomic.Bool
	synced   chan struct{}
	syncOnce sync.Once
	skipped  atomic.Uint64
	closed   bool
	hmu      sync.Mutex // health
	hints    hints
	ck       clockState // the chess clock (clock.go)
	peer     *PeerState // the other set of a remote game (peer.go)
	tbAsk    *TakeBackRequest
	// tbHeld: a take-back by hand in a remote game waits for the other
	// set's answer, or was refused and the move is not back on the set
	// yet; meanwhile the position before the move is no take-back.
	tbHeld   bool
	tbAnswer *TakeBackAnswer
	// resolve is the players' resolution of a desync, until the remote
	// opponent carries it out (Resolve).
	resolve *Resolution
}

type cmdReq struct {
	c     Command
	reply chan cmdResult
}

type cmdResult struct {
	r   Reply
	err error
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
	if _, err := game.ParsePlay(string(opts.Play)); err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.SinkQueue <= 0 {
		opts.SinkQueue = DefaultOpts().SinkQueue
	}
	t := &Table{o: opts, log: opts.Log, cmds: make(chan cmdReq), synced: make(chan struct{}), prevState: 255}
	t.hints = hints{o: opts.Hints, done: make(chan hintFound, 16)}
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
		s, err = game.New(t.o.StateDir, t.o.System, "", game.Tags{Site: t.o.BoardID, TimeControl: controlTag(t.o.Clock.Default), Play: t.o.Play}, &gopts)
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

// CanSense reports why the set cannot play sys, or nil: the wiring must
// wire every cell of sys.
func (t *Table) CanSense(sys rules.System) error { return canSense(t.o.Wiring, sys) }

func canSense(w *sensors.Wiring, sys rules.System) error {
	_, err := wiringFor(w, sys)
	return err
}

// wiringFor is w read as the wiring of sys's cells (a reference ST3D
// wiring serves first-contact-up: the same switches, other names), or why
// the set cannot sense sys.
func wiringFor(w *sensors.Wiring, sys rules.System) (*sensors.Wiring, error) {
	fw, err := w.ForCells(sys.Cells())
	if err == nil {
		err = fw.Validate(sys.Cells())
	}
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		return nil, &SenseError{System: sys, Detail: first}
	}
	return fw, nil
}

// SenseError says that the set cannot sense System's cells (errors.Is
// ErrCannotSense): a game of a system another set plays.
type SenseError struct {
	System rules.System
	Detail string // the first wiring problem
}

func (e *SenseError) Error() string {
	return fmt.Sprintf("%v: %s needs a set whose wiring has its cells (%s)", ErrCannotSense, e.System.Name(), e.Detail)
}

// Unwrap makes errors.Is(err, ErrCannotSense) true.
func (e *SenseError) Unwrap() error { return ErrCannotSense }

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
		t.buttons = t.buttons[:0]
		for _, name := range sc.Buttons() {
			t.buttons = append(t.buttons, t.o.Buttons[name])
		}
	}
	t.sys, t.sess = sys, sess
	t.hints.shown = nil
	tc, ok := sess.Teaching()
	if !ok {
		tc = t.o.Hints.teaching()
	}
	t.hints.teach = tc
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

// lastMoveCells are the from and to cells of the session's last move.
func (t *Table) lastMoveCells() rules.CellSet {
	moves := t.sess.Moves()
	if len(moves) == 0 {
		return rules.CellSet{}
	}
	pos := t.sess.Start()
	var last rules.Move
	var before rules.Position
	for _, m := range moves {
		mv, _, err := pos.ParseMove(m.Move)
		if err != nil {
			return rules.CellSet{}
		}
		before, last = pos, mv
		pos = pos.Play(mv)
	}
	return moveCells(before.Info(last))
}

func moveCells(in rules.MoveInfo) rules.CellSet {
	var s rules.CellSet
	if in.From != rules.NoCell {
		s.Add(in.From)
	}
	if in.To != rules.NoCell {
		s.Add(in.To)
	}
	return s
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
	for _, q := range t.queues {
		h.Sinks = append(h.Sinks, q.stats())
	}
	return h
}

// snapshot takes a new snapshot of the table.
func (t *Table) snapshot(now time.Time) *Snapshot {
	st := t.rec.Status()
	res, reason := t.sess.Result()
	s := &Snapshot{
		Board: t.o.BoardID, Game: t.sess.ID(), System: t.sys, Start: t.sess.Start(), Position: t.sess.Position(),
		Moves: t.sess.Moves(), Tags: t.sess.Tags(), Result: res, Reason: reason, Expected: t.rec.Position(),
		LastMove: t.lastMove, RemoteFrom: t.remoteFrom, RemoteTo: t.remoteTo, Time: now,
		published: t.sess.Published,
		Status: BoardStatus{State: st.State, Lifted: st.Lifted, Placed: st.Placed, Unknown: st.Unknown,
			FirstLifted: st.FirstLifted, Held: st.Held},
	}
	s.DrawOffer, s.HasDrawOffer = t.sess.DrawOffer()
	s.Hint, s.HintsLocked, s.HintsUsed, s.Teaching = t.currentHint(), t.hints.teach.Locked, t.sess.HintsUsed(), t.hints.teach
	if !t.observed {
		// Nothing read yet: the set is not known to show the position.
		st.State, st.Reason, st.Instruction = recognize.Mismatch, "waiting for the first reading of the sensors", ""
		s.Status.State = st.State
	}
	switch st.State {
	case recognize.Mismatch:
		s.Status.Fix, s.Status.Reason, s.Status.Instruction, s.Status.Culprits = st.Fix, st.Reason, st.Instruction, t.culprits
		if t.illegalWhy != "" {
			s.Status.Reason = t.illegalWhy
		}
		if !t.explains() {
			s.Status.Instruction = "" // a side without assistance is shown the cells only
		}
	case recognize.SensorFault:
		s.Status.Fault = st.Reason
	case recognize.NeedsChoice:
		for _, m := range st.Choices {
			s.Status.Choices = append(s.Status.Choices, choiceLetter(t.rec.Position(), m))
		}
	}
	s.Clock = t.clockSnapshot(now)
	if t.tbAsk != nil && t.tbAsk.At != len(s.Moves) {
		t.tbAsk = nil // a move was made or taken back since: the request lapsed
		if t.tbHeld {
			t.tbHeld = false
			t.applyPlay()
		}
	}
	s.Peer, s.TakeBack, s.TakeBackAnswer, s.Resolve = t.peer, t.tbAsk, t.tbAnswer, t.resolve
	t.latest.Store(s)
	return s
}

// choiceLetter is the letter that chooses m among moves that differ only
// in a piece: the promotion piece, or the piece a placement puts down.
func choiceLetter(pos rules.Position, m rules.Move) byte {
	in := pos.Info(m)
	if in.PromoteTo != 0 || in.To == rules.NoCell {
		return in.PromoteTo
	}
	if pc, ok := pos.Play(m).CellPiece(in.To); ok {
		return rules.PieceLetters[pc.Kind()]
	}
	return 0
}

// emit sends e, with a new snapshot, to every sink.
func (t *Table) emit(e Event) {
	if e.Snap == nil {
		e.Snap = t.snapshot(e.At)
	}
	for _, q := range t.queues {
		q.put(e)
	}
}

// Tick scans once at the clock's time and carries out what follows: the
// recognizer's verdict, the buttons, the sensors' health, and the moves
// the journal has made durable since.
func (t *Table) Tick() {
	t.applyJournal()
	now := t.o.Now()
	t.sc.Scan(now)
	t.checkHealth(now)
	// Each reading at the time it was read, the buttons in their order
	// among the cells: a scan that came late (the loop did not get the
	// CPU) must not make a reading seem to have stood longer than it did.
	t.sc.Readings(t.observe)
	if t.choice != 0 {
		t.chooseLater(now)
	}
	t.clockTick(now)
}

// observe carries out one reading at its time: the cells to the
// recognizer and its verdict, then the buttons pressed (a clock press
// completes the move the reading shows).
func (t *Table) observe(at time.Time, closed, unknown rules.CellSet, buttons uint64, gap time.Duration) {
	evs := t.rec.ObserveGap(at, closed, unknown, gap)
	if !t.observed {
		t.observed = true
		if len(evs) == 0 {
			t.emit(Event{Kind: BoardChanged, At: at})
		}
	}
	t.recognized(evs)
	if pressed := buttons &^ t.pressed; pressed != 0 {
		t.buttonsPressed(at, pressed)
	}
	t.pressed = buttons
}

func (t *Table) checkHealth(now time.Time) {
	t.hmu.Lock()
	t.health = t.sc.Health(t.health[:0])
	var bad, which []string
	for _, h := range t.health {
		if !h.OK {
			bad = append(bad, fmt.Sprintf("expander %s: %v", h.Expander, h.LastErr))
			which = append(which, h.Expander)
		}
	}
	t.hmu.Unlock()
	// A fault is reported when the set of failing expanders changes, not
	// when only their error does.
	key := strings.Join(which, " ")
	if key == t.faulty {
		return
	}
	t.faulty = key
	f := strings.Join(bad, "; ")
	if f != "" {
		t.log.Warn("sensor fault", "detail", f)
	} else {
		t.log.Info("sensors read again")
	}
	t.emit(Event{Kind: Fault, At: now, Detail: f})
}

func (t *Table) buttonsPressed(now time.Time, pressed uint64) {
	for i, b := range t.buttons {
		if pressed&(1<<i) == 0 {
			continue
		}
		// The press first (the LEDs and the pages show it), then what it
		// does; a button that does nothing is still seen pressed.
		e := Event{Kind: ButtonPressed, At: now, Detail: strings.TrimPrefix(t.sc.Buttons()[i], sensors.ButtonPrefix)}
		if b.Kind == ButtonClockBlack {
			e.Side = rules.Black
		}
		t.emit(e)
		if b.Kind == 0 {
			continue
		}
		var c Command
		switch b.Kind {
		case ButtonPromote:
			if st := t.rec.Status(); st.State == recognize.MoveInProgress && st.Ready {
				// Chosen before the move is completed (by the clock's
				// press, or the settle window): chosen once it is.
				t.choice = b.Piece
				continue
			}
			c = Promote{Piece: b.Piece}
		case ButtonNewGame:
			// The next game of a match keeps the clock and the assistance.
			c = NewGame{TimeControl: t.sess.Control(), Assist: t.hints.teach.Assist}
		case ButtonTakeBack:
			c = TakeBack{}
		case ButtonHint:
			if t.running.Load() {
				t.hintStart(now, nil) // searched on its own goroutine
				continue
			}
			c = Hint{}
		case ButtonClockWhite, ButtonClockBlack:
			t.clockButton(now, b.Kind)
			continue
		}
		if _, err := t.exec(now, c); err != nil {
			t.log.Info("button", "button", t.sc.Buttons()[i], "command", c.Name(), "err", err)
		}
	}
}

// chooseLater makes the choice of a button pressed before its promotion
// was completed, once it waits for it; it is forgotten when the board no
// longer shows a move to complete.
func (t *Table) chooseLater(now time.Time) {
	switch st := t.rec.Status(); {
	case st.State == recognize.NeedsChoice:
		c := Promote{Piece: t.choice}
		t.choice = 0
		if _, err := t.exec(now, c); err != nil {
			t.log.Info("button", "command", c.Name(), "err", err)
		}
	case st.State != recognize.MoveInProgress || !st.Ready:
		t.choice = 0
	}
}

// recognized carries the recognizer's events to the journal and the sinks.
func (t *Table) recognized(evs []recognize.Event) {
	for _, e := range evs {
		switch e.Kind {
		case recognize.Moved:
			if t.unseen.isRedo(e.Before, e.Move) {
				t.madeTakeBack(e.At)
				continue
			}
			if jb := (&job{gen: t.gen, kind: Moved, ev: e, sess: t.sess}); t.clockMove(jb) {
				t.jr.put(jb)
			}
		case recognize.TookBack:
			if t.askByHand(e.At, e) {
				continue
			}
			t.clockTakeBack(completedAt(e))
			t.jr.put(&job{gen: t.gen, kind: TookBack, ev: e, sess: t.sess})
		case recognize.Corrected:
			if jb := (&job{gen: t.gen, kind: Corrected, ev: e, sess: t.sess}); t.clockCorrect(jb) {
				t.jr.put(jb)
			}
		case recognize.StatusChanged:
			t.statusChanged(e)
		}
	}
}

func (t *Table) statusChanged(e recognize.Event) {
	st := e.Status
	names := t.sys.Cells()
	t.log.Debug("board", "state", st.State.String(), "lifted", st.Lifted.Names(names),
		"placed", st.Placed.Names(names), "fix", st.Fix.Names(names), "reason", st.Reason)
	prev := t.prevState
	t.prevState = st.State
	if prev == recognize.InSync && st.State != recognize.InSync {
		t.ck.offSync = e.At
	}
	if t.unseen.seen(st, t.remoteFrom.Union(t.remoteTo)) {
		t.remoteFrom, t.remoteTo = rules.CellSet{}, rules.CellSet{}
	}
	switch st.State {
	case recognize.InSync:
		t.clockInSync(e.At)
		if t.tbHeld && t.tbAsk == nil {
			t.tbHeld = false // the move refused a take-back is back on the set
			t.applyPlay()
		}
		t.reset = false
		t.illegalWhy, t.culprits = "", rules.CellSet{}
		t.syncOnce.Do(func() {
			close(t.synced)
			t.log.Info("board in sync with the position")
		})
	case recognize.Mismatch:
		if prev == recognize.Mismatch {
			break // the cells to fix changed: a board change
		}
		kind := Illegal // the players moved, and no legal move explains it
		detail := st.Reason
		side, n := rules.White, 0
		if t.reset {
			kind = Mismatch // the game changed: the set must follow
		} else {
			side, n = t.clockIllegal(e.At, st)
			if why, culprits, ok := t.explainIllegal(st); ok && t.explains() {
				t.illegalWhy, t.culprits = why, culprits
				detail = why
			}
			if t.play() == game.PlayTournament && strings.HasPrefix(st.Reason, recognize.TakeBacksOff) {
				// A move once made stands: the arbiter is told why.
				detail = "tournament game: no take-back by hand (" + strings.TrimPrefix(st.Reason, recognize.TakeBacksOff) + "); " + detail
			}
		}
		t.emit(Event{Kind: kind, At: e.At, Cells: st.Fix.Union(t.culprits), Detail: detail})
		t.forfeitIllegal(e.At, side, n)
		return
	case recognize.MoveInProgress:
		if st.Held {
			// The move stood its settle window and waits for the press:
			// the reading has not changed since its cells were reported.
			break
		}
		if !st.Lifted.Empty() {
			t.emit(Event{Kind: Lifted, At: e.At, Cells: st.Lifted, Cell: st.FirstLifted})
		}
		if !st.Placed.Empty() {
			t.emit(Event{Kind: Placed, At: e.At, Cells: st.Placed, Cell: rules.NoCell})
		}
		if !st.Lifted.Empty() || !st.Placed.Empty() {
			return
		}
	}
	t.emit(Event{Kind: BoardChanged, At: e.At})
}

// applyJournal takes the effect of the moves made durable since.
func (t *Table) applyJournal() {
	for {
		r, ok := t.jr.ready()
		if !ok {
			return
		}
		t.applied(r)
	}
}

// flush waits for the journal to finish every job and applies them.
func (t *Table) flush() {
	for t.jr.pending > 0 {
		r, ok := t.jr.next(time.Minute)
		if !ok {
			t.log.Error("journal: a write is taking over a minute")
			continue
		}
		t.applied(r)
	}
}

func (t *Table) applied(r result) {
	switch {
	case r.skipped || r.gen != t.gen:
		return
	case r.err != nil:
		// The game refused (it is over, or the journal cannot be written):
		// nothing is published; the board must go back.
		t.gen++
		t.flush()
		t.clockRebuild(r.ev.At, false)
		long := r.ev.Before.Long(r.ev.Move)
		what := "the move " + long
		if r.kind == TookBack {
			what = "the take-back"
		}
		t.log.Error("not accepted", "what", what, "err", r.err)
		t.setExpected(t.sess.Position(), "the game did not accept "+what+": "+r.err.Error())
		t.lastMove = t.lastMoveCells()
		t.emit(Event{Kind: Illegal, At: r.ev.At, Detail: what + ": " + r.err.Error(), Cells: moveCells(r.ev.Before.Info(r.ev.Move))})
		return
	}
	m := r.move
	switch r.kind {
	case Moved:
		t.lastMove = moveCells(r.ev.Before.Info(r.ev.Move))
		t.log.Info("move", "seq", m.Seq, "move", m.Move, "san", m.SAN)
		t.emit(Event{Kind: Moved, At: r.ev.At, Completed: completedAt(r.ev), By: r.ev.By, Move: &m, Before: r.ev.Before})
		if res, _ := t.sess.Result(); res != rules.NoResult {
			t.clockStop(completedAt(r.ev)) // the game ended when the move was completed
		}
		t.afterMove(r.ev.At, r.ev.After)
	case TookBack:
		t.lastMove = t.lastMoveCells()
		t.log.Info("take-back", "move", m.Move)
		t.emit(Event{Kind: TookBack, At: r.ev.At, Completed: completedAt(r.ev), Move: &m})
	case Corrected:
		w := r.withdrawn
		t.lastMove = moveCells(r.ev.Before.Info(r.ev.Move))
		t.log.Info("correction", "withdrawn", w.Move, "seq", m.Seq, "move", m.Move, "san", m.SAN)
		t.emit(Event{Kind: Corrected, At: r.ev.At, Completed: completedAt(r.ev), By: r.ev.By, Move: &m, Withdrawn: &w,
			Before: r.ev.Before})
		t.afterMove(r.ev.At, r.ev.After)
	}
}

// afterMove reports check and the end of the game.
func (t *Table) afterMove(at time.Time, after rules.Position) {
	if check, king := after.InCheck(); check {
		t.emit(Event{Kind: Check, At: at, Cell: king})
	}
	t.gameOver(at)
}

func (t *Table) gameOver(at time.Time) {
	if res, reason := t.sess.Result(); res != rules.NoResult {
		t.clockStop(at)
		t.log.Info("game over", "game", t.sess.ID(), "result", res, "termination", reason)
		t.emit(Event{Kind: GameOver, At: at, Result: res, Reason: reason})
	}
}

// Exec carries out c on the table's goroutine (between Ticks, without Run).
func (t *Table) Exec(c Command) (Reply, error) { return t.exec(t.o.Now(), c) }

// Do carries out c on Run's goroutine and waits for its reply, or ctx.
func (t *Table) Do(ctx context.Context, c Command) (Reply, error) {
	if !t.running.Load() {
		return Reply{}, ErrClosed
	}
	req := cmdReq{c: c, reply: make(chan cmdResult, 1)}
	select {
	case t.cmds <- req:
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
	select {
	case r := <-req.reply:
		return r.r, r.err
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

// Run scans every Sensors.Period until ctx ends, and carries out the
// commands given to Do meanwhile.
func (t *Table) Run(ctx context.Context) error {
	if t.closed {
		return ErrClosed
	}
	period := t.o.Sensors.Period
	if period <= 0 {
		period = sensors.DefaultOpts().Period
	}
	tk := time.NewTicker(period)
	defer tk.Stop()
	t.running.Store(true)
	defer t.running.Store(false)
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case req := <-t.cmds:
			if _, ok := req.c.(Hint); ok {
				// The engine searches on its own goroutine; the reply
				// comes when it is done.
				t.hintStart(t.o.Now(), req.reply)
				continue
			}
			r, err := t.Exec(req.c)
			req.reply <- cmdResult{r, err}
		case f := <-t.hints.done:
			t.hintFinish(t.o.Now(), f)
		case tick := <-tk.C:
			// Periods missed by a late scan are skipped, not made up, and
			// counted.
			if !last.IsZero() {
				if n := tick.Sub(last)/period - 1; n > 0 {
					t.skipped.Add(uint64(n))
				}
			}
			last = tick
			t.Tick()
		}
	}
}

// Drain waits until the journal has made every recognized move durable and
// every sink has handled every event so far, for at most wait (of real
// time: it waits for other goroutines). It reports whether they all did.
func (t *Table) Drain(wait time.Duration) bool {
	t.flush()
	deadline := time.Now().Add(wait)
	for _, q := range t.queues {
		for !q.idle() {
			if time.Now().After(deadline) {
				return false
			}
			time.Sleep(time.Millisecond)
		}
	}
	return true
}

// Close waits for the journal, closes the game and stops the sinks after
// they had their queued events (at most a few seconds each).
func (t *Table) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	t.flush()
	t.jr.close()
	t.clockClose(t.o.Now())
	err := t.sess.Close()
	for _, q := range t.queues {
		done, cerr := q.close(5 * time.Second)
		if !done {
			t.log.Warn("an output did not finish within 5 s")
		}
		if cerr != nil {
			t.log.Warn("an output failed to close", "err", cerr)
		}
	}
	if err != nil {
		return fmt.Errorf("table: journal: %w", err)
	}
	return nil
}
