package firstcontact

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

func TestNotation(t *testing.T) {
	const kings = "QL3u:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B"
	for _, tc := range []struct {
		name, pos, long, short string
	}{
		{"platform placement", StartString, "@QL3u", "@QL3u"},
		{"king placement", perftTable[2].pos, "K@c1W", "K@c1W"},
		{"introduction", far + " Pb3W,Kc1W,pc4W,kb8B w - - - 5 10 N/- -", "N@a1W", "N@a1W"},
		{"black introduction, upper-case letter", far + " Kc1W,kb8B b - - - 0 10 -/n -", "N@c6B", "N@c6B"},
		{"pawn step", far + " Pb3W,Kc1W,pc4W,kb8B w - - - 5 10 N/- -", "b3W-b4W", "b4W"},
		{"pawn capture names the file", far + " Pb3W,Kc1W,pc4W,kb8B w - - - 5 10 N/- -", "b3W-c4W", "bxc4W"},
		{"king", far + " Pb3W,Kc1W,pc4W,kb8B w - - - 5 10 N/- -", "c1W-d1W", "Kd1W"},
		{"onto a platform", "QL1u:-,QL3d:-,KL5u:-,KL6u:- Ka1W,kd8B w - - - 0 10 -/- -", "a1W-z2QL3d", "Kz2QL3d"},
		{"knights by file", kings + ",Na1W,Nc1W w - - - 0 10 -/- -", "a1W-b3W", "Nab3W"},
		{"knights by rank", kings + ",Na1W,Na3W w - - - 0 10 -/- -", "a3W-c2W", "N3c2W"},
		{"rooks by level", "QL3d:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B,Ra3W,Ra3N w - - - 0 10 -/- -", "a3N-a3QL3d", "RNa3QL3d"},
		{"rooks by platform level", "QL3d:-,QL3u:-,KL2u:-,KL6u:- Kd1W,kd8B,Ra3QL3d,Ra3QL3u w - - - 0 10 -/- -", "a3QL3u-a3N", "RQL3ua3N"},
		{"platform move by arrival", perftTable[4].pos, "QL2u-QL2d", "QL2d"},
		{"platform move, two could go there", perftTable[4].pos, "KL1u-KL2d", "KL1u-KL2d"},
		{"platform move with a pawn", kings + ",Pa2QL3u w - - - 0 10 -/- -", "QL3u-QL5u", "QL5u"},
		{"a platform move that gives check wins", perftTable[12].pos, "QL1u-QL2u", "QL2u#"},
		{"a capture that gives check wins", perftTable[8].pos, "a2W-a4W", "Rxa4W#"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		m, _, err := p.ParseMove(tc.long)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := p.Long(m); got != tc.long {
			t.Errorf("%s: Long = %q, want %q", tc.name, got, tc.long)
		}
		if got := p.Short(m); got != tc.short {
			t.Errorf("%s: Short(%s) = %q, want %q", tc.name, tc.long, got, tc.short)
		}
		back, note, err := p.ParseMove(tc.short)
		if err != nil || back != m || note != "" {
			t.Errorf("%s: ParseMove(%q) = %s, %q, %v; want %s", tc.name, tc.short, p.Long(back), note, err, tc.long)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "QL3u:-,KL1u:-,KL2u:-,KL6u:- Kd1W,kd8B,Na1W,Na3W w - - - 0 10 RP/- -")
	for _, tc := range []struct{ in, want string }{
		{"", "empty move"},
		{"  #", "empty move"},
		{"a1W-a2W", "not legal"},
		{"a1W-b0W", "not a square"},
		{"Nc2W", "ambiguous: a1W-c2W, a3W-c2W"},
		{"Qc2W", "not legal"},
		{"@QL3u", "not legal"}, // the placement phase is over
		{"@QL9u", "not a platform position"},
		{"Z@b2W", "not a piece letter"},
		{"NN@b2W", "not a piece letter"},
		{"N@b9W", "not a square"},
		{"Q@b2W", "not legal"}, // not in reserve
		{"R@b5B", "not legal"}, // not White's level
		{"QL3u-QL9u", "not a platform position"},
		{"QL3u-QL5u", "not legal"}, // empty: it may only invert
		{"hello", "no arrival square"},
		{"zzb3W", "cannot read"},
	} {
		if _, _, err := p.ParseMove(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) err = %v, want %q", tc.in, err, tc.want)
		}
	}
	// Long forms with a piece letter, "x" and marks are read too.
	for _, in := range []string{"Na1W-b3W", "a1W-b3W!", "Nab3W+", "a1W-xb3W"} {
		if _, _, err := p.ParseMove(in); err != nil {
			t.Errorf("ParseMove(%q): %v", in, err)
		}
	}
}

// TestNotationRoundTrip writes the short form (and the long form) of every
// legal move along random games (the full set and the upright-only one)
// and in crowded random positions and reads each back: the same move, no
// error, no note. -rulestest.roundtrip N scales it up.
func TestNotationRoundTrip(t *testing.T) {
	games, crowded := rulestest.Scale(3), rulestest.Scale(300)
	rng := rulestest.Rand(8)
	moves := 0
	for _, sys := range []rules.System{System, UpOnly} {
		moves += rulestest.RoundTripGames(t, sys.Start(), rng, games, 120)
	}
	for i := 0; i < crowded; i++ {
		p := randomPosition(rng, i%4 == 0)
		moves += rulestest.CheckRoundTrip(t, &p)
	}
	t.Logf("%d legal moves written and read back (%d crowded positions, %d games)", moves, crowded, 2*games)
}

// TestPawnDisambiguation: a pawn's departure starts with its file, so that
// it is read neither as a knight or bishop move (levels N and B) nor as a
// platform move (a platform position); the two positions.
func TestPawnDisambiguation(t *testing.T) {
	for _, tc := range []struct{ pos, long, short string }{
		{"QL6u:-,KL1d:-,KL3d:-,KL6d:- Pd3W,Nb3N,Pd3N,kb7B,Kd1KL1d w - - - 4 90 -/pp KL3d", "d3N-d3KL3d", "dNd3KL3d"},
		{"QL6u:-,KL1d:-,KL3d:-,KL6d:- Pd3W,Nb3N,Pd3N,kb7B,Kd1KL1d w - - - 4 90 -/pp KL3d", "d3W-d3KL3d", "dWd3KL3d"},
		{"QL6u:-,KL1d:-,KL3d:-,KL6d:- Pd3W,Nb3N,Pd3N,kb7B,Kd1KL1d w - - - 4 90 -/pp KL3d", "b3N-d3KL3d", "Nd3KL3d"},
		{"QL5d:-,KL1d:-,KL3d:-,KL6d:- Kd2W,Pc3W,Pd4W,Pd3KL3d,kd9KL6d w - - - 1 83 -/- KL1d", "d3KL3d-d3W", "d3d3W"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		rulestest.CheckShort(t, tc.long, p, tc.long, tc.short)
	}
	// Records written before this rule named the platform first; they read.
	p := rulestest.MustParse(t, Parse, "QL5d:-,KL1d:-,KL3d:-,KL6d:- Kd2W,Pc3W,Pd4W,Pd3KL3d,kd9KL6d w - - - 1 83 -/- KL1d")
	if m, _, err := p.ParseMove("KL3dd3W"); err != nil || p.Long(m) != "d3KL3d-d3W" {
		t.Errorf("KL3dd3W read as %s, %v", p.Long(m), err)
	}
}

// TestParseMoveAsPasted: any dash, "×", assessments and NAGs.
func TestParseMoveAsPasted(t *testing.T) {
	const pos = "QL6u:-,KL1d:-,KL3d:-,KL6d:- Pd3W,Nb3N,Pd3N,kb7B,Kd1KL1d,pc4N,pc5N w - - - 4 90 -/p KL3d"
	p := rulestest.MustParse(t, Parse, pos)
	for _, tc := range []struct{ in, long string }{
		{"d3N–d4N", "d3N-d4N"}, {"N×c5N", "b3N-c5N"}, {"dN×c4N#", "d3N-c4N"}, {"Nxc5N!? $3", "b3N-c5N"},
		{"dNd3KL3d ?!", "d3N-d3KL3d"}, {"d3W—d3KL3d", "d3W-d3KL3d"},
	} {
		rulestest.CheckReads(t, p, tc.in, tc.long)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"@QL3u", "K@c1W", "N@b2W", "b2W-b3W", "QL3u-QL5u", "QL5u", "Nab3W", "RQL3ua3N", "bxc4W", "a2QL3u", "x", "@", "-", "QL", "dNd3KL3d", "KL3dd3W", "N×b3W", "QL3u–QL5u"} {
		f.Add(s)
	}
	positions := []*Position{}
	for _, tc := range perftTable {
		if !tc.up {
			positions = append(positions, rulestest.MustParse(f, Parse, tc.pos))
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, _, err := p.ParseMove(s)
			if err != nil {
				continue
			}
			for _, form := range []string{p.Long(m), p.Short(m)} {
				if back, _, err := p.ParseMove(form); err != nil || back != m {
					t.Fatalf("%s: %q read as %s, whose form %q reads back as %v, %v", p, s, p.Long(m), form, back, err)
				}
			}
		}
	})
}
