// Package systems is the registry of the rule systems tridboard plays. A
// system registers once, with an Entry: its name as records, journals and
// command lines write it ("st3d", "millennium", "first-contact",
// "first-contact-up"), its rules (a rules.System), how its options are
// read ("st3d+V.A1,V.A2" is the name of st3d with those options), its
// geometry (where each cell stands, for drawing, sensing and judging a
// position) and its capabilities (placing pieces, moving boards, the set
// it is played on).
//
// It is the one place that maps names to systems and the one package
// above rules that knows which systems exist: game, table, clock, event,
// web, engine, sim, sensors and the commands find a system and its entry
// here and then work through rules.System, rules.Geometry and Caps alone.
// What a system needs from the hardware (its wiring presets, its LED
// mapping, its simulated set and its demo game) is its kit, in package
// sets. A new system is its package below rules and one line in the
// table below (or one Register call, as the tests' toy system does).
package systems

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
)

// Entry is what the registry knows of one rule system.
type Entry struct {
	// Name is the system's name without options ("st3d").
	Name string
	// System is the system without options.
	System rules.System
	// Geometry says where each cell of sys stands; sys is System or a
	// system of its options (the same cells).
	Geometry func(sys rules.System) (*rules.Geometry, error)
	// Options makes the system with options (comma-separated, as
	// "V.A1,V.A2"); nil when the system has none.
	Options func(options string) (rules.System, error)
	// Caps are what the system's games do on the set.
	Caps Caps
	// Switches names the system whose cell list names the same switches
	// in the same order ("st3d" for first-contact-up, F6: a reference ST3D
	// set is a first-contact-up set and back); "" for none.
	Switches string
}

// Caps are the capabilities of a system, as the layers above the rules
// ask for them instead of testing names.
type Caps struct {
	// Set names the set the system is played on, for people ("a Star Trek
	// 3D chess set").
	Set string
	// Placement: pieces enter the set from outside it (First Contact's
	// introductions and king placements), so a button chooses the piece.
	Placement bool
	// BoardMoves: boards (attack boards, platforms) move, carrying pieces.
	BoardMoves bool
	// LongGames: games run long before they end (a demo plays them to
	// their end only when false).
	LongGames bool
	// NeedsPosition reports whether games of sys (this system with some
	// options) start only from a given position; nil for never.
	NeedsPosition func(sys rules.System) bool
	// DrawsSetup reports whether options draw a setup at random, so that
	// each system made of them has a start of its own; nil for never.
	DrawsSetup func(options string) bool
	// Fallback is the system to play on a set that cannot sense all of
	// this one's cells, and FallbackWhy says why ("its sockets sense
	// upright platforms only (F6)"); "" for none.
	Fallback, FallbackWhy string
}

// The systems tridboard plays, in the order sim.SystemOf tries them.
func init() {
	Register(Entry{Name: "st3d", System: st3d.System, Geometry: tridGeometry, Options: st3dOptions, Caps: Caps{
		Set: "a Star Trek 3D chess set", BoardMoves: true, LongGames: true,
		NeedsPosition: st3dNeedsPosition, DrawsSetup: st3dDrawsSetup}})
	Register(Entry{Name: "millennium", System: millennium.System, Geometry: levelsGeometry, Caps: Caps{
		Set: "a Millennium 3D chess set (three 8x8 boards)", LongGames: true}})
	Register(Entry{Name: "first-contact", System: firstcontact.System, Geometry: tridGeometry, Caps: Caps{
		Set: "a Star Trek 3D set with First Contact's platforms", Placement: true, BoardMoves: true,
		Fallback: "first-contact-up", FallbackWhy: "its sockets sense upright platforms only (F6)"}})
	Register(Entry{Name: "first-contact-up", System: firstcontact.UpOnly, Geometry: tridGeometry, Switches: "st3d", Caps: Caps{
		Set: "a Star Trek 3D set with First Contact's platforms", Placement: true, BoardMoves: true}})
}

var (
	mu      sync.RWMutex
	entries []*Entry
	byName  = map[string]*Entry{}
	geos    sync.Map // system name -> *rules.Geometry
)

// Register adds a system to the registry. It panics when e has no name,
// no system or no geometry, or when its name is taken: registering is done
// once, at start-up, and a mistake there is the program's.
func Register(e Entry) {
	mu.Lock()
	defer mu.Unlock()
	switch {
	case e.Name == "" || strings.Contains(e.Name, "+"):
		panic(fmt.Sprintf("systems: register %q: a name without '+'", e.Name))
	case e.System == nil || e.Geometry == nil:
		panic(fmt.Sprintf("systems: register %s: no system or no geometry", e.Name))
	case byName[e.Name] != nil:
		panic(fmt.Sprintf("systems: register %s: the name is taken", e.Name))
	}
	entries = append(entries, &e)
	byName[e.Name] = &e
}

