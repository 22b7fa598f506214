package table

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// lastMoveCells are the from and to cells of the session's last move.
func (t *Table) lastMoveCells() rules.CellSet {
	moves := t.sess.Moves()
	if len(moves) == 0 {
		return rules.CellSet{}
	}
	pos := t.sess.Start()
	var last rules.Move
	var before rules.Position
	for _, m := range moves {
		mv, _, err := pos.ParseMove(m.Move)
		if err != nil {
			return rules.CellSet{}
		}
		before, last = pos, mv
		pos = pos.Play(mv)
	}
	return moveCells(before.Info(last))
}

func moveCells(in rules.MoveInfo) rules.CellSet {
	var s rules.CellSet
	if in.From != rules.NoCell {
		s.Add(in.From)
	}
	if in.To != rules.NoCell {
		s.Add(in.To)
	}
	return s
}

// applyJournal takes the effect of the moves made durable since.
func (t *Table) applyJournal() {
	for {
		r, ok := t.jr.ready()
		if !ok {
			return
		}
		t.applied(r)
	}
}

// flush waits for the journal to finish every job and applies them.
func (t *Table) flush() {
	for t.jr.pending > 0 {
		r, ok := t.jr.next(time.Minute)
		if !ok {
			t.log.Error("journal: a write is taking over a minute")
			continue
		}
		t.applied(r)
	}
}

func (t *Table) applied(r result) {
	switch {
	case r.skipped || r.gen != t.gen:
		return
	case r.err != nil:
		// The game refused (it is over, or the journal cannot be written):
		// nothing is published; the board must go back.
		t.gen++
		t.flush()
		t.clockRebuild(r.ev.At, false)
		long := r.ev.Before.Long(r.ev.Move)
		what := "the move " + long
		if r.kind == TookBack {
			what = "the take-back"
		}
		t.log.Error("not accepted", "what", what, "err", r.err)
		t.setExpected(t.sess.Position(), "the game did not accept "+what+": "+r.err.Error())
		t.lastMove = t.lastMoveCells()
		t.emit(Event{Kind: Illegal, At: r.ev.At, Detail: what + ": " + r.err.Error(), Cells: moveCells(r.ev.Before.Info(r.ev.Move))})
		return
	}
	m := r.move
	switch r.kind {
	case Moved:
		t.lastMove = moveCells(r.ev.Before.Info(r.ev.Move))
		t.log.Info("move", "seq", m.Seq, "move", m.Move, "san", m.SAN)
		t.emit(Event{Kind: Moved, At: r.ev.At, Completed: completedAt(r.ev), By: r.ev.By, Move: &m, Before: r.ev.Before})
		if res, _ := t.sess.Result(); res != rules.NoResult {
			t.clockStop(completedAt(r.ev)) // the game ended when the move was completed
		}
		t.afterMove(r.ev.At, r.ev.After)
	case TookBack:
		t.lastMove = t.lastMoveCells()
		t.log.Info("take-back", "move", m.Move)
		t.emit(Event{Kind: TookBack, At: r.ev.At, Completed: completedAt(r.ev), Move: &m})
	case Corrected:
		w := r.withdrawn
		t.lastMove = moveCells(r.ev.Before.Info(r.ev.Move))
		t.log.Info("correction", "withdrawn", w.Move, "seq", m.Seq, "move", m.Move, "san", m.SAN)
		t.emit(Event{Kind: Corrected, At: r.ev.At, Completed: completedAt(r.ev), By: r.ev.By, Move: &m, Withdrawn: &w,
			Before: r.ev.Before})
		t.afterMove(r.ev.At, r.ev.After)
	}
}

// afterMove reports check and the end of the game.
func (t *Table) afterMove(at time.Time, after rules.Position) {
	if check, king := after.InCheck(); check {
		t.emit(Event{Kind: Check, At: at, Cell: king})
	}
	t.gameOver(at)
}

func (t *Table) gameOver(at time.Time) {
	if res, reason := t.sess.Result(); res != rules.NoResult {
		t.clockStop(at)
		t.log.Info("game over", "game", t.sess.ID(), "result", res, "termination", reason)
		t.emit(Event{Kind: GameOver, At: at, Result: res, Reason: reason})
	}
}
