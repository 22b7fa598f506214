package sensors_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
)

func TestRunRealTime(t *testing.T) {
	board := sets.NewReference()
	opts := sensors.DefaultOpts()
	opts.Period, opts.Debounce = time.Millisecond, 3*time.Millisecond
	sc, err := sensors.New(board.Bus, board.Wiring, &opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	settled := make(chan sensors.Snapshot, 1)
	calls := 0
	err = sc.Run(ctx, func(s sensors.Snapshot, ev []sensors.Event) {
		calls++
		if calls == 1 {
			settled <- s
			// A slow consumer: the periods it blocks are skipped, not queued.
			time.Sleep(20 * time.Millisecond)
			time.AfterFunc(5*time.Millisecond, cancel)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	s := <-settled
	if closedNames(s) != startNames() || !s.Unknown.Empty() {
		t.Fatalf("settled snapshot: %s, %d unknown", closedNames(s), s.Unknown.Len())
	}
	if calls != 1 {
		t.Fatalf("fn called %d times for one change", calls)
	}
	if st := sc.Stats(); st.Skipped < 10 || st.Changes != 1 {
		t.Fatalf("stats %+v: want >= 10 skipped periods", st)
	}
}
