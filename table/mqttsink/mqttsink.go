// Package mqttsink connects a table to MQTT: its events and snapshots become
// the retained state, the moves (through the durable outbox) and the events
// of docs/mqtt.md, and MQTT commands become the table's commands.
package mqttsink

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// Publisher is what the sink publishes through: an *mqtt.Client.
type Publisher interface {
	// Enqueue hands a durable move to the outbox, in seq order; a seq
	// already enqueued is a no-op.
	Enqueue(m mqtt.Move) error
	PublishState(s mqtt.State)
	PublishEvent(e mqtt.Event)
}

// Opts tune a Sink.
type Opts struct {
	// RetryMin and RetryMax bound the wait before a failed outbox write is
	// tried again (doubling from RetryMin).
	RetryMin, RetryMax time.Duration
	// After is the clock of the retries; nil means time.After.
	After func(time.Duration) <-chan time.Time
	// Log receives outbox failures; nil means slog.Default().
	Log *slog.Logger
}

// DefaultOpts returns the defaults: retries from 100 ms to 10 s.
func DefaultOpts() Opts {
	return Opts{RetryMin: 100 * time.Millisecond, RetryMax: 10 * time.Second, After: time.After}
}

// Sink is a table.Sink publishing on MQTT.
type Sink struct {
	p Publisher
	o Opts

	mu      sync.Mutex
	latest  *table.Snapshot
	failing bool // an outbox write failed: the retry loop catches up
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// New returns a sink publishing through p. Close stops its retries.
func New(p Publisher, o *Opts) *Sink {
	opts := DefaultOpts()
	if o != nil {
		opts = *o
	}
	if opts.After == nil {
		opts.After = time.After
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = DefaultOpts().RetryMin
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = opts.RetryMin
	}
	s := &Sink{p: p, o: opts, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go s.retry()
	return s
}

// Handle publishes e: a move to the outbox, an event, and the state after it.
func (s *Sink) Handle(e table.Event) {
	if e.Snap == nil {
		return
	}
	s.mu.Lock()
	s.latest = e.Snap
	s.mu.Unlock()
	switch e.Kind {
	case table.Started:
		// After a start or missed events: everything handed out for
		// publication goes to the outbox again (known seqs are no-ops), so
		// a crash between the journal and the outbox loses nothing.
		s.catchUp()
	case table.Moved, table.Corrected:
		s.enqueue(*e.Move)
	}
	if ev, ok := EventOf(e); ok {
		s.p.PublishEvent(ev)
	}
	s.p.PublishState(State(e.Snap))
}

// enqueue puts m in the outbox, or leaves it to the retry loop.
func (s *Sink) enqueue(m game.Move) {
	s.mu.Lock()
	failing := s.failing
	s.mu.Unlock()
	if failing {
		s.poke()
		return
	}
	if err := s.p.Enqueue(mqtt.Move(m)); err != nil {
		s.fail(err, m.Seq)
	}
}

func (s *Sink) fail(err error, seq int) {
	s.o.Log.Error("MQTT outbox: the move stays in the journal; enqueueing it again", "seq", seq, "err", err)
	s.mu.Lock()
	s.failing = true
	s.mu.Unlock()
	s.poke()
}

func (s *Sink) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// catchUp enqueues every published move of the latest snapshot in order;
// it reports whether all went in.
func (s *Sink) catchUp() bool {
	s.mu.Lock()
	snap := s.latest
	s.mu.Unlock()
	if snap == nil {
		return true
	}
	for _, m := range snap.Published() {
		if err := s.p.Enqueue(mqtt.Move(m)); err != nil {
			s.fail(err, m.Seq)
			return false
		}
	}
	return true
}

// retry enqueues the journal's moves again, with backoff, after a failed
// write, until every one is in. Failing stays true until they are.
func (s *Sink) retry() {
	defer close(s.done)
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		}
		for wait := s.o.RetryMin; s.Failing(); {
			select {
			case <-s.stop:
				return
			case <-s.o.After(wait):
			}
			if s.catchUp() {
				s.mu.Lock()
				s.failing = false
				s.mu.Unlock()
				s.o.Log.Info("MQTT outbox: caught up with the journal")
				break
			}
			if wait *= 2; wait > s.o.RetryMax {
				wait = s.o.RetryMax
			}
		}
	}
}

