package table_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// lastOf is the last event of kind k recorded, or nil.
func (r *recorder) lastOf(k table.Kind) *table.Event {
	evs := r.events()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == k {
			return &evs[i]
		}
	}
	return nil
}

// playIn starts a game from position, stands the set in it, and does the
// hand's acts, then waits long enough for what they do to become a
// mismatch (Opts.MismatchAfter).
func (r *rig) playIn(position string, acts ...string) {
	r.t.Helper()
	if _, err := r.tb.Exec(table.NewGame{Position: position}); err != nil {
		r.t.Fatal(err)
	}
	r.setup()
	r.run(time.Second)
	r.act(acts...)
	r.run(3 * time.Second)
	r.drain()
}

// A mismatch's state says why (the reason) and, apart from it, what to do
// in words: which piece goes back to which cell and what to take away.
func TestMismatchSaysTheFixInWords(t *testing.T) {
	for _, tc := range []struct {
		name, position string
		acts           []string
		reason, hint   string
	}{
		{"illegal move explained", "QL1:w,KL6:b Kb1W,Rb2W,rb4N,kc8B w - - - 0 30",
			[]string{"lift b2W", "wait 100", "place c2W"},
			"Your king on b1W would be in check from the rook on b4N.",
			"put back the white rook on b2W; take away what stands on c2W"},
		{"a piece knocked off", "QL1:w,KL6:b Kb1W,Rb2W,rb4N,kc8B w - - - 0 30",
			[]string{"lift b2W", "lift b1W", "wait 100", "place c2W", "place c1W"},
			"no legal move leads to this",
			"put back the white king on b1W, the white rook on b2W; take away what stands on c1W, c2W"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.playIn(tc.position, tc.acts...)
			st := r.tb.Snapshot().Status
			if st.State != recognize.Mismatch || st.Reason != tc.reason || st.Instruction != tc.hint {
				t.Fatalf("board %s\n reason %q, want %q\n hint %q, want %q", st.State, st.Reason, tc.reason, st.Instruction, tc.hint)
			}
		})
	}
}

// The first illegal move of a new game is explained, lit and penalised
// like any other when the set already showed the new game's position (the
// table used to take it for the set being set up), and no reason of the
// previous game's last illegal move is carried into the new one.
func TestFirstIllegalMoveOfANewGame(t *testing.T) {
	r := newRig(t, func(o *table.Opts) { o.Clock.Penalty = time.Minute })
	names := st3d.CellNames()
	// The previous game ends with an illegal move standing on the set:
	// Black's pawn moved on White's turn.
	r.act("lift b7B", "wait 100", "place b6B")
	r.run(3 * time.Second)
	if st := r.tb.Snapshot().Status; !strings.HasPrefix(st.Reason, "It is white's move") {
		t.Fatalf("the previous game's illegal move: %s %q %q", st.State, st.Reason, st.Instruction)
	}
	ctl, err := clock.Parse("300")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.tb.Exec(table.NewGame{TimeControl: ctl}); err != nil {
		t.Fatal(err)
	}
	r.run(100 * time.Millisecond)
	if st := r.tb.Snapshot().Status; st.State != recognize.Mismatch || st.Reason != "set up the position of the new game" ||
		st.Instruction != "put back the black pawn on b7B; take away what stands on b6B" || !st.Culprits.Empty() {
		t.Fatalf("the new game, the set not set up: %s %q %q culprits %v", st.State, st.Reason, st.Instruction, st.Culprits.Names(names))
	}
	r.act("lift b6B", "wait 100", "place b7B")
	r.run(time.Second)
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Fatalf("set up: %s", st)
	}
	// Now a new game while the set shows its start position already.
	if _, err := r.tb.Exec(table.NewGame{TimeControl: ctl}); err != nil {
		t.Fatal(err)
	}
	r.run(time.Second)
	if st := r.tb.Snapshot().Status.State; st != recognize.InSync {
		t.Fatalf("the set shows the new game: %s", st)
	}
	if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockResume}); err != nil {
		t.Fatal(err)
	}
	r.act("lift b2W", "wait 100", "place b5N")
	r.run(3 * time.Second)
	r.drain()
	ill := r.rec.lastOf(table.Illegal)
	const why = "A pawn does not move from b2W to b5N."
	if ill == nil || ill.Detail != why || ill.Snap.Game != r.tb.Snapshot().Game {
		t.Fatalf("the first illegal move of the new game: %+v", ill)
	}
	st := r.tb.Snapshot().Status
	if st.Reason != why || st.Instruction != "put back the white pawn on b2W; take away what stands on b5N" {
		t.Errorf("state: reason %q hint %q", st.Reason, st.Instruction)
	}
	pen := r.rec.lastOf(table.ClockChanged)
	if pen == nil || pen.Detail != "penalty: black gets 1m0s for white's illegal move" {
		t.Errorf("penalty: %+v", pen)
	}
}

