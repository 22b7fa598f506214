package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Helpers for the fields that every system's position string writes the
// same way: comma lists ("-" when empty), pieces as a FEN letter and a
// cell, the side to move, KQkq castling rights and the two clocks.

// ParseString reads the position string s of the named system into a new
// P with parse; the error says "SYSTEM: position string: REASON" and the
// position is the zero P.
func ParseString[P any](system, s string, parse func(p *P, s string) error) (P, error) {
	var p P
	if err := parse(&p, s); err != nil {
		var zero P
		return zero, fmt.Errorf("%s: position string: %w", system, err)
	}
	return p, nil
}

// MustParse reads a package's own position string, such as its start
// position; an error there is a bug in the package, so it panics.
func MustParse[P any](parse func(string) (P, error), s string) P {
	p, err := parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// SplitFields splits a position string into its n fields, separated by
// single spaces.
func SplitFields(s string, n int) ([]string, error) {
	fields := strings.Split(s, " ")
	if len(fields) != n {
		return nil, fmt.Errorf("%d fields, want %d separated by single spaces", len(fields), n)
	}
	return fields, nil
}

// ParsePieces reads a piece-list field ("-" when empty) of items such as
// "Kd0KL1": a FEN letter and a square that square reads; example is an
// item shown when one is malformed. It refuses a second piece on a square
// (occupied says whether one stands there) and a second king of a side,
// then hands the piece to place, which may refuse it for the system's own
// reasons (a square that does not exist, a pawn where it cannot stand) and
// otherwise puts it on the board.
func ParsePieces[S any](f, example string, square func(string) (S, error), occupied func(S) bool,
	place func(item string, pc Piece, sq S) error) error {
	var kings [2]bool
	for _, item := range ListItems(f) {
		pc, at, ok := CutPiece(item)
		if !ok {
			return fmt.Errorf("piece %q: want a FEN letter and a square, such as %s", item, example)
		}
		sq, err := square(at)
		if err != nil {
			return fmt.Errorf("piece %q: %v", item, err)
		}
		if occupied(sq) {
			return fmt.Errorf("two pieces on %v", sq)
		}
		if pc.Kind() == King {
			if kings[pc.Color()] {
				return fmt.Errorf("more than one %s king", pc.Color())
			}
			kings[pc.Color()] = true
		}
		if err := place(item, pc, sq); err != nil {
			return err
		}
	}
	return nil
}

// ListItems splits a comma-list field; "-" is the empty list.
func ListItems(f string) []string {
	if f == "-" {
		return nil
	}
	return strings.Split(f, ",")
}

// ListWriter writes a comma-list field: Next before each item, End after
// the last, which writes "-" for an empty list.
type ListWriter struct {
	b *strings.Builder
	n int
}

// NewListWriter starts a list field on b.
func NewListWriter(b *strings.Builder) ListWriter { return ListWriter{b: b} }

// Next separates the item about to be written from the one before.
func (l *ListWriter) Next() {
	if l.n > 0 {
		l.b.WriteByte(',')
	}
	l.n++
}

// End closes the list: "-" when nothing was written.
func (l *ListWriter) End() {
	if l.n == 0 {
		l.b.WriteByte('-')
	}
}

// CutPiece splits a piece-list item such as "Kd0KL1" into the piece its
// FEN letter names and the cell after it; ok is false when the item is
// shorter than two bytes or does not start with a FEN letter.
func CutPiece(f string) (pc Piece, cell string, ok bool) {
	if len(f) < 2 || strings.IndexByte("PNBRQKpnbrqk", f[0]) < 0 {
		return 0, "", false
	}
	pc = Piece(strings.IndexByte(PieceLetters, f[0]&^0x20))
	if f[0] >= 'a' {
		pc |= BlackBit
	}
	return pc, f[1:], true
}

// ParseSide reads the side-to-move field, "w" or "b".
func ParseSide(f string) (Color, error) {
	switch f {
	case "w":
		return White, nil
	case "b":
		return Black, nil
	}
	return White, fmt.Errorf("side to move %q: want w or b", f)
}

// ParseCastling reads a castling field, "-" or a subset of KQkq in any
// order, as the bits 1<<i of the letters "KQkq"[i]. check, when not nil,
// vets each right as it is read, in the order written.
func ParseCastling(f string, check func(i int) error) (uint8, error) {
	var rights uint8
	if f == "-" {
		return 0, nil
	}
	for _, c := range f {
		i := strings.IndexRune("KQkq", c)
		if i < 0 || rights&(1<<uint(i)) != 0 {
			return 0, fmt.Errorf("castling field %q: want a subset of KQkq or -", f)
		}
		if check != nil {
			if err := check(i); err != nil {
				return 0, err
			}
		}
		rights |= 1 << uint(i)
	}
	return rights, nil
}

// WriteCastling writes castling rights as ParseCastling reads them.
func WriteCastling(b *strings.Builder, rights uint8) {
	if rights == 0 {
		b.WriteByte('-')
	}
	for i := 0; i < 4; i++ {
		if rights&(1<<uint(i)) != 0 {
			b.WriteByte("KQkq"[i])
		}
	}
}

// ParseClocks reads the halfmove clock (>= 0) and the fullmove number
// (>= 1).
func ParseClocks(halfField, fullField string) (half, full int, err error) {
	if half, err = strconv.Atoi(halfField); err != nil || half < 0 {
		return 0, 0, fmt.Errorf("halfmove clock %q: want a number >= 0", halfField)
	}
	if full, err = strconv.Atoi(fullField); err != nil || full < 1 {
		return 0, 0, fmt.Errorf("fullmove number %q: want a number >= 1", fullField)
	}
	return half, full, nil
}

// WriteClocks writes the halfmove clock and the fullmove number, separated
// by a space.
func WriteClocks(b *strings.Builder, half, full int) {
	b.WriteString(strconv.Itoa(half))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(full))
}
