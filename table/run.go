package table

import (
	"context"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/sensors"
)

type cmdReq struct {
	c     Command
	reply chan cmdResult
}

type cmdResult struct {
	r   Reply
	err error
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
		case req := <-t.pauses:
			t.pause(req)
			if !req.on {
				last = time.Time{} // the periods paused were not missed
			}
		case req := <-t.cmds:
			if t.paused.Load() {
				req.reply <- cmdResult{Reply{}, ErrPaused}
				continue
			}
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
			if t.paused.Load() {
				continue
			}
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
