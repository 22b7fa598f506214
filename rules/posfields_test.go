package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestPositionFields(t *testing.T) {
	var b strings.Builder
	l := NewListWriter(&b)
	l.End()
	b.WriteByte(' ')
	l = NewListWriter(&b)
	for _, s := range []string{"a", "b"} {
		l.Next()
		b.WriteString(s)
	}
	l.End()
	b.WriteByte(' ')
	WriteCastling(&b, 0)
	b.WriteByte(' ')
	WriteCastling(&b, 0b1101)
	b.WriteByte(' ')
	WriteClocks(&b, 3, 12)
	if got, want := b.String(), "- a,b - Kkq 3 12"; got != want {
		t.Errorf("written %q, want %q", got, want)
	}
	if got := ListItems("-"); got != nil {
		t.Errorf("ListItems(-) = %q", got)
	}
	if r, err := ParseCastling("qkK", nil); r != 0b1101 || err != nil {
		t.Errorf("ParseCastling(qkK) = %b, %v", r, err)
	}
	if _, err := ParseCastling("KK", nil); err == nil {
		t.Error("ParseCastling(KK) accepted")
	}
	if pc, at, ok := CutPiece("qd8B"); pc != PieceOf(Black, Queen) || at != "d8B" || !ok {
		t.Errorf("CutPiece(qd8B) = %v, %q, %v", pc, at, ok)
	}
	if _, _, ok := CutPiece("X1"); ok {
		t.Error("CutPiece(X1) accepted")
	}
	if _, _, err := ParseClocks("0", "0"); err == nil {
		t.Error("ParseClocks accepted fullmove 0")
	}
}

// TestParsePieces: the checks every system's piece list makes, in order,
// and the system's own check last (a toy board of squares 0..9).
func TestParsePieces(t *testing.T) {
	square := func(s string) (int, error) {
		if len(s) != 1 || s[0] < '0' || s[0] > '9' {
			return 0, fmt.Errorf("%q is not a square", s)
		}
		return int(s[0] - '0'), nil
	}
	for _, tc := range []struct{ list, want, err string }{
		{"-", "", ""},
		{"K1,k2,P3,p4", "K1 k2 P3 p4", ""},
		{"K1,X2", "K1", `piece "X2": want a FEN letter and a square, such as K0`},
		{"K", "", `piece "K": want a FEN letter and a square, such as K0`},
		{"Ka", "", `piece "Ka": "a" is not a square`},
		{"K1,N1", "K1", "two pieces on 1"},
		{"K1,k2,K3", "K1 k2", "more than one white king"},
		{"k1,K2,k3", "k1 K2", "more than one black king"},
		{"K1,P9", "K1", `pawn "P9" may not stand on 9`},
	} {
		var board [10]Piece
		var put []string
		err := ParsePieces(tc.list, "K0", square, func(sq int) bool { return board[sq] != 0 },
			func(item string, pc Piece, sq int) error {
				if pc.Kind() == Pawn && sq == 9 {
					return fmt.Errorf("pawn %q may not stand on 9", item)
				}
				board[sq] = pc
				put = append(put, fmt.Sprintf("%c%d", pc.Letter(), sq))
				return nil
			})
		if got := strings.Join(put, " "); got != tc.want {
			t.Errorf("%q: placed %q, want %q", tc.list, got, tc.want)
		}
		if (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("%q: error %v, want %q", tc.list, err, tc.err)
		}
	}
}

func TestSplitFieldsAndParseString(t *testing.T) {
	if f, err := SplitFields("a b c", 3); err != nil || len(f) != 3 {
		t.Errorf("SplitFields(a b c, 3) = %q, %v", f, err)
	}
	if _, err := SplitFields("a  b", 2); err == nil || err.Error() != "3 fields, want 2 separated by single spaces" {
		t.Errorf("SplitFields(a  b, 2): %v", err)
	}
	parse := func(p *int, s string) error {
		*p = len(s)
		if s == "bad" {
			return errors.New("no good")
		}
		return nil
	}
	if p, err := ParseString("toy", "good", parse); p != 4 || err != nil {
		t.Errorf("ParseString(good) = %d, %v", p, err)
	}
	if p, err := ParseString("toy", "bad", parse); p != 0 || err == nil || err.Error() != "toy: position string: no good" {
		t.Errorf("ParseString(bad) = %d, %v; want 0 and the system named", p, err)
	}
}
