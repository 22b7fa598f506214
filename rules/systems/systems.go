// Package systems is the registry of the rule systems tridboard plays: a
// system is found by its name as records, journals and command lines write
// it ("st3d", "millennium", "first-contact", "first-contact-up"), and st3d's
// variant options are resolved here too ("st3d+V.A1,V.A2" is the name of
// st3d with those options).
//
// It is the one place that maps names to systems: game, table, clock,
// event, web and the commands find a system here and then work through
// rules.System alone. It is not the only package above rules that knows
// the systems: those with per-system knowledge import their packages
// directly: engine (an evaluation and move facts for each), explain (each
// system's reasons a move is illegal), sensors and sim (the wiring and
// geometry of each system's set), leds (st3d's squares and pins) and
// cmd/tridboard (scan draws st3d's pins, demo plays a recorded Millennium
// game).
package systems

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
)

// base are the systems without options, by name.
var base = map[string]rules.System{
	"st3d":             st3d.System,
	"millennium":       millennium.System,
	"first-contact":    firstcontact.System,
	"first-contact-up": firstcontact.UpOnly,
}

// Names lists the names of the systems without options, sorted.
func Names() []string {
	names := make([]string, 0, len(base))
	for n := range base {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup finds the system called variant with the options in options
// (comma-separated, as "V.A1,V.A2"; only st3d has options). It returns an
// error naming what is unknown.
func Lookup(variant, options string) (rules.System, error) {
	sys, ok := base[variant]
	if !ok {
		return nil, fmt.Errorf("unknown variant %q (known: %s)", variant, strings.Join(Names(), ", "))
	}
	if options == "" {
		return sys, nil
	}
	if variant != "st3d" {
		return nil, fmt.Errorf("variant %s has no options (the variant options are st3d's)", variant)
	}
	o, err := st3d.ParseOptions(options)
	if err != nil {
		return nil, err
	}
	return st3d.NewSystem(o)
}

// ByName finds a system by the name its Name method returns, options
// included ("st3d+V.A1,V.A2"), as a journal or a record names it.
func ByName(name string) (rules.System, error) {
	variant, options, _ := strings.Cut(name, "+")
	return Lookup(variant, options)
}

// Split returns the variant and the options of a system's name:
// "st3d+V.A1" gives "st3d", "V.A1".
func Split(sys rules.System) (variant, options string) {
	variant, options, _ = strings.Cut(sys.Name(), "+")
	return variant, options
}

// NeedsPosition reports whether games of sys start only from a given
// position (st3d's custom setups V.P3 and V.P4 have no start of their own).
func NeedsPosition(sys rules.System) bool {
	o, ok := sys.(interface{ Options() st3d.Options })
	return ok && (o.Options().Setup == st3d.SetupWurmser || o.Options().Setup == st3d.SetupCustom)
}
