package main

import (
	"context"
	"strings"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/systems"
)

// demoLevel is the engine level (an index of engine.Levels: 25,000 nodes)
// of the demo's games of the other systems.
const demoLevel = 4

// demoMoves is the game the demo plays for sys, in long form: the built-in
// ST3D game, a published Millennium game, and for the other systems a game
// the engine plays against itself (seeded, so the same every time), to its
// end or 60 moves (First Contact: to its end).
func demoMoves(sys rules.System) ([]string, error) {
	switch sys.Name() {
	case "st3d":
		return st3dDemo, nil
	case "millennium":
		rec, err := record.Read(strings.NewReader(millennium.DavisDAgostino))
		if err != nil {
			return nil, err
		}
		pos := sys.Start()
		var out []string
		for _, tok := range rec.Moves {
			m, _, err := pos.ParseMove(tok)
			if err != nil {
				return nil, err
			}
			out = append(out, pos.Long(m))
			pos = pos.Play(m)
		}
		return out, nil
	}
	// First Contact's games are short (check wins): play them to the end.
	plies := 60
	if v, _ := systems.Split(sys); strings.HasPrefix(v, "first-contact") {
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
