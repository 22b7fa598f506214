package table_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/ledsink"
)

// newSystemRig is a table on the simulated set sys is played on (the
// Millennium set, First Contact's platforms with inverted contacts, the
// ST3D set), with its LEDs, in simulated time.
func newSystemRig(t testing.TB, sys rules.System, edit ...func(*table.Opts)) *rig {
	t.Helper()
	return newSystemRigWith(t, sys, nil, edit...)
}

// newSystemRigWith is newSystemRig with buttons wired on the set (names
// without "button:", as sensors.Preset takes them).
func newSystemRigWith(t testing.TB, sys rules.System, buttons []string, edit ...func(*table.Opts)) *rig {
	t.Helper()
	b, err := sets.Board(sys, buttons...)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, b: b, rec: &recorder{}, style: sim.PlainStyle}
	r.style.Pause = 120 * time.Millisecond
	m, layout, err := config.Default().LEDMapping(sys.Cells())
	if err != nil {
		t.Fatal(err)
	}
	drv, err := leds.NewDriver(m, b.Bus, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.leds = &ledShower{drv: drv, layout: layout, style: *m.StyleOf()}
	o := table.DefaultOpts()
	o.BoardID, o.StateDir, o.System = "rig", t.TempDir(), sys
	o.Bus, o.Wiring, o.Now, o.Log = b.Bus, b.Wiring, b.Clock.Now, quiet()
	o.Sinks = []table.Sink{r.rec, ledsink.New(r.leds, nil)}
	for _, e := range edit {
		e(&o)
	}
	r.opts = o
	r.open()
	return r
}

// playGame plays the moves (long forms) by hand and checks that each is
// recognized once, in order, and that the board is in sync after each.
func (r *rig) playGame(moves []string) {
	r.t.Helper()
	for i, long := range moves {
		before := r.tb.Snapshot().Expected
		m, _, err := before.ParseMove(long)
		if err != nil {
			r.t.Fatalf("%s: %v", long, err)
		}
		in := before.Info(m)
		var moved rules.CellSet
		for _, c := range []rules.Cell{in.From, in.To} {
			if c != rules.NoCell {
				moved.Add(c)
			}
		}
		r.play(long)
		if st := r.tb.Snapshot().Status; st.State == recognize.NeedsChoice {
			// A promotion or a placement: the players choose the piece (a
			// button, MQTT).
			piece := long[len(long)-1]
			if strings.Contains(long, "@") {
				piece = long[0]
			}
			if _, err := r.tb.Exec(table.Promote{Piece: piece}); err != nil {
				r.t.Fatalf("%s: choosing the piece: %v", long, err)
			}
			r.run(100 * time.Millisecond)
		}
		r.drain()
		got := r.rec.moves()
		if len(got) != i+1 || got[i] != long {
			st := r.tb.Snapshot().Status
			r.t.Fatalf("after %s (move %d) the table has %v; board %s %q choices %q", long, i+1, got, st.State, st.Instruction, st.Choices)
		}
		if st := r.tb.Snapshot().Status; st.State != recognize.InSync && st.State != recognize.NeedsChoice {
			r.t.Fatalf("after %s the board is %s (%s)", long, st.State, st.Instruction)
		}
		// The LEDs show the move just made: its from and to cells (the
		// pins of a board move, the cell of a placement).
		if v, want := r.leds.view(), moved; v.LastMove != want || want.Empty() {
			names := r.tb.Snapshot().Cells()
			r.t.Fatalf("after %s the LEDs' last move is %v, want %v", long, v.LastMove.Names(names), want.Names(names))
		}
	}
}

