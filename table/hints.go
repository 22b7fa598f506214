package table

import (
	"context"
	"errors"
	"fmt"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
)

// hints is the table's state of hints and of the teacher's settings: the
// settings in force, the hint shown and the position it is for, and the
// search under way. The table asks it (ask) and shows what a search found
// (show); the journal, the events and the recognizer stay the table's
// (hint.go).
type hints struct {
	o     HintOpts
	teach game.Teaching // the game's settings: journaled, or o's
	key   string        // the position the shown hint is for
	shown *HintShown
	// search is the search in progress under Run (nil: none), and done
	// where it reports.
	search *hintSearch
	done   chan hintFound
}

// newHints makes the hint state of a table with o.
func newHints(o HintOpts) hints { return hints{o: o, done: make(chan hintFound, 16)} }

// hintSearch is a hint's search running on its own goroutine, and the
// requests waiting for it (a button has none).
type hintSearch struct {
	key     string
	cancel  context.CancelFunc
	replies []chan cmdResult
}

// hintFound is what a hint's search found.
type hintFound struct {
	s   *hintSearch
	pos rules.Position
	res engine.Result
	err error
}

// game starts the hints of a game: nothing shown, its journaled settings
// (tc, ok), or the defaults of o.
func (h *hints) game(tc game.Teaching, ok bool) {
	h.shown = nil
	if !ok {
		tc = h.o.teaching()
	}
	h.teach = tc
}

// ask decides a request for a hint in pos (the game not over, the set in
// sync), side to move having used used hints: an error when none may be
// given; search when the engine must find one; otherwise the hint shown
// for pos is the answer, and second reports that it went to its second
// stage now (its target shown too).
func (h *hints) ask(pos rules.Position, used [2]int) (search, second bool, err error) {
	if h.teach.Locked {
		return false, false, ErrHintsLocked
	}
	if h.shown != nil && h.key == pos.Key() {
		second = h.shown.Stage == 1
		h.shown.Stage = 2
		return false, second, nil
	}
	side := pos.Turn()
	if a := h.teach.Assist[side]; !a.Hints() {
		return false, false, fmt.Errorf("%w (%s: assistance %s)", ErrNoAssist, side, a)
	}
	if lim := h.teach.Limit[side]; lim >= 0 && used[side] >= lim {
		return false, false, fmt.Errorf("%w (%d)", ErrNoHintsLeft, lim)
	}
	return true, false, nil
}

// found is the hint of the move a search found in pos (stage 1), its
// cells named by names (the system's cells).
func found(pos rules.Position, m rules.Move, names []string) *HintShown {
	in := pos.Info(m)
	shown := &HintShown{Move: pos.Long(m), Stage: 1}
	if in.From != rules.NoCell {
		shown.From.Add(in.From)
		shown.Piece = names[in.From]
	}
	if in.To != rules.NoCell {
		shown.To.Add(in.To)
		shown.Target = names[in.To]
	}
	return shown
}

// show makes shown the hint shown for the position of key.
func (h *hints) show(key string, shown *HintShown) { h.key, h.shown = key, shown }

// current is the hint to show in the position of key, or nil once the
// game moved on; in stage 1 without its target.
func (h *hints) current(key string) *HintShown {
	if h.shown == nil || h.key != key {
		return nil
	}
	c := *h.shown
	if c.Stage == 1 {
		c.To, c.Target = rules.CellSet{}, ""
	}
	return &c
}

// ErrNothingToTeach: a Teach that changes nothing.
var ErrNothingToTeach = errors.New("table: teach: nothing to change: give the lock, a side's hint limit or a side's assistance")

// next is the settings a Teach makes of those in force, checked.
func (h *hints) next(c Teach) (game.Teaching, error) {
	next := h.teach
	changes := 0
	if c.Lock != nil {
		next.Locked = *c.Lock
		changes++
	}
	for side := range 2 {
		if c.Limit[side] != nil {
			next.Limit[side] = *c.Limit[side]
			changes++
		}
		if c.Assist[side] != "" {
			next.Assist[side] = c.Assist[side]
			changes++
		}
	}
	if changes == 0 {
		return next, ErrNothingToTeach
	}
	if err := next.Check(); err != nil {
		return next, fmt.Errorf("table: teach: %w", err)
	}
	return next, nil
}

// set makes tc the settings in force, turn the side to move; a hint shown
// goes when they no longer allow it.
func (h *hints) set(tc game.Teaching, turn rules.Color) {
	h.teach = tc
	if tc.Locked || !tc.Assist[turn].Hints() {
		h.shown = nil
	}
}

// explains reports whether turn, the side to move, has its illegal moves
// explained (its assistance).
func (h *hints) explains(turn rules.Color) bool { return h.teach.Assist[turn].Explains() }

// searching is the search for the position of key to join, or, when
// there is none, a new one that takes over the requests waiting for an
// older search (they asked for a hint in the game as it is now), which is
// cancelled; started reports a new one, whose context ctx is.
func (h *hints) searching(key string) (s *hintSearch, ctx context.Context, started bool) {
	if h.search != nil && h.search.key == key {
		return h.search, nil, false
	}
	var waiting []chan cmdResult
	if old := h.search; old != nil {
		old.cancel()
		waiting = old.replies
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.search = &hintSearch{key: key, cancel: cancel, replies: waiting}
	return h.search, ctx, true
}

// finished takes in a search's result: false when a newer search
// superseded it (its requests went to the newer one).
func (h *hints) finished(f hintFound) bool {
	f.s.cancel()
	if h.search != f.s {
		return false
	}
	h.search = nil
	return true
}
