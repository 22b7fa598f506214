package sim

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
)

// Op is what a hand does to the set.
type Op string

// The operations of an Action.
const (
	OpLift    Op = "lift"    // a piece off a square, or a board off a pin
	OpPlace   Op = "place"   // a piece on a square, or a board on a pin
	OpWait    Op = "wait"    // let time pass
	OpBounce  Op = "bounce"  // a contact bounce train on a cell
	OpSetup   Op = "setup"   // the whole set put in a position at once
	OpPress   Op = "press"   // a button pressed (and held)
	OpRelease Op = "release" // a button let go
	OpTap     Op = "tap"     // a button pressed, held a while, let go (Steps)
)

// DefaultTap is how long a tap holds its button down when the line gives
// no time: longer than the sensors' debounce and a few scans.
const DefaultTap = 80 * time.Millisecond

// Actions is the language of a simulator script (the stdin of `tridboard
// run --sim`), one action a line, as ParseAction reads it and Set.Do carries
// it out. Cells are named as the set's system names them: "b2W", "z0QL1",
// "QL3" on the ST3D set; "2e4" on the Millennium set; "a2QL3u", "QL3u",
// "QL3d" on the First Contact set. A "# comment" runs to the end of the line.
//
//	lift SQUARE        take the piece off a square (it is in the hand)
//	place SQUARE       put a piece on an empty square: the one in the hand,
//	                   or with nothing in the hand one from off the set
//	                   (V.P6 placements, First Contact's king placements and
//	                   introductions); the set does not tell them apart
//	lift PIN           lift the board (platform) off a pin (position) with
//	                   the pieces on it: they ride along
//	place PIN          put the board in the air on a free pin, each piece on
//	                   the same square of it (z2QL3 -> z4QL5); with no board
//	                   in the air, a spare empty board (or platform) from off
//	                   the set (V.A3 promotion to a board, First Contact's
//	                   platform placements)
//	place PIN turned   put the board in the air back turned half round: each
//	                   piece on the diagonally opposite square (V.A2)
//	wait MS            let MS milliseconds pass
//	bounce CELL        a contact bounce train on a cell (0.9 ms of make and
//	                   break, ending where the cell is)
//	setup              put the whole set in its system's start position
//	setup POSITION     put the whole set in a position (the system's position
//	                   string: the rest of the line)
//	press BUTTON       press a button of the set and hold it
//	release BUTTON     let it go
//	tap BUTTON [MS]    press it, hold it MS milliseconds (DefaultTap, 80),
//	                   let it go
//
// A button is named as the set's wiring names it, without "button:": the
// simulated set of `run --sim` has clock_white, clock_black, queen, rook,
// bishop, knight, new_game, take_back, hint (and on a First Contact set
// pawn and king) unless the configuration names others.
const Actions = `lift SQUARE | place SQUARE | lift PIN | place PIN [turned] | wait MS | bounce CELL | setup [POSITION] | press BUTTON | release BUTTON | tap BUTTON [MS]`

// Action is one thing a person does to the set: "lift b2W", "place b4N",
// "lift QL1", "place QL3" (a board with what it carries), "place QL1
// turned", "wait 200", "bounce b4N", "setup". See Actions for the language.
type Action struct {
	Op   Op
	Cell string // square or pin name
	// Button is the button of OpPress, OpRelease and OpTap, named without
	// sensors.ButtonPrefix ("clock_white").
	Button string
	Wait   time.Duration // for OpWait; for OpTap, how long it holds
	// Turned, for OpPlace on a pin, turns the board half round.
	Turned bool
	// Position, for OpSetup, is a position string; empty means the start.
	Position string
}

func (a Action) String() string {
	switch a.Op {
	case OpWait:
		return fmt.Sprintf("wait %d", a.Wait.Milliseconds())
	case OpSetup:
		if a.Position != "" {
			return "setup " + a.Position
		}
		return "setup"
	case OpPress, OpRelease:
		return string(a.Op) + " " + a.Button
	case OpTap:
		if a.Wait == DefaultTap {
			return "tap " + a.Button
		}
		return fmt.Sprintf("tap %s %d", a.Button, a.Wait.Milliseconds())
	}
	if a.Turned {
		return string(a.Op) + " " + a.Cell + " turned"
	}
	return string(a.Op) + " " + a.Cell
}

var (
	knownOnce  sync.Once
	knownCells map[string]bool
)

// known reports whether name is a cell of some game system.
func known(name string) bool {
	knownOnce.Do(func() {
		knownCells = map[string]bool{}
		for _, n := range systems.Names() {
			sys, err := systems.Lookup(n, "")
			if err != nil {
				continue
			}
			for _, c := range sys.Cells() {
				knownCells[c] = true
			}
		}
	})
	return knownCells[name]
}

