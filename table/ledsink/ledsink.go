// Package ledsink shows a table on the set's LEDs: the targets of a lifted
// piece, where a lifted board may go, the last move, a move made elsewhere
// to make, check, the end of the game and the cells to fix.
package ledsink

import (
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// Opts tune a Sink.
type Opts struct {
	// NoTargets hides the target signals (targets, where a board may go, check), as
	// in tournament play.
	NoTargets bool
}

// Shower is what the sink draws on: a leds.Writer.
type Shower interface {
	Show(v *leds.View)
}

// Sink is a table.Sink drawing every snapshot on a Shower.
type Sink struct {
	w    Shower
	o    Opts
	view leds.View
	buf  []rules.Move
}

// New returns a sink showing on w.
func New(w Shower, o *Opts) *Sink {
	s := &Sink{w: w}
	if o != nil {
		s.o = *o
	}
	return s
}

// Close closes the Shower when it can be closed (a leds.Writer: the LEDs go
// dark); the table calls it after the last event.
func (s *Sink) Close() error {
	if c, ok := s.w.(table.Closer); ok {
		return c.Close()
	}
	return nil
}

// Handle shows the table after e.
func (s *Sink) Handle(e table.Event) {
	if e.Snap == nil {
		return
	}
	View(&s.view, e.Snap, s.o.NoTargets, &s.buf)
	s.w.Show(&s.view)
}

// View sets v to what the LEDs show of snap; buf is scratch for legal
// moves, kept by the caller so that it does not allocate.
func View(v *leds.View, snap *table.Snapshot, noTargets bool, buf *[]rules.Move) {
	st := &snap.Status
	*buf = v.SetPosition(snap.Expected, st.Lifted, *buf)
	// The targets of a lifted piece are for a side with full assistance,
	// and for nobody under the teacher's lock.
	v.NoTargets = noTargets || snap.HintsLocked || !snap.Teaching.Assist[snap.Expected.Turn()].Targets()
	v.LastMove = snap.LastMove
	v.RemoteFrom, v.RemoteTo = snap.RemoteFrom, snap.RemoteTo
	if h := snap.Hint; h != nil && !snap.HintsLocked {
		// A hint shows as a move to make: the piece, then its target.
		v.RemoteFrom, v.RemoteTo = v.RemoteFrom.Union(h.From), v.RemoteTo.Union(h.To)
	}
	v.Fix = rules.CellSet{}
	if st.State == recognize.Mismatch {
		// Cells a move made elsewhere explains show as that move; the
		// pieces that make a move illegal (the checking piece, the one in
		// the way) show as the danger they are.
		v.Fix = st.Fix.Minus(snap.RemoteFrom).Minus(snap.RemoteTo)
		v.Check = v.Check.Union(st.Culprits)
	}
	v.LowTime = rules.CellSet{}
	if c := snap.Clock; c != nil && c.Low != "" && snap.Result == rules.NoResult {
		// The king of a side in low time warns its player.
		white, black := kingCells(snap.Expected)
		if c.Low == "white" || c.Low == "both" {
			v.LowTime = v.LowTime.Union(white)
		}
		if c.Low == "black" || c.Low == "both" {
			v.LowTime = v.LowTime.Union(black)
		}
	}
	if p := snap.Peer; p != nil && !p.Online && snap.Result == rules.NoResult {
		// The king of the side whose set is offline warns as in low time.
		white, black := kingCells(snap.Expected)
		if p.Side == rules.Black {
			white = black
		}
		v.LowTime = v.LowTime.Union(white)
	}
	if p := snap.Peer; p != nil && p.Desync != "" && snap.Result == rules.NoResult {
		// The two sets hold different games: both kings warn until they
		// agree again (the state and the page say what differs).
		white, black := kingCells(snap.Expected)
		v.LowTime = v.LowTime.Union(white).Union(black)
	}
	if snap.Result != rules.NoResult {
		v.Check = rules.CellSet{}
		v.GameOver, v.Draw = endOfGame(snap.Expected, snap.Result)
	}
}

// endOfGame is what shows a finished game: the loser's king, or both kings
// for a draw, whatever ended it (mate, resignation, time, agreement).
func endOfGame(p rules.Position, res rules.Result) (kings rules.CellSet, draw bool) {
	white, black := kingCells(p)
	switch res {
	case rules.WhiteWins:
		return black, false
	case rules.BlackWins:
		return white, false
	}
	return white.Union(black), true
}

func kingCells(p rules.Position) (white, black rules.CellSet) {
	n := len(p.System().Cells())
	for c := 0; c < n; c++ {
		pc, ok := p.CellPiece(rules.Cell(c))
		if !ok || pc.Kind() != rules.King {
			continue
		}
		if pc.Color() == rules.White {
			white.Add(rules.Cell(c))
		} else {
			black.Add(rules.Cell(c))
		}
	}
	return white, black
}
