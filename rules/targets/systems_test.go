package targets_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/rules/targets"
)

// TestLiftedEverySystem: the targets of Lifted in each system: a lifted
// Millennium knight's 24-leap targets on every level (M5), First Contact's
// platforms (the positions a lifted platform may go to), and with nothing
// lifted the placements of a placement phase (V.P6's first bishop on the
// virtual rank, V.P5; First Contact's platforms on any of the 24 positions,
// then the king on a vacant cell of W).
func TestLiftedEverySystem(t *testing.T) {
	var knight []string
	seen := map[string]bool{}
	for _, d := range [][3]int{{1, 2, 0}, {2, 1, 0}, {1, 0, 2}, {2, 0, 1}, {0, 1, 2}, {0, 2, 1}} {
		for _, sf := range []int{1, -1} {
			for _, sr := range []int{1, -1} {
				for _, sl := range []int{1, -1} {
					f, r, l := 3+sf*d[0], 3+sr*d[1], 1+sl*d[2] // from 2d4
					sq := fmt.Sprintf("%d%c%d", l+1, 'a'+f, r+1)
					if f >= 0 && f < 8 && r >= 0 && r < 8 && l >= 0 && l < 3 && !seen[sq] {
						seen[sq] = true
						knight = append(knight, sq)
					}
				}
			}
		}
	}
	var positions, cellsW []string
	for _, side := range []string{"QL", "KL"} {
		for n := 1; n <= 6; n++ {
			positions = append(positions, fmt.Sprintf("%s%du", side, n), fmt.Sprintf("%s%dd", side, n))
		}
	}
	for _, f := range "abcd" {
		for r := 1; r <= 4; r++ {
			cellsW = append(cellsW, fmt.Sprintf("%c%dW", f, r))
		}
	}
	fcPlaced := "QL1u:-,QL3u:-,KL4u:-,KL6u:- Kb2W,kc7B w - - - 0 4 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -"
	for _, tc := range []struct {
		name, system, pos string
		lifted            []string
		targets, pins     []string
	}{
		{"millennium knight on every level", "millennium", "K1e1,N2d4,k3e8 w - - - 0 1", []string{"2d4"}, knight, nil},
		{"millennium start, nothing lifted", "millennium", "", nil, nil, nil},
		{"V.P6 first bishop", "st3d+V.P6", "", nil, strings.Fields("z0QL1 a0QL1 a1W b1W c1W d1W d0KL1 e0KL1"), nil},
		{"first contact platforms", "first-contact", "", nil, nil, positions},
		{"first contact up-only platforms", "first-contact-up", "", nil, nil, strings.Fields("QL1u QL2u QL3u QL4u QL5u QL6u KL1u KL2u KL3u KL4u KL5u KL6u")},
		{"first contact king placement", "first-contact", "QL1u:-,QL3u:-,KL4u:-,KL6u:- - w - - - 0 3 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -", nil, cellsW, nil},
		{"first contact play: no placement hints", "first-contact", fcPlaced, nil, nil, nil},
		{"first contact empty platform lifted: inversions", "first-contact", fcPlaced, []string{"QL3u"}, nil, strings.Fields("QL3d KL3d QL4d")},
	} {
		sys, err := systems.ByName(tc.system)
		if err != nil {
			t.Fatal(err)
		}
		p := sys.Start()
		if tc.pos != "" {
			if p, err = sys.ParsePosition(tc.pos); err != nil {
				t.Fatal(err)
			}
		}
		var lifted rules.CellSet
		for _, n := range tc.lifted {
			c, ok := rules.CellByName(sys, n)
			if !ok {
				t.Fatalf("%s: no cell %s", tc.name, n)
			}
			lifted.Add(c)
		}
		h, _ := targets.Lifted(p, lifted, nil)
		names := func(s rules.CellSet) string {
			n := s.Names(sys.Cells())
			sort.Strings(n)
			return strings.Join(n, " ")
		}
		sorted := func(s []string) string {
			s = append([]string(nil), s...)
			sort.Strings(s)
			return strings.Join(s, " ")
		}
		if got, want := names(h.Targets), sorted(tc.targets); got != want {
			t.Errorf("%s: targets %s, want %s", tc.name, got, want)
		}
		if got, want := names(h.Pins), sorted(tc.pins); got != want {
			t.Errorf("%s: pins %s, want %s", tc.name, got, want)
		}
	}
}

// TestPlacementsDuringPlay: on request, First Contact's introductions go to
// the vacant cells of the player's own level (White: W without its king on
// b2W); a system without placements has none.
func TestPlacementsDuringPlay(t *testing.T) {
	sys, _ := systems.ByName("first-contact")
	p, err := sys.ParsePosition("QL1u:-,QL3u:-,KL4u:-,KL6u:- Kb2W,kc7B w - - - 0 4 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := targets.Placements(p, nil)
	var want []string
	for _, f := range "abcd" {
		for r := 1; r <= 4; r++ {
			if c := fmt.Sprintf("%c%dW", f, r); c != "b2W" {
				want = append(want, c)
			}
		}
	}
	sort.Strings(want)
	got := h.Targets.Names(sys.Cells())
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") || !h.Pins.Empty() {
		t.Fatalf("introductions %v pins %v, want %v", got, h.Pins.Names(sys.Cells()), want)
	}
	m, _ := systems.ByName("millennium")
	if h, _ := targets.Placements(m.Start(), nil); !h.Targets.Empty() || !h.Pins.Empty() {
		t.Fatal("millennium has placements")
	}
}
