package millennium

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules/rulestest"
)

func TestStartPositionString(t *testing.T) {
	p := StartPosition()
	if got := p.String(); got != StartString {
		t.Errorf("start position written as\n%s\nwant\n%s", got, StartString)
	}
	if got := p.Key(); got+" 0 1" != StartString {
		t.Errorf("Key() = %q, want the string without the clocks", got)
	}
}

func TestParseAcceptsAnyOrder(t *testing.T) {
	rulestest.CheckAnyOrder(t, System, StartString, []int{0, 4}, func(f []string, _ *rand.Rand) { f[2] = "qkQK" })
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, pos, reason string
	}{
		{"field count", "K1e1,k3e8 w - - - 0", "6 fields"},
		{"unknown cell", "K1e1,k3e8,P4a2 w - - - 0 1", "unknown cell"},
		{"unknown cell, rank 9", "K1e1,k3e8,P1a9 w - - - 0 1", "unknown cell"},
		{"two pieces on a cell", "K1e1,k3e8,P1b2,N1b2 w - - - 0 1", "two pieces on 1b2"},
		{"two white kings", "K1e1,K1d1,k3e8 w - - - 0 1", "more than one white king"},
		{"two black kings", "K1e1,k3e8,k3d8 w - - - 0 1", "more than one black king"},
		{"white pawn on its promotion cell", "K1e1,k3e8,P3a8 w - - - 0 1", "promotion cell"},
		{"black pawn on its promotion cell", "K1e1,k3e8,p1a1 w - - - 0 1", "promotion cell"},
		{"bad piece letter", "K1e1,k3e8,X1b2 w - - - 0 1", "FEN letter"},
		{"bad side", "K1e1,k3e8 x - - - 0 1", "side to move"},
		{"bad castling letters", "R1a1,K1e1,R1h1,k3e8 w KK - - 0 1", "castling field"},
		{"castling without the rook", "K1e1,R1a1,k3e8 w K - - 0 1", "needs the white king on 1e1 and a rook on 1h1"},
		{"castling without the king home", "R1a1,K1d1,R1h1,k3e8 w Q - - 0 1", "needs the white king on 1e1"},
		{"black castling without the rook", "K1e1,k3e8,r3h8 b q - - 0 1", "needs the black king on 3e8 and a rook on 3a8"},
		{"en passant not a cell", "K1e1,k3e8 b - 1e9 - 0 1", "en passant"},
		{"en passant on the wrong rank", "K1e1,P1e5,k3e8 b - 1e4 - 0 1", "pass through rank 3"},
		{"en passant on level 3 for White", "K1e1,P3e4,k3h8 b - 3e3 - 0 1", "pass through rank 3 of level 1 or 2"},
		{"en passant without the pawn", "K1e1,k3e8 b - 1e3 - 0 1", "want it and 1e2 empty and a white pawn on 1e4"},
		{"en passant with the pawn on the wrong level", "K1e1,P2e4,k3e8 b - 2e3 - 0 1", "white pawn on 3e4"},
		{"en passant with the home cell taken", "K1e1,P1e4,N1e2,k3e8 b - 1e3 - 0 1", "1e2 empty"},
		{"en passant for the side to move", "K1e1,P1e4,k3e8 w - 1e3 - 0 1", "black's two-steps"},
		{"double-step without a pawn", "K1e1,k3e8 w - - 1e2 0 1", "double-step cell 1e2 holds no pawn"},
		{"double-step off the home cell", "K1e1,P1e3,k3e8 w - - 1e3 0 1", "home cell"},
		{"double-step pawn of the wrong side", "K1e1,p1e2,k3e8 w - - 1e2 0 1", "home cell"},
		{"double-step not a cell", "K1e1,P1e2,k3e8 w - - e2 0 1", "double-step"},
		{"side not to move in check", "K1e1,r3e1,k3e8 b - - - 0 1", "side not to move is in check"},
		{"bad halfmove", "K1e1,k3e8 w - - - -1 1", "halfmove clock"},
		{"bad fullmove", "K1e1,k3e8 w - - - 0 0", "fullmove number"},
	} {
		_, err := Parse(tc.pos)
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: Parse(%q) err = %v, want %q", tc.name, tc.pos, err, tc.reason)
		}
	}
}

func TestParseWritesSorted(t *testing.T) {
	in := "k3e8,p3a7,N2d5,K1e1,P1a2,q1h3 b - - 1a2,3a7 7 30"
	want := "K1e1,P1a2,q1h3,N2d5,p3a7,k3e8 b - - 1a2,3a7 7 30"
	if got := rulestest.MustParse(t, Parse, in).String(); got != want {
		t.Errorf("written as %s, want %s", got, want)
	}
	if got := rulestest.MustParse(t, Parse, "- w - - - 0 1").String(); got != "- w - - - 0 1" {
		t.Errorf("empty board written as %s", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(StartString)
	for _, tc := range perftTable {
		f.Add(tc.pos)
	}
	f.Add("K1a1,P3e4,p3d4,p2f4,k3h8 b - 2e3 - 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		out := p.String()
		q, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) ok but its output %q is refused: %v", s, out, err)
		}
		if q.String() != out || q != p {
			t.Fatalf("round trip changed the position: %q -> %q", out, q.String())
		}
		for _, m := range p.LegalMoves(nil) {
			p.Short(m) // no panic on any legal move of any accepted position
		}
	})
}
