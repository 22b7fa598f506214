package table

import (
	"errors"
	"testing"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// The hints' own state (issue 38): when a hint may be asked for, its two
// stages, what is shown as the game moves on, the teacher's settings and
// the searches under way, without a table around them.
func TestHints(t *testing.T) {
	start := st3d.System.Start()
	m := start.LegalMoves(nil)[0]
	after := start.Play(m)
	opts := func(f func(*HintOpts)) HintOpts {
		o := DefaultHintOpts()
		if f != nil {
			f(&o)
		}
		return o
	}

	t.Run("ask", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			o      HintOpts
			used   [2]int
			search bool
			err    error
		}{
			{"the defaults: search", opts(nil), [2]int{}, true, nil},
			{"locked", opts(func(o *HintOpts) { o.Locked = true }), [2]int{}, false, ErrHintsLocked},
			{"White without assistance", opts(func(o *HintOpts) { o.Assist.White = game.AssistExplain }), [2]int{}, false, ErrNoAssist},
			{"Black without assistance: White may", opts(func(o *HintOpts) { o.Assist.Black = game.AssistNone }), [2]int{}, true, nil},
			{"White's hints used up", opts(nil), [2]int{3, 0}, false, ErrNoHintsLeft},
			{"Black's used up: White may", opts(nil), [2]int{2, 3}, true, nil},
			{"no limit", opts(func(o *HintOpts) { o.Limit.White = -1 }), [2]int{999, 0}, true, nil},
			{"none a game", opts(func(o *HintOpts) { o.Limit.White = 0 }), [2]int{}, false, ErrNoHintsLeft},
		} {
			h := newHints(tc.o)
			h.game(game.Teaching{}, false)
			search, second, err := h.ask(start, tc.used)
			if search != tc.search || second || !errors.Is(err, tc.err) {
				t.Errorf("%s: search %v, second %v, err %v; want %v, %v", tc.name, search, second, err, tc.search, tc.err)
			}
		}
	})

	t.Run("stages", func(t *testing.T) {
		h := newHints(DefaultHintOpts())
		h.game(game.Teaching{}, false)
		shown := found(start, m, st3d.CellNames())
		if shown.Stage != 1 || shown.Move != start.Long(m) || shown.From.Len() != 1 || shown.To.Len() != 1 ||
			shown.Piece == "" || shown.Target == "" {
			t.Fatalf("found %+v", shown)
		}
		h.show(start.Key(), shown)
		if c := h.current(start.Key()); c == nil || c.Stage != 1 || !c.To.Empty() || c.Target != "" || c.Piece != shown.Piece {
			t.Errorf("stage 1 shows %+v: want the piece only", c)
		}
		// Asked again in the same position: the target too, once; no search,
		// and the limit is not counted again (all used).
		for i, want := range []bool{true, false} {
			search, second, err := h.ask(start, [2]int{3, 3})
			if search || second != want || err != nil {
				t.Errorf("ask %d: search %v, second %v, err %v", i, search, second, err)
			}
		}
		if c := h.current(start.Key()); c == nil || c.Stage != 2 || c.Target != shown.Target {
			t.Errorf("stage 2 shows %+v", c)
		}
		if c := h.current(after.Key()); c != nil {
			t.Errorf("after the move: %+v shown", c)
		}
		h.game(game.Teaching{}, false)
		if c := h.current(start.Key()); c != nil {
			t.Errorf("a new game: %+v shown", c)
		}
	})

	t.Run("teach", func(t *testing.T) {
		h := newHints(DefaultHintOpts())
		journaled := game.Teaching{Limit: [2]int{1, -1}, Assist: [2]game.Assist{game.AssistFull, game.AssistNone}}
		h.game(journaled, true)
		if h.teach != journaled || !h.explains(rules.White) || h.explains(rules.Black) {
			t.Fatalf("journaled settings: %+v", h.teach)
		}
		if _, err := h.next(Teach{}); !errors.Is(err, ErrNothingToTeach) {
			t.Errorf("nothing: %v", err)
		}
		bad := 1001
		if _, err := h.next(Teach{Limit: [2]*int{nil, &bad}}); err == nil {
			t.Error("a limit over game.MaxHintLimit taken")
		}
		lock, two := true, 2
		next, err := h.next(Teach{Lock: &lock, Limit: [2]*int{&two, nil}, Assist: [2]game.Assist{"", game.AssistExplain}})
		want := game.Teaching{Locked: true, Limit: [2]int{2, -1}, Assist: [2]game.Assist{game.AssistFull, game.AssistExplain}}
		if err != nil || next != want || h.teach != journaled {
			t.Errorf("next = %+v, %v (in force %+v); want %+v, the settings in force unchanged", next, err, h.teach, want)
		}
		h.show(start.Key(), found(start, m, st3d.CellNames()))
		h.set(game.Teaching{Limit: [2]int{3, 3}, Assist: [2]game.Assist{game.AssistFull, game.AssistNone}}, rules.White)
		if h.current(start.Key()) == nil {
			t.Error("a change that still allows White's hint took it away")
		}
		h.set(want, rules.White)
		if h.current(start.Key()) != nil || h.teach != want {
			t.Error("the lock left the hint shown")
		}
	})

	t.Run("searches", func(t *testing.T) {
		h := newHints(DefaultHintOpts())
		s1, ctx1, started := h.searching(start.Key())
		if !started || ctx1 == nil {
			t.Fatal("no search started")
		}
		reply := make(chan cmdResult, 1)
		s1.replies = append(s1.replies, reply)
		if s, _, started := h.searching(start.Key()); started || s != s1 {
			t.Error("the same position started a second search")
		}
		s2, _, started := h.searching(after.Key())
		if !started || s2 == s1 || ctx1.Err() == nil || len(s2.replies) != 1 || s2.replies[0] != reply {
			t.Errorf("a new position: started %v, old cancelled %v, requests taken over %d", started, ctx1.Err() != nil, len(s2.replies))
		}
		if h.finished(hintFound{s: s1}) {
			t.Error("the superseded search was taken")
		}
		if !h.finished(hintFound{s: s2}) || h.search != nil {
			t.Error("the current search was not taken")
		}
	})
}
