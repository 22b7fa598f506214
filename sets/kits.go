// Package sets holds each rule system's kit: what the system needs of a
// physical (or simulated) set and of the demo, beside its rules and
// geometry in the registry (rules/systems). A kit gives the wiring presets
// of the sets built for the system (hardware.md's builds, the first being
// the set it is played on when the configuration names none), the
// simulated set the daemon runs without hardware (Board) and the game the
// demo plays.
//
// It is, with the registry and the rules, the one place that knows the
// concrete systems: sensors, sim, leds, web, engine and the commands work
// from the registry and the kits. LEDs need no kit: every LED preset
// lights cell i on LED i (leds.Preset), so any system's set gets them.
//
// A new system is its package below rules and one line: its entry in the
// registry (rules/systems), or one Register here with its entry and its
// set (as the toy system of sets/toy does).
package sets

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
)

// Kit is what one system needs of a set.
type Kit struct {
	// System is the registry name of the system ("st3d"); the kit serves
	// its options too.
	System string
	// Entry, when set, is the system's registry entry, registered with the
	// kit (and System taken from it): a new system is then one line, one
	// Register here.
	Entry *systems.Entry
	// Presets are the wiring presets of the sets built for the system; the
	// first is the set it is played on when none is configured.
	Presets []WiringPreset
	// Demo is the game the demo plays, in long form; nil lets the engine
	// play one against itself.
	Demo func(sys rules.System) ([]string, error)
}

// WiringPreset is one build of a set, by the name the configuration gives
// it (sensors.preset).
type WiringPreset struct {
	Name string
	// Build wires the set with the buttons given (names without
	// sensors.ButtonPrefix).
	Build func(buttons []string) (*sensors.Wiring, error)
}

var (
	mu   sync.RWMutex
	kits []*Kit
)

// Register adds a kit, and the system's registry entry with it when the
// kit has one. It panics when the system is not registered in
// rules/systems (nor by Entry), already has a kit, or a preset's name is
// taken: registering is done once, at start-up, and a mistake there is
// the program's.
func Register(k Kit) {
	if k.Entry != nil {
		systems.Register(*k.Entry)
		k.System = k.Entry.Name
	}
	if _, ok := systems.Find(k.System); !ok {
		panic(fmt.Sprintf("sets: register: no system %q in the registry", k.System))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, o := range kits {
		if o.System == k.System {
			panic(fmt.Sprintf("sets: register %s: it has a kit", k.System))
		}
		for _, p := range o.Presets {
			for _, q := range k.Presets {
				if p.Name == q.Name {
					panic(fmt.Sprintf("sets: register %s: preset %s is %s's", k.System, p.Name, o.System))
				}
			}
		}
	}
	kits = append(kits, &k)
}

func kitList() []*Kit {
	mu.RLock()
	defer mu.RUnlock()
	return append([]*Kit(nil), kits...)
}

// Find is the kit of the system called variant (a name without options).
func Find(variant string) (*Kit, bool) {
	for _, k := range kitList() {
		if k.System == variant {
			return k, true
		}
	}
	return nil, false
}

func variantOf(sys rules.System) string {
	v, _ := systems.Split(sys)
	return v
}

// demoLevel is the engine level (an index of engine.Levels: 25,000 nodes)
// of the demo's games of the systems without a recorded one.
const demoLevel = 4

// DemoMoves is the game the demo plays for sys, in long form: its kit's
// (the built-in ST3D game, a published Millennium game), else a game the
// engine plays against itself (seeded, so the same every time), to its end
// or 60 moves (160 for a system whose games are short, Caps.LongGames
// false: First Contact's end in check wins).
func DemoMoves(sys rules.System) ([]string, error) {
	if k, ok := Find(variantOf(sys)); ok && k.Demo != nil {
		return k.Demo(sys)
	}
	plies := 60
	if !systems.CapsOf(sys).LongGames {
		plies = 160
	}
	pos := sys.Start()
	var out []string
	var history []rules.Position
	for len(out) < plies && pos.Status() == rules.Ongoing {
		m, err := engine.LevelMove(context.Background(), pos, demoLevel, history, nil, uint64(len(out)))
		if err != nil {
			return nil, err
		}
		out = append(out, pos.Long(m))
		history = append(history, pos)
		pos = pos.Play(m)
	}
	return out, nil
}

// recorded is a demo of a game given in long form.
func recorded(moves []string) func(rules.System) ([]string, error) {
	return func(rules.System) ([]string, error) { return append([]string(nil), moves...), nil }
}

// ST3DDemo is the built-in ST3D game: a double step, a pawn climbing to
// Black's board, kingside castling (which leaves the occupancy as it was:
// it is recognized from the lifts), captures, and a knight's mate.
var ST3DDemo = strings.Fields(`
	c2W-c4W d7B-d6B c4W-c5B d8B-c6B 0-0 c6B-b4W a1W-c2W d9KL6-d8B
	a2W-a3W a9QL6-d9KL6 a1QL1-a3N b4W-a2W c5B-c6N a2W-c1W`)
