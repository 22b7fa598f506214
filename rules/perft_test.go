package rules_test

import (
	"fmt"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// plain hides a system's fast Perft, so rules.Perft plays through the
// Position interface.
type plain struct{ rules.Position }

func (p plain) Play(m rules.Move) rules.Position { return plain{p.Position.Play(m)} }

// TestPerft: rules.Perft counts st3d's start (docs/rules.md, "Perft")
// through the system's Walk and, the same, through the Position interface.
func TestPerft(t *testing.T) {
	start := st3d.System.Start()
	for depth, want := range []uint64{1, 20, 400, 9128} {
		if got := rules.Perft(start, depth); got != want {
			t.Errorf("perft(%d) = %d, want %d", depth, got, want)
		}
		if got := rules.Perft(plain{start}, depth); got != want {
			t.Errorf("perft(%d) through the interface = %d, want %d", depth, got, want)
		}
	}
}

// TestDivide: one entry a root move, in LegalMoves' order, adding up to
// Perft; depth 0 has no moves.
func TestDivide(t *testing.T) {
	start := st3d.System.Start()
	if got := rules.Divide(start, 0); len(got) != 0 {
		t.Errorf("divide(0) = %v, want none", got)
	}
	moves := start.LegalMoves(nil)
	got := rules.Divide(start, 3)
	if len(got) != len(moves) {
		t.Fatalf("divide(3) has %d entries, want %d", len(got), len(moves))
	}
	var total uint64
	for i, e := range got {
		if e.Move != start.Long(moves[i]) {
			t.Errorf("entry %d is %s, want %s", i, e.Move, start.Long(moves[i]))
		}
		total += e.Nodes
	}
	if total != 9128 {
		t.Errorf("divide(3) adds up to %d, want 9128", total)
	}
}

// Perft counts any system's move tree through rules.Position.
func ExamplePerft() {
	fmt.Println(rules.Perft(st3d.System.Start(), 2))
	// Output: 400
}
