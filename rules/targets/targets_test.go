package targets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/targets"
)

const (
	// rookPos: a white rook on b1W that can take a pawn on b3N.
	rookPos = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,kd9KL6,Rb1W,pb3N w - - - 0 1"
	// boardPos: as rookPos, with a white pawn on the QL1 board, which
	// can move to QL2 or QL3 carrying it.
	boardPos = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,kd9KL6,Rb1W,pb3N,Pz0QL1 w - - - 0 1"
	// checkPos: the black king on d9KL6 is in check from the rook on d8B.
	checkPos = "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,kd9KL6,Rd8B b - - - 0 1"
)

// names is the ST3D cell list.
var names = st3d.System.Cells()

// cells is the set of the named ST3D cells.
func cells(t testing.TB, list ...string) rules.CellSet {
	t.Helper()
	var s rules.CellSet
	for _, n := range list {
		i := slices.Index(names, n)
		if i < 0 {
			t.Fatalf("no cell %q", n)
		}
		s.Add(rules.Cell(i))
	}
	return s
}

// position parses an ST3D position string.
func position(t testing.TB, s string) rules.Position {
	t.Helper()
	p, err := st3d.System.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sameNames(got, want []string) bool {
	if len(got) == 0 && len(want) == 0 {
		return true
	}
	return slices.Equal(got, want)
}

// TestLiftedMatchesLongForms checks Lifted against the long forms of the
// legal moves ("b1W-b3N", "QL1-QL2"), for every occupied cell lifted alone.
func TestLiftedMatchesLongForms(t *testing.T) {
	for _, s := range []string{"", rookPos, boardPos, checkPos} {
		p := st3d.Start()
		if s != "" {
			p = position(t, s)
		}
		var buf []rules.Move
		occ := p.Occupancy()
		for _, c := range occ.Cells(nil) {
			want := map[string]bool{}
			for _, m := range p.LegalMoves(nil) {
				from, to, ok := strings.Cut(p.Long(m), "-")
				if ok && from == names[c] {
					want[to] = true
				}
			}
			var h targets.Set
			h, buf = targets.Lifted(p, rules.CellSetOf(c), buf)
			got := append(h.Targets.Names(names), h.Pins.Names(names)...)
			slices.Sort(got)
			var w []string
			for n := range want {
				w = append(w, n)
			}
			slices.Sort(w)
			if !sameNames(got, w) {
				t.Errorf("%q, lift %s: targets %v, long forms %v", s, names[c], got, w)
			}
			if !h.Captures.Minus(h.Targets).Empty() {
				t.Errorf("%q, lift %s: captures %v not among the targets", s, names[c], h.Captures.Names(names))
			}
		}
	}
}

func TestMoveCells(t *testing.T) {
	p := position(t, boardPos)
	for _, tc := range []struct{ move, from, to string }{{"b1W-b3N", "b1W", "b3N"}, {"QL1-QL3", "QL1", "QL3"}} {
		m, _, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := targets.MoveCells(p, m), cells(t, tc.from, tc.to); got != want {
			t.Errorf("%s: %v", tc.move, got.Names(names))
		}
	}
}
