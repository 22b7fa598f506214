package recognize

import (
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

const (
	castlePos   = "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,Pe1KL1,pe8KL6,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 5"
	capturePos  = "QL1:w,QL6:b,KL1:w,KL6:b Na1W,pb3N,pc2W,Kd0KL1,kd9KL6 w - - - 0 10"
	epPos       = "QL1:w,QL6:b,KL1:w,KL6:b Pb4W,pc4N,Kd0KL1,kd9KL6 b - b4W - 0 10"
	promoPos    = "QL1:w,QL6:b,KL1:w Kb1W,kc5N,Pb7B w - - - 0 30"
	deferredPos = "QL1:w,QL6:w,KL1:w,KL6:b Pa8B,Kb1W,kd9KL6 w - - - 0 30"
	oppPromoPos = "QL1:w,QL6:b,KL1:w,KL6:b pa1W,Kd3N,kd9KL6 w - - - 0 30"
	rookPos     = "QL1:w,QL6:b,KL1:w,KL6:b Ra1W,Kd0KL1,kd9KL6 w - - - 0 10"
)

func TestMoveKinds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pos    string
		script []string
		want   []string
	}{
		{"quiet move, lower level", st3d.StartString, []string{"lift b2W", "wait 100", "place b3W"}, []string{"b2W-b3W"}},
		{"quiet move, upper level (D4)", st3d.StartString, []string{"lift b2W", "wait 100", "place b4N"}, []string{"b2W-b4N"}},
		{"capture, victim first", capturePos, []string{"lift b3N", "wait 300", "lift a1W", "wait 200", "place b3N"}, []string{"a1W-b3N"}},
		{"capture, attacker first", capturePos, []string{"lift a1W", "wait 200", "lift b3N", "wait 200", "place b3N"}, []string{"a1W-b3N"}},
		{"capture of the other victim", capturePos, []string{"lift a1W", "wait 200", "lift c2W", "wait 200", "place c2W"}, []string{"a1W-c2W"}},
		{"quiet move beside a victim", capturePos, []string{"lift a1W", "wait 200", "place b3W"}, []string{"a1W-b3W"}},
		{"en passant onto N (D8)", epPos, []string{"lift c4N", "wait 100", "lift b4W", "wait 100", "place b3N"}, []string{"c4N-b3N"}},
		{"en passant, victim last", epPos, []string{"lift c4N", "wait 100", "place b3W", "wait 100", "lift b4W"}, []string{"c4N-b3W"}},
		{"kingside castling: occupancy unchanged", castlePos,
			[]string{"lift d0KL1", "wait 100", "lift e0KL1", "wait 100", "place e0KL1", "wait 100", "place d0KL1"}, []string{"0-0"}},
		{"kingside castling, rook first", castlePos,
			[]string{"lift e0KL1", "wait 100", "lift d0KL1", "wait 100", "place d0KL1", "wait 100", "place e0KL1"}, []string{"0-0"}},
		{"queenside castling", castlePos,
			[]string{"lift d0KL1", "wait 100", "lift z0QL1", "wait 100", "place a0QL1", "wait 100", "place d0KL1"}, []string{"0-0-0"}},
		{"rook move on the castling cells, king untouched", castlePos,
			[]string{"lift z0QL1", "wait 100", "place a0QL1"}, []string{"z0QL1-a0QL1"}},
		{"board move carrying a piece (D14)", "QL1:w,QL6:b,KL1:w,KL6:b Pz1QL1,Kb1W,kc8B w - - z1QL1 0 10",
			[]string{"lift QL1", "wait 300", "place QL3"}, []string{"QL1-QL3"}},
		{"empty board move", "QL1:w,QL6:b,KL1:w,KL6:b Kb2W,kc8B w - - - 0 10", []string{"lift KL1", "wait 300", "place KL3"}, []string{"KL1-KL3"}},
		{"board move promotes the opponent's pawn (D10)", oppPromoPos, []string{"lift QL1", "wait 300", "place QL2"}, []string{"QL1-QL2"}},
		{"piece lifted and put back is nothing", st3d.StartString, []string{"lift a1W", "wait 500", "place a1W"}, nil},
		{"king and rook lifted and put back is castling (4.4)", castlePos,
			[]string{"lift d0KL1", "lift e0KL1", "wait 300", "place d0KL1", "place e0KL1"}, []string{"0-0"}},
		{"king and rook lifted one after the other is nothing", castlePos,
			[]string{"lift d0KL1", "wait 300", "place d0KL1", "wait 300", "lift e0KL1", "wait 300", "place e0KL1"}, nil},
		{"slide along the line: set down on the way", rookPos,
			[]string{"lift a1W", "wait 100", "place a3W", "wait 150", "lift a3W", "wait 50", "place a4N"}, []string{"a1W-a4N"}},
		{"knight set down for a moment on another square", capturePos,
			[]string{"lift a1W", "wait 100", "place b3W", "wait 40", "lift b3W", "wait 100", "place a1W"}, nil},
		{"contact bounce on placement", st3d.StartString,
			[]string{"lift b2W", "wait 100", "place b3W", "bounce b3W", "wait 1", "bounce b3W"}, []string{"b2W-b3W"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.pos, DefaultOpts())
			r.script(tc.script...)
			r.wait(600 * time.Millisecond)
			r.wantMoves(tc.want...)
		})
	}
}

