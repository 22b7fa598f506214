package web

import (
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/sim"
)

// waitTimers polls (real time, against a deadline) until the clock's
// pending timers are exactly want.
func waitTimers(t *testing.T, clk *sim.TimeSource, want ...time.Time) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if slices.EqualFunc(clk.Timers(), want, time.Time.Equal) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timers %v, want %v", clk.Timers(), want)
		}
	}
}

// Run releases the delayed inputs on the hub's own clock: a move made
// under a 15 s broadcast delay is not shown after 14 s of simulated time
// and is shown once the 15th second has passed.
func TestHubRunOnItsClock(t *testing.T) {
	clk := sim.NewTimeSource(time.Time{})
	o := DefaultOpts()
	o.Delay, o.Now, o.NewTimer = 15*time.Second, clk.Now, clk.NewTimer
	h := NewHub(o)
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b4N")
	done := make(chan struct{})
	defer close(done)
	go h.Run(done, time.Second)
	for range 14 {
		waitTimers(t, clk, clk.Now().Add(time.Second))
		clk.Advance(time.Second)
	}
	waitTimers(t, clk, clk.Now().Add(time.Second)) // the 14th second released
	if v, ok := h.View("b1"); ok {
		t.Fatalf("shown after 14 s of a 15 s delay: %d moves", len(v.Moves))
	}
	clk.Advance(time.Second)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if v, ok := h.View("b1"); ok && len(v.Moves) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the move is not shown once the delay has passed")
		}
	}
}

// next is the stream's next event, within 10 s.
func next(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event in 10 s")
		return sseEvent{}
	}
}

// The stream writes a heartbeat after Heartbeat of silence on the server's
// clock, and an event starts the silence again.
func TestHeartbeatAfterSilence(t *testing.T) {
	clk := sim.NewTimeSource(time.Time{})
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	o := DefaultServerOpts()
	o.NewTimer = clk.NewTimer
	srv := httptest.NewServer(New(h, o).Handler())
	t.Cleanup(srv.Close) // after the streams' own cleanups have closed them
	for i, path := range []string{"/boards/b1/events", "/events"} {
		evs, _, _ := streamEvents(t, srv.URL+path, nil)
		if ev := next(t, evs); ev.name == "comment" {
			t.Fatalf("%s: first %+v, want the board", path, ev)
		}
		if path == "/events" {
			if ev := next(t, evs); ev.name != "now" {
				t.Fatalf("%s: after the boards %+v, want the server's time", path, ev)
			}
		}
		waitTimers(t, clk, clk.Now().Add(15*time.Second))
		select {
		case ev, ok := <-evs:
			t.Fatalf("%s: %+v (open: %v) before any time passed", path, ev, ok)
		default:
		}
		clk.Advance(15 * time.Second)
		if ev := next(t, evs); ev.name != "comment" || ev.data != "heartbeat" {
			t.Fatalf("%s: %+v after 15 s of silence, want a heartbeat", path, ev)
		}
		waitTimers(t, clk, clk.Now().Add(15*time.Second))
		clk.Advance(5 * time.Second)
		f.play([]string{"b2W-b4N", "b7B-b5N"}[i])
		if ev := next(t, evs); ev.name == "comment" {
			t.Fatalf("%s: %+v, want the move", path, ev)
		}
		waitTimers(t, clk, clk.Now().Add(15*time.Second)) // silence from the move on
		srv.CloseClientConnections()
	}
}
