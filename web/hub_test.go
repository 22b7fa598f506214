package web

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/targets"
)

func view(t *testing.T, h *Hub, id string) *BoardView {
	t.Helper()
	v, ok := h.View(id)
	if !ok {
		t.Fatalf("no board %s", id)
	}
	return v
}

func shorts(v *BoardView) []string {
	var out []string
	for _, m := range v.Moves {
		out = append(out, m.Num+m.Short)
	}
	return out
}

// The hub replays the moves with the rules: notation with move numbers,
// the pieces on each cell after each move, the cells a move leaves and
// reaches (on other levels too), the seq of each.
func TestHubReplaysMoves(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	for _, m := range []string{"b2W-b4N", "b7B-b5N", "Nd1W-c3W"} {
		f.play(m)
	}
	v := view(t, h, "b1")
	if got, want := shorts(v), []string{"1." + f.sent[0].SAN, "1..." + f.sent[1].SAN, "2." + f.sent[2].SAN}; !slices.Equal(got, want) {
		t.Fatalf("moves %q, want %q", got, want)
	}
	for i, m := range v.Moves {
		if m.Seq != i+1 || m.Ply != i+1 {
			t.Errorf("move %d: seq %d ply %d", i, m.Seq, m.Ply)
		}
	}
	if m := v.Moves[0]; m.From != "b2W" || m.To != "b4N" {
		t.Errorf("first move from %q to %q, want b2W b4N", m.From, m.To)
	}
	last := v.Moves[2]
	for i, n := range f.sys.Cells() {
		pc, ok := f.g.Position().CellPiece(rules.Cell(i))
		got, has := last.Pieces[n]
		if ok != has || ok && got != string(pc.Letter()) {
			t.Errorf("cell %s: %q %v, want %c %v", n, got, has, pc.Letter(), ok)
		}
	}
	if !slices.Contains(last.Pins, "QL1") || !slices.Contains(last.Pins, "KL6") || len(last.Pins) != 4 {
		t.Errorf("pins %v, want the four start pins", last.Pins)
	}
	if v.Seq != 3 || v.Turn != "black" || v.Result != "*" || v.Variant != "st3d" || !v.Online {
		t.Errorf("status %+v", v.Status)
	}
}

// mqtt.md: delivery is at least once; a move whose seq is not above the
// last one is dropped, even when it comes after a higher seq.
func TestHubDropsDuplicateMoves(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b4N")
	f.play("b7B-b5N")
	h.Move("b1", f.sent[0])
	h.Move("b1", f.sent[1])
	h.Move("b1", f.sent[0])
	if v := view(t, h, "b1"); len(v.Moves) != 2 || v.Seq != 2 {
		t.Fatalf("%d moves, seq %d after duplicates, want 2, 2", len(v.Moves), v.Seq)
	}
}

// A display that joins late (or missed moves) rebuilds the game from the
// retained state alone, with the seqs counted back from last_move.
func TestHubLateJoinerFromState(t *testing.T) {
	f := newFakeSet(t, nil, "b1", "millennium")
	for i := 0; i < 7; i++ {
		f.random()
	}
	h := NewHub(DefaultOpts())
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	v := view(t, h, "b1")
	if len(v.Moves) != 7 || v.Seq != 7 || v.Moves[0].Seq != 1 {
		t.Fatalf("%d moves, seq %d", len(v.Moves), v.Seq)
	}
	for i, m := range v.Moves {
		if m.Short != f.sent[i].SAN {
			t.Errorf("move %d: %q, want %q", i+1, m.Short, f.sent[i].SAN)
		}
	}
	// A move message missed: the next state fills it in.
	f.hub = nil
	f.random()
	f.random()
	h.Move("b1", f.sent[8])
	// Seq 9 does not follow seq 7's position: its position is shown
	// without the moves until the state comes.
	if v := view(t, h, "b1"); len(v.Moves) != 0 || v.Error == "" || v.Seq != 9 || v.Start.Pieces == nil {
		t.Fatalf("after a gap: %d moves, seq %d, error %q", len(v.Moves), v.Seq, v.Error)
	}
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	if v := view(t, h, "b1"); len(v.Moves) != 9 || v.Seq != 9 || v.Moves[7].Short != f.sent[7].SAN {
		t.Fatalf("after the state: %d moves, seq %d", len(v.Moves), v.Seq)
	}
}

