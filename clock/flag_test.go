package clock

import (
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

func position(t *testing.T, system, pos string) rules.Position {
	t.Helper()
	sys, err := systems.ByName(system)
	if err != nil {
		t.Fatal(err)
	}
	if pos == "" {
		return sys.Start()
	}
	p, err := sys.ParsePosition(pos)
	if err != nil {
		t.Fatalf("%s %q: %v", system, pos, err)
	}
	return p
}

// flagCase is a flag in a position and the result FlagResult must give.
type flagCase struct {
	name, system, pos string
	flagged           rules.Color
	want              rules.Result
}

func checkFlagResults(t *testing.T, cases []flagCase) {
	t.Helper()
	for _, tc := range cases {
		pos := position(t, tc.system, tc.pos)
		if got := FlagResult(pos, tc.flagged, nil); got != tc.want {
			t.Errorf("%s: %s flagged in %q (%s): %s, want %s", tc.name, tc.flagged, pos, pos.Status(), got, tc.want)
		}
	}
}

// FIDE 6.9: the flagged side loses unless the opponent cannot mate by any
// series of legal moves; DefaultCannotMate says so for a dead position and
// for a lone king, and for nothing else.
func TestFlagResult(t *testing.T) {
	checkFlagResults(t, []flagCase{
		{"start: loss", "st3d", "", rules.White, rules.BlackWins},
		{"start: loss for black", "st3d", "", rules.Black, rules.WhiteWins},
		{"dead K v K", "st3d", "QL1:w Kb2W,kc7B w - - - 0 10", rules.White, rules.Draw},
		{"K v K+N, the flagged side has the knight", "st3d", "QL1:w Kb2W,kc7B,nd4N w - - - 0 10", rules.Black, rules.Draw},
		{"millennium dead K+B v K", "millennium", "K1a1,B2c3,k3h8 b - - - 0 1", rules.Black, rules.Draw},
		{"opponent has only its king", "st3d", "QL1:w Kb2W,kc7B,qd4N,rd5N w - - - 0 10", rules.Black, rules.Draw},
		{"the lone king is the flagged side's: loss", "st3d", "QL1:w Kb2W,kc7B,qd4N,rd5N w - - - 0 10", rules.White, rules.BlackWins},
		// K+N against K+P is not dead: a helpmate exists (the pawn can block
		// its own king), so FIDE 6.9 scores it a loss, not a draw.
		{"K+N v K+P: loss", "st3d", "QL1:w Kb2W,Nc2W,kc7B,pd7B w - - - 0 10", rules.Black, rules.WhiteWins},
		{"K+B v K+R: loss", "st3d", "QL1:w Kb2W,Bc2W,kc7B,rd7B w - - - 0 10", rules.Black, rules.WhiteWins},
		{"millennium dead K v K", "millennium", "K1a1,k3h8 w - - - 0 1", rules.White, rules.Draw},
		{"millennium start", "millennium", "", rules.Black, rules.WhiteWins},
		// First Contact: a side with only its king on the set still has its
		// reserve to bring in, and check wins there.
		{"first contact start (reserves)", "first-contact", "", rules.Black, rules.WhiteWins},
		{"first contact: white's king alone on the set, a knight in reserve", "first-contact",
			"QL1u:-,QL3d:-,KL5u:-,KL6u:- Ka1W,kd8B,qa4N w - - - 0 10 N/- -", rules.Black, rules.WhiteWins},
		{"first contact: white's king alone, nothing in reserve", "first-contact",
			"QL1u:-,QL3d:-,KL5u:-,KL6u:- Ka1W,kd8B,qa4N w - - - 0 10 -/- -", rules.Black, rules.Draw},
		{"first contact: K+N v K is not dead (check wins)", "first-contact",
			"QL1u:-,QL3d:-,KL5u:-,KL6u:- Ka1W,Nb1W,kd8B w - - - 0 10 -/- -", rules.Black, rules.WhiteWins},
	})
}

// D18: in ST3D and its variants a lone bishop or knight can mate (the kings
// in one column on two levels), so a flag against it is a loss, not a draw
// (FIDE 6.9); so are bishops all on one colour. Millennium keeps chess's
// dead positions.
func TestD18FlagAgainstALoneMinorPieceLoses(t *testing.T) {
	checkFlagResults(t, []flagCase{
		{"K+B v K: the mate d3N-c4W exists", "st3d", "QL1:w,QL6:b,KL1:w,KL6:b Kb3W,Bd3N,kb3N w - - - 0 50", rules.Black, rules.WhiteWins},
		{"K+N v K: the mate c6N-d4N exists", "st3d", "QL1:w,QL6:b,KL1:w,KL6:b Kb3W,kb3N,Nc6N w - - - 0 50", rules.Black, rules.WhiteWins},
		{"K+B v K, kings apart", "st3d", "QL1:w Kb2W,Bc2W,kc7B w - - - 0 10", rules.Black, rules.WhiteWins},
		{"K v K+N", "st3d", "QL1:w Kb2W,kc7B,nd4N w - - - 0 10", rules.White, rules.BlackWins},
		{"bishops on one colour", "st3d", "QL1:w Kb2W,Ba1W,kc7B,bc3N w - - - 0 10", rules.White, rules.BlackWins},
		{"a variant: K+B v K", "st3d+V.A2", "QL1:w Kb2W,Bc2W,kc7B w - - - 0 10", rules.Black, rules.WhiteWins},
		{"millennium K+N v K stays dead", "millennium", "K1a1,k3h8,n2d4 w - - - 0 1", rules.White, rules.Draw},
	})
}

func TestFlagResultTakesTheTablesTest(t *testing.T) {
	pos := position(t, "st3d", "")
	asked := rules.Color(9)
	never := func(_ rules.Position, side rules.Color) bool { asked = side; return true }
	if got := FlagResult(pos, rules.White, never); got != rules.Draw || asked != rules.Black {
		t.Errorf("FlagResult with the table's test: %s, asked about %v", got, asked)
	}
}

// A flag that falls in a dead position is a draw; the same flag with mating
// material on the board is a loss.
func TestFlagInDeadPosition(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		want rules.Result
	}{
		{"QL1:w Kb2W,kc7B w - - - 0 10", rules.Draw},           // K v K: dead
		{"QL1:w Kb2W,kc7B,bc3N w - - - 0 10", rules.BlackWins}, // K v K+B: not dead in ST3D (D18)
		{"QL1:w Kb2W,kc7B,qd4N w - - - 0 10", rules.BlackWins},
	} {
		c := started(t, "60+1", nil)
		side, at, ok := c.Flagged(after(61 * s))
		if !ok || side != rules.White || !at.Equal(after(60*s)) {
			t.Fatalf("Flagged = %v %v %v", side, at, ok)
		}
		if got := FlagResult(position(t, "st3d", tc.pos), side, nil); got != tc.want {
			t.Errorf("%s: %s flagged: %s, want %s", tc.pos, side, got, tc.want)
		}
	}
}