// Close stops the retries.
func (s *Sink) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}

// Failing reports whether moves wait for the outbox to work again.
func (s *Sink) Failing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failing
}

// State is the retained state payload of snap.
func State(snap *table.Snapshot) mqtt.State {
	pos := snap.Position
	check, _ := pos.InCheck()
	s := mqtt.State{Game: snap.Game, Variant: snap.System.Name(), Position: pos.String(), Turn: pos.Turn(),
		Board: boardOf(snap), MoveNumber: pos.FullmoveNumber(), Check: check, Result: string(snap.Result),
		Reason: string(snap.Reason), Time: snap.Time.UTC(), Clock: snap.Clock, Lesson: lessonOf(snap)}
	if n := len(snap.Moves); n > 0 {
		m := snap.Moves[n-1]
		s.LastMove = &mqtt.LastMove{Seq: m.Seq, Move: m.Move, SAN: m.SAN}
		s.Moves = make([]string, n)
		s.ClkMS = make([]int64, n)
		for i, m := range snap.Moves {
			s.Moves[i] = m.Move
			if m.ClkMS == nil {
				s.ClkMS = nil
			} else if s.ClkMS != nil {
				s.ClkMS[i] = *m.ClkMS
			}
		}
	}
	if start := snap.Start.String(); start != snap.System.Start().String() {
		s.Start = start
	}
	if snap.HasDrawOffer {
		s.DrawOffer = snap.DrawOffer.String()
	}
	if p := snap.Peer; p != nil {
		s.Peer = &mqtt.PeerState{Set: p.Set, Online: p.Online, Paired: p.Paired, Detail: p.Detail}
	}
	if tb := snap.TakeBack; tb != nil {
		s.TakeBackAsked = &mqtt.TakeBackAsked{Plies: tb.Plies, ByOtherSet: tb.ByPeer}
	}
	for _, t := range []struct{ name, value string }{{"White", snap.Tags.White}, {"Black", snap.Tags.Black},
		{"Event", snap.Tags.Event}, {"Round", snap.Tags.Round}, {"Board", snap.Tags.Board}, {"Site", snap.Tags.Site},
		{"Date", snap.Tags.Date}} {
		if t.value != "" {
			if s.Tags == nil {
				s.Tags = map[string]string{}
			}
			s.Tags[t.name] = t.value
		}
	}
	for _, t := range snap.Tags.Players() {
		if s.Tags == nil {
			s.Tags = map[string]string{}
		}
		s.Tags[t.Name] = t.Value
	}
	return s
}

// lessonOf is the lesson's part of the state.
func lessonOf(snap *table.Snapshot) *mqtt.Lesson {
	tc := &snap.Teaching
	l := &mqtt.Lesson{Locked: tc.Locked, Assist: map[string]string{}, Hints: map[string]int{}, HintsUsed: map[string]int{}}
	for _, side := range []rules.Color{rules.White, rules.Black} {
		a := tc.Assist[side]
		if a == "" {
			a = game.AssistFull
		}
		l.Assist[side.String()], l.Hints[side.String()], l.HintsUsed[side.String()] = string(a), tc.Limit[side], snap.HintsUsed[side]
	}
	return l
}

func boardOf(snap *table.Snapshot) mqtt.Board {
	st := &snap.Status
	names := snap.Cells()
	switch st.State {
	case recognize.MoveInProgress:
		return mqtt.Board{Status: mqtt.BoardMoveInProgress, Cells: st.Lifted.Union(st.Placed).Names(names)}
	case recognize.NeedsChoice:
		b := mqtt.Board{Status: mqtt.BoardNeedsChoice}
		for _, p := range st.Choices {
			b.Choices = append(b.Choices, string(p))
		}
		return b
	case recognize.Mismatch:
		return mqtt.Board{Status: mqtt.BoardMismatch, Cells: st.Fix.Names(names), Reason: st.Reason, Hint: st.Hint}
	case recognize.SensorFault:
		return mqtt.Board{Status: mqtt.BoardSensorFault, Cells: st.Unknown.Names(names), Fault: st.Fault}
	}
	return mqtt.Board{Status: mqtt.BoardInSync}
}

