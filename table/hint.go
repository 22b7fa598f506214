package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/setting"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/explain"
)

// Hint asks for a suggested move for the side to move. The first request
// in a position shows the piece to move (its cell); the second shows where
// it goes too, as the better 2D boards do. Each side has its limit of hints
// a game (Teach, HintOpts.Limit); a side without full assistance gets none,
// and a teacher's lock turns hints off for both.
type Hint struct{}

// Teach changes the teacher's settings of the game; what it leaves nil or
// "" stays as it is, and it must change something. The game's journal
// keeps them, so a restart keeps them; a new game keeps the lock and the
// limits.
type Teach struct {
	// Lock, when set, turns the teacher's lock on or off: with the lock,
	// no hints are given and the LEDs show no legal targets.
	Lock *bool
	// Limit, when set, is a side's number of hints a game (by
	// rules.Color): 0 none, -1 no limit, at most game.MaxHintLimit.
	Limit [2]*int
	// Assist, when set, is a side's assistance (by rules.Color).
	Assist [2]game.Assist
}

func (Hint) Name() string  { return "hint" }
func (Hint) command()      {}
func (Teach) Name() string { return "teach" }
func (Teach) command()     {}

// HintOpts tune hints and the lessons' defaults. They are the
// configuration file's "lesson" section (the yaml names; those tagged "-"
// are not settings), checked by Validate.
type HintOpts struct {
	// Limit is the number of hints each side may have in a game whose
	// teacher set none (0: none; -1: no limit).
	Limit Sides[int] `yaml:"hints"`
	// Nodes bounds the engine's search for a hint.
	Nodes int64 `yaml:"-"`
	// Locked starts the table with the teacher's lock on.
	Locked bool `yaml:"lock"`
	// Assist is each side's assistance in a game that does not choose it
	// (NewGame.Assist): full (targets, hints, explanations), explain
	// (explanations only) or none; "" is game.AssistFull.
	Assist Sides[game.Assist] `yaml:"assist"`
}

// Sides is a setting of each side, written {white: ..., black: ...}.
type Sides[T any] struct {
	White T `yaml:"white"`
	Black T `yaml:"black"`
}

// Of is side's setting.
func (s Sides[T]) Of(side rules.Color) T {
	if side == rules.Black {
		return s.Black
	}
	return s.White
}

// DefaultHintOpts: three hints a side, searched within 30,000 nodes, full
// assistance for both sides.
func DefaultHintOpts() HintOpts {
	return HintOpts{Limit: Sides[int]{3, 3}, Nodes: 30_000, Assist: Sides[game.Assist]{game.AssistFull, game.AssistFull}}
}

// Validate checks the settings of the configuration file: each side's
// hints -1 (no limit) to game.MaxHintLimit, its assistance full, explain
// or none. Its error is setting.Problems, keyed by the yaml names.
func (o *HintOpts) Validate() error {
	var ps setting.Problems
	for _, side := range [2]rules.Color{rules.White, rules.Black} {
		name := side.String()
		if n := o.Limit.Of(side); n < -1 || n > game.MaxHintLimit {
			ps.Add("hints."+name, "%d: want -1 (no limit) to %d", n, game.MaxHintLimit)
		}
		if a := o.Assist.Of(side); a != game.AssistFull && a != game.AssistExplain && a != game.AssistNone {
			ps.Add("assist."+name, "%q: want full, explain or none", a)
		}
	}
	return ps.Err("table: lesson")
}

// teaching is the settings of a game that has none journaled: o's.
func (o *HintOpts) teaching() game.Teaching {
	t := game.Teaching{Locked: o.Locked}
	for _, side := range [2]rules.Color{rules.White, rules.Black} {
		t.Limit[side] = max(-1, min(o.Limit.Of(side), game.MaxHintLimit))
		t.Assist[side] = o.Assist.Of(side)
		if t.Assist[side] == "" {
			t.Assist[side] = game.AssistFull
		}
	}
	return t
}

