package sets_test

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sets"
)

// Every registered system has a kit whose first preset wires all its
// cells, and a demo game that is legal from its start.
func TestEverySystemHasAKit(t *testing.T) {
	for _, sys := range systems.All() {
		k, ok := sets.Find(sys.Name())
		if !ok {
			t.Errorf("%s: no kit", sys.Name())
			continue
		}
		w, err := sets.Preset(k.Presets[0].Name)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Validate(sys.Cells()); err != nil {
			t.Errorf("%s's set %s: %v", sys.Name(), k.Presets[0].Name, err)
		}
	}
	for _, name := range []string{"st3d", "millennium"} {
		sys, _ := systems.ByName(name)
		moves, err := sets.DemoMoves(sys)
		if err != nil || len(moves) < 14 {
			t.Fatalf("%s's demo: %d moves, %v", name, len(moves), err)
		}
		pos := sys.Start()
		for _, long := range moves {
			m, _, err := pos.ParseMove(long)
			if err != nil {
				t.Fatalf("%s's demo: %s: %v", name, long, err)
			}
			pos = pos.Play(m)
		}
	}
}

// Registering a kit for a system the registry does not know, a second kit
// for a system or a preset name another kit has is the program's mistake:
// Register panics with what is wrong.
func TestRegisterRefusesMistakes(t *testing.T) {
	for _, tc := range []struct {
		k    sets.Kit
		want string
	}{
		{sets.Kit{System: "chess"}, `no system "chess"`},
		{sets.Kit{System: "st3d"}, "it has a kit"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), tc.want) {
					t.Errorf("Register(%s): %v, want a panic saying %q", tc.k.System, r, tc.want)
				}
			}()
			sets.Register(tc.k)
		}()
	}
}
