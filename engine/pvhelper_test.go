package engine

import (
	"strings"

	"github.com/tridboard/tridboard/rules"
)

func pvLongT(p rules.Position, pv []rules.Move) string {
	var s []string
	for _, m := range pv {
		s = append(s, p.Long(m))
		p = p.Play(m)
	}
	return strings.Join(s, " ")
}
