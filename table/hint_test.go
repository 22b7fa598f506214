package table_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// A hint in two stages: first the piece to move, then its target too; the
// LEDs show it as a move to make, and it goes once the move is made.
func TestHintInTwoStages(t *testing.T) {
	r := newRig(t)
	names := st3d.CellNames()
	rep, err := r.tb.Exec(table.Hint{})
	if err != nil || rep.Hint == nil || rep.Hint.Stage != 1 {
		t.Fatalf("first hint: %+v, %v", rep.Hint, err)
	}
	move := rep.Hint.Move
	r.drain()
	v := r.leds.view()
	snap := r.tb.Snapshot()
	if snap.Hint == nil || v.RemoteFrom != snap.Hint.From || !v.RemoteTo.Empty() || snap.Hint.From.Empty() {
		t.Fatalf("stage 1: hint %+v, LEDs from %v to %v", snap.Hint, v.RemoteFrom.Names(names), v.RemoteTo.Names(names))
	}
	rep, err = r.tb.Exec(table.Hint{})
	if err != nil || rep.Hint.Stage != 2 || rep.Hint.Move != move {
		t.Fatalf("second hint: %+v, %v", rep.Hint, err)
	}
	r.drain()
	if v := r.leds.view(); v.RemoteTo.Empty() || v.RemoteTo != r.tb.Snapshot().Hint.To {
		t.Errorf("stage 2: LEDs to %v", v.RemoteTo.Names(names))
	}
	if used := r.tb.Snapshot().HintsUsed; used != [2]int{1, 0} {
		t.Errorf("hints used %v: both stages are one hint", used)
	}
	r.play(move)
	r.drain()
	if got := r.rec.moves(); len(got) != 1 || got[0] != move {
		t.Fatalf("the hinted move made on the set: %v", got)
	}
	if h := r.tb.Snapshot().Hint; h != nil {
		t.Errorf("hint %+v still shown after the move", h)
	}
}

