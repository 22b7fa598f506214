package table

import (
	"errors"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
)

// Resolve ends a desync (PeerState.Desync, the two sets holding different
// games) as this set's players choose: ResolveAccept makes this set's game
// the other set's record (AdoptRecord), ResolveRestore takes both sets
// back to the last position their games share (PeerRestore here, and the
// other set asked to do the same). The remote opponent carries it out; the
// snapshot's Resolve holds it until then. It is refused while the games
// agree.
type Resolve struct {
	Action string
}

// Actions of Resolve.
const (
	ResolveAccept  = "accept"
	ResolveRestore = "restore"
)

// Resolution is a Resolve of this set's players not carried out yet; ID
// tells two apart (the time it was asked, in ns).
type Resolution struct {
	Action string
	ID     int64
}

// AdoptRecord makes this set's game the other set's record (ResolveAccept):
// the moves after the first Keep (the moves both games share) are taken
// back and Moves, the other set's moves after them, played as moves made
// elsewhere, with Reading (the other set's clock) after the last. The set
// is then expected to show the other set's position, and the LEDs show
// what to move. Nothing changes when a move does not play.
type AdoptRecord struct {
	Game    string
	Keep    int
	Moves   []string
	Reading *clock.Reading
}

// PeerRestore takes this game back to its first Keep moves, the last
// position both games of a desync share (ResolveRestore, asked here or by
// the other set: By names who, in words).
type PeerRestore struct {
	Game string
	Keep int
	By   string
}

func (Resolve) Name() string { return "resolve" }

func (Resolve) command() {}

func (AdoptRecord) Name() string { return "adopt_record" }

func (AdoptRecord) command() {}

func (PeerRestore) Name() string { return "peer_restore" }

func (PeerRestore) command() {}

// resolveCommand records the players' resolution of a desync for the
// remote opponent to carry out.
func (t *Table) resolveCommand(now time.Time, c Resolve) (Reply, error) {
	if c.Action != ResolveAccept && c.Action != ResolveRestore {
		return Reply{}, fmt.Errorf("table: resolve: action %q: want %s or %s", c.Action, ResolveAccept, ResolveRestore)
	}
	if t.remote.peer == nil || t.remote.peer.Desync == "" {
		return Reply{}, errors.New("table: resolve: no desync to resolve (the game is not split between two sets)")
	}
	t.remote.resolve = &Resolution{Action: c.Action, ID: now.UnixNano()}
	what := "accept set " + t.remote.peer.Set + "'s record"
	if c.Action == ResolveRestore {
		what = "restore the last position both games share, on both sets"
	}
	t.log.Info("desync: resolution asked", "action", c.Action, "set", t.remote.peer.Set)
	t.emit(Event{Kind: PeerChanged, At: now, Detail: "desync: " + what})
	return Reply{}, nil
}

// replayCheck checks that moves play from the position after the game's
// first keep moves, and returns the position they lead to.
func (t *Table) replayCheck(keep int, moves []string) (rules.Position, error) {
	have := t.sess.Moves()
	if keep < 0 || keep > len(have) {
		return nil, fmt.Errorf("table: keep %d moves: the game has %d", keep, len(have))
	}
	pos := t.sess.Start()
	for i, m := range have[:keep] {
		mv, _, err := pos.ParseMove(m.Move)
		if err != nil {
			return nil, fmt.Errorf("table: move %d %s of the game: %w", i+1, m.Move, err)
		}
		pos = pos.Play(mv)
	}
	for i, long := range moves {
		mv, _, err := pos.ParseMove(long)
		if err != nil {
			return nil, fmt.Errorf("table: the other set's move %d %s: %w", keep+i+1, long, err)
		}
		pos = pos.Play(mv)
	}
	return pos, nil
}

// adoptRecord carries out c (ResolveAccept): all of it, or nothing when a
// move does not play.
func (t *Table) adoptRecord(now time.Time, c AdoptRecord) (Reply, error) {
	if c.Game != "" && c.Game != t.sess.ID() {
		return Reply{}, fmt.Errorf("%w: the other set's record is for game %s, this is game %s", ErrStale, c.Game, t.sess.ID())
	}
	final, err := t.replayCheck(c.Keep, c.Moves)
	if err != nil {
		return Reply{}, err
	}
	shown := t.rec.Position() // what the set is to show before: where the pieces stand
	var rep Reply
	if n := len(t.sess.Moves()) - c.Keep; n > 0 {
		if rep, err = t.takeBackNow(now, n); err != nil {
			return Reply{}, err
		}
	}
	for i, long := range c.Moves {
		before := t.sess.Position()
		m, _, _ := before.ParseMove(long) // checked above
		var reading *clock.Reading
		if i == len(c.Moves)-1 {
			reading = c.Reading
		}
		rec, err := t.clockPlay(now, m, reading)
		if err != nil {
			// A flag fell on the way: the game stands where it got to.
			t.log.Error("desync: the other set's record stopped", "at", long, "err", err)
			final = t.sess.Position()
			break
		}
		t.log.Info("move", "seq", rec.Seq, "move", rec.Move, "san", rec.SAN, "by", "the other set's record")
		t.emit(Event{Kind: Moved, At: now, Move: &rec, Before: before, Remote: true})
	}
	t.remote.resolve = nil
	t.lastMove = t.lastMoveCells()
	t.unseen = unseen{}
	t.remoteFrom, t.remoteTo = pieceDiff(shown, final)
	set := ""
	if t.remote.peer != nil {
		set = "set " + t.remote.peer.Set + "'s "
	}
	t.setExpected(final, set+"record accepted: move the pieces to its position")
	t.log.Info("desync: the other set's record accepted", "kept", c.Keep, "moves", c.Moves)
	t.emit(Event{Kind: PeerChanged, At: now, Detail: "desync: " + set + "record accepted"})
	t.afterMove(now, final)
	return rep, nil
}

// pieceDiff are the cells to change to make the set showing from show to:
// where a piece is to go from (lifted) and where one is to go (placed).
func pieceDiff(from, to rules.Position) (lift, place rules.CellSet) {
	for i := range from.System().Cells() {
		c := rules.Cell(i)
		pf, okf := from.CellPiece(c)
		pt, okt := to.CellPiece(c)
		if okf && (!okt || pf != pt) {
			lift.Add(c)
		}
		if okt && (!okf || pf != pt) {
			place.Add(c)
		}
	}
	return lift, place
}

// peerRestore carries out c: the game taken back to its first Keep moves.
func (t *Table) peerRestore(now time.Time, c PeerRestore) (Reply, error) {
	if c.Game != "" && c.Game != t.sess.ID() {
		return Reply{}, fmt.Errorf("%w: a restore of game %s, this is game %s", ErrStale, c.Game, t.sess.ID())
	}
	if _, err := t.replayCheck(c.Keep, nil); err != nil {
		return Reply{}, err
	}
	t.remote.resolve = nil
	n := len(t.sess.Moves()) - c.Keep
	if n > 0 {
		rep, err := t.takeBackNow(now, n)
		if err != nil {
			return Reply{}, err
		}
		t.log.Info("desync: the last common position restored", "moves", c.Keep, "by", c.By)
		t.emit(Event{Kind: PeerChanged, At: now, Detail: fmt.Sprintf("desync: the position after move %d restored (%s)", c.Keep, c.By)})
		return rep, nil
	}
	t.emit(Event{Kind: PeerChanged, At: now, Detail: fmt.Sprintf("desync: this set is at the position after move %d (%s)", c.Keep, c.By)})
	return Reply{}, nil
}
