package engine

import "github.com/tridboard/tridboard/rules"

// Bound kinds of a table entry.
const (
	boundUpper uint8 = 1 + iota // the score is at most the stored one
	boundLower                  // at least
	boundExact
)

type entry struct {
	key   uint64
	move  rules.Move
	score Score
	depth int8
	bound uint8
}

// table is the transposition table: one entry per slot, replaced when the
// new entry is for another position or searched at least as deep.
type table struct {
	e    []entry
	mask uint64
}

func newTable(entries int) *table {
	n := 1
	for n < entries {
		n <<= 1
	}
	return &table{e: make([]entry, n), mask: uint64(n - 1)}
}

func (t *table) probe(key uint64) (entry, bool) {
	e := t.e[key&t.mask]
	return e, e.key == key && e.bound != 0
}

func (t *table) store(key uint64, m rules.Move, s Score, depth int, bound uint8, ply int) {
	e := &t.e[key&t.mask]
	if e.key == key && int(e.depth) > depth && bound != boundExact {
		return
	}
	*e = entry{key: key, move: m, score: toTable(s, ply), depth: int8(depth), bound: bound}
}

// toTable and fromTable make mate scores relative to the stored position,
// so that an entry found at another ply gives the right distance.
func toTable(s Score, ply int) Score {
	switch {
	case s > mateBound:
		return s + Score(ply)
	case s < -mateBound:
		return s - Score(ply)
	}
	return s
}

func fromTable(s Score, ply int) Score {
	switch {
	case s > mateBound:
		return s - Score(ply)
	case s < -mateBound:
		return s + Score(ply)
	}
	return s
}