func TestHintLimitAndTeachersLock(t *testing.T) {
	r := newRig(t, func(o *table.Opts) { o.Hints.Limit = table.Sides[int]{White: 1, Black: 1} })
	rep, err := r.tb.Exec(table.Hint{})
	if err != nil {
		t.Fatal(err)
	}
	r.play(rep.Hint.Move)
	r.play("b7B-b6B")
	if _, err := r.tb.Exec(table.Hint{}); !errors.Is(err, table.ErrNoHintsLeft) {
		t.Errorf("White's second hint with a limit of 1: %v", err)
	}
	r.play("c2W-c3W")
	// Black has its own hint.
	if _, err := r.tb.Exec(table.Hint{}); err != nil {
		t.Errorf("Black's first hint: %v", err)
	}
	if _, err := r.tb.Exec(table.Teach{Lock: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	r.drain()
	if snap := r.tb.Snapshot(); !snap.HintsLocked || snap.Hint != nil {
		t.Errorf("locked: %v, hint %+v", snap.HintsLocked, snap.Hint)
	}
	if v := r.leds.view(); !v.NoTargets {
		t.Error("the LEDs show hints under the teacher's lock")
	}
	if _, err := r.tb.Exec(table.Hint{}); !errors.Is(err, table.ErrHintsLocked) {
		t.Errorf("a hint under the lock: %v", err)
	}
}

// An illegal move on the set says why, and lights the piece that makes it
// illegal: here the rook pinned to its king.
func TestIllegalMoveExplained(t *testing.T) {
	r := newRig(t)
	if _, err := r.tb.Exec(table.NewGame{Position: "QL1:w,KL6:b Kb1W,Rb2W,rb4N,kc8B w - - - 0 30"}); err != nil {
		t.Fatal(err)
	}
	r.setup()
	r.run(time.Second)
	r.act("lift b2W", "wait 100", "place c2W")
	r.run(3 * time.Second)
	r.drain()
	snap := r.tb.Snapshot()
	if snap.Status.State != recognize.Mismatch || !strings.Contains(snap.Status.Reason, "would be in check from the rook on b4N") {
		t.Fatalf("board %s %q", snap.Status.State, snap.Status.Reason)
	}
	var ill *table.Event
	for _, e := range r.rec.events() {
		if e.Kind == table.Illegal {
			ill = &e
		}
	}
	if ill == nil || ill.Detail != "Your king on b1W would be in check from the rook on b4N." {
		t.Fatalf("illegal event %+v", ill)
	}
	names := st3d.CellNames()
	if v := r.leds.view(); !v.Check.Has(cell(t, "b4N")) {
		t.Errorf("LEDs: check %v fix %v, want the rook b4N lit", v.Check.Names(names), v.Fix.Names(names))
	}
	// Putting the rook back sets it right.
	r.act("lift c2W", "wait 100", "place b2W")
	r.run(time.Second)
	if st := r.tb.Snapshot().Status; st.State != recognize.InSync || !st.Culprits.Empty() {
		t.Errorf("after putting the rook back: %s, culprits %v", st.State, st.Culprits.Names(names))
	}
}

func cell(t *testing.T, name string) rules.Cell {
	t.Helper()
	c, ok := rules.CellByName(st3d.System, name)
	if !ok {
		t.Fatalf("no cell %s", name)
	}
	return c
}

// The hint button gives the hint in its two stages too.
func TestHintButton(t *testing.T) {
	r := newRig(t, func(o *table.Opts) {
		o.Buttons = map[string]table.Button{"button:queen": {Kind: table.ButtonHint}}
	})
	press := func() {
		if err := r.b.Set.Press("button:queen"); err != nil {
			t.Fatal(err)
		}
		r.run(100 * time.Millisecond)
		if err := r.b.Set.Release("button:queen"); err != nil {
			t.Fatal(err)
		}
		r.run(100 * time.Millisecond)
	}
	press()
	if h := r.tb.Snapshot().Hint; h == nil || h.Stage != 1 || h.From.Empty() || !h.To.Empty() {
		t.Fatalf("after one press: %+v", h)
	}
	press()
	if h := r.tb.Snapshot().Hint; h == nil || h.Stage != 2 || h.To.Empty() {
		t.Fatalf("after two presses: %+v", h)
	}
}

// Every reason the rules can give for an illegal move on the set reaches
// the event and the board's hint, through the table: a line blocked on
// another level, a square that does not exist under the boards as they
// stand, an attack board moved against its rules.
func TestIllegalMoveReasons(t *testing.T) {
	for _, tc := range []struct {
		name, position string
		acts           []string
		want           string
	}{
		{"blocked on another level", "QL1:w,KL6:b Kd1W,Rb1W,pb4N,kc8B w - - - 0 30",
			[]string{"lift b1W", "wait 100", "place b6B"}, "blocked on another level by the pawn on b4N (D5)"},
		{"board not adjacent", "QL2:w,QL6:b Kb1W,kc8B w - - - 0 30",
			[]string{"lift QL2", "wait 100", "place QL5"}, "QL5 is not adjacent to QL2"},
		{"board of the other side", "QL4:w,QL6:b Kb1W,pz7QL4,kc8B w - - - 0 30",
			[]string{"lift QL4", "wait 100", "place QL2"}, "only black may move it"},
		// At the start every board holds several pieces: the reason is not
		// that one only (3.6), but every rule the move breaks (D12, D13).
		{"Black's board on White's turn (D12, 3.6)", "",
			[]string{"lift QL6", "wait 100", "place QL4"},
			"It is white's move: the board on QL6 carries black's pieces, so it is not white's to move (D12); " +
				"and it holds more than one piece, and a board moves with at most one (3.6)."},
		{"QL1 to QL5 (3.6, D13)", "",
			[]string{"lift QL1", "wait 100", "place QL5"},
			"The board on QL1 may not go to QL5: it holds more than one piece, and a board moves with at most one (3.6); " +
				"and QL5 is not adjacent to QL1; adjacent pins are on the same side 1 or 2 numbers apart, or across with the same number (D13)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.playIn(tc.position, tc.acts...)
			snap := r.tb.Snapshot()
			if snap.Status.State != recognize.Mismatch || !strings.Contains(snap.Status.Reason, tc.want) {
				t.Fatalf("board %s %q, want a mismatch saying %q", snap.Status.State, snap.Status.Reason, tc.want)
			}
			var ill *table.Event
			for _, e := range r.rec.events() {
				if e.Kind == table.Illegal {
					ill = &e
				}
			}
			if ill == nil || !strings.Contains(ill.Detail, tc.want) {
				t.Fatalf("illegal event %+v", ill)
			}
		})
	}
}

// Under Run, a hint's search runs on a goroutine of its own: the table
// scans on while the engine thinks (before, the scan waited for it: half a
// second on a Pi Zero 2 W), and the reply comes when the search is done.
// The engine here thinks until the test lets it go on: the scans are
// counted while it is held, so a search that blocks the scan never sees
// them go on, however fast or loaded the machine.
func TestHintSearchLetsTheScanGoOn(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	var once sync.Once
	letGo := func() { once.Do(func() { close(release) }) }
	r := newRig(t, func(o *table.Opts) {
		table.SlowHintSearch(o, func() {
			started <- struct{}{}
			<-release
		})
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer letGo() // before cancel: a search held on Run's goroutine would keep Run from ending
	ran := make(chan error, 1)
	go func() { ran <- r.tb.Run(ctx) }()
	type answer struct {
		rep table.Reply
		err error
	}
	got := make(chan answer, 1)
	// Do refuses until Run is going.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		_, err := r.tb.Do(ctx, table.Teach{Lock: ptr(false)})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Run did not take commands: %v", err)
		}
	}
	go func() {
		rep, err := r.tb.Do(ctx, table.Hint{})
		got <- answer{rep, err}
	}()
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		t.Fatal("the hint's search did not start within 60 s")
	}
	// The engine is thinking: the scan goes on, twenty scans of it.
	const want = 20
	before := r.tb.Health().Scans
	for deadline := time.Now().Add(60 * time.Second); r.tb.Health().Scans-before < want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d scans in 60 s while the hint was searched, want %d: the search blocks the scan",
				r.tb.Health().Scans-before, want)
		}
	}
	select {
	case a := <-got:
		t.Fatalf("a reply while the search was still held: %+v, %v", a.rep.Hint, a.err)
	default:
	}
	letGo()
	var a answer
	select {
	case a = <-got:
	case <-time.After(60 * time.Second):
		t.Fatal("no reply to the hint within 60 s of the search going on")
	}
	if a.err != nil || a.rep.Hint == nil || a.rep.Hint.Stage != 1 {
		t.Fatalf("hint: %+v, %v", a.rep.Hint, a.err)
	}
	cancel()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
}
