package opponent

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// EngineOpts tune an Engine opponent.
type EngineOpts struct {
	// Now is the clock of the search's time budget; nil means time.Now.
	Now func() time.Time
	// Seed varies the weak levels' choices.
	Seed uint64
	// Log receives its moves; nil means slog.Default().
	Log *slog.Logger
	// CommandTimeout bounds one command to the table.
	CommandTimeout time.Duration
	// MoveOverhead is what each of its moves costs on the clock besides
	// the search (engine.TimeLeft.Overhead; 0: engine.DefaultOverhead).
	MoveOverhead time.Duration
}

// Engine plays one side with the engine at a level (engine.Levels, counted
// from 1). When it is its side's turn and the set shows the position, it
// searches on its own goroutine (never the table's) and plays its move as a
// move made elsewhere: the LEDs show it for the learner to make on the set.
// After a take-back (of its move, of the learner's, of both) it plays again
// whenever it is its turn. On a clock it manages its time
// (engine.TimeLeft): it never thinks longer than its level allows, nor so
// long that its clock falls under what its remaining moves need.
type Engine struct {
	spec game.Opponent
	do   Doer
	o    EngineOpts

	mu     sync.Mutex
	latest *table.Snapshot
	played string // the position it last played in, so it plays once

	wake chan struct{}
	stop chan struct{}
	done chan struct{}
	ctx  context.Context
	quit context.CancelFunc
}

// NewEngine starts an engine opponent for the table do, whose game snap is.
func NewEngine(spec game.Opponent, snap *table.Snapshot, do Doer, o EngineOpts) (*Engine, error) {
	if spec.Engine < 1 || spec.Engine > len(engine.Levels) {
		return nil, fmt.Errorf("opponent: engine level %d: want 1 to %d", spec.Engine, len(engine.Levels))
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.CommandTimeout <= 0 {
		o.CommandTimeout = 10 * time.Second
	}
	e := &Engine{spec: spec, do: do, o: o, latest: snap, wake: make(chan struct{}, 1), stop: make(chan struct{}),
		done: make(chan struct{})}
	e.ctx, e.quit = context.WithCancel(context.Background())
	go e.loop()
	e.poke()
	return e, nil
}

// Handle follows the table.
func (e *Engine) Handle(ev table.Event) {
	e.mu.Lock()
	e.latest = ev.Snap
	switch ev.Kind {
	case table.TookBack, table.Started, table.GameBegan:
		// The position it played in may come back: it plays there again.
		// (Events come in order, so no snapshot older than this one is
		// left to think on; PlayMove's Ply refuses a stale move anyway.)
		e.played = ""
	}
	e.mu.Unlock()
	e.poke()
}

func (e *Engine) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

func (e *Engine) loop() {
	defer close(e.done)
	for {
		select {
		case <-e.stop:
			return
		case <-e.wake:
			e.think()
		}
	}
}

// think plays a move when it is the engine's turn and the set is ready.
func (e *Engine) think() {
	e.mu.Lock()
	snap, played := e.latest, e.played
	e.mu.Unlock()
	if snap == nil || snap.Result != rules.NoResult || snap.Status.State != recognize.InSync {
		return
	}
	pos := snap.Position
	key := fmt.Sprintf("%s %s %d", snap.Game, pos.Key(), len(snap.Moves))
	if pos.Turn() != e.spec.Side || key == played || snap.Expected.Key() != pos.Key() {
		return
	}
	history := []rules.Position{snap.Start}
	p := snap.Start
	for _, m := range snap.Moves {
		mv, _, err := p.ParseMove(m.Move)
		if err != nil {
			break
		}
		p = p.Play(mv)
		history = append(history, p)
	}
	history = history[:len(history)-1]
	lv := engine.Levels[e.spec.Engine-1]
	seed := e.o.Seed + uint64(len(snap.Moves))
	o := lv.Opts(e.o.Now, seed)
	if tl, ok := TimeLeft(snap.Clock, e.spec.Side, e.o.Now(), e.o.MoveOverhead); ok {
		o = lv.ClockOpts(e.o.Now, seed, tl)
	}
	o.History = history
	res, err := engine.Search(e.ctx, pos, o)
	if err != nil {
		e.o.Log.Error("opponent: engine", "err", err)
		return
	}
	long := pos.Long(res.Move)
	ctx, cancel := context.WithTimeout(e.ctx, e.o.CommandTimeout)
	defer cancel()
	if _, err := e.do.Do(ctx, table.PlayMove{Move: long, Game: snap.Game, Ply: len(snap.Moves) + 1}); err != nil {
		// The set changed meanwhile (the players touched a piece, took a
		// move back): the next change of the table wakes the engine again.
		e.o.Log.Info("opponent: engine move not played yet", "move", long, "err", err)
		return
	}
	e.mu.Lock()
	e.played = key
	e.mu.Unlock()
	e.o.Log.Info("opponent: engine move", "level", e.spec.Engine, "move", long, "depth", res.Depth,
		"nodes", res.Nodes, "think", res.Elapsed, "budget", o.Time)
}

// TimeLeft is side's clock in snap at now for the engine's time
// management: its time, its period's increment (or delay) and the moves it
// has to go in its period. False when the game has no clock, or it is
// paused or flagged.
func TimeLeft(snap *clock.Snapshot, side rules.Color, now time.Time, overhead time.Duration) (engine.TimeLeft, bool) {
	if snap == nil || snap.Paused || snap.Flag != "" {
		return engine.TimeLeft{}, false
	}
	ctl, err := clock.Parse(snap.Control)
	if err != nil || ctl.None() {
		return engine.TimeLeft{}, false
	}
	period, togo := snap.WhitePeriod, snap.WhiteToGo
	if side == rules.Black {
		period, togo = snap.BlackPeriod, snap.BlackToGo
	}
	p := ctl.Periods[min(max(period-1, 0), len(ctl.Periods)-1)]
	var inc time.Duration
	if p.Bonus != clock.NoBonus {
		inc = p.Amount
	}
	return engine.TimeLeft{Left: snap.Remaining(side, now), Inc: inc, MovesToGo: togo, Overhead: overhead}, true
}

// Close stops the engine (a search under way is abandoned).
func (e *Engine) Close() {
	e.quit()
	close(e.stop)
	<-e.done
}