// ParseAction reads one line of a simulator script (see Actions). Blank
// lines and "# comments" give ok == false and no error. A cell must be a
// cell of some game system; Set.Do checks it against the set's own.
func ParseAction(line string) (a Action, ok bool, err error) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return Action{}, false, nil
	}
	bad := func(format string, args ...any) (Action, bool, error) {
		return Action{}, false, fmt.Errorf("sim: %q: "+format, append([]any{strings.TrimSpace(line)}, args...)...)
	}
	switch op := Op(f[0]); op {
	case OpSetup:
		return Action{Op: OpSetup, Position: strings.Join(f[1:], " ")}, true, nil
	case OpWait:
		if len(f) != 2 {
			return bad("wait takes one argument, milliseconds")
		}
		ms, err := strconv.Atoi(f[1])
		if err != nil || ms < 0 {
			return bad("wait takes milliseconds >= 0")
		}
		return Action{Op: OpWait, Wait: time.Duration(ms) * time.Millisecond}, true, nil
	case OpPress, OpRelease:
		if len(f) != 2 {
			return bad("%s takes one button (clock_white, queen, new_game, ...)", op)
		}
		if err := buttonName(f[1]); err != nil {
			return bad("%v", err)
		}
		return Action{Op: op, Button: f[1]}, true, nil
	case OpTap:
		if len(f) != 2 && len(f) != 3 {
			return bad("want tap BUTTON or tap BUTTON MS")
		}
		if err := buttonName(f[1]); err != nil {
			return bad("%v", err)
		}
		a := Action{Op: OpTap, Button: f[1], Wait: DefaultTap}
		if len(f) == 3 {
			ms, err := strconv.Atoi(f[2])
			if err != nil || ms <= 0 {
				return bad("tap holds its button for milliseconds > 0")
			}
			a.Wait = time.Duration(ms) * time.Millisecond
		}
		return a, true, nil
	case OpLift, OpPlace, OpBounce:
		turned := op == OpPlace && len(f) == 3 && f[2] == "turned"
		if len(f) != 2 && !turned {
			if op == OpPlace {
				return bad("want place CELL or place PIN turned")
			}
			return bad("%s takes one cell", op)
		}
		if !known(f[1]) {
			return bad("%q is neither a square nor a pin of any set (b2W, QL3, 2e4, a2QL3u, QL3d)", f[1])
		}
		return Action{Op: op, Cell: f[1], Turned: turned}, true, nil
	}
	return bad("unknown action %q (%s)", f[0], Actions)
}

// buttonName checks the name of a button as an action gives it.
func buttonName(n string) error {
	if strings.HasPrefix(n, sensors.ButtonPrefix) {
		return fmt.Errorf("name the button without %q: %s", sensors.ButtonPrefix, strings.TrimPrefix(n, sensors.ButtonPrefix))
	}
	return nil
}

// Steps is what the hand does for a, one step at a time: a tap is a press,
// a wait of its hold time and a release; any other action is itself. The
// caller runs the waits, as for OpWait.
func (a Action) Steps() []Action {
	if a.Op != OpTap {
		return []Action{a}
	}
	return []Action{{Op: OpPress, Button: a.Button}, {Op: OpWait, Wait: a.Wait}, {Op: OpRelease, Button: a.Button}}
}

// Do carries out an action on the set; OpWait does nothing here (the caller
// runs the clock). OpTap is refused: it holds its button a while, which is
// the caller's to run (Steps), but Do checks its button first.
func (s *Set) Do(a Action) error {
	switch a.Op {
	case OpWait:
		return nil
	case OpPress, OpRelease, OpTap:
		b, err := s.buttonCell(a)
		if err != nil {
			return err
		}
		switch a.Op {
		case OpPress:
			return s.Press(b)
		case OpRelease:
			return s.Release(b)
		}
		return fmt.Errorf("sim: %s: a tap is a press, a wait and a release: run its Steps", a)
	case OpSetup:
		if a.Position == "" {
			s.Start()
			return nil
		}
		p, err := s.sys.ParsePosition(a.Position)
		if err != nil {
			return fmt.Errorf("sim: setup: %w", err)
		}
		s.SetUp(p.Occupancy())
		return nil
	case OpLift, OpPlace, OpBounce:
	default:
		return fmt.Errorf("sim: unknown action %q (%s)", a.Op, Actions)
	}
	if _, ok := s.index[a.Cell]; !ok {
		return fmt.Errorf("sim: %s %s: no such cell on the %s set", a.Op, a.Cell, s.sys.Name())
	}
	pin := s.IsSocket(a.Cell)
	if a.Turned && (a.Op != OpPlace || !pin) {
		return fmt.Errorf("sim: %s: only a board placed on a pin can be turned", a)
	}
	switch a.Op {
	case OpLift:
		if pin {
			return s.LiftBoard(a.Cell)
		}
		return s.Lift(a.Cell)
	case OpPlace:
		switch {
		case a.Turned:
			return s.PlaceBoardTurned(a.Cell)
		case !pin:
			return s.Place(a.Cell)
		}
		if _, inAir := s.InAir(); inAir {
			return s.PlaceBoard(a.Cell)
		}
		return s.PlaceSpare(a.Cell)
	}
	return s.Bounce(a.Cell, 0, 300*time.Microsecond, 500*time.Microsecond, 900*time.Microsecond)
}

// CheckButton refuses a press, release or tap of a button the set does
// not have, naming those it has; other actions pass.
func (s *Set) CheckButton(a Action) error {
	if a.Op != OpPress && a.Op != OpRelease && a.Op != OpTap {
		return nil
	}
	_, err := s.buttonCell(a)
	return err
}

// buttonCell is the cell of the button of a press, release or tap, or an
// error naming the set's buttons.
func (s *Set) buttonCell(a Action) (string, error) {
	full := sensors.ButtonPrefix + a.Button
	if _, ok := s.index[full]; ok {
		return full, nil
	}
	var names []string
	for _, n := range s.names[len(s.sys.Cells()):] {
		names = append(names, strings.TrimPrefix(n, sensors.ButtonPrefix))
	}
	if len(names) == 0 {
		return "", fmt.Errorf("sim: %s: the %s set has no buttons", a, s.sys.Name())
	}
	return "", fmt.Errorf("sim: %s: the %s set has no button %q (its buttons: %s)", a, s.sys.Name(), a.Button, strings.Join(names, ", "))
}
