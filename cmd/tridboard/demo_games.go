package main

import (
	"context"
	"strings"

	"github.com/tridboard/tridboard/engine"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/systems"
)

// davisDAgostino is George Davis v. William d'Agostino, correspondence
// 2006, a published Millennium game that ends in mate, as Wikipedia
// writes it.
const davisDAgostino = `[Event "corr."]
[White "George Davis"]
[Black "William d'Agostino"]

1. ♘2g3 ♝2b7 2. ♗3e3 ♞3c6 3. ♘2b3 ♝2g7 4. ♘2a5 ♛1b6 5. ♘3c5 ♛×1b2 6. ♘×3b7 ♛3b4
7. ♘3c5 ♛3e1+ 8. ♕2e1 ♛3c3+ 9. ♔2f1 ♛×1a1 10. ♕2c1 ♝2a6+ 11. 2e2 ♛×1a2 12. ♘2c7
♜2h7 13. ♘1e7+ ♚2e8 14. ♘1c6 ♜1c8 15. ♘×3c7 ♜×1c2 16. ♕2c7 ♛2b1+ 17. ♔1g1 ♞3e5
18. ♕1d7+ ♚2f8 19. ♗2f4 ♛2d1 20. ♗×3e5 ♛3e1+ 21. ♔2g1 ♛×3e5 22. ♕2e7+ ♚1g7
23. ♕×3d7 ♝2d4+ 24. 2e3 ♜2c1+ 25. ♔1g1 ♛3g3+ 26. 2g2 ♜2f1+ 27. ♘×2f1 ♝3e3+
28. 2f2 ♛×2f2# 0–1
`

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
		rec, err := record.Read(strings.NewReader(davisDAgostino))
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
