package firstcontact

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Position string (docs/rules.md, "Notation and positions"): st3d's
// eight fields with boards written "QL3u:-" (platforms have no owner), then
// a ninth field for the reserves and a tenth for the platform that may not
// move next:
//
//	<platforms> <pieces> <side> <castling> <en-passant> <double-step> <halfmove> <fullmove> <reserves> <ban>
//
// First Contact has no castling, en passant or double step: those three
// fields are always "-". An empty platform or piece list is "-". The
// reserves are written "QRRBBNNPPPPPPPP/qrrbbnnpppppppp" (White's half in
// upper case, in the order Q R B N P; an empty half "-"); a reader takes
// the letters of a half in any order.

// StartString is the start position: an empty set, full reserves, White to
// place a platform.
const StartString = "- - w - - - 0 1 QRRBBNNPPPPPPPP/qrrbbnnpppppppp -"

// startPos is parsed once the tables exist (geometry's init).
var startPos Position

// StartPosition returns the start position.
func StartPosition() Position { return startPos }

// Parse reads a position string of the full system. Lists may come in any
// order; the position is refused, with the reason, when it could not arise.
func Parse(s string) (Position, error) { return parse(s, false) }

// ParseUpOnly reads a position string for UpOnly, which refuses `d`
// positions (F6).
func ParseUpOnly(s string) (Position, error) { return parse(s, true) }

func parse(s string, up bool) (Position, error) {
	return rules.ParseString("first-contact", s, func(p *Position, s string) error { return p.parse(s, up) })
}

// reserveOrder is the order of a written reserve half.
var reserveOrder = [5]Piece{Queen, Rook, Bishop, Knight, Pawn}

