package table

import (
	"slices"
	"testing"
)

// The button panel (issue 38): each wired button gets its meaning by name
// (none: it does nothing but is seen pressed), a kind is wired or not, and
// a reading gives the buttons pressed since the one before: a button held
// down is pressed once, and pressed again only after a release.
func TestButtonPanel(t *testing.T) {
	var p buttonPanel
	p.wire([]string{"button:clock_white", "button:spare", "button:queen"}, map[string]Button{
		"button:clock_white": {Kind: ButtonClockWhite},
		"button:queen":       {Kind: ButtonPromote, Piece: 'Q'},
	})
	if want := []Button{{Kind: ButtonClockWhite}, {}, {Kind: ButtonPromote, Piece: 'Q'}}; !slices.Equal(p.kinds, want) {
		t.Fatalf("kinds %v, want %v", p.kinds, want)
	}
	for _, tc := range []struct {
		kinds []ButtonKind
		want  bool
	}{
		{[]ButtonKind{ButtonClockWhite, ButtonClockBlack}, true},
		{[]ButtonKind{ButtonClockBlack}, false},
		{[]ButtonKind{ButtonPromote}, true},
		{[]ButtonKind{ButtonHint, ButtonNewGame}, false},
		{nil, false},
	} {
		if got := p.has(tc.kinds...); got != tc.want {
			t.Errorf("has(%v) = %v, want %v", tc.kinds, got, tc.want)
		}
	}
	for i, step := range []struct{ reading, pressed uint64 }{
		{0b000, 0},
		{0b001, 0b001}, // clock_white down
		{0b001, 0},     // held: not again
		{0b101, 0b100}, // queen down too
		{0b100, 0},     // clock_white up
		{0b101, 0b001}, // and down again: a second press
		{0b000, 0},
	} {
		if got := p.press(step.reading); got != step.pressed {
			t.Errorf("reading %d (%03b): pressed %03b, want %03b", i, step.reading, got, step.pressed)
		}
	}
	// Wired again (a new scanner for another system): the meanings are
	// replaced, not added to.
	p.wire([]string{"button:queen"}, map[string]Button{"button:queen": {Kind: ButtonPromote, Piece: 'Q'}})
	if len(p.kinds) != 1 || p.has(ButtonClockWhite) {
		t.Errorf("wired again: kinds %v", p.kinds)
	}
}
