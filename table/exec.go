package table

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// exec carries out one command; an error changes nothing. Moves waiting
// for the disk are made durable first, so a command acts on the game as
// the players left it.
func (t *Table) exec(now time.Time, c Command) (Reply, error) {
	if t.closed {
		return Reply{}, ErrClosed
	}
	t.flush()
	// A command is the other side acting too: the last move can no longer
	// be corrected on the board.
	t.recognized(t.rec.EndCorrection(now))
	switch c := c.(type) {
	case NewGame:
		return t.newGame(now, c)
	case Promote:
		evs, err := t.rec.Choose(now, c.Piece)
		if err != nil {
			return Reply{}, err
		}
		t.recognized(evs)
		t.flush()
		return Reply{}, nil
	case TakeBack:
		m, err := t.sess.TakeBack()
		if err != nil {
			return Reply{}, err
		}
		t.clockTakeBack(now)
		t.lastMove = t.lastMoveCells()
		t.remoteFrom, t.remoteTo = rules.CellSet{}, rules.CellSet{}
		t.setExpected(t.sess.Position(), "take "+m.Move+" back on the board")
		t.log.Info("take-back", "move", m.Move, "by", "command")
		t.emit(Event{Kind: TookBack, At: now, Move: &m})
		return Reply{Move: &m}, nil
	case Resign:
		if err := t.sess.Resign(c.Side); err != nil {
			return Reply{}, err
		}
		t.gameOver(now)
		return Reply{}, nil
	case Draw:
		return t.draw(now, c)
	case PlayMove:
		return t.playMove(now, c)
	case Hint:
		return t.hint(now)
	case Teach:
		return t.teach(now, c)
	case Alert:
		t.log.Warn("alert", "detail", c.Detail)
		t.emit(Event{Kind: Fault, At: now, Detail: c.Detail})
		return Reply{}, nil
	case Clock:
		return t.clockCommand(now, c)
	case Resync:
		t.setExpected(t.sess.Position(), "resync: set up the position")
		t.emit(Event{Kind: Changed, At: now})
		return Reply{}, nil
	case nil:
		return Reply{}, fmt.Errorf("table: no command")
	}
	return Reply{}, fmt.Errorf("table: command %q not supported", c.Name())
}

func (t *Table) newGame(now time.Time, c NewGame) (Reply, error) {
	sys := c.System
	if sys == nil {
		sys = t.sys
	}
	if err := t.CanSense(sys); err != nil {
		return Reply{}, err
	}
	tags := c.Tags
	if tags.Site == "" {
		tags.Site = t.o.BoardID
	}
	if err := t.clockTags(&tags, c); err != nil {
		return Reply{}, err
	}
	gopts := t.gameOpts()
	s, err := game.New(t.o.StateDir, sys, c.Position, tags, &gopts)
	if err != nil {
		return Reply{}, err
	}
	old := t.sess
	if err := t.start(s); err != nil {
		_ = s.Close()
		t.sess = old
		return Reply{}, err
	}
	if err := old.Close(); err != nil {
		t.log.Warn("closing the previous game's journal", "game", old.ID(), "err", err)
	}
	t.log.Info("new game", "game", s.ID(), "variant", sys.Name(), "white", tags.White, "black", tags.Black)
	t.emit(Event{Kind: GameBegan, At: now})
	return Reply{Game: s.ID()}, nil
}

func (t *Table) draw(now time.Time, c Draw) (Reply, error) {
	var (
		err   error
		claim game.Reason
	)
	switch c.Action {
	case DrawOffer:
		if err = t.sess.OfferDraw(c.Side); err == nil {
			t.emit(Event{Kind: DrawOffered, At: now, Side: c.Side})
		}
	case DrawAccept:
		err = t.sess.AcceptDraw(c.Side)
	case DrawDecline:
		if err = t.sess.DeclineDraw(c.Side); err == nil {
			t.emit(Event{Kind: Changed, At: now})
		}
	case DrawClaim:
		claim, err = t.sess.ClaimDraw(c.Side, game.ClaimAny)
	default:
		err = fmt.Errorf("table: draw action %d: want offer, accept, decline or claim", c.Action)
	}
	if err != nil {
		return Reply{}, err
	}
	t.gameOver(now)
	return Reply{Claim: claim}, nil
}

// playMove plays a move made elsewhere: it is durable and published at
// once, and the set is expected to show it.
func (t *Table) playMove(now time.Time, c PlayMove) (Reply, error) {
	if st := t.rec.Status().State; st != recognize.InSync {
		return Reply{}, fmt.Errorf("%w (%s)", ErrNotInSync, st)
	}
	before := t.sess.Position()
	m, note, err := before.ParseMove(c.Move)
	if err != nil {
		return Reply{}, err
	}
	rec, err := t.clockPlay(now, m)
	if err != nil {
		return Reply{}, err
	}
	in := before.Info(m)
	t.remoteFrom = in.Touched.Minus(rules.CellSetOf(in.To))
	t.remoteTo = rules.CellSetOf(in.To)
	t.lastMove = moveCells(in)
	t.setExpected(t.sess.Position(), "make "+rec.Move+" on the set")
	t.log.Info("move", "seq", rec.Seq, "move", rec.Move, "san", rec.SAN, "by", "remote", "note", note)
	t.emit(Event{Kind: Moved, At: now, Move: &rec, Before: before, Remote: true})
	t.afterMove(now, t.sess.Position())
	return Reply{Move: &rec, Note: note}, nil
}
