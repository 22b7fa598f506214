package table

import (
	"time"

	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// snapshot takes a new snapshot of the table.
func (t *Table) snapshot(now time.Time) *Snapshot {
	st := t.rec.Status()
	res, reason := t.sess.Result()
	s := &Snapshot{
		Board: t.o.BoardID, Game: t.sess.ID(), System: t.sys, Start: t.sess.Start(), Position: t.sess.Position(),
		Moves: t.sess.Moves(), Tags: t.sess.Tags(), Result: res, Reason: reason, Expected: t.rec.Position(),
		LastMove: t.lastMove, RemoteFrom: t.remoteFrom, RemoteTo: t.remoteTo, Time: now,
		published: t.sess.Published,
		Status: BoardStatus{State: st.State, Lifted: st.Lifted, Placed: st.Placed, Unknown: st.Unknown,
			FirstLifted: st.FirstLifted, Held: st.Held},
	}
	s.DrawOffer, s.HasDrawOffer = t.sess.DrawOffer()
	s.Hint, s.HintsLocked, s.HintsUsed, s.Teaching = t.currentHint(), t.hints.teach.Locked, t.sess.HintsUsed(), t.hints.teach
	if !t.observed {
		// Nothing read yet: the set is not known to show the position.
		st.State, st.Reason, st.Instruction = recognize.Mismatch, "waiting for the first reading of the sensors", ""
		s.Status.State = st.State
	}
	switch st.State {
	case recognize.Mismatch:
		s.Status.Fix, s.Status.Reason, s.Status.Instruction, s.Status.Culprits = st.Fix, st.Reason, st.Instruction, t.culprits
		if t.illegalWhy != "" {
			s.Status.Reason = t.illegalWhy
		}
		if !t.explains() {
			s.Status.Instruction = "" // a side without assistance is shown the cells only
		}
	case recognize.SensorFault:
		s.Status.Fault = st.Reason
	case recognize.NeedsChoice:
		for _, m := range st.Choices {
			s.Status.Choices = append(s.Status.Choices, choiceLetter(t.rec.Position(), m))
		}
	}
	s.Clock = t.ck.snapshot(now)
	if t.remote.lapse(len(s.Moves)) {
		t.applyPlay()
	}
	s.Peer, s.TakeBack, s.TakeBackAnswer, s.Resolve = t.remote.peer, t.remote.tbAsk, t.remote.tbAnswer, t.remote.resolve
	t.latest.Store(s)
	return s
}

// choiceLetter is the letter that chooses m among moves that differ only
// in a piece: the promotion piece, or the piece a placement puts down.
func choiceLetter(pos rules.Position, m rules.Move) byte {
	in := pos.Info(m)
	if in.PromoteTo != 0 || in.To == rules.NoCell {
		return in.PromoteTo
	}
	if pc, ok := pos.Play(m).CellPiece(in.To); ok {
		return rules.PieceLetters[pc.Kind()]
	}
	return 0
}

// emit sends e, with a new snapshot, to every sink.
func (t *Table) emit(e Event) {
	if e.Snap == nil {
		e.Snap = t.snapshot(e.At)
	}
	for _, q := range t.queues {
		q.put(e)
	}
}