// mqtt.md: after a take-back the next move gets the next seq; the hub
// drops the taken-back move and plays the new one.
func TestHubTakeBack(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b4N")
	f.play("b7B-b5N")
	epoch := view(t, h, "b1").Epoch
	f.g.TakeBack()
	h.Event("b1", protocol.Event{Type: protocol.EventTakeBack, Game: f.game, Move: "b7B-b5N"})
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	v := view(t, h, "b1")
	if len(v.Moves) != 1 || v.Epoch == epoch {
		t.Fatalf("after take-back: %d moves, epoch %d (was %d)", len(v.Moves), v.Epoch, epoch)
	}
	f.play("c7B-c5N") // seq 3
	v = view(t, h, "b1")
	if len(v.Moves) != 2 || v.Moves[1].Seq != 3 || v.Moves[1].Long != "c7B-c5N" {
		t.Fatalf("after the next move: %+v", v.Moves)
	}
	// A display joining now rebuilds the game from the state (seqs counted
	// back from last_move), and follows the next move without rebuilding.
	late := NewHub(DefaultOpts())
	late.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	lv := view(t, late, "b1")
	f.hub = late
	f.play("a2W-a3W") // seq 4
	if v := view(t, late, "b1"); len(v.Moves) != 3 || v.Epoch != lv.Epoch || v.Seq != 4 || v.Moves[1].Seq != 3 {
		t.Fatalf("late joiner after the next move: %d moves, epoch %d (was %d), seq %d", len(v.Moves), v.Epoch, lv.Epoch, v.Seq)
	}
	f.hub = h
	h.Move("b1", f.sent[len(f.sent)-1])
	f.g.TakeBack()
	// A take-back the hub did not hear of: the move follows an earlier ply.
	f.g.TakeBack()
	f.g.TakeBack()
	f.hub = nil
	mv := f.play("a2W-a3W") // seq 5, from the start
	h.Move("b1", mv)
	if v := view(t, h, "b1"); len(v.Moves) != 1 || v.Moves[0].Seq != 5 || v.Moves[0].Num != "1." {
		t.Fatalf("after an unannounced take-back: %+v", v.Moves)
	}
}

// The lifted piece's targets are what the LEDs show (targets.Lifted), from
// the lift event and from the state's move_in_progress cells.
func TestHubLiftedTargets(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	want := f.targets("d1W")
	if len(want) == 0 {
		t.Fatal("no targets for the knight on d1W")
	}
	h.Event("b1", protocol.Event{Type: protocol.EventLift, Game: f.game, Cell: "d1W", Cells: []string{"d1W"}})
	v := view(t, h, "b1")
	if !slices.Equal(v.Targets, want) || !slices.Equal(v.Lifted, []string{"d1W"}) || v.Board != protocol.BoardMoveInProgress {
		t.Fatalf("lifted %v targets %v status %s, want d1W %v", v.Lifted, v.Targets, v.Board, want)
	}
	h.Event("b1", protocol.Event{Type: protocol.EventPlace, Game: f.game, Cells: []string{"d1W"}})
	if v := view(t, h, "b1"); len(v.Lifted) != 0 || len(v.Targets) != 0 {
		t.Fatalf("after placing it back: lifted %v targets %v", v.Lifted, v.Targets)
	}
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardMoveInProgress, Cells: []string{"d1W"}}))
	if v := view(t, h, "b1"); !slices.Equal(v.Targets, want) {
		t.Fatalf("from the state: targets %v, want %v", v.Targets, want)
	}
}

