package main

// Pieces of the daemon's wiring: what a configuration error is, the
// simulated set's clock, the buttons' cells.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sim"
)

// cannotSense explains a wiring refused for sys: when it is the wiring of
// another system's set, it says so instead of listing every cell.
func cannotSense(cfg *config.Config, sys rules.System, err error) error {
	for _, name := range systems.Names() {
		other, _ := systems.Lookup(name, "")
		if _, werr := cfg.Wiring(other.Cells()); werr == nil && !slices.Equal(other.Cells(), sys.Cells()) {
			return configError{fmt.Errorf("the configured set is wired for %s: it cannot sense the cells of a %s game "+
				"(configure that set's wiring: sensors.preset or sensors.wiring)", name, sys.Name())}
		}
	}
	return configError{err}
}

// configError is a start-up failure the configuration causes: retrying
// cannot fix it, so the daemon exits with exitConfig, which the systemd
// unit does not retry.
type configError struct{ error }

func (e configError) Unwrap() error { return e.error }

// followReal is the simulated set's clock for run --sim: it follows the
// real time, and the bus's transactions may move it on in between.
func followReal(c *sim.TimeSource) func() time.Time {
	return func() time.Time {
		if real := time.Now(); real.After(c.Now()) {
			c.Set(real)
		}
		return c.Now()
	}
}

// shortButtons are the configured buttons' cells without
// sensors.ButtonPrefix, as the wiring presets take them.
func shortButtons(cfg *config.Config) []string {
	var short []string
	for _, b := range cfg.Buttons.Cells() {
		short = append(short, strings.TrimPrefix(b, sensors.ButtonPrefix))
	}
	return short
}

// placesPieces reports whether the games of sys place pieces that a pawn
// or king button must choose (First Contact's introductions and king
// placements).
func placesPieces(sys rules.System) bool { return systems.CapsOf(sys).Placement }

// standSet puts the simulated set in pos, as players set up a set.
func standSet(b *sim.Board, pos rules.Position) { b.Set.SetUp(pos.Occupancy()) }
