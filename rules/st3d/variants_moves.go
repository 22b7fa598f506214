package st3d

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Moves of the variant options (docs/rules.md). Tournament positions never
// reach this file: genPseudo and countLegal branch here once per node when
// optState.flags is set, and make only for the new move kinds.

// Extended moves (kindExt): the sub-kind in bits 21-22.
const (
	extPlace  = 0 // V.P6 placement: from is the piece kind, to the square
	extPromoA = 1 // V.A3 pawn move promoting to an attack board
	extRotate = 2 // V.A2 turn of the board on pin from (= to)

	extShift     = 21
	castle960Bit = 1 << 23 // a V.P5.3 castling: from the king, to the rook's home
)

// promoBoard is the promotion "piece" of V.A3 (letter A).
const promoBoard Piece = 7

// promoLetters are the promotion letters by promotion value.
const promoLetters = " PNBRQKA"

func extMove(from, to int8, sub uint32) rules.Move {
	return newMove(from, to, kindExt) | rules.Move(sub)<<extShift
}

func mExt(m rules.Move) uint32 { return uint32(m>>extShift) & 3 }

// squareMove reports whether m goes from a square to a square (piece and
// pawn moves, V.A3 pawn promotions to a board included).
func squareMove(m rules.Move) bool {
	k := mKind(m)
	return k < kindCastleK || k == kindExt && mExt(m) == extPromoA
}

const boardOpts = optA1 | optA2 | optA21 | optA3 | optA4 | optA5

// placing reports whether a V.P6 game is still in its placement phase.
func (p *Position) placing() bool {
	return p.opt.flags&optPlace != 0 && (p.king[rules.White] == NoSquare || p.king[rules.Black] == NoSquare)
}

