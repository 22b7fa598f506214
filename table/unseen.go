package table

import (
	"time"

	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// unseen is a change of the expected position that the switches cannot
// see: a castling made elsewhere, or one taken back, swaps king and rook
// in place and leaves every cell as it was. The set reads in sync at once,
// so the table keeps the move's cells lit (remoteFrom, remoteTo) until the
// players have lifted one of them and the set is in sync again.
type unseen struct {
	on, touched bool
	// redo is set after such a take-back: the players putting king and
	// rook back look to the switches like the castling made again, from
	// the position it was taken back to (pos). That move, while the cells
	// are lit, is the take-back made on the set, not a move.
	redo rules.Move
	pos  string
}

// seen notes the players' hands on the set: lifting a lit cell is making
// the unseen change; the set in sync after that ends it. It reports
// whether the lit cells may go.
func (u *unseen) seen(st recognize.Status, lit rules.CellSet) bool {
	if u.on && !st.Lifted.Intersect(lit).Empty() {
		u.touched = true
	}
	if st.State != recognize.InSync {
		return false
	}
	if u.on && !u.touched {
		return false
	}
	*u = unseen{}
	return true
}

// isRedo reports whether the move the set shows (m from before) is the
// players putting back a castling taken back, not a move.
func (u *unseen) isRedo(before rules.Position, m rules.Move) bool {
	return u.on && u.pos != "" && m == u.redo && before.String() == u.pos
}

// neutral reports whether m leaves every cell of pos as it was occupied.
func neutral(pos rules.Position, m rules.Move) bool {
	return pos.Occupancy() == pos.Play(m).Occupancy()
}

// madeTakeBack: the players have put back a castling taken back, which
// the switches read as the castling made again. Nothing is played: the
// set goes back to the game's position, which it now shows.
func (t *Table) madeTakeBack(at time.Time) {
	t.log.Info("take-back made on the set", "move", t.sess.Position().Long(t.unseen.redo))
	t.remoteFrom, t.remoteTo, t.unseen = rules.CellSet{}, rules.CellSet{}, unseen{}
	t.setExpected(t.sess.Position(), "the take-back made on the set")
	t.emit(Event{Kind: BoardChanged, At: at})
}
