package table_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/table"
)

// Paused (the wiring being learned from the setup page), the table reads
// nothing from the bus and refuses commands; resumed, it reads the set as
// it is now, and what was done to it meanwhile is seen.
func TestPauseStopsTheScanAndResumeReadsTheSetAgain(t *testing.T) {
	r := newRig(t)
	_ = r.tb.Close()
	r.opts.StateDir = t.TempDir()
	// The set's time follows the real one, as under run --sim.
	start, base := time.Now(), r.b.Clock.Now()
	r.opts.Now = func() time.Time {
		if want := base.Add(time.Since(start)); want.After(r.b.Clock.Now()) {
			r.b.Clock.Set(want)
		}
		return r.b.Clock.Now()
	}
	tb, err := table.New(&r.opts)
	if err != nil {
		t.Fatal(err)
	}
	r.tb = tb
	t.Cleanup(func() { _ = tb.Close() })
	r.setup()
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- tb.Run(ctx) }()
	defer func() { cancel(); <-ran }()
	if err := tb.Pause(ctx); !errors.Is(err, table.ErrClosed) && err != nil {
		t.Fatalf("Pause before Run: %v", err)
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("not within 30 s: %s (board %s)", what, tb.Snapshot().Status.State)
			}
		}
	}
	waitFor("Run going and the set in sync", func() bool {
		return tb.Pause(ctx) == nil && tb.Resume(ctx) == nil && tb.Snapshot().Status.State == recognize.InSync
	})

	if err := tb.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	if !tb.Health().Paused {
		t.Error("Health().Paused is false while paused")
	}
	scans := tb.Health().Scans
	// A piece lifted while paused is not seen, however long the loop goes
	// round (20 scan periods and more of commands refused).
	if err := r.b.Set.SetCell("b2W", false); err != nil {
		t.Fatal(err)
	}
	for until := time.Now().Add(20 * r.opts.Sensors.Period); time.Now().Before(until); {
		if _, err := tb.Do(ctx, table.Teach{Lock: ptr(true)}); !errors.Is(err, table.ErrPaused) {
			t.Fatalf("a command while paused: %v, want ErrPaused", err)
		}
	}
	if got := tb.Health().Scans; got != scans {
		t.Errorf("%d scans while paused", got-scans)
	}
	if st := tb.Snapshot().Status.State; st != recognize.InSync {
		t.Errorf("paused, the board became %s", st)
	}

	if err := tb.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if tb.Health().Paused {
		t.Error("Health().Paused is true after Resume")
	}
	waitFor("the lifted piece seen after Resume", func() bool { return tb.Snapshot().Status.State == recognize.MoveInProgress })
	if err := r.b.Set.SetCell("b2W", true); err != nil {
		t.Fatal(err)
	}
	waitFor("in sync again once it is put back", func() bool { return tb.Snapshot().Status.State == recognize.InSync })
	if _, err := tb.Do(ctx, table.Teach{Lock: ptr(false)}); err != nil {
		t.Errorf("a command after Resume: %v", err)
	}
}
