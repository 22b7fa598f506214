package sets

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules/firstcontact"
	"github.com/tridboard/tridboard/sensors"
)

// The wiring presets: hardware.md's builds, by the name the configuration
// gives them (sensors.preset).
const (
	PresetReference          = "reference"           // ST3D, seven direct expanders
	PresetMatrix             = "matrix"              // ST3D, two diode matrices
	PresetMillenniumMatrix   = "millennium-matrix"   // Millennium, one 8x8 matrix per level
	PresetMillenniumDirect   = "millennium-direct"   // Millennium, twelve direct expanders behind a PCA9548
	PresetFirstContact       = "firstcontact"        // First Contact, up and inverted contacts
	PresetFirstContactUp     = "firstcontact-up"     // First Contact on the reference set (F6: up only)
	PresetFirstContactMatrix = "firstcontact-matrix" // First Contact, 168 cells in three diode matrices
)

// The kits of the systems tridboard plays, in the registry's order.
func init() {
	Register(Kit{System: "st3d", Demo: recorded(ST3DDemo), Presets: []WiringPreset{
		{PresetReference, fixed(ReferenceWiring)},
		{PresetMatrix, fixed(MatrixWiring)},
	}})
	Register(Kit{System: "millennium", Demo: millenniumDemo, Presets: []WiringPreset{
		{PresetMillenniumMatrix, fixed(MillenniumMatrixWiring)},
		{PresetMillenniumDirect, fixed(MillenniumDirectWiring)},
	}})
	Register(Kit{System: "first-contact", Presets: []WiringPreset{
		{PresetFirstContact, fixed(FirstContactWiring)},
		{PresetFirstContactMatrix, func(b []string) (*sensors.Wiring, error) {
			return sensors.MatrixWiringFor(firstcontact.CellNames(), 0x20, b...)
		}},
	}})
	Register(Kit{System: "first-contact-up", Presets: []WiringPreset{
		{PresetFirstContactUp, fixed(FirstContactUpWiring)},
	}})
}

// fixed makes a preset's builder of a wiring that always fits.
func fixed(f func(buttons ...string) *sensors.Wiring) func([]string) (*sensors.Wiring, error) {
	return func(b []string) (*sensors.Wiring, error) { return f(b...), nil }
}

// PresetNames lists the wiring presets of every kit, in the kits' order
// (reference first).
func PresetNames() []string {
	var out []string
	for _, k := range kitList() {
		for _, p := range k.Presets {
			out = append(out, p.Name)
		}
	}
	return out
}

// Preset builds the wiring preset called name with the buttons given
// (names without sensors.ButtonPrefix; each preset says where they go).
// The wiring is not validated against a system: sensors.Wiring.Validate
// does that.
func Preset(name string, buttons ...string) (*sensors.Wiring, error) {
	for _, k := range kitList() {
		for _, p := range k.Presets {
			if p.Name == name {
				return p.Build(buttons)
			}
		}
	}
	return nil, fmt.Errorf("sets: wiring preset %q unknown (want %s)", name, strings.Join(PresetNames(), ", "))
}

// DefaultPreset is the preset of the set a system is played on, by the
// system's variant name (rules/systems; "st3d" for every st3d option set):
// its kit's first preset (reference for st3d, millennium-matrix for
// millennium, firstcontact for first-contact, firstcontact-up for
// first-contact-up); "" for a name without a kit or a kit without presets.
func DefaultPreset(variant string) string {
	if k, ok := Find(variant); ok && len(k.Presets) > 0 {
		return k.Presets[0].Name
	}
	return ""
}
