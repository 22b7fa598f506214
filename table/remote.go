package table

// remotePeer is the table's state of the other set of a remote game: what
// it says of itself, and the take-backs and the resolution of a desync
// asked between the two sets. A new game starts with none (its zero
// value).
type remotePeer struct {
	peer  *PeerState // the other set (peer.go); nil: no remote opponent
	tbAsk *TakeBackRequest
	// tbHeld: a take-back by hand in a remote game waits for the other
	// set's answer, or was refused and the move is not back on the set
	// yet; meanwhile the position before the move is no take-back.
	tbHeld   bool
	tbAnswer *TakeBackAnswer
	// resolve is the players' resolution of a desync, until the remote
	// opponent carries it out (Resolve).
	resolve *Resolution
}

// lapse drops a take-back request made when the game had another number
// of moves than moves (a move was made or taken back since). It reports
// whether a take-back by hand was held for it: the caller lets the hand
// undo moves again (applyPlay).
func (r *remotePeer) lapse(moves int) (released bool) {
	if r.tbAsk == nil || r.tbAsk.At == moves {
		return false
	}
	r.tbAsk = nil
	released, r.tbHeld = r.tbHeld, false
	return released
}

// backOnSet follows the set showing the game's position again: a take-back
// by hand refused (no request standing) is over once the move stands on
// the set again. It reports whether one was held (as lapse).
func (r *remotePeer) backOnSet() (released bool) {
	if !r.tbHeld || r.tbAsk != nil {
		return false
	}
	r.tbHeld = false
	return true
}
