package recognize

import (
	"time"

	"github.com/tridboard/tridboard/internal/setting"
)

// Opts tunes a Recognizer. They are the configuration file's
// "recognition" section (the yaml names; those tagged "-" are not
// settings), checked by Validate.
type Opts struct {
	// Settle is how long a reading must stand still before a move that the
	// same piece could not extend is accepted. A piece set down on its way
	// for less than this is never a move.
	Settle time.Duration `yaml:"settle"`
	// SettleExtended is the same for a move the piece could still extend
	// along its line (a slide may be passing through).
	SettleExtended time.Duration `yaml:"settle_extended"`
	// MismatchAfter bounds how long the board may show readings that no
	// legal move explains, however often they change, before it is called
	// a mismatch.
	MismatchAfter time.Duration `yaml:"mismatch_after"`
	// TakeBacks makes putting the previous position back a take-back.
	TakeBacks bool `yaml:"take_backs"`
	// MaxTakeBacks bounds how many moves can be taken back in a row.
	MaxTakeBacks int `yaml:"-"`
	// ConfirmByPress: a move is completed by Confirm (a clock button) or by
	// the next player lifting one of their pieces, never by settling alone.
	ConfirmByPress bool `yaml:"-"`
	// Skew is how far apart two changes made at the same moment can reach
	// the recognizer: contact bounce delays a cell's first stable reading
	// by up to two scans. A lift confirms a move once Skew has passed with
	// no other change. Set it to two scan periods and a little more.
	Skew time.Duration `yaml:"-"`
	// PressGrace is how long a Confirm that comes before the board shows a
	// complete move waits for it (a press can beat the last placement's
	// debounce) before it calls the reading a mismatch.
	PressGrace time.Duration `yaml:"-"`
	// Correction is how long a move that the settle window completed
	// stays open to correction by its mover (a change of mind): lifting
	// the same piece again and putting it on another legal square replaces
	// the move (a Corrected event); putting it back where it came from
	// takes the move back. The other side's lift, a press, EndCorrection
	// (a command) or the end of this time closes it. 0 never: the first
	// move stands (touch-move tournaments).
	Correction time.Duration `yaml:"correction"`
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

// Validate checks the settings of the configuration file: settle 1ms to
// 5s, settle_extended from settle to 5s, mismatch_after from
// settle_extended to a minute, correction up to a minute. Its error is
// setting.Problems, keyed by the yaml names.
func (o *Opts) Validate() error {
	var ps setting.Problems
	ps.Between("settle", o.Settle, time.Millisecond, 5*time.Second)
	ps.Between("settle_extended", o.SettleExtended, o.Settle, 5*time.Second)
	ps.Between("mismatch_after", o.MismatchAfter, o.SettleExtended, time.Minute)
	ps.Between("correction", o.Correction, 0, time.Minute)
	return ps.Err("recognize")
}