// A mismatch shows its cells and why; an illegal event's detail is the
// reason; in sync clears them.
func TestHubFixCells(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	h.Event("b1", protocol.Event{Type: protocol.EventIllegal, Game: f.game, Cells: []string{"c2W", "c4N"}, Detail: "no legal move explains it"})
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardMismatch, Cells: []string{"c2W", "c4N"}}))
	v := view(t, h, "b1")
	if !slices.Equal(v.Fix, []string{"c2W", "c4N"}) || v.FixReason != "illegal: no legal move explains it" || v.Board != protocol.BoardMismatch {
		t.Fatalf("fix %v %q %s", v.Fix, v.FixReason, v.Board)
	}
	// The state's reason and what to do, in words, both reach the page.
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardMismatch, Cells: []string{"b2W", "c2W"},
		Reason:      "Your king on b1W would be in check from the rook on b4N.",
		Instruction: "put back the white rook on b2W; take away what stands on c2W"}))
	if v := view(t, h, "b1"); v.FixReason != "Your king on b1W would be in check from the rook on b4N." ||
		v.FixInstruction != "put back the white rook on b2W; take away what stands on c2W" {
		t.Fatalf("the state's reason %q and hint %q", v.FixReason, v.FixInstruction)
	}
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardSensorFault, Fault: "expander 0x21: no ACK"}))
	if v := view(t, h, "b1"); v.FixReason != "sensor fault: expander 0x21: no ACK" || v.FixInstruction != "" {
		t.Fatalf("fault reason %q", v.FixReason)
	}
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	if v := view(t, h, "b1"); v.Fix != nil || v.FixReason != "" {
		t.Fatalf("in sync: fix %v %q", v.Fix, v.FixReason)
	}
}

// The broadcast delay: nothing is shown before it has passed, on the
// injected clock.
func TestHubDelay(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	o := DefaultOpts()
	o.Delay, o.Now = 15*time.Second, func() time.Time { return now }
	h := NewHub(o)
	f := newFakeSet(t, h, "b1", "st3d")
	if _, ok := h.View("b1"); ok {
		t.Fatal("board shown before the delay")
	}
	now = now.Add(10 * time.Second)
	f.play("b2W-b4N")
	if left := h.Release(now.Add(-10 * time.Second).Add(15 * time.Second)); left != 2 {
		t.Fatalf("%d inputs wait, want 2 (the move and its state)", left)
	}
	if v := view(t, h, "b1"); len(v.Moves) != 0 {
		t.Fatalf("move shown %v early", now.Sub(now))
	}
	if left := h.Release(now.Add(15 * time.Second)); left != 0 {
		t.Fatalf("%d inputs wait after the delay", left)
	}
	if v := view(t, h, "b1"); len(v.Moves) != 1 {
		t.Fatalf("%d moves after the delay, want 1", len(v.Moves))
	}
	// The clock counts down on the delayed timeline: its at moves by the delay.
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "180+2", WhiteMS: 170000, BlackMS: 180000, Running: "black", At: clock.Stamp{Time: now}}
	h.State("b1", s)
	h.Release(now.Add(15 * time.Second))
	if v := view(t, h, "b1"); v.Clock == nil || !v.Clock.At.Equal(now.Add(15*time.Second)) || !s.Clock.At.Equal(now) {
		t.Fatalf("delayed clock %+v", v.Clock)
	}
}

// Memory is bounded: boards beyond MaxBoards and plies beyond MaxPlies are
// not kept; bad ids, variants and moves change nothing and never panic.
func TestHubBoundsAndBadInput(t *testing.T) {
	o := DefaultOpts()
	o.MaxBoards, o.MaxPlies = 2, 3
	h := NewHub(o)
	f := newFakeSet(t, h, "a", "st3d")
	newFakeSet(t, h, "b", "st3d")
	newFakeSet(t, h, "c", "st3d")
	if got := h.Boards(); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("boards %v, want a b", got)
	}
	for i := 0; i < 5; i++ {
		f.random()
	}
	if v := view(t, h, "a"); len(v.Moves) != 3 || !strings.Contains(v.Error, "beyond 3") {
		t.Fatalf("%d plies kept, error %q", len(v.Moves), v.Error)
	}
	for _, id := range []string{"", "a/b", "..", strings.Repeat("x", 65), "é"} {
		h.Availability(id, true)
	}
	if len(h.Boards()) != 2 {
		t.Fatalf("bad ids made boards: %v", h.Boards())
	}
	h2 := NewHub(DefaultOpts())
	h2.State("x", protocol.State{Game: "g", Variant: "chess"})
	if v := view(t, h2, "x"); !strings.Contains(v.Error, `unknown variant "chess"`) {
		t.Fatalf("error %q", v.Error)
	}
	g := newFakeSet(t, h2, "y", "st3d")
	h2.Move("y", protocol.Move{Seq: 1, Game: g.game, Move: "z9Z-q1Q"})
	h2.Move("y", protocol.Move{Seq: 0, Game: g.game, Move: "b2W-b4N"})
	h2.Event("y", protocol.Event{Type: "lift", Cells: []string{"nowhere"}})
	if v := view(t, h2, "y"); len(v.Moves) != 0 || v.Error == "" {
		t.Fatalf("bad move: %d moves, error %q", len(v.Moves), v.Error)
	}
}

