package table

import (
	"context"
	"errors"
	"time"
)

// ErrPaused: the table is paused (Pause): it neither scans nor takes
// commands until Resume.
var ErrPaused = errors.New("table: paused while the set's wiring is learned (/setup/wiring): try again when it is done")

// pauseReq asks Run's goroutine to pause (on) or resume.
type pauseReq struct {
	on   bool
	done chan struct{}
}

// Pause stops Run's scanning and its commands (they fail with ErrPaused)
// until Resume, so that another reader may have the bus and the LEDs (the
// wiring being learned). The game, its journal and its sinks stay as they
// are. It returns once Run's goroutine has paused, the journal's moves
// applied and the sinks' events handled (5 s at most): no scan runs and no
// event reaches a sink after it.
func (t *Table) Pause(ctx context.Context) error { return t.setPaused(ctx, true) }

// Resume scans again after Pause, from a fresh reading of the set, and
// hands the sinks the whole table again (the LEDs show the game anew).
func (t *Table) Resume(ctx context.Context) error { return t.setPaused(ctx, false) }

func (t *Table) setPaused(ctx context.Context, on bool) error {
	if !t.running.Load() {
		return ErrClosed
	}
	req := pauseReq{on: on, done: make(chan struct{})}
	select {
	case t.pauses <- req:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-req.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pause carries out a pauseReq on Run's goroutine.
func (t *Table) pause(req pauseReq) {
	defer close(req.done)
	if req.on == t.paused.Load() {
		return
	}
	t.paused.Store(req.on)
	if req.on {
		// The moves on their way to the journal applied, and every event
		// so far handled by the sinks: nothing the table said before the
		// pause reaches the LEDs after it.
		if !t.Drain(5 * time.Second) {
			t.log.Warn("paused with an output still busy")
		}
		t.log.Info("table paused: the wiring is being learned")
		return
	}
	t.log.Info("table resumed")
	t.observed = false // the next reading is told to the sinks as it is
	now := t.o.Now()
	t.emit(Event{Kind: BoardChanged, At: now})
}
