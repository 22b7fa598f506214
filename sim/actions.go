package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tridboard/tridboard/rules/st3d"
)

// Op is what a hand does to the set.
type Op string

// The operations of an Action.
const (
	OpLift   Op = "lift"   // a piece off a square, or a board off a pin
	OpPlace  Op = "place"  // a piece on a square, or the board in the air on a pin
	OpWait   Op = "wait"   // let time pass
	OpBounce Op = "bounce" // a contact bounce train on a cell
)

// Action is one thing a person does to the set: "lift b2W", "place b4N",
// "lift QL1", "place QL3" (a board with what it carries), "wait 200",
// "bounce b4N".
type Action struct {
	Op   Op
	Cell string        // square or pin name
	Wait time.Duration // for OpWait
}

func (a Action) String() string {
	if a.Op == OpWait {
		return fmt.Sprintf("wait %d", a.Wait.Milliseconds())
	}
	return string(a.Op) + " " + a.Cell
}

// ParseAction reads one line of a simulator script. Blank lines and
// "# comments" give ok == false and no error.
func ParseAction(line string) (a Action, ok bool, err error) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return Action{}, false, nil
	}
	if len(f) != 2 {
		return Action{}, false, fmt.Errorf("sim: %q: want an action and one argument (lift b2W, place b4N, wait 200)", line)
	}
	switch op := Op(f[0]); op {
	case OpWait:
		ms, err := strconv.Atoi(f[1])
		if err != nil || ms < 0 {
			return Action{}, false, fmt.Errorf("sim: %q: wait takes milliseconds >= 0", line)
		}
		return Action{Op: OpWait, Wait: time.Duration(ms) * time.Millisecond}, true, nil
	case OpLift, OpPlace, OpBounce:
		if _, err := st3d.ParsePin(f[1]); err != nil {
			if _, err := st3d.ParseSquare(f[1]); err != nil {
				return Action{}, false, fmt.Errorf("sim: %q: %q is neither a square nor a pin", line, f[1])
			}
		}
		return Action{Op: op, Cell: f[1]}, true, nil
	}
	return Action{}, false, fmt.Errorf("sim: %q: unknown action %q (lift, place, wait, bounce)", line, f[0])
}

// Do carries out an action on the set; OpWait does nothing here (the caller
// runs the clock).
func (s *Set) Do(a Action) error {
	_, pinErr := st3d.ParsePin(a.Cell)
	isPin := pinErr == nil
	switch a.Op {
	case OpWait:
		return nil
	case OpLift:
		if isPin {
			return s.LiftBoard(a.Cell)
		}
		return s.Lift(a.Cell)
	case OpPlace:
		if isPin {
			return s.PlaceBoard(a.Cell)
		}
		return s.Place(a.Cell)
	case OpBounce:
		return s.Bounce(a.Cell, 0, 300*time.Microsecond, 500*time.Microsecond, 900*time.Microsecond)
	}
	return fmt.Errorf("sim: unknown action %q", a.Op)
}
