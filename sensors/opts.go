package sensors

import (
	"errors"
	"slices"
	"time"

	"github.com/tridboard/tridboard/internal/setting"
	"github.com/tridboard/tridboard/rules/systems"
)

// Opts are the options of a Scanner. Period and Debounce are settings of
// the configuration file's "sensors" section (the yaml names; those tagged
// "-" are not settings), checked by Validate.
type Opts struct {
	// Cells is the cell list of the game system (rules.System.Cells()): bit
	// i of a snapshot's sets is Cells[i]. At most 256.
	Cells []string `yaml:"-"`
	// Period is the scan period of Run.
	Period time.Duration `yaml:"period"`
	// Debounce is how long a cell's reading must stay the same before the
	// cell changes state (0: at once).
	Debounce time.Duration `yaml:"debounce"`
	// RetryMin and RetryMax bound the backoff before a failing expander is
	// tried again: RetryMin after the first failure, doubling up to
	// RetryMax.
	RetryMin, RetryMax time.Duration `yaml:"-"`
	// Verify is how often each expander's configuration is read back to
	// catch a chip that reset without missing a transaction (0: never; at
	// most one expander is checked per scan). Independently of it, a
	// reading that changed since the last check is checked before it
	// counts, so a reset chip's floating inputs never make a change.
	Verify time.Duration `yaml:"-"`
	// Now, when set, is the clock each expander's reading is stamped
	// with, read right after it: a scan preempted half way (a busy
	// machine) stamps what it read with when it read it. Nil stamps the
	// whole scan with Scan's time.
	Now func() time.Time `yaml:"-"`
}

// DefaultOpts returns the options used when New is given nil: the cells
// of the default system (rules/systems: ST3D; a copy of its own), a 5 ms
// scan, a 30 ms debounce, retries from 10 ms to 1 s and a check of the
// expanders' configuration every second.
func DefaultOpts() Opts {
	return Opts{
		Cells:    slices.Clone(systems.Default().Cells()),
		Period:   5 * time.Millisecond,
		Debounce: 30 * time.Millisecond,
		RetryMin: 10 * time.Millisecond,
		RetryMax: time.Second,
		Verify:   time.Second,
	}
}

// Validate checks the settings of the configuration file: a period of 1ms
// to 1s, a debounce up to 1s. Its error is setting.Problems, keyed by the
// yaml names.
func (o *Opts) Validate() error {
	var ps setting.Problems
	ps.Between("period", o.Period, time.Millisecond, time.Second)
	ps.Between("debounce", o.Debounce, 0, time.Second)
	return ps.Err("sensors")
}

func (o *Opts) check() error {
	switch {
	case len(o.Cells) == 0:
		return errors.New("sensors: no cells given")
	case len(o.Cells) > 256:
		return errors.New("sensors: more than 256 cells")
	case o.Period <= 0:
		return errors.New("sensors: scan period must be positive")
	case o.Debounce < 0:
		return errors.New("sensors: negative debounce")
	case o.RetryMin <= 0 || o.RetryMax < o.RetryMin:
		return errors.New("sensors: retry backoff needs 0 < RetryMin <= RetryMax")
	case o.Verify < 0:
		return errors.New("sensors: negative verify period")
	}
	return nil
}
