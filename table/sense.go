package table

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
)

// CanSense reports why the set cannot play sys, or nil: the wiring must
// wire every cell of sys.
func (t *Table) CanSense(sys rules.System) error { return canSense(t.o.Wiring, sys) }

func canSense(w *sensors.Wiring, sys rules.System) error {
	_, err := wiringFor(w, sys)
	return err
}

// wiringFor is w read as the wiring of sys's cells (a reference ST3D
// wiring serves first-contact-up: the same switches, other names), or why
// the set cannot sense sys.
func wiringFor(w *sensors.Wiring, sys rules.System) (*sensors.Wiring, error) {
	fw, err := w.ForCells(sys.Cells())
	if err == nil {
		err = fw.Validate(sys.Cells())
	}
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		return nil, &SenseError{System: sys, Detail: first}
	}
	return fw, nil
}

// SenseError says that the set cannot sense System's cells (errors.Is
// ErrCannotSense): a game of a system another set plays.
type SenseError struct {
	System rules.System
	Detail string // the first wiring problem
}

func (e *SenseError) Error() string {
	return fmt.Sprintf("%v: %s needs a set whose wiring has its cells (%s)", ErrCannotSense, e.System.Name(), e.Detail)
}

// Unwrap makes errors.Is(err, ErrCannotSense) true.
func (e *SenseError) Unwrap() error { return ErrCannotSense }
