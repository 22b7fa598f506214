package systems_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// Every system's position is a rules.Maker: a clone is the same position
// and does not share the original's state, CopyFrom makes a copy, and
// Make plays in place what Play returns.
func TestEverySystemIsAMaker(t *testing.T) {
	for _, sys := range systems.All() {
		rng := rand.New(rand.NewPCG(3, 5))
		pos := sys.Start()
		m, ok := pos.(rules.Maker)
		if !ok {
			t.Fatalf("%s: its position is no rules.Maker", sys.Name())
		}
		scratch := m.Clone()
		for ply := 0; ply < 40; ply++ {
			moves := m.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			mv := moves[rng.IntN(len(moves))]
			want := m.Play(mv).String()
			c := m.Clone()
			c.Make(mv)
			scratch.CopyFrom(m)
			scratch.Make(mv)
			if c.String() != want || scratch.String() != want {
				t.Fatalf("%s %q: %s: Play %q, Clone+Make %q, CopyFrom+Make %q", sys.Name(), m, m.Long(mv), want, c, scratch)
			}
			before := m.String()
			if next := c.LegalMoves(nil); len(next) > 0 {
				c.Make(next[0])
			}
			if m.String() != before {
				t.Fatalf("%s: a move on the clone changed the original", sys.Name())
			}
			m = m.Play(mv).(rules.Maker)
		}
	}
}
