package st3d

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// 3D Chess960 (V.P5, docs/rules.md): the virtual rank, the numbering (V2),
// castling (V.P5.3, V5) and the castling field (V6).

// virtualRank lists each side's eight piece squares in order (V.P5).
var virtualRank [2][8]Square

// vIndex is a square's place on the virtual rank of vSide[s], or -1.
var (
	vIndex [NumSquares]int8
	vSide  [NumSquares]rules.Color
)

// cornerPin is the pin over a promotion corner (V.A3): a1W QL1, d1W KL1,
// a8B QL6, d8B KL6; -1 elsewhere.
var cornerPin [NumSquares]Pin

// init runs after geometry's (file order), when squares have names.
func init() {
	for s := range vIndex {
		vIndex[s] = -1
		cornerPin[s] = -1
	}
	for c, names := range [2][8]string{
		{"z0QL1", "a0QL1", "a1W", "b1W", "c1W", "d1W", "d0KL1", "e0KL1"},
		{"z9QL6", "a9QL6", "a8B", "b8B", "c8B", "d8B", "d9KL6", "e9KL6"},
	} {
		for i, n := range names {
			s := mustSquare(n)
			virtualRank[c][i] = s
			vIndex[s] = int8(i)
			vSide[s] = rules.Color(c)
		}
	}
	cornerPin[sqA1W], cornerPin[sqD1W], cornerPin[sqA8B], cornerPin[sqD8B] = pinQL1, pinKL1, pinQL6, pinKL6
}

// vRank0 reports whether place i of a virtual rank is on rank 0 (rank 9
// for Black): z0, a0, d0, e0.
func vRank0(i int8) bool { return i <= 1 || i >= 6 }

// Chess960 returns the setup number n (0..959) as eight piece letters for
// the virtual rank z0QL1, a0QL1, a1W, b1W, c1W, d1W, d0KL1, e0KL1, by the
// standard Chess960 numbering (V2): 518 is "RNBQKBNR", 409 the ordinary
// ST3D setup "RQNBBNKR".
func Chess960(n int) string {
	if n < 0 || n > 959 {
		return ""
	}
	var r [8]byte
	r[2*(n%4)+1] = 'B' // the bishop on a light place (b, d, f, h)
	n /= 4
	r[2*(n%4)] = 'B' // the bishop on a dark place (a, c, e, g)
	n /= 4
	free := func(k int, c byte) {
		for i := range r {
			if r[i] == 0 {
				if k == 0 {
					r[i] = c
					return
				}
				k--
			}
		}
	}
	free(n%6, 'Q')
	n /= 6
	kn := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}[n]
	free(kn[1], 'N')
	free(kn[0], 'N')
	free(0, 'R')
	free(0, 'K')
	free(0, 'R')
	return string(r[:])
}

// 960 castling rights are bits 4..7 of Position.castle, in the order of
// castleWK..castleBQ (e side, a side; White, Black), so that undo keeps
// them with the tournament rights. The tournament castleMask never clears
// them.
const castle960Shift = 4

// right960 is the bit index of a side's e-side (false) or a-side right.
func right960(c rules.Color, aSide bool) uint {
	i := 2 * uint(c)
	if aSide {
		i++
	}
	return i
}

// castle960Dest gives the king's and rook's destinations (V.P5.3).
func castle960Dest(c rules.Color, aSide bool) (kd, rd int8) {
	if aSide {
		return 1, 6
	}
	return 7, 6
}

// castlePath appends the virtual-rank places a piece crosses from i to j,
// j included (V.P5.3.4, V5): along rank 0 only rank-0 places count; a
// move from or to rank 1 crosses every place between.
func castlePath(out []int8, i, j int8) []int8 {
	if i == j {
		return out
	}
	step := int8(1)
	if j < i {
		step = -1
	}
	along0 := vRank0(i) && vRank0(j)
	for t := i + step; t != j; t += step {
		if !along0 || vRank0(t) {
			out = append(out, t)
		}
	}
	return append(out, j)
}

// genCastle960 appends the castlings of V.P5.3: once per side, not on the
// side's first move (D11), with the squares of both paths in place and
// empty but for the king and that rook, the king's start and end (and,
// from rank 1, the rank-1 places it crosses) not attacked before the move.
func (p *Position) genCastle960(buf []rules.Move) []rules.Move {
	rights := p.castle >> castle960Shift
	if p.full == 1 || rights == 0 {
		return buf
	}
	us, them := p.side, p.side.Other()
	k := p.king[us]
	if k == NoSquare || vIndex[k] < 0 || vSide[k] != us {
		return buf
	}
	ki := vIndex[k]
	vr := &virtualRank[us]
	for _, aSide := range [2]bool{false, true} {
		bit := right960(us, aSide)
		if rights&(1<<bit) == 0 {
			continue
		}
		rs := p.opt.rook[bit]
		if rs == NoSquare || p.board[rs] != rules.PieceOf(us, Rook) || vIndex[rs] < 0 || vSide[rs] != us {
			continue
		}
		ri := vIndex[rs]
		if aSide != (ri < ki) {
			continue
		}
		kd, rd := castle960Dest(us, aSide)
		var pathBuf [16]int8
		path := castlePath(castlePath(pathBuf[:0], ki, kd), ri, rd)
		ok := true
		for _, i := range path {
			s := vr[i]
			if !p.exists(s) || s != k && s != rs && p.board[s] != 0 {
				ok = false
				break
			}
		}
		if !ok || p.attacked(sqCol[k], them) || p.attacked(sqCol[vr[kd]], them) {
			continue
		}
		if !vRank0(ki) {
			for _, i := range castlePath(pathBuf[:0], ki, kd) {
				if i != kd && !vRank0(i) && p.attacked(sqCol[vr[i]], them) {
					ok = false
					break
				}
			}
		}
		if !ok {
			continue
		}
		kind := uint32(kindCastleK)
		if aSide {
			kind = kindCastleQ
		}
		buf = append(buf, newMove(int8(k), int8(rs), kind)|castle960Bit)
	}
	return buf
}