func (p *Position) parse(s string, up bool) error {
	fields, err := rules.SplitFields(s, 10)
	if err != nil {
		return err
	}
	p.up = up
	p.exist = fixedMask
	p.king = [2]Square{NoSquare, NoSquare}
	p.ban = NoSlot
	for _, b := range rules.ListItems(fields[0]) {
		name, owner, ok := strings.Cut(b, ":")
		sl, err := ParseSlot(name)
		if !ok || err != nil || owner != "-" {
			return fmt.Errorf("platform %q: want POSITION:-, such as QL3u:-", b)
		}
		if up && sl.Inverted() {
			return fmt.Errorf("platform %q: this set senses upright platforms only (F6)", b)
		}
		if p.hasPlatform(sl) {
			return fmt.Errorf("two platforms at %s", sl)
		}
		p.addPlatform(sl)
	}
	if n := bits.OnesCount32(p.plats); n > 4 {
		return fmt.Errorf("%d platforms, the set has 4", n)
	}
	err = rules.ParsePieces(fields[1], "Kc1W", ParseSquare, p.occupied, func(f string, pc Piece, sq Square) error {
		if !p.exist.has(sq) {
			return fmt.Errorf("piece %q: square %s does not exist without a platform at %s", f, sq, sq.Slot())
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
	for i, name := range []string{"castling", "en-passant", "double-step"} {
		if fields[3+i] != "-" {
			return fmt.Errorf("%s field %q: First Contact has none, want -", name, fields[3+i])
		}
	}
	if p.half, p.full, err = rules.ParseClocks(fields[6], fields[7]); err != nil {
		return err
	}
	if err := p.parseReserves(fields[8]); err != nil {
		return err
	}
	if fields[9] != "-" {
		sl, err := ParseSlot(fields[9])
		if err != nil {
			return fmt.Errorf("move ban: %v", err)
		}
		if !p.hasPlatform(sl) {
			return fmt.Errorf("move ban %s: no platform stands there", sl)
		}
		p.ban = sl
	}
	return p.checkPhase()
}

// parseReserves reads the ninth field and checks that no side has more
// pieces of a kind, on the set and in reserve, than a standard army.
func (p *Position) parseReserves(f string) error {
	halves := strings.Split(f, "/")
	if len(halves) != 2 {
		return fmt.Errorf("reserves %q: want WHITE/BLACK, such as QRRBBNNPPPPPPPP/qrrbbnnpppppppp", f)
	}
	for c, h := range halves {
		if h == "-" {
			continue
		}
		if h == "" {
			return fmt.Errorf("reserves %q: an empty half is written -", f)
		}
		for i := 0; i < len(h); i++ {
			l := h[i]
			if c == 1 {
				l -= 'a' - 'A'
			}
			k := strings.IndexByte(" PNBRQ", l)
			if k <= 0 {
				return fmt.Errorf("reserves %q: %q is not a %s piece letter (QRBNP, %s)", f, h[i], rules.Color(c),
					map[int]string{0: "upper case", 1: "lower case"}[c])
			}
			p.reserve[c][k]++
		}
	}
	for c := 0; c < 2; c++ {
		for k := Pawn; k <= King; k++ {
			n := 0
			if k < King {
				n = int(p.reserve[c][k])
			}
			for s := Square(0); s < NumSquares; s++ {
				if p.board[s] == rules.PieceOf(rules.Color(c), k) {
					n++
				}
			}
			max := 1
			if k < King {
				max = int(army[k])
			}
			if n > max {
				return fmt.Errorf("%s has %d %c on the set and in reserve, a standard army has %d",
					rules.Color(c), n, pieceLetters[k], max)
			}
		}
	}
	return nil
}

// checkPhase refuses what the placement order or the rules rule out.
func (p *Position) checkPhase() error {
	fullReserve := p.reserve == [2][King]uint8{army, army}
	nplats := bits.OnesCount32(p.plats)
	pieces := 0
	for c := 0; c < 2; c++ {
		for _, w := range p.occ[c] {
			pieces += bits.OnesCount64(w)
		}
	}
	phase := p.phase()
	if phase != phasePlay {
		want := rules.Color(nplats % 2)
		switch phase {
		case phasePlatforms:
			if pieces > 0 {
				return fmt.Errorf("pieces on the set while %d of the 4 platforms are placed", nplats)
			}
		case phaseWhiteKing:
			want = rules.White
			if pieces > 0 {
				return errors.New("pieces on the set before White's king is placed")
			}
		case phaseBlackKing:
			want = rules.Black
			if pieces > 1 {
				return errors.New("pieces on the set before Black's king is placed")
			}
		}
		if p.side != want {
			return fmt.Errorf("%s to move in the placement phase, where it is %s's turn", p.side, want)
		}
		if !fullReserve {
			return errors.New("reserves not full in the placement phase")
		}
		if p.ban != NoSlot {
			return errors.New("a move ban in the placement phase (placements do not count)")
		}
		return nil
	}
	if p.inCheck(p.side.Other()) {
		return errors.New("the side not to move is in check")
	}
	return nil
}

// occupied reports whether a piece stands on sq.
func (p *Position) occupied(sq Square) bool { return p.board[sq] != 0 }

// String writes the canonical position string. Square numbers follow the
// writer's order (W, N, B, then the platform positions QL1u .. KL6d, each
// by rank then file), so walking them in order sorts the list.
func (p *Position) String() string {
	var b strings.Builder
	b.Grow(300)
	p.writeKey(&b, true)
	return b.String()
}

// Key identifies the position for repetition: platforms, pieces, side to
// move, reserves and the move ban; not the clocks.
func (p *Position) Key() string {
	var b strings.Builder
	b.Grow(300)
	p.writeKey(&b, false)
	return b.String()
}

func (p *Position) writeKey(b *strings.Builder, clocks bool) {
	plats := rules.NewListWriter(b)
	for sl := Slot(0); sl < NumSlots; sl++ {
		if p.hasPlatform(sl) {
			plats.Next()
			b.WriteString(sl.String())
			b.WriteString(":-")
		}
	}
	plats.End()
	b.WriteByte(' ')
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
		b.WriteString(" w - - - ")
	} else {
		b.WriteString(" b - - - ")
	}
	if clocks {
		rules.WriteClocks(b, p.half, p.full)
		b.WriteByte(' ')
	}
	for c := 0; c < 2; c++ {
		if c == 1 {
			b.WriteByte('/')
		}
		n := 0
		for _, k := range reserveOrder {
			for i := uint8(0); i < p.reserve[c][k]; i++ {
				b.WriteByte(rules.PieceOf(rules.Color(c), k).Letter())
				n++
			}
		}
		if n == 0 {
			b.WriteByte('-')
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.ban.String())
}