// genOpt is genPseudo under options.
func (p *Position) genOpt(buf []rules.Move) []rules.Move {
	f := p.opt.flags
	if p.placing() {
		return p.genPlacements(buf)
	}
	us := p.side
	exist := p.existing()
	own := p.bb[us][0]
	enemy := p.bb[us.Other()][0]
	start := len(buf)
	for w := 0; w < 2; w++ {
		word := own[w]
		for word != 0 {
			s := Square(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			buf = p.genPiece(buf, s, p.board[s].Kind(), exist, own, enemy)
		}
	}
	if f&optA3 != 0 && p.spareBoard() {
		// V.A3: a promotion on a1, d1, a8 or d8 may become a board.
		end := len(buf)
		for _, m := range buf[start:end] {
			if mKind(m) == kindNormal && mPromo(m) == Queen {
				if q := cornerPin[mTo(m)]; q >= 0 && !p.hasPin(q) {
					buf = append(buf, extMove(mFrom(m), mTo(m), extPromoA)|m&captureBit|rules.Move(promoBoard)<<14)
				}
			}
		}
	}
	if f&opt960 != 0 {
		buf = p.genCastle960(buf)
	} else {
		buf = p.genCastling(buf)
	}
	if f&boardOpts == 0 {
		return p.genBoardMoves(buf)
	}
	return p.genOptBoards(buf)
}

// spareBoard reports whether a V.A3 promotion may add a board: always
// under the rules, which set no limit, and while fewer boards stand than
// a physical set has when Options.MaxBoards says how many.
func (p *Position) spareBoard() bool {
	return p.opt.boards == Unlimited || bits.OnesCount16(p.pins) < int(p.opt.boards)
}

// optAdjacent reports whether a board may go from pin q to pin o under
// the options (D13; V.A2.1: exactly two ranks on the same side, V1; V.A5:
// the same corner one main board up or down; both: what both allow).
func (p *Position) optAdjacent(q, o Pin) bool {
	f := p.opt.flags
	sameSide := (q < 6) == (o < 6)
	if f&(optA21|optA5) == 0 {
		dn := int(q%6) - int(o%6)
		return sameSide && (dn == 1 || dn == -1 || dn == 2 || dn == -2) || !sameSide && dn == 0
	}
	if !sameSide {
		return false
	}
	if f&optA21 != 0 {
		if d := int(pinRank[o]) - int(pinRank[q]); d != 2 && d != -2 {
			return false
		}
	}
	if f&optA5 != 0 {
		if d := int(q%6) - int(o%6); d != 2 && d != -2 {
			return false
		}
	}
	return true
}

// aheadFor reports whether square t lies on a rank ahead of square s for
// side c (higher ranks for White).
func (p *Position) aheadFor(c rules.Color, s, t Square) bool {
	if c == rules.White {
		return sqRank[t] > sqRank[s]
	}
	return sqRank[t] < sqRank[s]
}

// forward reports whether a board move from q to o goes toward the
// opponent (higher ranks for White).
func (p *Position) forward(q, o Pin) bool {
	if p.side == rules.White {
		return pinRank[o] > pinRank[q]
	}
	return pinRank[o] < pinRank[q]
}

// genOptBoards appends the board moves and turns under the options.
func (p *Position) genOptBoards(buf []rules.Move) []rules.Move {
	f := p.opt.flags
	us := p.side
	for q := Pin(0); q < NumPins; q++ {
		if !p.hasPin(q) || p.opt.neutral&(1<<uint(q)) != 0 {
			continue // V.A4: nobody moves or turns a neutral board
		}
		ctl, ok := p.boardController(q)
		if !ok || ctl != us {
			continue
		}
		cs := p.carried(q)
		if f&optA5 != 0 {
			// V.A5: own boards, empty or carrying one of the owner's pawns.
			if rules.Color(p.black>>uint(q)&1) != us {
				continue
			}
			if cs != NoSquare && p.board[cs] != rules.PieceOf(us, Pawn) {
				continue
			}
			// V7: turns too, and never to a rank behind the pawn.
			if f&optA2 != 0 && cs != NoSquare && p.aheadFor(us, cs, turned(q, cs)) {
				buf = p.addTurn(buf, q, cs)
			}
		} else if f&optA2 != 0 && cs != NoSquare {
			buf = p.addTurn(buf, q, cs)
		}
		for o := Pin(0); o < NumPins; o++ {
			if o == q || p.hasPin(o) || !p.optAdjacent(q, o) {
				continue
			}
			sideways := (q < 6) != (o < 6)
			switch {
			case f&optA5 != 0:
				if cs != NoSquare && !p.forward(q, o) {
					continue // never backward for the carried pawn
				}
			case f&optA1 != 0:
				if !sideways && (cs != NoSquare) != p.forward(q, o) {
					continue // V.A1: occupied forward, empty backward (or sideways)
				}
			default:
				if cs != NoSquare && p.backward(q, o) {
					continue // D13
				}
			}
			m := newMove(int8(q), int8(o), kindBoard)
			own, _ := p.boardPromotions(q, o)
			if own == NoSquare {
				buf = append(buf, m)
				continue
			}
			buf = append(buf, withPromo(m, Queen), withPromo(m, Rook), withPromo(m, Bishop), withPromo(m, Knight))
			if f&optA3 != 0 && cornerPin[own] == q && p.spareBoard() {
				buf = append(buf, withPromo(m, promoBoard)) // V.A3 in a deferred promotion
			}
		}
	}
	return buf
}

// turned is the square a turn of the board on q takes the piece on s to:
// the diagonally opposite one (V.A2).
func turned(q Pin, s Square) Square { return q.Squares()[3-(s-q.Squares()[0])] }

// addTurn appends the turn of the board on q, which holds only the piece
// on cs (V.A2); a pawn turned onto its furthest rank promotes.
func (p *Position) addTurn(buf []rules.Move, q Pin, cs Square) []rules.Move {
	m := extMove(int8(q), int8(q), extRotate)
	t := turned(q, cs)
	if pc := p.board[cs]; pc.Kind() == Pawn && sqRank[t] == p.furthest(pc.Color(), sqFile[t]) {
		return append(buf, withPromo(m, Queen), withPromo(m, Rook), withPromo(m, Bishop), withPromo(m, Knight))
	}
	return append(buf, m)
}

// placeSchedule is the order of turns of V.P6 (V4): each entry is one
// turn, with the side's bishops, knights and queen placed once it is over.
var placeSchedule = [...]struct {
	c       rules.Color
	b, n, q int
}{
	{rules.White, 1, 0, 0}, {rules.Black, 2, 0, 0}, {rules.White, 2, 1, 0}, {rules.Black, 2, 2, 0},
	{rules.White, 2, 2, 0}, {rules.White, 2, 2, 1}, {rules.Black, 2, 2, 1},
}

// placeTurn finds whose placement it is and which pieces it may place
// (bit per kind), or an error when the pieces placed are no stage of the
// order of turns. done is true once both queens stand.
func (p *Position) placeTurn() (side rules.Color, kinds uint8, done bool, err error) {
	var cnt [2][3]int
	for c := 0; c < 2; c++ {
		cnt[c] = [3]int{p.bb[c][Bishop].count(), p.bb[c][Knight].count(), p.bb[c][Queen].count()}
	}
	var reached [2][3]int
	for _, e := range placeSchedule {
		t := [3]int{e.b, e.n, e.q}
		if cnt[e.c][0] >= t[0] && cnt[e.c][1] >= t[1] && cnt[e.c][2] >= t[2] {
			reached[e.c] = t
			continue
		}
		o := e.c.Other()
		if cnt[o] != reached[o] {
			return 0, 0, false, fmt.Errorf("pieces placed out of the order of turns (V.P6)")
		}
		for i, k := range [3]Piece{Bishop, Knight, Queen} {
			if cnt[e.c][i] < reached[e.c][i] || cnt[e.c][i] > t[i] {
				return 0, 0, false, fmt.Errorf("pieces placed out of the order of turns (V.P6)")
			}
			if cnt[e.c][i] < t[i] {
				kinds |= 1 << k
			}
		}
		return e.c, kinds, false, nil
	}
	return rules.White, 0, true, nil
}

// genPlacements appends the placements of the side to move (V.P6): a piece
// of its turn on an empty square of its eight piece squares, the second
// bishop on the other colour.
func (p *Position) genPlacements(buf []rules.Move) []rules.Move {
	side, kinds, done, err := p.placeTurn()
	if err != nil || done || side != p.side {
		return buf
	}
	us := p.side
	for _, k := range [3]Piece{Bishop, Knight, Queen} {
		if kinds&(1<<k) == 0 {
			continue
		}
		for _, s := range virtualRank[us] {
			if p.board[s] != 0 || !p.exists(s) {
				continue
			}
			if k == Bishop && p.bb[us][Bishop].count() == 1 {
				if b := p.firstOf(us, Bishop); b.Dark() == s.Dark() {
					continue
				}
			}
			buf = append(buf, extMove(int8(k), int8(s), extPlace))
		}
	}
	return buf
}

func (p *Position) firstOf(c rules.Color, k Piece) Square { return firstOfSet(p.bb[c][k]) }

// makeExt plays a move of kind kindExt and ends the turn.
func (p *Position) makeExt(m rules.Move, u *undo) {
	us := p.side
	from, to := mFrom(m), Square(mTo(m))
	switch mExt(m) {
	case extPlace:
		p.half = u.half // placements set the game up: no clock, no move number
		p.put(to, rules.PieceOf(us, Piece(from)))
		if Piece(from) == Queen {
			// The three squares left take rook, king, rook; both rights.
			rk := [3]Piece{Rook, King, Rook}
			n := 0
			for _, s := range virtualRank[us] {
				if p.board[s] == 0 && n < 3 {
					p.put(s, rules.PieceOf(us, rk[n]))
					if rk[n] == Rook {
						p.castle |= 1 << (castle960Shift + right960(us, n == 0))
						p.opt.rook[right960(us, n == 0)] = s
					}
					n++
				}
			}
		}
		p.claim(u)
		side, _, _, _ := p.placeTurn()
		p.side = side
		return
	case extPromoA:
		if p.board[to] != 0 {
			u.captured = p.remove(to)
			u.capSq = to
		}
		p.remove(Square(from))
		p.half = 0
		p.castle &= castleMask[from] & castleMask[to]
		p.ds.clear(Square(from))
		p.ds.clear(to)
		q := cornerPin[to]
		p.pins |= 1 << uint(q)
		if us == rules.Black {
			p.black |= 1 << uint(q)
		}
		if p.castle>>castle960Shift != 0 {
			p.lose960Rights(to)
		}
	case extRotate:
		q := Pin(from)
		cs := p.carried(q)
		t := turned(q, cs)
		pc := p.remove(cs)
		u.carriedTo = t
		if k := mPromo(m); k != 0 {
			u.promoSq[0], u.promoPiece[0] = t, pc
			pc = rules.PieceOf(pc.Color(), k)
		}
		p.put(t, pc)
		p.ds.clear(cs) // D7: the turned piece counts as carried
		p.castle &= castleMask[cs] & castleMask[t]
		if p.castle>>castle960Shift != 0 {
			p.lose960Rights(t)
			p.lose960Rights(cs)
		}
	}
	if us == rules.Black {
		p.full++
	}
	p.side = us.Other()
}

// unmakeExt takes back a move of kind kindExt; unmake has already given
// the turn back as for an ordinary move and restores the clocks after.
func (p *Position) unmakeExt(m rules.Move, u undo) {
	from, to := mFrom(m), Square(mTo(m))
	switch mExt(m) {
	case extPlace:
		pc := p.remove(to)
		us := pc.Color()
		if p.side == rules.Black {
			p.full++ // make did not count a placement
		}
		p.side = us
		if pc.Kind() == Queen {
			for _, s := range virtualRank[us] {
				if k := p.board[s].Kind(); k == Rook || k == King {
					p.remove(s)
				}
			}
			p.king[us] = NoSquare
			p.opt.rook[right960(us, false)], p.opt.rook[right960(us, true)] = NoSquare, NoSquare
		}
	case extPromoA:
		q := cornerPin[to]
		p.pins &^= 1 << uint(q)
		p.black &^= 1 << uint(q)
		p.put(Square(from), rules.PieceOf(p.side, Pawn))
		if u.captured != 0 {
			p.put(u.capSq, u.captured)
		}
	case extRotate:
		q := Pin(from)
		t := u.carriedTo
		pc := p.remove(t)
		if u.promoSq[0] != NoSquare {
			pc = u.promoPiece[0]
		}
		p.put(turned(q, t), pc)
	}
}

// optAfter does what options add to an ordinary move (piece move,
// castling, board move), after it: 960 rights lost (D16) and neutral
// boards claimed (V.A4).
func (p *Position) optAfter(m rules.Move, from, to Square, u *undo) {
	if p.castle>>castle960Shift != 0 {
		switch mKind(m) {
		case kindBoard:
			if t := u.carriedTo; t != NoSquare {
				p.lose960Rights(t)
				p.lose960Rights(Pin(from).Squares()[t-Pin(to).Squares()[0]])
			}
		case kindCastleK, kindCastleQ:
		default:
			p.lose960Rights(to)
			p.lose960Rights(from)
		}
	}
	p.claim(u)
}

// claim gives each neutral board a piece now stands on to that piece's
// side (V.A4); u records it for unmake.
func (p *Position) claim(u *undo) {
	for n := p.opt.neutral; n != 0; n &= n - 1 {
		q := Pin(bits.TrailingZeros16(n))
		if cs := p.carried(q); cs != NoSquare {
			p.opt.neutral &^= 1 << uint(q)
			if p.board[cs].Color() == rules.Black {
				p.black |= 1 << uint(q)
			}
			u.claimed |= 1 << uint(q)
		}
	}
}

// unclaim takes back the claims of a move.
func (p *Position) unclaim(u undo) {
	p.opt.neutral |= u.claimed
	p.black &^= u.claimed
}

// optInfo is Info for the moves options add.
func (p *Position) optInfo(m rules.Move) rules.MoveInfo {
	in := rules.MoveInfo{Captured: rules.NoCell, Promoted: rules.NoCell}
	from, to := mFrom(m), mTo(m)
	if k := mPromo(m); k != 0 {
		in.Promotion = true
		in.PromoteTo = promoLetters[k]
	}
	switch {
	case mKind(m) == kindExt && mExt(m) == extPlace:
		in.From, in.To = rules.NoCell, SquareCell(Square(to))
	case mKind(m) == kindExt && mExt(m) == extPromoA:
		in.From, in.To = SquareCell(Square(from)), PinCell(cornerPin[to])
		in.Promoted = SquareCell(Square(to))
		in.Touched.Add(in.From)
		if mCapture(m) {
			in.Captured = SquareCell(Square(to))
			in.Touched.Add(in.Captured)
		}
	case mKind(m) == kindExt && mExt(m) == extRotate:
		q := Pin(from)
		cs := p.carried(q)
		in.Board = true
		in.From, in.To = PinCell(q), PinCell(q)
		in.Touched.Add(in.From)
		in.Touched.Add(SquareCell(cs))
		if in.Promotion {
			in.Promoted = SquareCell(turned(q, cs))
		}
	case mKind(m) == kindBoard: // a deferred promotion to a board (V.A3)
		q, o := Pin(from), Pin(to)
		in.Board = true
		in.From, in.To = PinCell(q), PinCell(o)
		in.Touched.Add(in.From)
		if cs := p.carried(q); cs != NoSquare {
			in.Touched.Add(SquareCell(cs))
		}
		own, _ := p.boardPromotions(q, o)
		in.Promoted = SquareCell(own)
		in.Touched.Add(in.Promoted) // the pawn leaves the set
	default: // 960 castling
		k, r, kd, rd := castle960Squares(m, p.side)
		in.Castle = true
		in.From, in.To = SquareCell(k), SquareCell(kd)
		if k == kd {
			in.From, in.To = SquareCell(r), SquareCell(rd)
		}
		if k != kd {
			in.Touched.Add(SquareCell(k))
		}
		if r != rd {
			in.Touched.Add(SquareCell(r))
		}
	}
	return in
}

// longExt is the long form of the moves options add.
func (p *Position) longExt(m rules.Move) string {
	switch mExt(m) {
	case extPlace:
		return string(pieceLetters[mFrom(m)]) + "@" + Square(mTo(m)).String()
	case extPromoA:
		return Square(mFrom(m)).String() + "-" + Square(mTo(m)).String() + "=A"
	}
	s := Pin(mFrom(m)).String() + "@"
	if k := mPromo(m); k != 0 {
		s += "=" + string(promoLetters[k])
	}
	return s
}

// shortExt is the short form: placements and turns as in long form (a
// turn's promotion letter without "="), a pawn's promotion to a board as
// the pawn move with the letter A ("a8BA").
func (p *Position) shortExt(m rules.Move, legal []rules.Move) string {
	switch mExt(m) {
	case extPlace:
		return p.longExt(m)
	case extPromoA:
		q := newMove(mFrom(m), mTo(m), kindNormal) | m&captureBit
		return strings.TrimSuffix(p.short(withPromo(q, Queen), legal), "Q") + "A"
	}
	s := Pin(mFrom(m)).String() + "@"
	if k := mPromo(m); k != 0 {
		s += string(promoLetters[k])
	}
	return s
}

// matchExt finds the legal moves a placement ("B@b1W") or a turn ("QL1@",
// "QL6@=Q", "QL6@Q") names.
func (p *Position) matchExt(in string, legal []rules.Move) ([]rules.Move, error) {
	a, b, _ := strings.Cut(in, "@")
	var cands []rules.Move
	if q, err := ParsePin(a); err == nil {
		b = strings.TrimPrefix(b, "=")
		var promo Piece
		if b != "" {
			if len(b) != 1 || strings.IndexByte("QRBN", b[0]) < 0 {
				return nil, fmt.Errorf("a turn promotes to Q, R, B or N")
			}
			promo = Piece(strings.IndexByte(promoLetters, b[0]))
		}
		for _, m := range legal {
			if mKind(m) == kindExt && mExt(m) == extRotate && Pin(mFrom(m)) == q && mPromo(m) == promo {
				cands = append(cands, m)
			}
		}
		return cands, nil
	}
	if len(a) != 1 || strings.IndexByte("KQRBNP", a[0]) < 0 {
		return nil, fmt.Errorf("want a placement such as B@b1W or a turn such as QL1@")
	}
	s, err := ParseSquare(b)
	if err != nil {
		return nil, err
	}
	k := Piece(strings.IndexByte(pieceLetters, a[0]))
	for _, m := range legal {
		if mKind(m) == kindExt && mExt(m) == extPlace && Piece(mFrom(m)) == k && Square(mTo(m)) == s {
			cands = append(cands, m)
		}
	}
	return cands, nil
}

// checkOptions refuses, with the reason, what a position string cannot
// say under its options: a piece on a neutral board (V.A4: landing on it
// claims it), and a V.P6 placement phase out of the order of turns.
func (p *Position) checkOptions() error {
	for n := p.opt.neutral; n != 0; n &= n - 1 {
		if q := Pin(bits.TrailingZeros16(n)); p.carried(q) != NoSquare {
			return fmt.Errorf("a piece on the neutral board on %s: the first piece to land on it claims it (V.A4)", q)
		}
	}
	if !p.placing() {
		return nil
	}
	side, _, done, err := p.placeTurn()
	if err != nil {
		return err
	}
	if done {
		return fmt.Errorf("the pieces are placed (V.P6) but a king is missing")
	}
	if side != p.side {
		return fmt.Errorf("it is %s's placement (V.P6), not %s's", side, p.side)
	}
	for c := rules.White; c <= rules.Black; c++ {
		own := p.bb[c][0].andNot(p.bb[c][Pawn])
		for _, s := range virtualRank[c] {
			own.clear(s)
		}
		if !own.empty() {
			return fmt.Errorf("during the placement (V.P6) the %s pieces stand on their eight piece squares", c)
		}
		if p.bb[c][Queen].count() == 1 && (p.king[c] == NoSquare || p.bb[c][Rook].count() != 2) {
			return fmt.Errorf("the %s queen is placed but not its rooks and king (V.P6)", c)
		}
		if p.bb[c][Queen].count() == 0 && (p.king[c] != NoSquare || !p.bb[c][Rook].empty()) {
			return fmt.Errorf("%s rooks or king stand before the queen is placed (V.P6)", c)
		}
		if b := p.bb[c][Bishop]; b.count() == 2 {
			first := firstOfSet(b)
			b.clear(first)
			if firstOfSet(b).Dark() == first.Dark() {
				return fmt.Errorf("the %s bishops stand on one colour (V.P6)", c)
			}
		}
	}
	if p.full != 1 || p.half != 0 {
		return fmt.Errorf("the placement (V.P6) comes before the first move: halfmove 0, fullmove 1")
	}
	return nil
}

func firstOfSet(b sqset) Square {
	for w := 0; w < 2; w++ {
		if b[w] != 0 {
			return Square(w*64 + bits.TrailingZeros64(b[w]))
		}
	}
	return NoSquare
}
