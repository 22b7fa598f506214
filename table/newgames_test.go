package table_test

import (
	"testing"

	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/table"
)

// Opts.NewGames (the setup page's rules) is the system of a new game that
// names none; a game that names its rules keeps them; without NewGames a
// new game keeps the current game's rules.
func TestNewGamesRules(t *testing.T) {
	peters, err := systems.Lookup("st3d", "V.A1")
	if err != nil {
		t.Fatal(err)
	}
	trylch, _ := systems.Lookup("st3d", "V.P1")
	for _, c := range []struct {
		name     string
		newGames bool
		cmd      table.NewGame
		want     string
	}{
		{"none named, NewGames set", true, table.NewGame{}, "st3d+V.A1"},
		{"named, NewGames set", true, table.NewGame{System: trylch}, "st3d+V.P1"},
		{"none named, no NewGames", false, table.NewGame{}, "st3d"},
	} {
		r := newRig(t, func(o *table.Opts) {
			if c.newGames {
				o.NewGames = peters
			}
		})
		if got := r.tb.Snapshot().System.Name(); got != "st3d" {
			t.Fatalf("%s: the first game is %s", c.name, got)
		}
		if _, err := r.tb.Exec(c.cmd); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := r.tb.Snapshot().System.Name(); got != c.want {
			t.Errorf("%s: the new game is %s, want %s", c.name, got, c.want)
		}
	}
}
