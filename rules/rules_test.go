package rules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
)

// TestParseColor: a side reads back as Color.String writes it; anything
// else is refused with the word named.
func TestParseColor(t *testing.T) {
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if got, err := rules.ParseColor(c.String()); got != c || err != nil {
			t.Errorf("ParseColor(%q) = %v, %v", c.String(), got, err)
		}
	}
	for _, s := range []string{"", "White", "w", "b", "blacks"} {
		if _, err := rules.ParseColor(s); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("side %q", s)) {
			t.Errorf("ParseColor(%q): error %v, want one naming it", s, err)
		}
	}
}
