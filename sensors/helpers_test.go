package sensors_test

import (
	"github.com/tridboard/tridboard/rules/st3d"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sim"
)

// rig is a simulated board and a scanner on it, stepped in simulated time.
type rig struct {
	t     *testing.T
	board *sim.Board
	sc    *sensors.Scanner
}

func newRig(t *testing.T, b *sim.Board, opts *sensors.Opts) *rig {
	t.Helper()
	sc, err := sensors.New(b.Bus, b.Wiring, opts)
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, board: b, sc: sc}
}

// step advances the clock by d, scans, and returns the events as strings.
func (r *rig) step(d time.Duration) []string {
	r.board.Clock.Advance(d)
	r.sc.Scan(r.board.Clock.Now())
	var out []string
	for _, e := range r.sc.Events() {
		out = append(out, e.String())
	}
	return out
}

// settle scans every 5 ms for d and returns all events with their offsets.
func (r *rig) run(d time.Duration) []string {
	var out []string
	start := r.board.Clock.Now()
	for el := time.Duration(0); el < d; el += 5 * time.Millisecond {
		for _, e := range r.step(5 * time.Millisecond) {
			out = append(out, r.board.Clock.Now().Sub(start).String()+" "+e)
		}
	}
	return out
}

func (r *rig) do(err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatal(err)
	}
}

func closedNames(s sensors.Snapshot) string {
	n := s.Closed.Names(st3d.CellNames())
	sort.Strings(n)
	return strings.Join(n, " ")
}

func startNames() string {
	n := append([]string(nil), sim.StartCells...)
	sort.Strings(n)
	return strings.Join(n, " ")
}

func cellSet(names ...string) rules.CellSet {
	var s rules.CellSet
	for _, n := range names {
		for i, c := range st3d.CellNames() {
			if c == n {
				s.Add(rules.Cell(i))
			}
		}
	}
	return s
}