// Move numbers follow the start position's move number and side.
func TestMoveNumber(t *testing.T) {
	f := newFakeSet(t, nil, "b", "st3d")
	for i, want := range []string{"1.", "1...", "2.", "2...", "3."} {
		if got := moveNumber(f.sys.Start(), i); got != want {
			t.Errorf("ply %d: %q, want %q", i, got, want)
		}
	}
}

// A lifted attack board shows the pins it may go to (targets.Lifted's Pins)
// and no piece targets for the pieces it carries.
func TestHubLiftedBoardPins(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	for ply := 0; ply < 400; ply++ {
		p := f.g.Position()
		for _, pin := range []string{"QL1", "QL2", "QL3", "QL4", "QL5", "QL6", "KL1", "KL2", "KL3", "KL4", "KL5", "KL6"} {
			c := f.cell(pin)
			if !p.Occupancy().Has(c) {
				continue
			}
			var lifted rules.CellSet
			lifted.Add(c)
			set, _ := targets.Lifted(p, lifted, nil)
			if set.Pins.Empty() {
				continue
			}
			var want []string
			for _, x := range set.Pins.Cells(nil) {
				want = append(want, f.sys.Cells()[x])
			}
			h.State("b1", f.state(protocol.Board{Status: protocol.BoardMoveInProgress, Cells: []string{pin}}))
			v := view(t, h, "b1")
			if !slices.Equal(v.PinTargets, want) || len(v.Targets) != 0 {
				t.Fatalf("lifted %s: pins %v targets %v, want pins %v", pin, v.PinTargets, v.Targets, want)
			}
			return
		}
		if !f.random() {
			f = newFakeSet(t, h, "b1", "st3d")
		}
	}
	t.Fatal("no attack board could move in 400 random plies")
}

// The pieces still to come in are drawn with each position, kind by kind:
// First Contact's reserve (pieces to introduce), V.P6's pieces to place;
// the tournament game has none.
func TestHubReserve(t *testing.T) {
	for _, tc := range []struct {
		variant string
		moves   []string
		start   map[string]int
	}{
		{"first-contact", nil, map[string]int{"P": 8, "N": 2, "B": 2, "R": 2, "Q": 1, "p": 8, "n": 2, "b": 2, "r": 2, "q": 1}},
		{"st3d+V.P6", nil, map[string]int{"N": 2, "B": 2, "R": 2, "Q": 1, "K": 1, "n": 2, "b": 2, "r": 2, "q": 1, "k": 1}},
		{"st3d", nil, nil},
	} {
		h := NewHub(DefaultOpts())
		f := newFakeSet(t, h, "b1", tc.variant)
		v := view(t, h, "b1")
		if !maps.Equal(v.Start.Reserve, tc.start) {
			t.Errorf("%s: start reserve %v, want %v", tc.variant, v.Start.Reserve, tc.start)
		}
		for i := 0; i < 12 && f.random(); i++ {
		}
		v = view(t, h, "b1")
		last := v.Moves[len(v.Moves)-1]
		want := map[string]int{}
		p := f.g.Position()
		for _, c := range []rules.Color{rules.White, rules.Black} {
			for k := rules.Pawn; k <= rules.King; k++ {
				if r, ok := p.(rules.Reserver); ok && r.Reserve(c, k) > 0 {
					want[string(rules.PieceOf(c, k).Letter())] = r.Reserve(c, k)
				}
			}
		}
		if len(want) == 0 {
			want = nil
		}
		if !maps.Equal(last.Reserve, want) {
			t.Errorf("%s after 12 moves: reserve %v, want %v", tc.variant, last.Reserve, want)
		}
	}
}