func TestKnightSetDownIsNotACaptureOfItsVictim(t *testing.T) {
	// The knight rests on b3W for 40 ms, too short to count, then captures
	// on c2W: only after c2W's pawn is lifted is the capture possible.
	r := newRig(t, capturePos, DefaultOpts())
	r.script("lift a1W", "wait 100", "place b3W", "wait 40", "lift b3W", "wait 100", "lift c2W", "wait 100", "place c2W")
	r.wait(400 * time.Millisecond)
	r.wantMoves("a1W-c2W")
}

func TestPromotionChoice(t *testing.T) {
	t.Run("chosen", func(t *testing.T) {
		r := newRig(t, promoPos, DefaultOpts())
		r.script("lift b7B", "wait 100", "place b8B")
		r.wait(500 * time.Millisecond)
		r.wantState(NeedsChoice)
		if got := len(r.rec.Status().Choices); got != 4 {
			t.Fatalf("%d choices, want 4", got)
		}
		// Swapping the pawn for the new piece changes nothing.
		r.script("lift b8B", "wait 200", "place b8B")
		r.wait(500 * time.Millisecond)
		r.wantState(NeedsChoice)
		evs, err := r.rec.Choose(r.board.Clock.Now(), 'N')
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			r.record(e, r.board.Clock.Now())
		}
		r.wantMoves("b7B-b8B=N")
		r.wantState(InSync)
	})
	t.Run("queen when the next move starts", func(t *testing.T) {
		r := newRig(t, promoPos, DefaultOpts())
		r.script("lift b7B", "wait 100", "place b8B", "wait 300", "lift c5N", "wait 100", "place c4N")
		r.wait(500 * time.Millisecond)
		r.wantMoves("b7B-b8B=Q", "c5N-c4N")
	})
	t.Run("deferred promotion by a board move (D10)", func(t *testing.T) {
		r := newRig(t, deferredPos, DefaultOpts())
		r.script("lift QL6", "wait 200", "place QL4")
		r.wait(500 * time.Millisecond)
		r.wantState(NeedsChoice)
		if _, err := r.rec.Choose(r.board.Clock.Now(), 'X'); err == nil {
			t.Fatal("Choose('X') succeeded")
		}
		evs, _ := r.rec.Choose(r.board.Clock.Now(), 'R')
		for _, e := range evs {
			r.record(e, r.board.Clock.Now())
		}
		r.wantMoves("QL6-QL4=R")
	})
}

