package st3d

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// StartString is the start position (docs/rules.md, "Start position").
const StartString = "QL1:w,QL6:b,KL1:w,KL6:b " +
	"Na1W,Bb1W,Bc1W,Nd1W,Pa2W,Pb2W,Pc2W,Pd2W,pa7B,pb7B,pc7B,pd7B,na8B,bb8B,bc8B,nd8B," +
	"Rz0QL1,Qa0QL1,Pz1QL1,Pa1QL1,pz8QL6,pa8QL6,rz9QL6,qa9QL6,Kd0KL1,Re0KL1,Pd1KL1,Pe1KL1,pd8KL6,pe8KL6,kd9KL6,re9KL6 " +
	"w KQkq - a2W,b2W,c2W,d2W,a7B,b7B,c7B,d7B,z1QL1,a1QL1,z8QL6,a8QL6,d1KL1,e1KL1,d8KL6,e8KL6 0 1"

// startPos is parsed once the tables exist (geometry's init).
var startPos Position

// StartPosition returns the start position.
func StartPosition() Position { return startPos }

// Parse reads a position string (docs/rules.md, "Position string"). Lists may come
// in any order; the position is refused, with the reason, when it could not
// arise under the rules' own bookkeeping (see docs/rules.md).
func Parse(s string) (Position, error) { return rules.ParseString("st3d", s, (*Position).parse) }

func (p *Position) parse(s string) error {
	fields, err := rules.SplitFields(s, 8)
	if err != nil {
		return err
	}
	p.ep = NoSquare
	p.king = [2]Square{NoSquare, NoSquare}
	for _, b := range strings.Split(fields[0], ",") {
		name, owner, ok := strings.Cut(b, ":")
		q, err := ParsePin(name)
		if ok && err == nil && owner == "n" {
			if p.opt.flags&optA4 == 0 {
				return fmt.Errorf("board %q: neutral boards (n) belong to option V.A4", b)
			}
			if p.hasPin(q) {
				return fmt.Errorf("two boards on pin %s", q)
			}
			p.pins |= 1 << uint(q)
			p.opt.neutral |= 1 << uint(q)
			continue
		}
		if !ok || err != nil || (owner != "w" && owner != "b") {
			return fmt.Errorf("board %q: want PIN:w or PIN:b, such as QL1:w", b)
		}
		if p.hasPin(q) {
			return fmt.Errorf("two boards on pin %s", q)
		}
		p.pins |= 1 << uint(q)
		if owner == "b" {
			p.black |= 1 << uint(q)
		}
	}
	err = rules.ParsePieces(fields[1], "Kd0KL1", ParseSquare, p.occupied, func(f string, pc Piece, sq Square) error {
		if !p.exists(sq) {
			return fmt.Errorf("piece %q: square %s does not exist without a board on %s", f, sq, sq.Pin())
		}
		if pc.Kind() == Pawn && sqRank[sq] == p.furthest(pc.Color(), sqFile[sq]) {
			return fmt.Errorf("pawn %q stands on its furthest rank (D9)", f)
		}
		p.put(sq, pc)
		return nil
	})
	if err != nil {
		return err
	}
	if p.side, err = rules.ParseSide(fields[2]); err != nil {
		return err
	}
	if p.opt.flags&opt960 != 0 {
		if err := p.parseCastle960(fields[3]); err != nil {
			return err
		}
	} else if p.castle, err = rules.ParseCastling(fields[3], nil); err != nil {
		return err
	}
	if fields[4] != "-" {
		sq, err := ParseSquare(fields[4])
		if err != nil {
			return fmt.Errorf("en passant: %v", err)
		}
		if p.board[sq] != rules.PieceOf(p.side.Other(), Pawn) {
			return fmt.Errorf("en passant square %s holds no %s pawn (the side that just moved)", sq, p.side.Other())
		}
		p.ep = sq
	}
	for _, f := range rules.ListItems(fields[5]) {
		sq, err := ParseSquare(f)
		if err != nil {
			return fmt.Errorf("double-step: %v", err)
		}
		if p.board[sq].Kind() != Pawn {
			return fmt.Errorf("double-step square %s holds no pawn", sq)
		}
		p.ds.set(sq)
	}
	if p.half, p.full, err = rules.ParseClocks(fields[6], fields[7]); err != nil {
		return err
	}
	if p.inCheck(p.side.Other()) {
		return errors.New("the side not to move is in check")
	}
	if p.opt.flags != 0 {
		return p.checkOptions()
	}
	return nil
}

// occupied reports whether a piece stands on sq.
func (p *Position) occupied(sq Square) bool { return p.board[sq] != 0 }

// String writes the canonical position string. Square numbers follow the
// writer's order (level W, N, B, QL1..QL6, KL1..KL6, then rank, then file),
// so walking them in order sorts the lists.
func (p Position) String() string {
	var b strings.Builder
	b.Grow(400)
	boards := rules.NewListWriter(&b) // no End: this field has no "-" form
	for q := Pin(0); q < NumPins; q++ {
		if !p.hasPin(q) {
			continue
		}
		boards.Next()
		b.WriteString(q.String())
		if p.opt.neutral&(1<<uint(q)) != 0 {
			b.WriteString(":n")
		} else if p.black&(1<<uint(q)) != 0 {
			b.WriteString(":b")
		} else {
			b.WriteString(":w")
		}
	}
	b.WriteByte(' ')
	p.writeKey(&b)
	b.WriteByte(' ')
	rules.WriteClocks(&b, p.half, p.full)
	return b.String()
}

// writeKey writes the fields between boards and clocks.
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
	if p.opt.flags&opt960 != 0 {
		p.write960Castling(b)
	} else {
		rules.WriteCastling(b, p.castle)
	}
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

// Key identifies the position for repetition (docs/rules.md, "Draws and
// records"): pieces, boards and markings, side to move, castling rights, en
// passant and double-step rights; not the clocks.
func (p Position) Key() string {
	s := p.String()
	// Drop the two clocks.
	i := strings.LastIndexByte(s, ' ')
	i = strings.LastIndexByte(s[:i], ' ')
	return s[:i]
}
