package table

import (
	"slices"
	"strings"
	"time"

	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
)

// ButtonKind is what a button does.
type ButtonKind uint8

const (
	// ButtonPromote chooses Button.Piece for a waiting promotion, or for
	// a placement of one of several pieces (First Contact's pawn or king).
	ButtonPromote ButtonKind = iota + 1
	// ButtonNewGame starts a new game of the current system.
	ButtonNewGame
	// ButtonTakeBack takes the last move back.
	ButtonTakeBack
	// ButtonClockWhite and ButtonClockBlack are the sides' clock buttons
	// (clock.go).
	ButtonClockWhite
	ButtonClockBlack
	// ButtonHint asks for a hint (Hint).
	ButtonHint
)

// Button is the meaning of one button of the wiring.
type Button struct {
	Kind  ButtonKind
	Piece byte // ButtonPromote: 'Q', 'R', 'B', 'N', or for placements 'P', 'K'
}

// buttonPanel is the table's state of the set's buttons: what each wired
// button does, which read pressed, and a choice waiting for its move.
type buttonPanel struct {
	kinds   []Button // by the scanner's button index
	pressed uint64   // bit i: button i read pressed
	// choice is the piece of a choice button pressed while the board
	// showed a promotion (or placement) still to be completed: it is
	// chosen once the move is (a player choosing, then pressing the
	// clock).
	choice byte
}

// wire gives the scanner's buttons (names, by index) their meanings
// (a button without one does nothing but is still seen pressed).
func (p *buttonPanel) wire(names []string, meaning map[string]Button) {
	p.kinds = p.kinds[:0]
	for _, name := range names {
		p.kinds = append(p.kinds, meaning[name])
	}
}

// has reports whether a button of one of kinds is wired.
func (p *buttonPanel) has(kinds ...ButtonKind) bool {
	for _, b := range p.kinds {
		if slices.Contains(kinds, b.Kind) {
			return true
		}
	}
	return false
}

// press takes a reading of the buttons (bit i: button i pressed) and
// returns those pressed since the last one: a button held down is
// pressed once.
func (p *buttonPanel) press(buttons uint64) uint64 {
	pressed := buttons &^ p.pressed
	p.pressed = buttons
	return pressed
}

func (t *Table) buttonsPressed(now time.Time, pressed uint64) {
	for i, b := range t.buttons.kinds {
		if pressed&(1<<i) == 0 {
			continue
		}
		// The press first (the LEDs and the pages show it), then what it
		// does; a button that does nothing is still seen pressed.
		e := Event{Kind: ButtonPressed, At: now, Detail: strings.TrimPrefix(t.sc.Buttons()[i], sensors.ButtonPrefix)}
		if b.Kind == ButtonClockBlack {
			e.Side = rules.Black
		}
		t.emit(e)
		if b.Kind == 0 {
			continue
		}
		var c Command
		switch b.Kind {
		case ButtonPromote:
			if st := t.rec.Status(); st.State == recognize.MoveInProgress && st.Ready {
				// Chosen before the move is completed (by the clock's
				// press, or the settle window): chosen once it is.
				t.buttons.choice = b.Piece
				continue
			}
			c = Promote{Piece: b.Piece}
		case ButtonNewGame:
			// The next game of a match keeps the clock and the assistance.
			c = NewGame{TimeControl: t.sess.Control(), Assist: t.hints.teach.Assist}
		case ButtonTakeBack:
			c = TakeBack{}
		case ButtonHint:
			if t.running.Load() {
				t.hintStart(now, nil) // searched on its own goroutine
				continue
			}
			c = Hint{}
		case ButtonClockWhite, ButtonClockBlack:
			t.clockButton(now, b.Kind)
			continue
		}
		if _, err := t.exec(now, c); err != nil {
			t.log.Info("button", "button", t.sc.Buttons()[i], "command", c.Name(), "err", err)
		}
	}
}

// chooseLater makes the choice of a button pressed before its promotion
// was completed, once it waits for it; it is forgotten when the board no
// longer shows a move to complete.
func (t *Table) chooseLater(now time.Time) {
	switch st := t.rec.Status(); {
	case st.State == recognize.NeedsChoice:
		c := Promote{Piece: t.buttons.choice}
		t.buttons.choice = 0
		if _, err := t.exec(now, c); err != nil {
			t.log.Info("button", "command", c.Name(), "err", err)
		}
	case st.State != recognize.MoveInProgress || !st.Ready:
		t.buttons.choice = 0
	}
}
