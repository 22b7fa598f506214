package millennium

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// StartString is the start position (millennium.md, "Board and start"):
// White's army on level 1, Black's on level 3, level 2 empty.
const StartString = "R1a1,N1b1,B1c1,Q1d1,K1e1,B1f1,N1g1,R1h1,P1a2,P1b2,P1c2,P1d2,P1e2,P1f2,P1g2,P1h2," +
	"p3a7,p3b7,p3c7,p3d7,p3e7,p3f7,p3g7,p3h7,r3a8,n3b8,b3c8,q3d8,k3e8,b3f8,n3g8,r3h8 " +
	"w KQkq - 1a2,1b2,1c2,1d2,1e2,1f2,1g2,1h2,3a7,3b7,3c7,3d7,3e7,3f7,3g7,3h7 0 1"

// startPos is parsed once the tables exist (geometry's init).
var startPos Position

func initStart() {
	p, err := Parse(StartString)
	if err != nil {
		panic(err)
	}
	startPos = p
}

// StartPosition returns the start position.
func StartPosition() Position { return startPos }

// Parse reads a position string (millennium.md, "Position string"). Lists
// may come in any order, castling letters too. The string is refused, with
// the reason, for an unknown cell, two pieces on a cell, more than one king
// a side, a pawn on its promotion cell, castling, en-passant or double-step
// fields that the pieces contradict, or the side not to move in check.
func Parse(s string) (Position, error) {
	var p Position
	if err := p.parse(s); err != nil {
		return Position{}, fmt.Errorf("millennium: position string: %w", err)
	}
	return p, nil
}

func (p *Position) parse(s string) error {
	fields := strings.Split(s, " ")
	if len(fields) != 7 {
		return fmt.Errorf("%d fields, want 7 separated by single spaces", len(fields))
	}
	p.ep = NoSquare
	p.king = [2]Square{NoSquare, NoSquare}
	if fields[0] != "-" {
		for _, f := range strings.Split(fields[0], ",") {
			if len(f) < 2 || strings.IndexByte("PNBRQKpnbrqk", f[0]) < 0 {
				return fmt.Errorf("piece %q: want a FEN letter and a cell, such as K1e1", f)
			}
			sq, err := ParseSquare(f[1:])
			if err != nil {
				return fmt.Errorf("piece %q: unknown cell: %v", f, err)
			}
			if p.board[sq] != 0 {
				return fmt.Errorf("two pieces on %s", sq)
			}
			pc := Piece(strings.IndexByte(pieceLetters, f[0]&^0x20))
			if f[0] >= 'a' {
				pc |= blackBit
			}
			if pc.Kind() == King && p.king[pc.Color()] != NoSquare {
				return fmt.Errorf("more than one %s king", pc.Color())
			}
			if pc.Kind() == Pawn && promoZone[pc.Color()].has(sq) {
				return fmt.Errorf("pawn %q stands on its promotion cell (M9)", f)
			}
			p.put(sq, pc)
		}
	}
	switch fields[1] {
	case "w":
		p.side = rules.White
	case "b":
		p.side = rules.Black
	default:
		return fmt.Errorf("side to move %q: want w or b", fields[1])
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return err
	}
	if err := p.parseEP(fields[3]); err != nil {
		return err
	}
	if fields[4] != "-" {
		for _, f := range strings.Split(fields[4], ",") {
			sq, err := ParseSquare(f)
			if err != nil {
				return fmt.Errorf("double-step: %v", err)
			}
			pc := p.board[sq]
			if pc.Kind() != Pawn || !homeRow[pc.Color()].has(sq) {
				return fmt.Errorf("double-step cell %s holds no pawn on its home cell (level 1 rank 2 for White, level 3 rank 7 for Black)", sq)
			}
			p.ds.set(sq)
		}
	}
	var err error
	if p.half, err = strconv.Atoi(fields[5]); err != nil || p.half < 0 {
		return fmt.Errorf("halfmove clock %q: want a number >= 0", fields[5])
	}
	if p.full, err = strconv.Atoi(fields[6]); err != nil || p.full < 1 {
		return fmt.Errorf("fullmove number %q: want a number >= 1", fields[6])
	}
	if p.inCheck(p.side.Other()) {
		return errors.New("the side not to move is in check")
	}
	return nil
}

func (p *Position) parseCastling(f string) error {
	if f == "-" {
		return nil
	}
	homes := [4]struct{ king, rook Square }{{sqWK, sqWKR}, {sqWK, sqWQR}, {sqBK, sqBKR}, {sqBK, sqBQR}}
	for _, c := range f {
		i := strings.IndexRune("KQkq", c)
		if i < 0 || p.castle&(1<<uint(i)) != 0 {
			return fmt.Errorf("castling field %q: want a subset of KQkq or -", f)
		}
		color := rules.Color(i / 2)
		h := homes[i]
		if p.board[h.king] != rules.PieceOf(color, King) || p.board[h.rook] != rules.PieceOf(color, Rook) {
			return fmt.Errorf("castling field %q: %c needs the %s king on %s and a rook on %s (M10)", f, c, color, h.king, h.rook)
		}
		p.castle |= 1 << uint(i)
	}
	return nil
}

// parseEP reads the en-passant cell: the cell the pawn of the side that
// has just moved passed through on a (0,2,0) or (0,2,2) first move (M8). It
// must be empty, on that side's third rank, on its home level or level 2,
// with the pawn one rank on and its home cell empty.
func (p *Position) parseEP(f string) error {
	if f == "-" {
		return nil
	}
	sq, err := ParseSquare(f)
	if err != nil {
		return fmt.Errorf("en passant: %v", err)
	}
	mover := p.side.Other()
	home := homeLevel(mover)
	rank := 2
	if mover == rules.Black {
		rank = 5
	}
	if sq.Rank() != rank || (sq.Level() != home && sq.Level() != 1) {
		return fmt.Errorf("en passant cell %s: %s's two-steps pass through rank %d of level %d or 2", sq, mover, rank+1, home+1)
	}
	v := victimOf(sq, mover)
	origin := SquareAt(home, rank-forward(mover), sq.File())
	if p.board[sq] != 0 || p.board[v] != rules.PieceOf(mover, Pawn) || p.board[origin] != 0 {
		return fmt.Errorf("en passant cell %s: want it and %s empty and a %s pawn on %s (the side that just moved)", sq, origin, mover, v)
	}
	p.ep = sq
	return nil
}

// String writes the canonical position string. Square numbers follow the
// sort order (level, rank, file), so walking them in order sorts the lists.
func (p Position) String() string {
	var b strings.Builder
	b.Grow(300)
	p.writeKey(&b)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.half))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.full))
	return b.String()
}

// writeKey writes every field but the clocks.
func (p *Position) writeKey(b *strings.Builder) {
	first := true
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteByte(pc.Letter())
			b.WriteString(s.String())
		}
	}
	if first {
		b.WriteByte('-')
	}
	if p.side == rules.White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	if p.castle == 0 {
		b.WriteByte('-')
	}
	for i := 0; i < 4; i++ {
		if p.castle&(1<<uint(i)) != 0 {
			b.WriteByte("KQkq"[i])
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.ep.String())
	b.WriteByte(' ')
	first = true
	for s := Square(0); s < NumSquares; s++ {
		if p.ds.has(s) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(s.String())
		}
	}
	if first {
		b.WriteByte('-')
	}
}

// Key identifies the position for repetition: pieces, side to move,
// castling rights, en-passant cell and double-step rights; not the clocks.
func (p Position) Key() string {
	var b strings.Builder
	b.Grow(300)
	p.writeKey(&b)
	return b.String()
}
