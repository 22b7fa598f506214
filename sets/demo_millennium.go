package sets

import (
	"strings"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/record"
)

// millenniumDemo is a published Millennium game (Davis - D'Agostino), in
// long form.
func millenniumDemo(sys rules.System) ([]string, error) {
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
