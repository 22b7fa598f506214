package rules

import (
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
