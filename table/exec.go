package table

import (
	"fmt"
	"strings"
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
		return t.takeBack(now, c)
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
	case AdjustClock:
		return t.clockCommand(now, c)
	case Peer, PeerFlag:
		return t.peerCommand(now, c)
	case PeerTakeBack:
		return t.peerTakeBack(now, c)
	case Resolve:
		return t.resolveCommand(now, c)
	case AdoptRecord:
		return t.adoptRecord(now, c)
	case PeerRestore:
		return t.peerRestore(now, c)
	case Resync:
		t.setExpected(t.sess.Position(), "resync: set up the position")
		t.emit(Event{Kind: Changed, At: now})
		return Reply{}, nil
	case nil:
		return Reply{}, fmt.Errorf("table: no command")
	}
	return Reply{}, fmt.Errorf("table: command %q not supported", c.Name())
}

// takeBack takes back c.Plies moves (one when 0), all or none; in a
// remote game it asks the other set or answers it (peer.go).
func (t *Table) takeBack(now time.Time, c TakeBack) (Reply, error) {
	if rep, done, err := t.remoteTakeBack(now, c); done {
		return rep, err
	}
	return t.takeBackNow(now, c.Plies)
}

// takeBackNow takes back plies moves (one when 0), all or none.
func (t *Table) takeBackNow(now time.Time, plies int) (Reply, error) {
	n := max(plies, 1)
	if have := len(t.sess.Moves()); n > 1 && n > have {
		return Reply{}, fmt.Errorf("table: take back %d moves: the game has %d", n, have)
	}
	var undone []string
	var moves []game.Move
	var backFrom, backTo rules.CellSet // the unseen moves taken back: where their pieces stand, and go
	for i := range n {
		m, err := t.sess.TakeBack()
		if err != nil {
			if i == 0 {
				return Reply{}, err
			}
			// The journal refused a later one (it should not, the first
			// passed the same checks): keep what was taken back, say so.
			t.log.Error("take-back stopped", "after", undone, "err", err)
			break
		}
		t.clockTakeBack(now)
		moves = append(moves, m)
		undone = append(undone, m.Move)
		t.lastMove = t.lastMoveCells()
		t.remoteFrom, t.remoteTo, t.unseen = rules.CellSet{}, rules.CellSet{}, unseen{}
		pos := t.sess.Position()
		if mv, _, err := pos.ParseMove(m.Move); err == nil && neutral(pos, mv) {
			// The switches cannot see this one taken back (a castling
			// undone swaps king and rook back in place): show it.
			in := pos.Info(mv)
			backFrom, backTo = backFrom.Union(rules.CellSetOf(in.To)), backTo.Union(in.Touched.Minus(rules.CellSetOf(in.To)))
			t.unseen.redo, t.unseen.pos = mv, pos.String()
		}
		if !backFrom.Empty() {
			t.remoteFrom, t.remoteTo, t.unseen.on = backFrom, backTo, true
		}
		t.setExpected(pos, "take "+strings.Join(undone, ", ")+" back on the board")
		t.log.Info("take-back", "move", m.Move, "by", "command")
		t.emit(Event{Kind: TookBack, At: now, Move: &m})
	}
	return Reply{Move: &moves[0], TakenBack: moves}, nil
}

func (t *Table) newGame(now time.Time, c NewGame) (Reply, error) {
	sys := c.System
	if sys == nil {
		sys = t.sys
		if t.o.NewGames != nil {
			sys = t.o.NewGames
		}
	}
	if err := t.CanSense(sys); err != nil {
		return Reply{}, err
	}
	tags := c.Tags
	if tags.Site == "" {
		tags.Site = t.o.BoardID
	}
	if tags.Play == "" {
		tags.Play = t.o.Game.Play
	}
	if _, err := game.ParsePlay(string(tags.Play)); err != nil {
		return Reply{}, fmt.Errorf("table: new game: %w", err)
	}
	if err := t.clockTags(&tags, c); err != nil {
		return Reply{}, err
	}
	defaults := t.o.Hints.teaching()
	tc := game.Teaching{Locked: t.hints.teach.Locked, Limit: t.hints.teach.Limit, Assist: defaults.Assist}
	for side, a := range c.Assist {
		if a != "" {
			tc.Assist[side] = a
		}
	}
	if err := tc.Check(); err != nil {
		return Reply{}, fmt.Errorf("table: new game: %w", err)
	}
	gopts := t.gameOpts()
	s, err := game.New(t.o.StateDir, sys, c.Position, tags, &gopts)
	if err != nil {
		return Reply{}, err
	}
	if tc != defaults {
		// The journal keeps a lesson's settings from the game's start.
		if err := s.SetTeaching(tc); err != nil {
			t.log.Error("new game: the teacher's settings are not journaled: a restart loses them", "game", s.ID(), "err", err)
		}
	}
	// Read before the game replaces the expected position: the set may
	// already stand in the new game's (its clock then waits for White's
	// first move).
	standing, known := t.standing(sys, s.Position())
	old := t.sess
	if err := t.start(s); err != nil {
		_ = s.Close()
		t.sess = old
		return Reply{}, err
	}
	t.ck.waitMove, t.ck.undecided = standing, !known
	if _, ok := s.Teaching(); !ok {
		t.hints.teach = tc // not journaled (above): in force until a restart
	}
	if err := old.Close(); err != nil {
		t.log.Warn("closing the previous game's journal", "game", old.ID(), "err", err)
	}
	t.remote = remotePeer{} // a remote opponent of the new game says so anew
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
	if c.Game != "" && c.Game != t.sess.ID() {
		return Reply{}, fmt.Errorf("%w: %s is a move of game %s, this is game %s", ErrStale, c.Move, c.Game, t.sess.ID())
	}
	if have := len(t.sess.Moves()); c.Ply > 0 && c.Ply != have+1 {
		return Reply{}, fmt.Errorf("%w: %s is move %d, the game has %d moves", ErrStale, c.Move, c.Ply, have)
	}
	if st := t.rec.Status().State; st != recognize.InSync {
		return Reply{}, fmt.Errorf("%w (%s)", ErrNotInSync, st)
	}
	before := t.sess.Position()
	m, note, err := before.ParseMove(c.Move)
	if err != nil {
		return Reply{}, err
	}
	rec, err := t.clockPlay(now, m, c.Reading)
	if err != nil {
		return Reply{}, err
	}
	in := before.Info(m)
	t.remoteFrom = in.Touched.Minus(rules.CellSetOf(in.To))
	t.remoteTo = rules.CellSetOf(in.To)
	t.unseen = unseen{on: neutral(before, m)}
	t.lastMove = moveCells(in)
	t.setExpected(t.sess.Position(), "make "+rec.Move+" on the set")
	t.log.Info("move", "seq", rec.Seq, "move", rec.Move, "san", rec.SAN, "by", "remote", "note", note)
	t.emit(Event{Kind: Moved, At: now, Move: &rec, Before: before, Remote: true})
	t.afterMove(now, t.sess.Position())
	return Reply{Move: &rec, Note: note}, nil
}
