package st3d

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// roundTripOptions are the option sets the notation round trip covers:
// the tournament rules and every option that adds or changes moves.
var roundTripOptions = []string{"", "V.A1", "V.A2", "V.A2.1", "V.A2,V.A2.1", "V.A1,V.A2,V.A3", "V.A3", "V.A3:6", "V.A4", "V.A5", "V.A2.1,V.A5",
	"V.A2,V.A5", "V.A2,V.A3,V.A4", "V.P1", "V.P2", "V.P5:0", "V.P5:409", "V.P5:777", "V.P6"}

// crowdedPosition is a random position of many pieces of each kind on four
// to six boards, so that many moves need a disambiguation; ok is false
// when the string drawn is no legal position (Parse refuses it).
func crowdedPosition(rng *rand.Rand, o Options) (p Position, ok bool) {
	pins := rng.Perm(NumPins)[:4+rng.Intn(3)]
	var boards, pieces, ds, ep []string
	squares := rng.Perm(48) // the main boards
	for _, q := range pins {
		owner := string("wb"[rng.Intn(2)])
		if o.Neutral && rng.Intn(4) == 0 {
			owner = "n"
		}
		boards = append(boards, Pin(q).String()+":"+owner)
		for _, s := range Pin(q).Squares() {
			squares = append(squares, int(s))
		}
	}
	rng.Shuffle(len(squares), func(i, j int) { squares[i], squares[j] = squares[j], squares[i] })
	side := rules.Color(rng.Intn(2))
	for c := rules.White; c <= rules.Black; c++ {
		kinds := "K" + strings.Repeat("Q", rng.Intn(2)) + strings.Repeat("R", rng.Intn(3)) +
			strings.Repeat("B", rng.Intn(4)) + strings.Repeat("N", rng.Intn(4)) + strings.Repeat("P", 3+rng.Intn(8))
		for _, k := range kinds {
			if len(squares) == 0 {
				break
			}
			sq := Square(squares[0]).String()
			squares = squares[1:]
			letter := string(k)
			if c == rules.Black {
				letter = strings.ToLower(letter)
			}
			pieces = append(pieces, letter+sq)
			if k == 'P' && rng.Intn(2) == 0 {
				ds = append(ds, sq)
			}
			if k == 'P' && c != side && rng.Intn(6) == 0 {
				ep = append(ep, sq)
			}
		}
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return "-"
		}
		return strings.Join(l, ",")
	}
	epField := "-"
	if len(ep) > 0 {
		epField = ep[0]
	}
	for _, try := range [][2]string{{epField, list(ds)}, {"-", list(ds)}, {"-", "-"}} {
		s := list(boards) + " " + list(pieces) + " " + string("wb"[side]) + " - " + try[0] + " " + try[1] + " 0 20"
		if p, err := ParseWith(s, o); err == nil {
			return p, true
		}
	}
	return Position{}, false
}

// checkMarks checks that the short form of every legal move of p ends
// in "#" exactly when it mates and in "+" when it checks otherwise.
func checkMarks(t *testing.T, p *Position) {
	t.Helper()
	for _, m := range p.LegalMoves(nil) {
		after := p.Play(m)
		short := p.Short(m)
		check, _ := after.InCheck()
		mate := after.Status() == rules.Checkmate
		if strings.HasSuffix(short, "#") != mate || strings.HasSuffix(short, "+") != (check && !mate) {
			t.Fatalf("%s: %s written %q; check %v, mate %v", p, p.Long(m), short, check, mate)
		}
	}
}

// TestNotationRoundTrip writes the short form (and the long form) of every
// legal move along random games and in crowded random positions, under
// the tournament rules and every option set, and reads each back: the same
// move, no error, no note. -rulestest.roundtrip N scales it up.
func TestNotationRoundTrip(t *testing.T) {
	games, crowded := rulestest.Scale(2), rulestest.Scale(40)
	moves, positions := 0, 0
	for i, opts := range roundTripOptions {
		o := mustOptions(t, opts)
		start, err := StartWith(o)
		if err != nil {
			t.Fatal(err)
		}
		rng := rulestest.Rand(int64(100 + i))
		moves += rulestest.RoundTripGames(t, &start, rng, games, 120)
		for n := 0; n < crowded; {
			if p, ok := crowdedPosition(rng, o); ok {
				moves += rulestest.CheckRoundTrip(t, &p)
				checkMarks(t, &p)
				positions++
				n++
			}
		}
	}
	t.Logf("%d legal moves written and read back (%d crowded positions, %d games of %d option sets)",
		moves, positions, games*len(roundTripOptions), len(roundTripOptions))
}

// FuzzReplayRecord reads a record as `tridboard replay` does and plays its
// moves: nothing panics, and whatever is played reads back from its short
// form.
func FuzzReplayRecord(f *testing.F) {
	f.Add("1. b3W d6B 2. Nc6B!? (2. QL3) $1 Nc6B ½–½")
	f.Add("[Position \"QL1:w,QL6:b,KL1:w,KL3:w Ka1W,Pd1W,pe1KL1,kd3N w - e1KL1 - 0 30\"]\n30. dWxe2KL3 e.p.+ 1–0")
	f.Add("1. b2W–b4N {c} d7B—d5B ; x\n2. O-O 0–1")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := record.Read(strings.NewReader(text))
		if err != nil {
			return
		}
		var start rules.Position = System.Start()
		if fen := rec.Tag("Position"); fen != "" {
			if start, err = System.ParsePosition(fen); err != nil {
				return
			}
		}
		g := rules.NewGame(start)
		for _, mv := range rec.Moves {
			p := g.Position()
			m, _, err := g.PlayNotation(mv)
			if err != nil {
				return
			}
			if back, _, err := p.ParseMove(p.Short(m)); err != nil || back != m {
				t.Fatalf("%s: %q played as %s, whose short form %q reads back as %v", p, mv, p.Long(m), p.Short(m), err)
			}
		}
	})
}
