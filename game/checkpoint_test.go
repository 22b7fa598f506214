package game

import (
	"os"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
)

// Issue 21: the running clock kept beside the journal comes back after a
// reopen, with the number of clock records before it, and only while no
// move was made or taken back since; a torn checkpoint is ignored.
func TestSavedClock(t *testing.T) {
	s, dir := clockGame(t, "")
	at := time.Date(2026, 12, 1, 10, 0, 8, 0, time.UTC)
	r1 := clock.Reading{WhiteMS: 175000, BlackMS: 180000, At: at}
	if _, err := s.PlayAt(mustMove(t, s.Position(), "b2W-b3W"), at, &r1); err != nil {
		t.Fatal(err)
	}
	if err := s.ChangeClock(ClockChange{Action: ClockAdd, Side: rules.White, D: time.Second, Time: at.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	cp := clock.Checkpoint{Reading: clock.Reading{WhiteMS: 176000, BlackMS: 176000, At: at.Add(4 * time.Second)}, TurnMS: 4000}
	for _, sync := range []bool{false, true} {
		if err := s.SaveClock(cp, sync); err != nil {
			t.Fatal(err)
		}
		o := reopen(t, s, dir)
		got, changes, ok := o.SavedClock()
		if !ok || changes != 1 || got.WhiteMS != cp.WhiteMS || got.BlackMS != cp.BlackMS || got.TurnMS != cp.TurnMS || !got.At.Equal(cp.At) {
			t.Errorf("sync %v: SavedClock after a reopen = %+v, %d, %v; want %+v after 1 change", sync, got, changes, ok, cp)
		}
		s = o
	}
	// A move after it makes it stale.
	r2 := clock.Reading{WhiteMS: 176000, BlackMS: 176000, At: at.Add(4 * time.Second)}
	if _, err := s.PlayAt(mustMove(t, s.Position(), "b7B-b6B"), r2.At, &r2); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.SavedClock(); ok {
		t.Error("a checkpoint taken before the last move is used")
	}
	// A torn checkpoint (a power cut as it was written) is ignored.
	if err := s.SaveClock(cp, false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(s.clockPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.clockPath(), b[:len(b)-7], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.SavedClock(); ok {
		t.Error("a torn checkpoint is used")
	}
	// A game without a clock refuses one.
	n, err := New(t.TempDir(), s.System(), "", Tags{}, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if err := n.SaveClock(cp, false); err == nil {
		t.Error("SaveClock in a game without a clock succeeded")
	}
}
