package recognize

import (
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// A clock press read in the same scan as the other side's first changes
// (a scan that came late read both, issue 21) confirms the move the board
// showed before them: the press may have come first.
func TestPressReadWithTheReplyConfirmsTheBoardBefore(t *testing.T) {
	p, err := st3d.System.ParsePosition(knightPos)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOpts()
	opts.ConfirmByPress = true
	r := New(p, opts)
	cell := func(name string) rules.Cell {
		c, ok := rules.CellByName(st3d.System, name)
		if !ok {
			t.Fatalf("no cell %s", name)
		}
		return c
	}
	at := time.Unix(0, 0)
	occ := p.Occupancy()
	var evs []Event
	observe := func(d time.Duration, reading rules.CellSet) {
		at = at.Add(d)
		evs = append(evs, r.Observe(at, reading, rules.CellSet{})...)
	}
	observe(0, occ)
	observe(time.Second, occ)
	lifted := occ
	lifted.Remove(cell("b1W"))
	observe(100*time.Millisecond, lifted)
	moved := lifted
	moved.Add(cell("a3W"))
	observe(150*time.Millisecond, moved)
	// Black's king lifted and set down on a6N, where it cannot go (on its
	// way somewhere), read with White's press after a 100 ms stall.
	reply := moved
	reply.Remove(cell("d9KL6"))
	reply.Add(cell("a6N"))
	observe(100*time.Millisecond, reply)
	evs = append(evs, r.Confirm(at, rules.White)...)
	for i := 0; i < 40; i++ {
		observe(5*time.Millisecond, reply)
	}
	var got []string
	for _, e := range evs {
		if e.Kind == Moved {
			got = append(got, e.Before.Long(e.Move)+" by "+e.By.String())
		}
	}
	if len(got) != 1 || got[0] != "b1W-a3W by press" {
		t.Fatalf("moves %q, want b1W-a3W by press (status %+v)", got, r.Status())
	}
}

// A late scan reads the victim's lift and the mover's touch-down on the
// way in one reading (issue 21): the victim is not taken for the reply's
// first lift when the mover's piece then goes on (lifted again, nothing
// put down), and the capture is the move.
func TestVictimReadWithTheTouchDown(t *testing.T) {
	p, err := st3d.System.ParsePosition(oneVictimPos)
	if err != nil {
		t.Fatal(err)
	}
	cell := func(name string) rules.Cell {
		c, ok := rules.CellByName(st3d.System, name)
		if !ok {
			t.Fatalf("no cell %s", name)
		}
		return c
	}
	from, victim := cell("a1W"), cell("b3N")
	touch := rules.NoCell
	for _, m := range p.LegalMoves(nil) {
		if in := p.Info(m); in.From == from && in.To != victim && !in.Board {
			touch = in.To
		}
	}
	if touch == rules.NoCell {
		t.Fatal("the knight has no other square")
	}
	r := New(p, DefaultOpts())
	at := time.Unix(0, 0)
	var moves []string
	observe := func(d time.Duration, reading rules.CellSet) {
		at = at.Add(d)
		gap := time.Duration(0)
		if d > 100*time.Millisecond && d < time.Second {
			gap = d // the scans stalled
		}
		for _, e := range r.ObserveGap(at, reading, rules.CellSet{}, gap) {
			if e.Kind == Moved {
				moves = append(moves, e.Before.Long(e.Move))
			}
		}
	}
	occ := p.Occupancy()
	observe(0, occ)
	observe(time.Second, occ)
	lifted := occ
	lifted.Remove(from)
	observe(100*time.Millisecond, lifted)
	both := lifted
	both.Remove(victim)
	down := both
	down.Add(touch)
	observe(200*time.Millisecond, down) // victim off and touch-down, read together
	for i := 0; i < 30; i++ {
		observe(5*time.Millisecond, down) // 150 ms on the square
	}
	observe(5*time.Millisecond, both) // lifted again
	for i := 0; i < 10; i++ {
		observe(5*time.Millisecond, both)
	}
	taken := both
	taken.Add(victim)
	for i := 0; i < 100; i++ {
		observe(5*time.Millisecond, taken)
	}
	if len(moves) != 1 || moves[0] != "a1W-b3N" {
		t.Fatalf("moves %q, want a1W-b3N", moves)
	}
}