// HintShown is a suggested move being shown.
type HintShown struct {
	// Move is the move suggested, in long form.
	Move string
	// Stage is 1 (the piece: From) or 2 (the piece and its target: To).
	Stage int
	// From and To are the cells to light; Piece and Target name them
	// (Target is "" in stage 1, and for a placement Piece is "").
	From, To      rules.CellSet
	Piece, Target string
}

// Errors of Hint.
var (
	ErrHintsLocked = errors.New("hints are locked by the teacher")
	ErrNoAssist    = errors.New("this side plays without hints")
	ErrNoHintsLeft = errors.New("no hints left for this side in this game")
	ErrHintStale   = errors.New("the game moved on while the hint was searched: ask again")
)

// hintCheck sees whether a hint can be given now: it returns the position
// to search, or the reply (the second stage of the hint shown) and true.
func (t *Table) hintCheck(now time.Time) (rules.Position, Reply, bool, error) {
	if t.hints.teach.Locked {
		return nil, Reply{}, true, ErrHintsLocked
	}
	if t.rec.Status().State != recognize.InSync {
		return nil, Reply{}, true, fmt.Errorf("%w (%s)", ErrNotInSync, t.rec.Status().State)
	}
	if res, _ := t.sess.Result(); res != rules.NoResult {
		return nil, Reply{}, true, errors.New("the game is over")
	}
	pos := t.sess.Position()
	search, second, err := t.hints.ask(pos, t.sess.HintsUsed())
	if second {
		t.emit(Event{Kind: HintGiven, At: now, Side: pos.Turn(), Detail: t.hints.shown.Move})
	}
	if search {
		return pos, Reply{}, false, nil
	}
	if err != nil {
		return nil, Reply{}, true, err
	}
	return nil, Reply{Hint: t.currentHint()}, true, nil
}

// hint carries out a Hint at once: the search runs on the caller's
// goroutine (Exec, between Ticks). Under Run, hintStart runs it on a
// goroutine of its own instead, so that scanning goes on meanwhile.
func (t *Table) hint(now time.Time) (Reply, error) {
	pos, r, done, err := t.hintCheck(now)
	if done {
		return r, err
	}
	res, err := searchHint(context.Background(), pos, t.hintOpts(), t.o.slowHint)
	return t.hintShow(now, pos, res, err)
}

// searchHint is the engine's search for a hint, after slow (a test's slow
// engine) when it is set.
func searchHint(ctx context.Context, pos rules.Position, o engine.Opts, slow func()) (engine.Result, error) {
	if slow != nil {
		slow()
	}
	return engine.Search(ctx, pos, o)
}

func (t *Table) hintOpts() engine.Opts { return engine.Opts{Nodes: t.hints.o.Nodes, Now: t.o.Now} }

// hintStart starts a hint's search on its own goroutine, or joins the one
// in progress for the same position; reply (nil for a button) gets the
// answer. It answers at once when no search is needed.
func (t *Table) hintStart(now time.Time, reply chan cmdResult) {
	pos, r, done, err := t.hintCheck(now)
	if done {
		if reply != nil {
			reply <- cmdResult{r, err}
		}
		return
	}
	s, ctx, started := t.hints.searching(pos.Key())
	if started {
		opts, out, slow := t.hintOpts(), t.hints.done, t.o.slowHint
		go func() {
			res, err := searchHint(ctx, pos, opts, slow)
			select {
			case out <- hintFound{s, pos, res, err}:
			default: // sixteen searches superseded and not collected: Run has ended
			}
		}()
	}
	if reply != nil {
		s.replies = append(s.replies, reply)
	}
}

// hintFinish shows what a search under Run found, if the game is still
// where it was, and answers the requests that waited for it.
func (t *Table) hintFinish(now time.Time, f hintFound) {
	if !t.hints.finished(f) {
		return // superseded: the requests went to the newer search
	}
	var r Reply
	var err error
	if t.sess.Position().Key() != f.s.key {
		err = ErrHintStale
	} else if _, cr, done, cerr := t.hintCheck(now); done {
		r, err = cr, cerr // locked, a move begun or the game over meanwhile
	} else {
		r, err = t.hintShow(now, f.pos, f.res, f.err)
	}
	for _, ch := range f.s.replies {
		ch <- cmdResult{r, err}
	}
}