// EventOf is the event payload of e, when e is published as one.
func EventOf(e table.Event) (mqtt.Event, bool) {
	snap := e.Snap
	names := snap.Cells()
	ev := mqtt.Event{Game: snap.Game, Time: e.At.UTC()}
	switch e.Kind {
	case table.TookBack:
		ev.Type, ev.Move = mqtt.EventTakeBack, e.Move.Move
	case table.Corrected:
		ev.Type, ev.Move, ev.Detail = mqtt.EventCorrection, e.Move.Move, e.Withdrawn.Move
	case table.Lifted:
		ev.Type, ev.Cells = mqtt.EventLift, e.Cells.Names(names)
		if e.Cell != rules.NoCell {
			ev.Cell = names[e.Cell] // touch-move: the piece touched first
		}
	case table.Placed:
		ev.Type, ev.Cells = mqtt.EventPlace, e.Cells.Names(names)
	case table.Illegal:
		ev.Type, ev.Cells, ev.Detail = mqtt.EventIllegal, e.Cells.Names(names), e.Detail
	case table.Mismatch:
		ev.Type, ev.Cells, ev.Detail = mqtt.EventMismatch, e.Cells.Names(names), e.Detail
	case table.Check:
		ev.Type, ev.Cell = mqtt.EventCheck, snap.CellName(e.Cell)
	case table.GameOver:
		ev.Type, ev.Result, ev.Detail = mqtt.EventGameOver, string(e.Result), string(e.Reason)
	case table.Fault:
		if e.Detail == "" {
			return ev, false
		}
		ev.Type, ev.Detail = mqtt.EventFault, e.Detail
	case table.GameBegan:
		ev.Type = mqtt.EventNewGame
	case table.DrawOffered:
		ev.Type, ev.Detail = mqtt.EventDrawOffer, e.Side.String()
	case table.ClockChanged:
		ev.Type, ev.Detail = mqtt.EventClock, e.Detail
	case table.LowTime:
		ev.Type, ev.Detail = mqtt.EventLowTime, e.Side.String()
	case table.HintGiven:
		// As the LEDs show it: the first stage names the piece only.
		h := snap.Hint
		if h == nil {
			return ev, false
		}
		ev.Type, ev.Cell, ev.Cells, ev.Detail = mqtt.EventHint, h.Piece, h.From.Union(h.To).Names(names), e.Side.String()
		if h.Stage == 2 {
			ev.Move = h.Move
		}
	case table.ButtonPressed:
		ev.Type, ev.Detail = mqtt.EventButton, e.Detail
	case table.PeerChanged:
		ev.Type, ev.Detail = mqtt.EventPeer, e.Detail
	default:
		return ev, false
	}
	return ev, true
}

// Doer carries out table commands: a *table.Table.
type Doer interface {
	Do(ctx context.Context, c table.Command) (table.Reply, error)
}

// Resolver finds the rule system of a new game's variant and options
// (rules/systems.Lookup).
type Resolver func(variant, options string) (rules.System, error)

// Handler answers MQTT commands by carrying them out on t.
func Handler(t Doer, resolve Resolver) mqtt.Handler {
	return mqtt.HandlerFunc(func(ctx context.Context, c mqtt.Command) (any, error) {
		tc, err := Command(c, resolve)
		if err != nil {
			return nil, err
		}
		r, err := t.Do(ctx, tc)
		if err != nil {
			return nil, err
		}
		return replyData(tc, r), nil
	})
}