// A hint is published as an event, for MQTT and the pages alike (both
// sinks use mqttsink.EventOf), as the LEDs show it: the piece first, then
// the piece, its target and the move.
func TestHintIsPublishedAsAnEvent(t *testing.T) {
	r := newRig(t)
	var got []protocol.Event
	for stage := 1; stage <= 2; stage++ {
		rep, err := r.tb.Exec(table.Hint{})
		if err != nil || rep.Hint.Stage != stage {
			t.Fatalf("hint %d: %+v %v", stage, rep.Hint, err)
		}
		r.drain()
		e := r.rec.lastOf(table.HintGiven)
		if e == nil {
			t.Fatalf("no hint event at stage %d", stage)
		}
		ev, ok := protocol.EventOf(*e)
		if !ok {
			t.Fatalf("the hint event of stage %d is not published", stage)
		}
		got = append(got, ev)
	}
	h := r.tb.Snapshot().Hint
	want := []protocol.Event{
		{Type: protocol.EventHint, Cell: h.Piece, Cells: []string{h.Piece}, Detail: "white"},
		{Type: protocol.EventHint, Cell: h.Piece, Cells: h.From.Union(h.To).Names(st3d.CellNames()), Move: h.Move, Detail: "white"},
	}
	if h.Piece == "" || len(want[1].Cells) != 2 || h.Move == "" {
		t.Fatalf("the hint shown: %+v", h)
	}
	for i := range want {
		g := got[i]
		g.Game, g.Time = "", time.Time{}
		if !reflect.DeepEqual(g, want[i]) {
			t.Errorf("stage %d: %+v\nwant %+v", i+1, g, want[i])
		}
	}
}

func ptr[T any](v T) *T { return &v }

