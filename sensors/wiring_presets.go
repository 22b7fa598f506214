package sensors

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules/firstcontact"
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

// presets builds each preset with its buttons (names without
// ButtonPrefix), and says which systems' cells it wires.
var presets = []struct {
	name    string
	systems string
	build   func(buttons []string) (*Wiring, error)
}{
	{PresetReference, "st3d", func(b []string) (*Wiring, error) { return ReferenceWiring(b...), nil }},
	{PresetMatrix, "st3d", func(b []string) (*Wiring, error) { return MatrixWiring(b...), nil }},
	{PresetMillenniumMatrix, "millennium", func(b []string) (*Wiring, error) { return MillenniumMatrixWiring(b...), nil }},
	{PresetMillenniumDirect, "millennium", func(b []string) (*Wiring, error) { return MillenniumDirectWiring(b...), nil }},
	{PresetFirstContact, "first-contact", func(b []string) (*Wiring, error) { return FirstContactWiring(b...), nil }},
	{PresetFirstContactUp, "first-contact-up", func(b []string) (*Wiring, error) { return FirstContactUpWiring(b...), nil }},
	{PresetFirstContactMatrix, "first-contact", func(b []string) (*Wiring, error) {
		return MatrixWiringFor(firstcontact.CellNames(), 0x20, b...)
	}},
}

// PresetNames lists the wiring presets, reference first.
func PresetNames() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.name
	}
	return out
}

// Preset builds the wiring preset called name with the buttons given
// (names without ButtonPrefix; each preset says where they go). The wiring
// is not validated against a system: Validate does that.
func Preset(name string, buttons ...string) (*Wiring, error) {
	for _, p := range presets {
		if p.name == name {
			return p.build(buttons)
		}
	}
	return nil, fmt.Errorf("sensors: wiring preset %q unknown (want %s)", name, strings.Join(PresetNames(), ", "))
}

// DefaultPreset is the preset of the set a system is played on, by the
// system's variant name (rules/systems; "st3d" for every st3d option set):
// reference for st3d, millennium-matrix for millennium, firstcontact for
// first-contact, firstcontact-up for first-contact-up; "" for a name it
// does not know.
func DefaultPreset(variant string) string {
	for _, p := range presets {
		if p.systems == variant {
			return p.name
		}
	}
	return ""
}