// The Davis - d'Agostino game (correspondence 2006, as Wikipedia publishes
// it), played to mate on the simulated Millennium set: 192 cells, three
// 8x8 diode matrices.
func TestMillenniumMasterGame(t *testing.T) {
	rec, err := record.Read(strings.NewReader(millennium.DavisDAgostino))
	if err != nil {
		t.Fatal(err)
	}
	sys, _ := systems.Lookup("millennium", "")
	pos := sys.Start()
	var long []string
	for _, tok := range rec.Moves {
		m, _, err := pos.ParseMove(tok)
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		long = append(long, pos.Long(m))
		pos = pos.Play(m)
	}
	r := newSystemRig(t, sys)
	r.playGame(long)
	snap := r.tb.Snapshot()
	if snap.Result != rules.BlackWins || snap.Reason != "checkmate" {
		t.Errorf("result %s (%s), want 0-1 by checkmate", snap.Result, snap.Reason)
	}
	if v := r.leds.view(); v.GameOver.Empty() {
		t.Error("the LEDs do not show the end of the game")
	}
}

// randomGame is a seeded random legal game of sys, to the end or n plies;
// half the time it prefers a move of one of the kinds wanted, so that the
// rarer kinds (board moves, turns) come up.
func randomGame(sys rules.System, seed int64, n int, want []string) []string {
	rng := rand.New(rand.NewSource(seed))
	pos := sys.Start()
	var out []string
	for len(out) < n && pos.Status() == rules.Ongoing {
		ms := pos.LegalMoves(nil)
		m := ms[rng.Intn(len(ms))]
		if rng.Intn(2) == 0 {
			var pref []rules.Move
			for _, c := range ms {
				for _, k := range moveKinds(pos, c) {
					if k != "move" && slices.Contains(want, k) {
						pref = append(pref, c)
						break
					}
				}
			}
			if len(pref) > 0 {
				m = pref[rng.Intn(len(pref))]
			}
		}
		out = append(out, pos.Long(m))
		pos = pos.Play(m)
	}
	return out
}

// moveKinds names what a move does on the set, for the cover check.
func moveKinds(pos rules.Position, m rules.Move) []string {
	in := pos.Info(m)
	var k []string
	switch {
	case in.From == rules.NoCell:
		k = append(k, "placement")
	case in.Board && in.From == in.To:
		k = append(k, "turn")
	case in.Board:
		k = append(k, "board move")
	}
	if in.Castle {
		k = append(k, "castling")
	}
	if in.Captured != rules.NoCell {
		k = append(k, "capture")
	}
	if in.Promotion {
		k = append(k, "promotion")
	}
	if len(k) == 0 {
		k = append(k, "move")
	}
	return k
}

// Random legal games of every system and option set the daemon plays,
// through the table on each system's simulated set, made by a hand with
// quirks (lift order of captures and castlings at random, slides across a
// neighbouring square, brief wrong placements, contact bounce): every move
// recognized once, in order, of every kind the game has.
func TestEverySystemThroughTheTable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plies int
		kinds []string // kinds of move the games must have played
	}{
		{"st3d", 60, []string{"move", "capture", "board move"}},
		{"millennium", 60, []string{"move", "capture"}},
		{"first-contact", 40, []string{"placement", "move"}},
		{"first-contact-up", 40, []string{"placement", "move"}},
		{"st3d+V.P6", 40, []string{"placement"}},
		{"st3d+V.A2", 60, []string{"turn"}},
		{"st3d+V.A3,V.A4", 60, []string{"board move"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := systems.ByName(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for seed := int64(1); seed <= 2; seed++ {
				game := randomGame(sys, seed, tc.plies, tc.kinds)
				pos := sys.Start()
				for _, long := range game {
					m, _, _ := pos.ParseMove(long)
					for _, k := range moveKinds(pos, m) {
						seen[k] = true
					}
					pos = pos.Play(m)
				}
				r := newSystemRig(t, sys)
				r.style.Rand = rand.New(rand.NewSource(seed))
				r.style.Quirks = true
				r.style.Brief = 30 * time.Millisecond
				r.playGame(game)
			}
			var missing []string
			for _, k := range tc.kinds {
				if !seen[k] {
					missing = append(missing, k)
				}
			}
			if len(missing) > 0 {
				var got []string
				for k := range seen {
					got = append(got, k)
				}
				slices.Sort(got)
				t.Errorf("the games played no %v (they played %v): choose other seeds", missing, got)
			}
		})
	}
}
