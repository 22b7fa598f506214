package bringup

import (
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

func doctorOn(b *sim.Board, expected rules.CellSet) []Finding {
	o := DefaultDoctorOpts()
	o.Bus, o.Wiring, o.Cells, o.Expected = b.Bus, b.Wiring, st3d.System.Cells(), expected
	o.Devices = map[uint16]string{sim.LEDAddress: "LED driver"}
	o.Now = b.Clock.Now
	o.Wait = func(d time.Duration) { b.Clock.Advance(d) }
	return Doctor(o)
}

func problems(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Problem {
			out = append(out, f.Text)
		}
	}
	return out
}

// Each fault a builder meets, rehearsed on the simulated set: the doctor
// names it in one line, with what to do, and nothing else is a problem.
func TestDoctorFindsEachFault(t *testing.T) {
	start := st3d.System.Start().Occupancy()
	for _, tc := range []struct {
		name   string
		matrix bool
		fault  func(b *sim.Board)
		want   []string // one problem each, in order
	}{
		{"all well", false, func(*sim.Board) {}, nil},
		{"an expander missing", false, func(b *sim.Board) { b.Bus.Detach(0x22) },
			[]string{"expander 0x22 (MCP23017) does not answer", "16 cells cannot be read"}},
		{"a stuck switch", false, func(b *sim.Board) { b.Set.Stick("c5N") },
			[]string{"c5N closed where the position has no piece: a stuck reed switch"}},
		{"a piece missing", false, func(b *sim.Board) { b.Set.Lift("b2W") },
			[]string{"b2W open where the position has a piece"}},
		{"a short on an expander", false, func(b *sim.Board) { b.Expander(0x21).Shorted = 0xFFFF },
			[]string{"expander 0x21: all its inputs read closed: a short to ground"}},
		{"a slow bus", false, func(b *sim.Board) { b.Bus.SetMaxSpeed(100 * physic.KiloHertz) },
			[]string{"the bus fails at 400kHz but works at 100kHz"}},
		{"a chip not configured", false, func(b *sim.Board) { b.Bus.Attach(0x27, sim.NewMCP23017(0x27)) },
			[]string{"0x27 answers but is not configured"}},
		{"a matrix column shorted", true, func(b *sim.Board) { b.Expanders[0].Shorted = 1 << (8 + 2) },
			[]string{"column 2 (GPB2) reads all closed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := sets.NewReference()
			if tc.matrix {
				b = sets.NewMatrix(false)
			}
			tc.fault(b)
			got := problems(doctorOn(b, start))
			if len(got) != len(tc.want) {
				t.Fatalf("problems:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d: %q, want it to say %q", i+1, got[i], w)
				}
			}
		})
	}
}

// After a slow-bus finding the doctor has left the bus at the speed that
// works, so the switches it then read are right.
func TestDoctorSlowBusReadsAtTheSlowerSpeed(t *testing.T) {
	b := sets.NewReference()
	b.Bus.SetMaxSpeed(100 * physic.KiloHertz)
	doctorOn(b, st3d.System.Start().Occupancy())
	if got := b.Bus.Speed(); got != 100*physic.KiloHertz {
		t.Errorf("bus left at %s", got)
	}
}
