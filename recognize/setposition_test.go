package recognize

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules/st3d"
)

// Right after SetPosition (a new game, a take-back by command) the status
// is not the old position's: until the next reading it is a mismatch with
// SetPosition's reason and the cells the last reading gets wrong; the next
// reading reports the status as an event.
func TestStatusRightAfterSetPosition(t *testing.T) {
	start := st3d.Start()
	r := New(start, DefaultOpts())
	at := time.Unix(0, 0)
	occ := start.Occupancy()
	r.Observe(at, occ, occ.Minus(occ))
	r.Observe(at.Add(time.Second), occ, occ.Minus(occ))
	if st := r.Status(); st.State != InSync {
		t.Fatalf("the start position stood: %v", st.State)
	}
	next := start.Play(start.LegalMoves(nil)[0])
	r.SetPosition(next, "set up the position of the new game")
	st := r.Status()
	if want := occ.Xor(next.Occupancy()); st.State != Mismatch || st.Reason != "set up the position of the new game" || st.Fix != want {
		t.Errorf("status %v %q fix %v, want a mismatch with the reason and fix %v", st.State, st.Reason, st.Fix, want)
	}
	evs := r.Observe(at.Add(time.Second+5*time.Millisecond), occ, occ.Minus(occ))
	reported := false
	for _, e := range evs {
		reported = reported || e.Kind == StatusChanged && e.Status.State == Mismatch
	}
	if !reported {
		t.Errorf("the next reading reported no mismatch: %+v", evs)
	}
}