// Command is the table command of an MQTT command.
func Command(c mqtt.Command, resolve Resolver) (table.Command, error) {
	switch c := c.(type) {
	case mqtt.NewGame:
		sys, err := resolve(c.Variant, c.Options)
		if err != nil {
			return nil, err
		}
		tags := game.Tags{White: c.White, Black: c.Black, Event: c.Event, Round: c.Round, Board: c.Board, WhiteElo: c.WhiteElo,
			BlackElo: c.BlackElo, WhiteTitle: c.WhiteTitle, BlackTitle: c.BlackTitle, WhiteFideID: c.WhiteFideID,
			BlackFideID: c.BlackFideID}
		if o := c.Opponent; o != nil {
			spec := opponent.Spec{Side: rules.Black, Set: o.Set, Engine: o.Engine}
			if o.Side == "white" {
				spec.Side = rules.White
			}
			if _, _, err := opponent.Parse(spec.String()); err != nil {
				return nil, err
			}
			tags.Opponent = spec.String()
		}
		ctl, err := clock.Parse(c.TimeControl)
		if err != nil {
			return nil, err
		}
		ng := table.NewGame{System: sys, Position: c.Position, Tags: tags, TimeControl: ctl,
			DefaultClock: c.TimeControl == ""}
		for side, a := range c.Assist {
			ng.Assist[sideIndex(side)] = game.Assist(a)
		}
		return ng, nil
	case mqtt.Promotion:
		return table.Promote{Piece: c.Piece}, nil
	case mqtt.TakeBack:
		return table.TakeBack{Plies: c.Plies, Answer: c.Answer}, nil
	case mqtt.Resign:
		return table.Resign{Side: c.Side}, nil
	case mqtt.Draw:
		a, ok := map[string]table.DrawAction{mqtt.DrawOffer: table.DrawOffer, mqtt.DrawAccept: table.DrawAccept,
			mqtt.DrawDecline: table.DrawDecline, mqtt.DrawClaim: table.DrawClaim}[c.Action]
		if !ok {
			return nil, fmt.Errorf("draw action %q: want offer, accept, decline or claim", c.Action)
		}
		return table.Draw{Side: c.Side, Action: a}, nil
	case mqtt.Resync:
		return table.Resync{}, nil
	case mqtt.PlayMove:
		return table.PlayMove{Move: c.Move}, nil
	case mqtt.Hint:
		return table.Hint{}, nil
	case mqtt.Teach:
		t := table.Teach{Lock: c.Lock}
		for side, n := range c.Hints {
			t.Limit[sideIndex(side)] = &n
		}
		for side, a := range c.Assist {
			t.Assist[sideIndex(side)] = game.Assist(a)
		}
		return t, nil
	case mqtt.Clock:
		return clockCommand(c)
	}
	return nil, fmt.Errorf("command %q not supported", c.Name())
}

// sideIndex is the rules.Color of "white" or "black" (checked by the
// payload's validation).
func sideIndex(side string) rules.Color {
	if side == "black" {
		return rules.Black
	}
	return rules.White
}

func replyData(c table.Command, r table.Reply) any {
	switch c.(type) {
	case table.NewGame:
		return map[string]string{"game": r.Game}
	case table.TakeBack:
		if r.Move == nil {
			// Asked of the other set of a remote game, or refused.
			return map[string]any{"moves": []string{}}
		}
		moves := make([]string, len(r.TakenBack))
		for i, m := range r.TakenBack {
			moves[i] = m.Move
		}
		return map[string]any{"move": r.Move.Move, "moves": moves}
	case table.PlayMove:
		return map[string]any{"seq": r.Move.Seq, "move": r.Move.Move, "san": r.Move.SAN}
	case table.Hint:
		// Stage 1 names the piece only; stage 2 the whole move.
		d := map[string]any{"stage": r.Hint.Stage, "piece": r.Hint.Piece}
		if r.Hint.Stage == 2 {
			d["target"], d["move"] = r.Hint.Target, r.Hint.Move
		}
		return d
	case table.Clock:
		return r.Clock
	case table.Draw:
		if r.Claim != "" {
			return map[string]string{"termination": string(r.Claim)}
		}
	}
	return nil
}
