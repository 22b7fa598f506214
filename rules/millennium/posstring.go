package millennium

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// StartString is the start position (docs/rules.md, "Board and start"):
// White's army on level 1, Black's on level 3, level 2 empty.
const StartString = "R1a1,N1b1,B1c1,Q1d1,K1e1,B1f1,N1g1,R1h1,P1a2,P1b2,P1c2,P1d2,P1e2,P1f2,P1g2,P1h2," +
	"p3a7,p3b7,p3c7,p3d7,p3e7,p3f7,p3g7,p3h7,r3a8,n3b8,b3c8,q3d8,k3e8,b3f8,n3g8,r3h8 " +
	"w KQkq - 1a2,1b2,1c2,1d2,1e2,1f2,1g2,1h2,3a7,3b7,3c7,3d7,3e7,3f7,3g7,3h7 0 1"

// startPos is parsed once the tables exist (geometry's init).
var startPos Position

// StartPosition returns the start position.
func StartPosition() Position { return startPos }

// Parse reads a position string (docs/rules.md, "Position string"). Lists
// may come in any order, castling letters too. The string is refused, with
// the reason, for an unknown cell, two pieces on a cell, more than one king
// a side, a pawn on its promotion cell, castling, en-passant or double-step
// fields that the pieces contradict, or the side not to move in check.
func Parse(s string) (Position, error) { return rules.ParseString("millennium", s, (*Position).parse) }

func (p *Position) parse(s string) error {
	fields, err := rules.SplitFields(s, 7)
	if err != nil {
		return err
	}
	p.ep = NoSquare
	p.king = [2]Square{NoSquare, NoSquare}
	err = rules.ParsePieces(fields[0], "K1e1", parseCell, p.occupied, func(f string, pc Piece, sq Square) error {
		if pc.Kind() == Pawn && promoZone[pc.Color()].has(sq) {
			return fmt.Errorf("pawn %q stands on its promotion cell (M9)", f)
		}
		p.put(sq, pc)
		return nil
	})
	if err != nil {
		return err
	}
	if p.side, err = rules.ParseSide(fields[1]); err != nil {
		return err
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return err
	}
	if err := p.parseEP(fields[3]); err != nil {
		return err
	}
	for _, f := range rules.ListItems(fields[4]) {
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
	if p.half, p.full, err = rules.ParseClocks(fields[5], fields[6]); err != nil {
		return err
	}
	if p.inCheck(p.side.Other()) {
		return errors.New("the side not to move is in check")
	}
	return nil
}

// parseCell is ParseSquare for a piece list, whose items name cells.
func parseCell(s string) (Square, error) {
	sq, err := ParseSquare(s)
	if err != nil {
		return NoSquare, fmt.Errorf("unknown cell: %v", err)
	}
	return sq, nil
}

// occupied reports whether a piece stands on sq.
func (p *Position) occupied(sq Square) bool { return p.board[sq] != 0 }

func (p *Position) parseCastling(f string) error {
	homes := [4]struct{ king, rook Square }{{sqWK, sqWKR}, {sqWK, sqWQR}, {sqBK, sqBKR}, {sqBK, sqBQR}}
	var err error
	p.castle, err = rules.ParseCastling(f, func(i int) error {
		color := rules.Color(i / 2)
		h := homes[i]
		if p.board[h.king] != rules.PieceOf(color, King) || p.board[h.rook] != rules.PieceOf(color, Rook) {
			return fmt.Errorf("castling field %q: %c needs the %s king on %s and a rook on %s (M10)", f, "KQkq"[i], color, h.king, h.rook)
		}
		return nil
	})
	return err
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
	rules.WriteClocks(&b, p.half, p.full)
	return b.String()
}

// writeKey writes every field but the clocks.
func (p *Position) writeKey(b *strings.Builder) {
	pieces := rules.NewListWriter(b)
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 {
			pieces.Next()
			b.WriteByte(pc.Letter())
			b.WriteString(s.String())
		}
	}
	pieces.End()
	if p.side == rules.White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	rules.WriteCastling(b, p.castle)
	b.WriteByte(' ')
	b.WriteString(p.ep.String())
	b.WriteByte(' ')
	ds := rules.NewListWriter(b)
	for s := Square(0); s < NumSquares; s++ {
		if p.ds.has(s) {
			ds.Next()
			b.WriteString(s.String())
		}
	}
	ds.End()
}

// Key identifies the position for repetition: pieces, side to move,
// castling rights, en-passant cell and double-step rights; not the clocks.
func (p Position) Key() string {
	var b strings.Builder
	b.Grow(300)
	p.writeKey(&b)
	return b.String()
}
