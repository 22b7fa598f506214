package systems_test

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/systems"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		variant, options, name, err string
	}{
		{"st3d", "", "st3d", ""},
		{"millennium", "", "millennium", ""},
		{"first-contact", "", "first-contact", ""},
		{"first-contact-up", "", "first-contact-up", ""},
		{"st3d", "V.A1,V.A2", "st3d+V.A1,V.A2", ""},
		{"chess", "", "", `unknown variant "chess"`},
		{"millennium", "V.A1", "", "variant millennium has no options"},
		{"st3d", "V.Z9", "", "V.Z9"},
	} {
		sys, err := systems.Lookup(tc.variant, tc.options)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Lookup(%q, %q) error = %v, want one containing %q", tc.variant, tc.options, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Lookup(%q, %q): %v", tc.variant, tc.options, err)
		}
		if sys.Name() != tc.name {
			t.Errorf("Lookup(%q, %q).Name() = %q, want %q", tc.variant, tc.options, sys.Name(), tc.name)
		}
		again, err := systems.ByName(sys.Name())
		if err != nil || again.Name() != sys.Name() {
			t.Errorf("ByName(%q) = %v, %v", sys.Name(), again, err)
		}
		v, o := systems.Split(sys)
		if v != tc.variant || o != tc.options {
			t.Errorf("Split(%q) = %q, %q", sys.Name(), v, o)
		}
	}
}

func TestNames(t *testing.T) {
	if got := strings.Join(systems.Names(), " "); got != "first-contact first-contact-up millennium st3d" {
		t.Errorf("Names() = %q", got)
	}
}