// hintShow makes the move a search found the hint shown (stage 1).
func (t *Table) hintShow(now time.Time, pos rules.Position, res engine.Result, err error) (Reply, error) {
	if err != nil {
		return Reply{}, err
	}
	side := pos.Turn()
	shown := found(pos, res.Move, t.sys.Cells())
	// The journal counts the hint first: a restart does not give it back.
	if err := t.sess.UseHint(side, now); err != nil {
		return Reply{}, err
	}
	t.hints.show(pos.Key(), shown)
	t.log.Info("hint", "side", side, "move", shown.Move, "used", t.sess.HintsUsed()[side])
	t.emit(Event{Kind: HintGiven, At: now, Side: side, Detail: shown.Move})
	return Reply{Hint: t.currentHint()}, nil
}

// currentHint is the hint to show now, or nil once the position moved on.
func (t *Table) currentHint() *HintShown { return t.hints.current(t.rec.Position().Key()) }

func (t *Table) teach(now time.Time, c Teach) (Reply, error) {
	next, err := t.hints.next(c)
	if err != nil {
		return Reply{}, err
	}
	if err := t.sess.SetTeaching(next); err != nil {
		return Reply{}, err
	}
	t.setTeaching(next)
	t.log.Info("teacher's settings", "locked", next.Locked, "limit", next.Limit, "assist", next.Assist)
	t.emit(Event{Kind: Changed, At: now})
	return Reply{}, nil
}

// setTeaching makes tc the settings in force; a hint shown goes when they
// no longer allow it.
func (t *Table) setTeaching(tc game.Teaching) { t.hints.set(tc, t.rec.Position().Turn()) }

// explains reports whether the side to move in the expected position has
// its illegal moves explained (its assistance).
func (t *Table) explains() bool { return t.hints.explains(t.rec.Position().Turn()) }

// explainIllegal says why the set shows an illegal move, when one piece
// went from one cell to another, or one board (or platform) from one pin
// to another with what it carries: the sentence and the cells to light.
func (t *Table) explainIllegal(st recognize.Status) (string, rules.CellSet, bool) {
	pos := t.rec.Position()
	if st.Lifted.Empty() || st.Placed.Empty() {
		return "", rules.CellSet{}, false
	}
	from, to := rules.NoCell, rules.NoCell
	if st.Lifted.Len() == 1 && st.Placed.Len() == 1 {
		from, to = st.Lifted.Cells(nil)[0], st.Placed.Cells(nil)[0]
	} else {
		// A board: the one lifted cell without a piece is its pin; the
		// placed cell that explains is the pin it went to.
		for _, c := range st.Lifted.Cells(nil) {
			if _, piece := pos.CellPiece(c); !piece {
				if from != rules.NoCell {
					return "", rules.CellSet{}, false
				}
				from = c
			}
		}
		if from == rules.NoCell {
			return "", rules.CellSet{}, false
		}
		// Of the cells put down (the pin and the board's squares), the one
		// whose explanation is the most telling; a pin comes after the
		// squares in the systems' cell lists, so the later wins a tie.
		rank := map[explain.Reason]int{explain.OtherSide: 6, explain.KingInCheck: 5, explain.Blocked: 4,
			explain.NoSquare: 3, explain.BoardRule: 2, explain.OwnPiece: 1}
		best := 0
		for _, c := range st.Placed.Cells(nil) {
			if r := rank[explain.Explain(pos, from, c).Reason]; r > 0 && r >= best {
				to, best = c, r
			}
		}
		if to == rules.NoCell {
			return "", rules.CellSet{}, false
		}
	}
	e := explain.Explain(pos, from, to)
	if e.Reason == explain.Unknown || e.Reason == explain.Legal || e.Text == "" {
		return "", rules.CellSet{}, false
	}
	var culprits rules.CellSet
	for _, c := range e.Culprits {
		culprits.Add(c)
	}
	return e.Text, culprits, true
}
