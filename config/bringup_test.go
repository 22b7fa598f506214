package config

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/millennium"
)

// A file with nothing to say (empty, comments, a bare document) is the
// defaults, as the README promises.
func TestEmptyConfigIsTheDefaults(t *testing.T) {
	for _, text := range []string{"", "# a comment\n", "---\n# c\n", "null\n"} {
		c, err := Parse("empty.yaml", []byte(text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if c.Variant != "st3d" || c.Sensors.Preset != "reference" || c.MQTT.Prefix != "tridboard" {
			t.Errorf("%q: not the defaults: variant %q preset %q", text, c.Variant, c.Sensors.Preset)
		}
	}
}

// variant: millennium alone senses the Millennium set (its default preset);
// a preset named for another set is refused in one plain line that says
// which preset to use.
func TestVariantChoosesItsSetsWiring(t *testing.T) {
	cells := millennium.System.Cells()
	c, err := Parse("m.yaml", []byte("variant: millennium\n"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Wiring(cells)
	if err != nil {
		t.Fatalf("variant: millennium alone: %v", err)
	}
	if n := len(w.Expanders); n != 3 {
		t.Errorf("millennium-matrix has 3 expanders, got %d", n)
	}
	c, err = Decode("m.yaml", []byte("variant: millennium\nsensors:\n  preset: reference\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate(cells)
	if err == nil {
		t.Fatal("the ST3D preset passed for the Millennium set")
	}
	msg := err.Error()
	if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, "m.yaml:3: sensors.preset") ||
		!strings.Contains(msg, "sensors.preset: millennium-matrix") || len(msg) > 400 {
		t.Errorf("want one line naming the key, its line and the preset to use; got %d bytes:\n%s", len(msg), msg)
	}
}