func TestTakeBack(t *testing.T) {
	r := newRig(t, st3d.StartString, DefaultOpts())
	r.play("b2W-b4N")
	r.script("lift b4N", "wait 100", "place b2W")
	r.wait(600 * time.Millisecond)
	r.wantMoves("b2W-b4N", "takeback")
	if got := r.rec.Position().String(); got != st3d.StartString {
		t.Fatalf("after the take-back: %s", got)
	}
	// Off: the same gesture is a mismatch, named cell by cell.
	opts := DefaultOpts()
	opts.TakeBacks = false
	r = newRig(t, st3d.StartString, opts)
	r.play("b2W-b4N")
	r.script("lift b4N", "wait 100", "place b2W")
	r.wait(2 * time.Second)
	r.wantMoves("b2W-b4N")
	r.wantState(Mismatch)
	if got := names(r.rec.Status().Fix); strings.Join(got, " ") != "b2W b4N" {
		t.Fatalf("fix %v, want b2W b4N", got)
	}
}

func TestIllegalMoveThenResume(t *testing.T) {
	r := newRig(t, st3d.StartString, DefaultOpts())
	r.script("lift b2W", "wait 100", "place b5N") // not a pawn move
	r.wait(DefaultOpts().MismatchAfter + 100*time.Millisecond)
	r.wantState(Mismatch)
	st := r.rec.Status()
	if got := strings.Join(names(st.Fix), " "); got != "b2W b5N" {
		t.Fatalf("fix %q, want b2W b5N", got)
	}
	if got := strings.Join(names(st.Placed), " "); got != "b5N" {
		t.Fatalf("placed %q, want b5N", got)
	}
	// Moving the piece on to a legal square does not resume play; putting
	// it back does.
	r.script("lift b5N", "wait 100", "place b4N")
	r.wait(time.Second)
	r.wantMoves()
	r.wantState(Mismatch)
	r.script("lift b4N", "wait 100", "place b2W")
	r.wait(time.Second)
	r.wantState(InSync)
	r.play("c2W-c3N")
	r.wantMoves("c2W-c3N")
}

func TestSyncAtStart(t *testing.T) {
	p, _ := st3d.System.ParsePosition(st3d.StartString)
	rec := New(p, DefaultOpts())
	now := time.Unix(0, 0)
	occ := p.Occupancy()
	missing := occ
	missing.Remove(rules.Cell(0)) // a1W
	rec.Observe(now, missing, rules.CellSet{})
	if st := rec.Status(); st.State != Mismatch || strings.Join(names(st.Fix), " ") != "a1W" {
		t.Fatalf("status %+v, want a mismatch on a1W", st)
	}
	rec.Observe(now.Add(10*time.Millisecond), occ, rules.CellSet{})
	rec.Observe(now.Add(10*time.Millisecond+DefaultOpts().Settle), occ, rules.CellSet{})
	if st := rec.Status(); st.State != InSync {
		t.Fatalf("status %+v, want in sync", st)
	}
}

func TestSensorFaultNeverGuesses(t *testing.T) {
	r := newRig(t, st3d.StartString, DefaultOpts())
	r.board.Expander(0x20).Vanish() // W: a1..d4
	r.wait(100 * time.Millisecond)
	r.wantState(SensorFault)
	if got := r.rec.Status().Unknown.Len(); got != 16 {
		t.Fatalf("%d unknown cells, want the 16 of W", got)
	}
	// A move on the failed board goes unseen until it reads again.
	r.script("lift b2W", "wait 100", "place b3W")
	r.wait(500 * time.Millisecond)
	r.wantMoves()
	r.board.Expander(0x20).Return()
	r.wait(2 * time.Second)
	r.wantMoves("b2W-b3W")
}

func TestTouchMove(t *testing.T) {
	r := newRig(t, capturePos, DefaultOpts())
	r.script("lift b3N", "wait 100", "lift a1W")
	r.wait(100 * time.Millisecond)
	st := r.rec.Status()
	if st.State != MoveInProgress || st.FirstLifted != rules.Cell(mustSquare(t, "b3N")) {
		t.Fatalf("status %+v: want first lifted b3N", st)
	}
}

func mustSquare(t testing.TB, s string) st3d.Square {
	sq, err := st3d.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}
