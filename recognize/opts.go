package recognize

import "time"

// Opts tunes a Recognizer.
type Opts struct {
	// Settle is how long a reading must stand still before a move that the
	// same piece could not extend is accepted. A piece set down on its way
	// for less than this is never a move.
	Settle time.Duration
	// SettleExtended is the same for a move the piece could still extend
	// along its line (a slide may be passing through).
	SettleExtended time.Duration
	// MismatchAfter bounds how long the board may show readings that no
	// legal move explains, however often they change, before it is called
	// a mismatch.
	MismatchAfter time.Duration
	// TakeBacks makes putting the previous position back a take-back.
	TakeBacks bool
	// MaxTakeBacks bounds how many moves can be taken back in a row.
	MaxTakeBacks int
	// ConfirmByPress: a move is completed by Confirm (a clock button) or by
	// the next player lifting one of their pieces, never by settling alone.
	ConfirmByPress bool
	// Skew is how far apart two changes made at the same moment can reach
	// the recognizer: contact bounce delays a cell's first stable reading
	// by up to two scans. A lift confirms a move once Skew has passed with
	// no other change. Set it to two scan periods and a little more.
	Skew time.Duration
	// PressGrace is how long a Confirm that comes before the board shows a
	// complete move waits for it (a press can beat the last placement's
	// debounce) before it calls the reading a mismatch.
	PressGrace time.Duration
	// Correction is how long a move that the settle window completed
	// stays open to correction by its mover (a change of mind): lifting
	// the same piece again and putting it on another legal square replaces
	// the move (a Corrected event); putting it back where it came from
	// takes the move back. The other side's lift, a press, EndCorrection
	// (a command) or the end of this time closes it. 0 never: the first
	// move stands (touch-move tournaments).
	Correction time.Duration
}

// DefaultOpts returns the defaults: 300 ms to settle, 400 ms when the move
// could be extended, a mismatch after 2 s of readings no move explains,
// take-backs on, moves completed by settling (or the next lift, or a
// press), a press waiting up to 100 ms for the move it completes, a skew
// of 12 ms (scans every 5 ms), a settled move open to its mover's
// correction for 3 s.
func DefaultOpts() Opts {
	return Opts{
		Settle:         300 * time.Millisecond,
		SettleExtended: 400 * time.Millisecond,
		MismatchAfter:  2 * time.Second,
		TakeBacks:      true,
		MaxTakeBacks:   16,
		PressGrace:     100 * time.Millisecond,
		Skew:           12 * time.Millisecond,
		Correction:     3 * time.Second,
	}
}
