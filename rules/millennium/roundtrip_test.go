package millennium

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// crowdedPosition is a random position with many pieces of each kind, so
// that many moves need a disambiguation (two pawns of one file on
// different levels included); ok is false when the string drawn is no
// legal position.
func crowdedPosition(rng *rand.Rand) (p Position, ok bool) {
	squares := rng.Perm(NumSquares)
	side := rules.Color(rng.Intn(2))
	var pieces, ds []string
	ep := "-"
	for c := rules.White; c <= rules.Black; c++ {
		kinds := "K" + strings.Repeat("Q", rng.Intn(3)) + strings.Repeat("R", rng.Intn(4)) +
			strings.Repeat("B", rng.Intn(4)) + strings.Repeat("N", rng.Intn(4)) + strings.Repeat("P", 4+rng.Intn(12))
		for _, k := range kinds {
			sq := Square(squares[0])
			squares = squares[1:]
			letter := string(k)
			if c == rules.Black {
				letter = strings.ToLower(letter)
			}
			pieces = append(pieces, letter+sq.String())
			if k == 'P' && rng.Intn(3) == 0 {
				ds = append(ds, sq.String())
			}
			if k == 'P' && c != side && ep == "-" && rng.Intn(4) == 0 {
				// The cell a two-step forward passed through.
				if r := sq.Rank() - 1 + 2*int(c); r >= 0 && r < NumRanks {
					ep = SquareAt(sq.Level(), r, sq.File()).String()
				}
			}
		}
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return "-"
		}
		return strings.Join(l, ",")
	}
	for _, try := range [][2]string{{ep, list(ds)}, {"-", list(ds)}, {"-", "-"}} {
		s := list(pieces) + " " + string("wb"[side]) + " - " + try[0] + " " + try[1] + " 0 20"
		if p, err := Parse(s); err == nil {
			return p, true
		}
	}
	return Position{}, false
}

// TestNotationRoundTrip writes the short form (and the long form) of every
// legal move along random games and in crowded random positions and reads
// each back: the same move, no error, no note. -rulestest.roundtrip N
// scales it up.
func TestNotationRoundTrip(t *testing.T) {
	games, crowded := rulestest.Scale(4), rulestest.Scale(100)
	rng := rulestest.Rand(5)
	moves := 0
	for _, start := range []string{StartString, perftTable[1].pos, perftTable[4].pos, perftTable[6].pos} {
		moves += rulestest.RoundTripGames(t, rulestest.MustParse(t, Parse, start), rng, games, 100)
	}
	for n := 0; n < crowded; {
		if p, ok := crowdedPosition(rng); ok {
			moves += rulestest.CheckRoundTrip(t, &p)
			n++
		}
	}
	t.Logf("%d legal moves written and read back (%d crowded positions, %d games)", moves, crowded, 4*games)
}