// Names lists the names of the systems without options, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name)
	}
	sort.Strings(names)
	return names
}

// All lists the systems without options in the order they registered.
func All() []rules.System {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]rules.System, len(entries))
	for i, e := range entries {
		out[i] = e.System
	}
	return out
}

// Default is the system played when none is named: st3d.
func Default() rules.System { return st3d.System }

// Find is the entry of the system called variant (a name without options).
func Find(variant string) (*Entry, bool) {
	mu.RLock()
	defer mu.RUnlock()
	e, ok := byName[variant]
	return e, ok
}

// Of is the entry of sys (a registered system or one of its options). An
// unregistered system gets an entry of its own with no capabilities and
// no geometry.
func Of(sys rules.System) *Entry {
	variant, _ := Split(sys)
	if e, ok := Find(variant); ok {
		return e
	}
	return &Entry{Name: variant, System: sys}
}

// CapsOf are the capabilities of sys (none for an unregistered system).
func CapsOf(sys rules.System) Caps { return Of(sys).Caps }

// GeometryOf says where each cell of sys stands, built once per system.
func GeometryOf(sys rules.System) (*rules.Geometry, error) {
	if g, ok := geos.Load(sys.Name()); ok {
		return g.(*rules.Geometry), nil
	}
	e := Of(sys)
	if e.Geometry == nil {
		return nil, fmt.Errorf("systems: %s is not registered: no geometry", sys.Name())
	}
	g, err := e.Geometry(sys)
	if err != nil {
		return nil, fmt.Errorf("systems: geometry of %s: %w", sys.Name(), err)
	}
	if len(g.Cells) != len(sys.Cells()) {
		return nil, fmt.Errorf("systems: geometry of %s: %d cells placed, the system has %d", sys.Name(), len(g.Cells), len(sys.Cells()))
	}
	v, _ := geos.LoadOrStore(sys.Name(), g)
	return v.(*rules.Geometry), nil
}

// SameSwitches lists the cell lists of other systems that name the same
// switches as cells, in the same order (Entry.Switches, both ways).
func SameSwitches(cells []string) [][]string {
	mu.RLock()
	defer mu.RUnlock()
	var out [][]string
	for _, e := range entries {
		other, ok := byName[e.Switches]
		if !ok {
			continue
		}
		a, b := e.System.Cells(), other.System.Cells()
		switch {
		case slices.Equal(cells, a):
			out = append(out, b)
		case slices.Equal(cells, b):
			out = append(out, a)
		}
	}
	return out
}

// Lookup finds the system called variant with the options in options
// (comma-separated, as "V.A1,V.A2"; only st3d has options). It returns an
// error naming what is unknown.
func Lookup(variant, options string) (rules.System, error) {
	e, ok := Find(variant)
	if !ok {
		return nil, fmt.Errorf("unknown variant %q (known: %s)", variant, strings.Join(Names(), ", "))
	}
	if options == "" {
		return e.System, nil
	}
	if e.Options == nil {
		return nil, fmt.Errorf("variant %s has no options (the variant options are st3d's)", variant)
	}
	return e.Options(options)
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
	c := CapsOf(sys)
	return c.NeedsPosition != nil && c.NeedsPosition(sys)
}

// DrawsSetup reports whether variant's options draw a setup at random
// (st3d's V.P5:random, or V.P5 without a number): each system made of them
// has a start of its own, so a record without its Position tag cannot be
// read with them.
func DrawsSetup(variant, options string) bool {
	e, ok := Find(variant)
	return ok && options != "" && e.Caps.DrawsSetup != nil && e.Caps.DrawsSetup(options)
}

func st3dOptions(options string) (rules.System, error) {
	o, err := st3d.ParseOptions(options)
	if err != nil {
		return nil, err
	}
	return st3d.NewSystem(o)
}

func st3dNeedsPosition(sys rules.System) bool {
	o, ok := sys.(interface{ Options() st3d.Options })
	return ok && (o.Options().Setup == st3d.SetupWurmser || o.Options().Setup == st3d.SetupCustom)
}

func st3dDrawsSetup(options string) bool {
	o, err := st3d.ParseOptions(options)
	return err == nil && o.Setup == st3d.Setup960 && o.Number == st3d.RandomNumber
}
