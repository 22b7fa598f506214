package clock

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Issue 21: a mismatch the mover caused out of turn is the mover's time.
// White moved (Black to move), then moved a piece again: White's clock runs
// from the blame, Black's stands, and the blame ends at Unblame or the next
// move.
func TestBlameRunsTheCulpritsClock(t *testing.T) {
	c := started(t, "60", nil)
	play(t, c, 5*s) // White 55 s, Black runs from +5 s
	if err := c.Blame(after(7*s), rules.White); err != nil {
		t.Fatal(err)
	}
	want(t, c, after(10*s), 52*s, 58*s)
	if got := c.Snapshot(after(10 * s)); got.Running != "white" {
		t.Errorf("running %q during White's blame, want white", got.Running)
	}
	if err := c.Unblame(after(12 * s)); err != nil {
		t.Fatal(err)
	}
	want(t, c, after(15*s), 50*s, 55*s)
	// A blame ended by the blamed side's flag: it falls on its own time.
	if err := c.Blame(after(15*s), rules.White); err != nil {
		t.Fatal(err)
	}
	if at, ok := c.FlagAt(); !ok || !at.Equal(after(65*s)) {
		t.Errorf("FlagAt %v %v during the blame, want +65s", at, ok)
	}
	if side, _, ok := c.Flagged(after(66 * s)); !ok || side != rules.White {
		t.Errorf("Flagged %v %v, want white", side, ok)
	}
	// Blaming the side to move changes nothing.
	d := started(t, "60", nil)
	if err := d.Blame(after(s), rules.White); err != nil {
		t.Fatal(err)
	}
	if _, on := d.Blamed(); on {
		t.Error("blaming the side to move started a blame")
	}
	// A move ends the blame first: Black (to move) is charged from the end.
	e := started(t, "60", nil)
	play(t, e, 5*s)
	if err := e.Blame(after(6*s), rules.White); err != nil {
		t.Fatal(err)
	}
	if r, err := e.Moved(after(10 * s)); err != nil || r.WhiteMS != 51000 || r.BlackMS != 59000 {
		t.Errorf("Moved after the blame: %+v %v, want white 51 s (4 s blamed), black 59 s", r, err)
	}
}

// A checkpoint taken between moves and restored on a rebuilt clock gives
// back exactly the times and the turn used, delays included.
func TestCheckpointRestore(t *testing.T) {
	for _, ctl := range []string{"60", "60+2", "60d3", "60b3"} {
		c := started(t, ctl, nil)
		r1 := play(t, c, 5*s)
		cp := c.Checkpoint(after(9*s + 250*ms)) // Black has used 4.25 s
		b, err := Rebuild(MustParse(ctl), []Reading{r1}, rules.Black, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Restore(cp); err != nil {
			t.Fatal(err)
		}
		at := after(time.Hour) // the time the set was off is nobody's: the clock is paused
		for _, side := range []rules.Color{rules.White, rules.Black} {
			if got, w := b.Remaining(side, at), c.Remaining(side, after(9*s+250*ms)); got != w {
				t.Errorf("%s: %s has %v after the restore, want %v", ctl, side, got, w)
			}
		}
		if err := b.Resume(at); err != nil {
			t.Fatal(err)
		}
		got, err := b.Moved(at.Add(time.Second))
		w, _ := c.Moved(after(10*s + 250*ms))
		if err != nil || got.WhiteMS != w.WhiteMS || got.BlackMS != w.BlackMS {
			t.Errorf("%s: Black's move after the restore: %+v %v, want %+v", ctl, got, err, w)
		}
	}
}