// The teacher's settings (the lock, each side's hint limit) and the hints
// used are journaled: a restart keeps them, and a new game keeps the lock
// and the limits.
func TestTeachersSettingsSurviveARestart(t *testing.T) {
	r := newRig(t)
	if _, err := r.tb.Exec(table.Teach{Limit: [2]*int{ptr(5), ptr(0)}}); err != nil {
		t.Fatal(err)
	}
	rep, err := r.tb.Exec(table.Hint{})
	if err != nil {
		t.Fatal(err)
	}
	r.play(rep.Hint.Move)
	if _, err := r.tb.Exec(table.Hint{}); !errors.Is(err, table.ErrNoHintsLeft) {
		t.Fatalf("Black's hint with a limit of 0: %v", err)
	}
	if _, err := r.tb.Exec(table.Teach{Lock: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	want := game.Teaching{Locked: true, Limit: [2]int{5, 0}, Assist: [2]game.Assist{game.AssistFull, game.AssistFull}}
	if err := r.tb.Close(); err != nil {
		t.Fatal(err)
	}
	r.open() // a restart on the same state directory
	snap := r.tb.Snapshot()
	if snap.Teaching != want || !snap.HintsLocked || snap.HintsUsed != [2]int{1, 0} {
		t.Fatalf("after a restart: %+v locked %v used %v, want %+v used [1 0]", snap.Teaching, snap.HintsLocked, snap.HintsUsed, want)
	}
	r.drain()
	if v := r.leds.view(); !v.NoTargets {
		t.Error("the LEDs show targets under the lock after a restart")
	}
	if _, err := r.tb.Exec(table.Hint{}); !errors.Is(err, table.ErrHintsLocked) {
		t.Errorf("a hint under the lock after a restart: %v", err)
	}
	// A new game keeps the lock and the limits, journaled in it too.
	if _, err := r.tb.Exec(table.NewGame{}); err != nil {
		t.Fatal(err)
	}
	if err := r.tb.Close(); err != nil {
		t.Fatal(err)
	}
	r.open()
	if snap := r.tb.Snapshot(); snap.Teaching != want || snap.HintsUsed != [2]int{} {
		t.Errorf("the next game after a restart: %+v used %v, want %+v used none", snap.Teaching, snap.HintsUsed, want)
	}
}

// A teach that changes nothing, or a setting out of range, is refused with
// the reason and changes nothing: neither the settings nor the journal.
func TestTeachRefusesBadSettings(t *testing.T) {
	r := newRig(t)
	before := r.tb.Snapshot().Teaching
	journal := filepath.Join(r.opts.StateDir, game.GamesDir, r.tb.Snapshot().Game+game.JournalExt)
	size := func() int64 {
		fi, err := os.Stat(journal)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	was := size()
	for _, tc := range []struct {
		name string
		c    table.Teach
		want string
	}{
		{"nothing (no longer an unlock)", table.Teach{}, "table: teach: nothing to change: give the lock, a side's hint limit or a side's assistance"},
		{"limit below -1", table.Teach{Limit: [2]*int{nil, ptr(-2)}}, "table: teach: black: hint limit -2: want -1 (no limit) to 1000"},
		{"unknown assistance", table.Teach{Lock: ptr(true), Assist: [2]game.Assist{"most"}},
			`table: teach: white: assistance "most": want "full", "explain" or "none"`},
	} {
		_, err := r.tb.Exec(tc.c)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v\nwant %s", tc.name, err, tc.want)
		}
	}
	if after := r.tb.Snapshot().Teaching; after != before || size() != was {
		t.Errorf("refused teaches changed the settings %+v -> %+v or the journal (%d -> %d bytes)", before, after, was, size())
	}
	if _, err := r.tb.Exec(table.NewGame{Assist: [2]game.Assist{"", "half"}}); err == nil ||
		err.Error() != `table: new game: black: assistance "half": want "full", "explain" or "none"` {
		t.Errorf("a new game with a bad assistance: %v", err)
	}
	if g := r.tb.Snapshot().Game; filepath.Base(journal) != g+game.JournalExt {
		t.Errorf("the refused new game replaced the game: %s", g)
	}
}

// Assistance per side (ChessUp's levels): with full assistance a side sees
// the targets of a lifted piece, gets hints and has its illegal moves
// explained with the fix in words; with "explain" only the explanations;
// with "none" only the cells to fix. Chosen per game and per side; the
// state says it for the page; a restart keeps it.
func TestAssistancePerSide(t *testing.T) {
	for _, tc := range []struct {
		black                    game.Assist
		targets, hints, explains bool
	}{
		{game.AssistFull, true, true, true},
		{game.AssistExplain, false, false, true},
		{game.AssistNone, false, false, false},
	} {
		t.Run(string(tc.black), func(t *testing.T) {
			r := newRig(t)
			if _, err := r.tb.Exec(table.NewGame{Assist: [2]game.Assist{game.AssistFull, tc.black}}); err != nil {
				t.Fatal(err)
			}
			r.run(time.Second)
			if err := r.tb.Close(); err != nil {
				t.Fatal(err)
			}
			r.open() // the assistance is journaled with the game
			if st := protocol.StateOf(r.tb.Snapshot()); st.Lesson == nil ||
				!reflect.DeepEqual(st.Lesson.Assist, map[string]string{"white": "full", "black": string(tc.black)}) {
				t.Fatalf("state's lesson %+v", st.Lesson)
			}
			// White, with full assistance, always sees the targets.
			r.act("lift b2W")
			r.drain()
			if v := r.leds.view(); v.NoTargets {
				t.Error("White's lifted pawn shows no targets")
			}
			r.act("place b2W")
			r.run(time.Second)
			r.play("b2W-b3W")
			// Black.
			r.act("lift b7B")
			r.drain()
			if v := r.leds.view(); v.NoTargets == tc.targets {
				t.Errorf("Black's lifted pawn: targets shown %v, want %v", !v.NoTargets, tc.targets)
			}
			r.act("place b7B")
			r.run(time.Second)
			_, err := r.tb.Exec(table.Hint{})
			if (err == nil) != tc.hints || !tc.hints && !errors.Is(err, table.ErrNoAssist) {
				t.Errorf("Black's hint: %v, want one %v", err, tc.hints)
			}
			// Black's pawn back to b5B: a pawn does not move so.
			r.act("lift b7B", "wait 100", "place b4N")
			r.run(3 * time.Second)
			r.drain()
			ill := r.rec.lastOf(table.Illegal)
			st := r.tb.Snapshot().Status
			if tc.explains {
				if ill == nil || ill.Detail != "A pawn does not move from b7B to b4N." || st.Reason != ill.Detail ||
					st.Instruction != "put back the black pawn on b7B; take away what stands on b4N. If b2W-b3W was recognized wrongly, putting back the position before it takes it back" {
					t.Errorf("explained: event %+v\nreason %q hint %q", ill, st.Reason, st.Instruction)
				}
			} else if ill == nil || ill.Detail != "no legal move leads to this" || st.Reason != ill.Detail || st.Instruction != "" {
				t.Errorf("unexplained: event %+v\nreason %q hint %q", ill, st.Reason, st.Instruction)
			}
		})
	}
}
