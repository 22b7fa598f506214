package millennium

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

func TestShortNotation(t *testing.T) {
	for _, tc := range []struct {
		name, pos, long, short string
	}{
		{"pawn push", StartString, "1e2-1e3", "1e3"},
		{"pawn level-only push (2e2 is 1e2 -> 2e2)", StartString, "1e2-2e2", "2e2"},
		{"knight", StartString, "1g1-2g3", "N2g3"},
		{"queen capture", "K1a1,Q1d1,n1b3,k3h8 w - - - 0 1", "1d1-1b3", "Qx1b3"},
		{"pawn capture by origin file", "K1a1,P2e4,n3d5,k3h8 w - - - 0 1", "2e4-3d5", "ex3d5"},
		{"en passant", "K1a1,P1e4,p1d4,k3h8 b - 1e3 - 0 1", "1d4-1e3", "dx1e3"},
		{"disambiguation by file", "K1a1,N1b1,N1d3,k3h8 w - - - 0 1", "1b1-2b3", "Nb2b3"},
		{"disambiguation by rank", "K1a1,N1b1,N1b5,k3h8 w - - - 0 1", "1b1-2b3", "N12b3"},
		{"disambiguation by file and rank", "K1a1,N1b1,N1b5,N2c1,k3h8 w - - - 0 1", "1b1-2b3", "Nb12b3"},
		{"disambiguation by the whole square", "K1a1,N1b1,N3b1,k3h8 w - - - 0 1", "1b1-2b3", "N1b12b3"},
		{"two pawns to one cell: long form", "K1a1,P1e3,P2e2,k3h8 w - - - 0 1", "1e3-2e3", "1e3-2e3"},
		{"two pawns of one file capture onto one cell: long form", "K1a1,P1e4,P3e4,n2d5,k3h8 w - - - 0 1", "3e4-2d5", "3e4-2d5"},
		{"pawns of two files capture onto one cell", "K1a1,P2c4,P2e4,n2d5,k3h8 w - - - 0 1", "2c4-2d5", "cx2d5"},
		{"promotion", "K1a1,P3b7,k3h5 w - - - 0 1", "3b7-3b8=Q", "3b8=Q"},
		{"promotion from level 2", "K1a1,P2c7,k3h5 w - - - 0 1", "2c7-3c8=N", "3c8=N"},
		{"two pawns promote on one cell: long form", "K1a1,P2c7,P3c7,k3h5 w - - - 0 1", "2c7-3c8=R", "2c7-3c8=R"},
		{"black promotion", "K1h4,p1b2,k3a8 b - - - 0 1", "1b2-1b1=Q", "1b1=Q"},
		{"castling", perftTable[1].pos, "0-0", "0-0"},
		{"castling gives check", "R1a1,K1e1,k3d3 w Q - - 0 1", "0-0-0", "0-0-0+"},
		{"check from another level", "K1a1,R1b8,k3h6 w - - - 0 1", "1b8-1h8", "R1h8+"},
		{"mate", "K3c3,Q1c2,k1a1 w - - - 0 1", "1c2-2b2", "Q2b2#"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		rulestest.CheckShort(t, tc.name, p, tc.long, tc.short)
	}
}

func TestParseMoveForms(t *testing.T) {
	for _, tc := range []struct {
		pos, in, long string
	}{
		{StartString, "♘2g3", "1g1-2g3"},
		{StartString, "♞2g3", "1g1-2g3"}, // figurines of either colour
		{StartString, "N2g3+", "1g1-2g3"},
		{StartString, "1g1-2g3", "1g1-2g3"},
		{StartString, "N1g1-2g3", "1g1-2g3"},
		{StartString, "Ng2g3", "1g1-2g3"},
		{StartString, "N12g3", "1g1-2g3"},
		{StartString, "N1g12g3", "1g1-2g3"},
		{StartString, "3e4", "1e2-3e4"},
		{StartString, "1e2-3e4", "1e2-3e4"},
		{"K1a1,Q1d1,n1b3,k3h8 w - - - 0 1", "♕×1b3", "1d1-1b3"},
		{"K1a1,Q1d1,n1b3,k3h8 w - - - 0 1", "Q1b3", "1d1-1b3"},
		{"K1a1,Q1d1,n1b3,k3h8 w - - - 0 1", "1d1x1b3", "1d1-1b3"},
		{"K1a1,P2e4,n3d5,k3h8 w - - - 0 1", "e×3d5", "2e4-3d5"},
		{"K1a1,P1e4,p1d4,k3h8 b - 1e3 - 0 1", "dx1e3 e.p.", "1d4-1e3"},
		{"K1a1,P1e4,p1d4,k3h8 b - 1e3 - 0 1", "dx1e3e.p.", "1d4-1e3"},
		{"K1a1,P3b7,k3h5 w - - - 0 1", "3b8Q", "3b7-3b8=Q"},
		{"K1a1,P3b7,k3h5 w - - - 0 1", "3b7-3b8=N", "3b7-3b8=N"},
		{perftTable[1].pos, "O-O-O", "0-0-0"},
		{"K1a1,q2c2,k3c3 b - - - 0 1", "♛2b1", "2c2-2b1"},
		{"K1a1,q2c2,k3c3 b - - - 0 1", "♚3d4!?", "3c3-3d4"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		m, note, err := p.ParseMove(tc.in)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", tc.in, err)
			continue
		}
		if got := p.Long(m); got != tc.long || note != "" {
			t.Errorf("ParseMove(%q) = %s (note %q), want %s", tc.in, got, note, tc.long)
		}
	}
}

func TestParseMoveRefuses(t *testing.T) {
	for _, tc := range []struct {
		pos, in, reason string
	}{
		{StartString, "", "empty"},
		{StartString, "1e2-1e5", "not legal"},
		{StartString, "N3g3", "not legal"},
		{StartString, "Z2g3", "destination"},
		{StartString, "2e9", "destination"},
		{"K1a1,N1b1,N1d3,k3h8 w - - - 0 1", "N2b3", "ambiguous: 1b1-2b3, 1d3-2b3"},
		{"K1a1,P1e3,P2e2,k3h8 w - - - 0 1", "2e3", "ambiguous"},
		{"K1a1,P1e4,P3e4,n2d5,k3h8 w - - - 0 1", "ex2d5", "ambiguous"},
		{"K1a1,P3b7,k3h5 w - - - 0 1", "3b8", "needs its piece"},
		{"K1a1,P3b7,k3h5 w - - - 0 1", "3b8=K", "promotion must be"},
		{"K1a1,P2e4,n3d5,k3h8 w - - - 0 1", "x3d5", "origin file"},
		{"K1a1,P2e4,n3d5,k3h8 w - - - 0 1", "3d5", "not legal"}, // a pawn named by its destination pushes
		{StartString, "Nzz2g3", "cannot read"},
	} {
		p := rulestest.MustParse(t, Parse, tc.pos)
		_, _, err := p.ParseMove(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("ParseMove(%q) err = %v, want %q", tc.in, err, tc.reason)
		}
	}
}

// TestParseMoveAsPasted: any dash, "×", figurines, O for 0 in castling,
// assessments and NAGs.
func TestParseMoveAsPasted(t *testing.T) {
	p := rulestest.MustParse(t, Parse, "R1a1,K1e1,R1h1,P1e2,k3e8,p2d3 w KQ - 1e2 0 10")
	for _, tc := range []struct{ in, long string }{
		{"O-O", "0-0"}, {"0–0", "0-0"}, {"O—O—O", "0-0-0"}, {"o-o-o+", "0-0-0"},
		{"1e2−1e4", "1e2-1e4"}, {"e×2d3", "1e2-2d3"}, {"ex2d3!? $1", "1e2-2d3"}, {"♖1a1–1a5", "1a1-1a5"},
	} {
		rulestest.CheckReads(t, p, tc.in, tc.long)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"N2g3", "♘2g3", "1e2-3e4", "ex3d5", "Qx1b2", "0-0", "2e7-3e8=Q", "N1b12b3", "3e8Q", "dx1e3 e.p.", "O–O", "N×2g3+ $1", "1e2—1e4!?"} {
		f.Add(0, s)
		f.Add(1, s)
	}
	positions := []string{StartString, perftTable[1].pos, perftTable[4].pos, perftTable[6].pos, perftTable[13].pos}
	f.Fuzz(func(t *testing.T, i int, s string) {
		if i < 0 {
			i = -i
		}
		p := rulestest.MustParse(t, Parse, positions[i%len(positions)])
		m, _, err := p.ParseMove(s)
		if err != nil {
			return
		}
		legal := false
		for _, o := range p.LegalMoves(nil) {
			legal = legal || o == m
		}
		if !legal {
			t.Fatalf("ParseMove(%q) = %s, not a legal move", s, p.Long(m))
		}
		for _, w := range []string{p.Long(m), p.Short(m)} {
			if back, _, err := p.ParseMove(w); err != nil || back != m {
				t.Fatalf("ParseMove(%q) = %s, but %q reads back as %s, %v", s, p.Long(m), w, p.Long(back), err)
			}
		}
	})
}

var _ rules.Position = (*Position)(nil)
