package table

import (
	"slices"
	"strings"
	"time"

	"github.com/tridboard/tridboard/internal/setting"
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

// ButtonOpts name the push buttons wired as cells (hardware.md: bit 15 of
// 0x23..0x26, then an expander at 0x27): each is the button's cell name,
// "button:..." (sensors.ButtonPrefix), or "" for none. They are the
// configuration file's "buttons" section (the yaml names), checked by
// Validate; Meanings says what each does (Opts.Buttons).
type ButtonOpts struct {
	// Queen, Rook, Bishop and Knight choose the piece of a promotion.
	Queen  string `yaml:"queen"`
	Rook   string `yaml:"rook"`
	Bishop string `yaml:"bishop"`
	Knight string `yaml:"knight"`
	// NewGame starts a new game; TakeBack takes the last move back.
	NewGame  string `yaml:"new_game"`
	TakeBack string `yaml:"take_back"`
	// ClockWhite and ClockBlack are the sides' chess clock buttons: a
	// press starts the clock at the start of a game and completes the
	// move of the side to move.
	ClockWhite string `yaml:"clock_white"`
	ClockBlack string `yaml:"clock_black"`
	// Hint asks for a hint: the piece to move, then its target.
	Hint string `yaml:"hint"`
	// Pawn and King choose the piece of a placement where a pawn or a
	// king may be the one placed (First Contact's introductions and king
	// placements); Queen, Rook, Bishop and Knight choose the others.
	Pawn string `yaml:"pawn"`
	King string `yaml:"king"`
}

// ButtonNames are the yaml names of ButtonOpts, the names of what a
// button does, in Cells order.
var ButtonNames = []string{"queen", "rook", "bishop", "knight", "new_game", "take_back", "clock_white", "clock_black", "hint", "pawn", "king"}

// buttonMeanings are what the buttons of ButtonNames do, in its order.
var buttonMeanings = []Button{{ButtonPromote, 'Q'}, {ButtonPromote, 'R'}, {ButtonPromote, 'B'}, {ButtonPromote, 'N'},
	{Kind: ButtonNewGame}, {Kind: ButtonTakeBack}, {Kind: ButtonClockWhite}, {Kind: ButtonClockBlack}, {Kind: ButtonHint},
	{ButtonPromote, 'P'}, {ButtonPromote, 'K'}}

// roles are b's cells in ButtonNames order.
func (b *ButtonOpts) roles() []*string {
	return []*string{&b.Queen, &b.Rook, &b.Bishop, &b.Knight, &b.NewGame, &b.TakeBack, &b.ClockWhite, &b.ClockBlack, &b.Hint, &b.Pawn, &b.King}
}

// AllButtons are the buttons a set is built with (the simulated set's
// when the configuration gives none): each one of ButtonNames on the cell
// sensors.ButtonPrefix + its name, pawn and king only on a set whose games
// place pieces from off the set (placements: First Contact).
func AllButtons(placements bool) ButtonOpts {
	var b ButtonOpts
	for i, r := range b.roles() {
		if n := ButtonNames[i]; placements || n != "pawn" && n != "king" {
			*r = sensors.ButtonPrefix + n
		}
	}
	return b
}

// None reports whether no button is configured.
func (b ButtonOpts) None() bool { return b == ButtonOpts{} }

// Cells lists the configured buttons' cells, in the order of ButtonNames:
// queen, rook, bishop, knight, new game, take back, clock white, clock
// black, hint, pawn, king (empty ones left out).
func (b ButtonOpts) Cells() []string {
	var out []string
	for _, r := range b.roles() {
		if *r != "" {
			out = append(out, *r)
		}
	}
	return out
}

// Meanings says what each configured button does, by its cell name.
func (b ButtonOpts) Meanings() map[string]Button {
	m := map[string]Button{}
	for i, r := range b.roles() {
		if *r != "" {
			m[*r] = buttonMeanings[i]
		}
	}
	return m
}

// Validate checks the settings of the configuration file: each cell name
// starts with sensors.ButtonPrefix, and no two buttons share one. Its
// error is setting.Problems, keyed by the yaml names.
func (b *ButtonOpts) Validate() error {
	var ps setting.Problems
	seen := map[string]string{}
	for i, r := range b.roles() {
		key, c := ButtonNames[i], *r
		if c == "" {
			continue
		}
		if !strings.HasPrefix(c, sensors.ButtonPrefix) {
			ps.Add(key, "%q: a button's cell name starts with %q", c, sensors.ButtonPrefix)
		}
		if o, dup := seen[c]; dup {
			ps.Add(key, "%q is also buttons.%s", c, o)
		}
		seen[c] = key
	}
	return ps.Err("table: buttons")
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
