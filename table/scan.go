package table

import (
	"fmt"
	"strings"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// Tick scans once at the clock's time and carries out what follows: the
// recognizer's verdict, the buttons, the sensors' health, and the moves
// the journal has made durable since.
func (t *Table) Tick() {
	t.applyJournal()
	now := t.o.Now()
	t.sc.Scan(now)
	t.checkHealth(now)
	// Each reading at the time it was read, the buttons in their order
	// among the cells: a scan that came late (the loop did not get the
	// CPU) must not make a reading seem to have stood longer than it did.
	t.sc.Readings(t.observe)
	if t.buttons.choice != 0 {
		t.chooseLater(now)
	}
	t.clockTick(now)
}

// observe carries out one reading at its time: the cells to the
// recognizer and its verdict, then the buttons pressed (a clock press
// completes the move the reading shows).
func (t *Table) observe(at time.Time, closed, unknown rules.CellSet, buttons uint64, gap time.Duration) {
	t.settleStanding(closed, unknown)
	evs := t.rec.ObserveGap(at, closed, unknown, gap)
	if !t.observed {
		t.observed = true
		if len(evs) == 0 {
			t.emit(Event{Kind: BoardChanged, At: at})
		}
	}
	t.recognized(evs)
	if pressed := t.buttons.press(buttons); pressed != 0 {
		t.buttonsPressed(at, pressed)
	}
}

func (t *Table) checkHealth(now time.Time) {
	t.hmu.Lock()
	t.health = t.sc.Health(t.health[:0])
	var bad, which []string
	for _, h := range t.health {
		if !h.OK {
			bad = append(bad, fmt.Sprintf("expander %s: %v", h.Expander, h.LastErr))
			which = append(which, h.Expander)
		}
	}
	t.hmu.Unlock()
	// A fault is reported when the set of failing expanders changes, not
	// when only their error does.
	key := strings.Join(which, " ")
	if key == t.faulty {
		return
	}
	t.faulty = key
	f := strings.Join(bad, "; ")
	if f != "" {
		t.log.Warn("sensor fault", "detail", f)
	} else {
		t.log.Info("sensors read again")
	}
	t.emit(Event{Kind: Fault, At: now, Detail: f})
}

// recognized carries the recognizer's events to the journal and the sinks.
func (t *Table) recognized(evs []recognize.Event) {
	for _, e := range evs {
		switch e.Kind {
		case recognize.Moved:
			if t.unseen.isRedo(e.Before, e.Move) {
				t.madeTakeBack(e.At)
				continue
			}
			if jb := (&job{gen: t.gen, kind: Moved, ev: e, sess: t.sess}); t.clockMove(jb) {
				t.jr.put(jb)
			}
		case recognize.TookBack:
			if t.askByHand(e.At, e) {
				continue
			}
			t.clockTakeBack(completedAt(e))
			t.jr.put(&job{gen: t.gen, kind: TookBack, ev: e, sess: t.sess})
		case recognize.Corrected:
			if jb := (&job{gen: t.gen, kind: Corrected, ev: e, sess: t.sess}); t.clockCorrect(jb) {
				t.jr.put(jb)
			}
		case recognize.StatusChanged:
			t.statusChanged(e)
		}
	}
}

func (t *Table) statusChanged(e recognize.Event) {
	st := e.Status
	names := t.sys.Cells()
	t.log.Debug("board", "state", st.State.String(), "lifted", st.Lifted.Names(names),
		"placed", st.Placed.Names(names), "fix", st.Fix.Names(names), "reason", st.Reason)
	prev := t.prevState
	t.prevState = st.State
	if prev == recognize.InSync && st.State != recognize.InSync {
		t.ck.offSync = e.At
	}
	if t.unseen.seen(st, t.remoteFrom.Union(t.remoteTo)) {
		t.remoteFrom, t.remoteTo = rules.CellSet{}, rules.CellSet{}
	}
	switch st.State {
	case recognize.InSync:
		t.clockInSync(e.At)
		if t.remote.backOnSet() {
			t.applyPlay()
		}
		t.reset = false
		t.illegalWhy, t.culprits = "", rules.CellSet{}
		t.syncOnce.Do(func() {
			close(t.synced)
			t.log.Info("board in sync with the position")
		})
	case recognize.Mismatch:
		if prev == recognize.Mismatch {
			break // the cells to fix changed: a board change
		}
		kind := Illegal // the players moved, and no legal move explains it
		detail := st.Reason
		side, n := rules.White, 0
		if t.reset {
			kind = Mismatch // the game changed: the set must follow
		} else {
			side, n = t.clockIllegal(e.At, st)
			if why, culprits, ok := t.explainIllegal(st); ok && t.explains() {
				t.illegalWhy, t.culprits = why, culprits
				detail = why
			}
			if t.play() == game.PlayTournament && strings.HasPrefix(st.Reason, recognize.TakeBacksOff) {
				// A move once made stands: the arbiter is told why.
				detail = "tournament game: no take-back by hand (" + strings.TrimPrefix(st.Reason, recognize.TakeBacksOff) + "); " + detail
			}
		}
		t.emit(Event{Kind: kind, At: e.At, Cells: st.Fix.Union(t.culprits), Detail: detail})
		t.forfeitIllegal(e.At, side, n)
		return
	case recognize.MoveInProgress:
		if st.Held {
			// The move stood its settle window and waits for the press:
			// the reading has not changed since its cells were reported.
			break
		}
		if !st.Lifted.Empty() {
			t.emit(Event{Kind: Lifted, At: e.At, Cells: st.Lifted, Cell: st.FirstLifted})
		}
		if !st.Placed.Empty() {
			t.emit(Event{Kind: Placed, At: e.At, Cells: st.Placed, Cell: rules.NoCell})
		}
		if !st.Lifted.Empty() || !st.Placed.Empty() {
			return
		}
	}
	t.emit(Event{Kind: BoardChanged, At: e.At})
}
