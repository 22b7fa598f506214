package recognize

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// State is what the board is doing, as far as the recognizer can tell.
type State uint8

const (
	// InSync: the board shows the expected position.
	InSync State = iota
	// MoveInProgress: pieces or boards are lifted, or placed where a move
	// is not yet complete.
	MoveInProgress
	// NeedsChoice: a promotion was made; the piece can still be chosen
	// (Choose) until the next move starts. A queen stands otherwise.
	NeedsChoice
	// Mismatch: the board differs from the expected position (at start, after
	// an external change, or after an illegal result); Status.Fix names the
	// cells to set right.
	Mismatch
	// SensorFault: some cells read unknown; nothing is guessed through them.
	SensorFault
)

func (s State) String() string {
	switch s {
	case InSync:
		return "in sync"
	case MoveInProgress:
		return "move in progress"
	case NeedsChoice:
		return "needs choice"
	case Mismatch:
		return "mismatch"
	case SensorFault:
		return "sensor fault"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Status is the recognizer's view of the board.
type Status struct {
	State State
	// Lifted holds the cells the expected position has closed that read
	// open (pieces or boards in the air); Placed the cells it has open that
	// read closed.
	Lifted, Placed rules.CellSet
	// Fix holds, in Mismatch, every cell that differs from the expected
	// position: a piece to put back (in Lifted) or to take away (in Placed).
	Fix rules.CellSet
	// Unknown holds the cells that cannot be read (SensorFault).
	Unknown rules.CellSet
	// FirstLifted is the first cell lifted since the board was last in sync
	// (Article 4.3, touch-move), or rules.NoCell.
	FirstLifted rules.Cell
	// Choices lists, in NeedsChoice, the promotion moves to choose from;
	// the first is the one that stands if no choice is made.
	Choices []rules.Move
	// Ready is true, in MoveInProgress, while the board shows a complete
	// legal move that waits for the settle window or (Opts.ConfirmByPress)
	// for Confirm.
	Ready bool
	// Held is true, in MoveInProgress with Ready, once the move shown has
	// stood its settle window with Opts.ConfirmByPress on: it is held for
	// the mover's press (Confirm) or the next player's lift, which alone
	// complete it.
	Held bool
	// Reason says why, for Mismatch and SensorFault.
	Reason string
	// Instruction says, in Mismatch, what to do in a sentence: which
	// pieces to put back where, what to take away, and that a move
	// recognized wrongly is taken back by putting the position before it
	// back. (A "hint" is the engine's suggested move, table.Hint.)
	Instruction string
}

func (s *Status) equal(o *Status) bool {
	if s.State != o.State || s.Lifted != o.Lifted || s.Placed != o.Placed || s.Fix != o.Fix ||
		s.Unknown != o.Unknown || s.FirstLifted != o.FirstLifted || s.Reason != o.Reason || s.Ready != o.Ready || s.Held != o.Held || s.Instruction != o.Instruction || len(s.Choices) != len(o.Choices) {
		return false
	}
	for i := range s.Choices {
		if s.Choices[i] != o.Choices[i] {
			return false
		}
	}
	return true
}

// Kind is the kind of an Event.
type Kind uint8

const (
	// Moved: a move was recognized (Move, Before, After).
	Moved Kind = iota + 1
	// TookBack: the previous position was put back; Move is the move taken
	// back, Before the position it led to, After the one restored.
	TookBack
	// StatusChanged: Status is the new status.
	StatusChanged
	// Corrected: the mover changed their mind about the last move, which
	// the settle window had completed (Opts.Correction): Withdrawn is
	// taken back and Move made instead, from Before (the position before
	// both) to After.
	Corrected
)

func (k Kind) String() string {
	switch k {
	case Moved:
		return "moved"
	case TookBack:
		return "took back"
	case StatusChanged:
		return "status changed"
	case Corrected:
		return "corrected"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Confirmation is what completed a move.
type Confirmation uint8

const (
	// BySettle: the reading stood still for the settle window.
	BySettle Confirmation = iota + 1
	// ByLift: the next player lifted one of their pieces (or, for a
	// promotion, the next move began before a choice).
	ByLift
	// ByPress: Confirm was called (a clock button).
	ByPress
	// ByChoice: the promotion piece was chosen (Choose).
	ByChoice
)

func (c Confirmation) String() string {
	switch c {
	case BySettle:
		return "settle"
	case ByLift:
		return "lift"
	case ByPress:
		return "press"
	case ByChoice:
		return "choice"
	}
	return fmt.Sprintf("Confirmation(%d)", uint8(c))
}

// Event is something the recognizer saw.
type Event struct {
	Kind Kind
	// At is the time of the reading, press or choice that decided it.
	At time.Time
	// CompletedAt is, for Moved and TookBack, the time of the reading in
	// which the board came to show the move: the last settled change of a
	// cell that made it (the sensors' debounce after the hand let go). A
	// chess clock charges the mover up to CompletedAt, not At.
	CompletedAt time.Time
	// By says, for Moved, what completed the move.
	By Confirmation
	// Move, Before and After describe Moved, TookBack and Corrected
	// events; Withdrawn is the move a Corrected event takes back.
	Move          rules.Move
	Withdrawn     rules.Move
	Before, After rules.Position
	// Status is the status after the event.
	Status Status
}

// String describes the event in a line.
func (e Event) String() string {
	switch e.Kind {
	case Moved:
		return "moved " + e.Before.Long(e.Move)
	case TookBack:
		return "took back " + e.After.Long(e.Move)
	case Corrected:
		return "corrected " + e.Before.Long(e.Withdrawn) + " to " + e.Before.Long(e.Move)
	}
	return "status: " + e.Status.State.String()
}