// castle960Squares gives the king's and rook's start and end squares of a
// 960 castling m by side c.
func castle960Squares(m rules.Move, c rules.Color) (k, r, kd, rd Square) {
	kdi, rdi := castle960Dest(c, mKind(m) == kindCastleQ)
	return Square(mFrom(m)), Square(mTo(m)), virtualRank[c][kdi], virtualRank[c][rdi]
}

func (p *Position) makeCastle960(m rules.Move, us rules.Color) {
	k, r, kd, rd := castle960Squares(m, us)
	kp := p.remove(k)
	rp := p.remove(r)
	p.put(kd, kp)
	p.put(rd, rp)
	p.castle &^= 3 << (castle960Shift + 2*uint(us))
}

func (p *Position) unmakeCastle960(m rules.Move, us rules.Color) {
	k, r, kd, rd := castle960Squares(m, us)
	kp := p.remove(kd)
	rp := p.remove(rd)
	p.put(k, kp)
	p.put(r, rp)
}

// lose960Rights clears the 960 rights a move touching square s takes away
// (D16): the king's (the king on s moved) and the rook's whose home is s.
func (p *Position) lose960Rights(s Square) {
	if s == NoSquare {
		return
	}
	for i := uint(0); i < 4; i++ {
		if p.castle&(1<<(castle960Shift+i)) != 0 && p.opt.rook[i] == s {
			p.castle &^= 1 << (castle960Shift + i)
		}
	}
	if pc := p.board[s]; pc.Kind() == King {
		p.castle &^= 3 << (castle960Shift + 2*uint(pc.Color()))
	}
}

// parseCastle960 reads the castling field of a V.P5/V.P6 position (V6):
// the rooks' home squares, comma-separated, or KQkq for the outermost rook
// on that side of the king, or "-".
func (p *Position) parseCastle960(field string) error {
	for i := range p.opt.rook {
		p.opt.rook[i] = NoSquare
	}
	if field == "-" {
		return nil
	}
	set := func(c rules.Color, aSide bool, s Square) error {
		bit := right960(c, aSide)
		if p.castle&(1<<(castle960Shift+bit)) != 0 {
			return fmt.Errorf("castling field %q: two rights for the %s %s side", field, c, map[bool]string{true: "a", false: "e"}[aSide])
		}
		p.castle |= 1 << (castle960Shift + bit)
		p.opt.rook[bit] = s
		return nil
	}
	kingPlace := func(c rules.Color) (int8, error) {
		k := p.king[c]
		if k == NoSquare || vIndex[k] < 0 || vSide[k] != c {
			return 0, fmt.Errorf("castling field %q: the %s king is not on its piece squares (V.P5)", field, c)
		}
		return vIndex[k], nil
	}
	if strings.Trim(field, "KQkq") == "" {
		for _, ch := range field {
			c := rules.White
			if ch == 'k' || ch == 'q' {
				c = rules.Black
			}
			aSide := ch == 'Q' || ch == 'q'
			ki, err := kingPlace(c)
			if err != nil {
				return err
			}
			found := NoSquare
			for i := int8(0); i < 8; i++ {
				s := virtualRank[c][i]
				if p.board[s] != rules.PieceOf(c, Rook) || aSide != (i < ki) || i == ki {
					continue
				}
				if aSide && found == NoSquare || !aSide {
					found = s // a side: the first from z; e side: the last
				}
			}
			if found == NoSquare {
				return fmt.Errorf("castling field %q: no %s rook on the %s side of the king", field, c, map[bool]string{true: "a", false: "e"}[aSide])
			}
			if err := set(c, aSide, found); err != nil {
				return err
			}
		}
		return nil
	}
	for _, f := range strings.Split(field, ",") {
		s, err := ParseSquare(f)
		if err != nil {
			return fmt.Errorf("castling field: %v (want rook home squares such as a0QL1,e0KL1, KQkq or -)", err)
		}
		pc := p.board[s]
		if pc.Kind() != Rook {
			return fmt.Errorf("castling field: %s holds no rook", s)
		}
		c := pc.Color()
		if vIndex[s] < 0 || vSide[s] != c {
			return fmt.Errorf("castling field: the rook on %s is not on the %s piece squares (V.P5)", s, c)
		}
		ki, err := kingPlace(c)
		if err != nil {
			return err
		}
		if err := set(c, vIndex[s] < ki, s); err != nil {
			return err
		}
	}
	return nil
}

// write960Castling writes the castling field of a V.P5/V.P6 position:
// White's a-side and e-side rook, then Black's, or "-".
func (p *Position) write960Castling(b *strings.Builder) {
	first := true
	for _, bit := range [4]uint{1, 0, 3, 2} {
		if p.castle&(1<<(castle960Shift+bit)) != 0 {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(p.opt.rook[bit].String())
		}
	}
	if first {
		b.WriteByte('-')
	}
}