// A hint event reaches the page's event stream as the last event, and the
// state's lesson (each side's assistance, the hints used) its status.
func TestHubHintAndLesson(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	st := f.state(protocol.Board{Status: protocol.BoardInSync})
	st.Lesson = &protocol.Lesson{Assist: map[string]string{"white": "full", "black": "none"},
		Hints: map[string]int{"white": 3, "black": 3}, HintsUsed: map[string]int{"white": 1, "black": 0}}
	h.State("b1", st)
	h.Event("b1", protocol.Event{Type: protocol.EventHint, Game: f.game, Cell: "b2W", Cells: []string{"b2W", "b4N"}, Move: "b2W-b4N", Detail: "white"})
	v := view(t, h, "b1")
	if e := v.Status.Event; e == nil || e.Type != protocol.EventHint || e.Cell != "b2W" || e.Move != "b2W-b4N" || e.Detail != "white" {
		t.Errorf("last event %+v", e)
	}
	if l := v.Status.Lesson; l == nil || l.Assist["black"] != "none" || l.HintsUsed["white"] != 1 {
		t.Errorf("lesson %+v", l)
	}
}

// The other set of a remote game offline reaches the page with the state
// (issue 24), and goes when it is back.
func TestHubPeer(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	st := f.state(protocol.Board{Status: protocol.BoardInSync})
	st.Peer = &protocol.PeerState{Set: "klingon", Paired: true, Detail: "set klingon is offline since 12:00:00"}
	h.State("b1", st)
	if v := view(t, h, "b1"); v.Peer == nil || v.Peer.Online || v.Peer.Detail != st.Peer.Detail {
		t.Fatalf("peer %+v", v.Peer)
	}
	st.Peer = nil
	h.State("b1", st)
	if v := view(t, h, "b1"); v.Peer != nil {
		t.Fatalf("peer %+v after the game without one", v.Peer)
	}
}

// A change of mind (issue 21): the move made instead comes with the next
// seq from the position before the withdrawn one, and the correction event
// names the withdrawn move: the page drops it and shows the new one, before
// any state says so, and without an error.
func TestHubCorrection(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b3W")
	f.play("b7B-b6B")
	instead := newFakeSet(t, nil, "b1", "st3d")
	instead.play("b2W-b3W")
	instead.seq = 2
	mv := instead.play("c7B-c6B")
	h.Move("b1", mv)
	h.Event("b1", protocol.Event{Type: protocol.EventCorrection, Game: f.game, Move: mv.Move, Detail: "b7B-b6B"})
	v := view(t, h, "b1")
	var got []string
	var seqs []int
	for _, m := range v.Moves {
		got, seqs = append(got, m.Long), append(seqs, m.Seq)
	}
	if !slices.Equal(got, []string{"b2W-b3W", "c7B-c6B"}) || !slices.Equal(seqs, []int{1, 3}) || v.Status.Error != "" {
		t.Errorf("moves %q seqs %v error %q, want b2W-b3W c7B-c6B, seqs 1 3", got, seqs, v.Status.Error)
	}
	if e := v.Status.Event; e == nil || e.Type != protocol.EventCorrection || e.Detail != "b7B-b6B" {
		t.Errorf("last event %+v", e)
	}
}

// A state of a later protocol version is not drawn: the page says to
// update, and the board keeps what it showed.
func TestHubRefusesALaterVersion(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b4N")
	h.State("b1", protocol.State{V: protocol.Version + 1, Game: "other", Variant: "st3d", Result: protocol.ResultOngoing})
	v := view(t, h, "b1")
	if !strings.Contains(v.Error, "update it") || len(v.Moves) != 1 {
		t.Errorf("error %q, %d moves: want the update message and the move kept", v.Error, len(v.Moves))
	}
}
