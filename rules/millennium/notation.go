package millennium

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Long is the long form of m (docs/rules.md, "Notation"): "1e2-2e3",
// "2e7-3e8=Q", "0-0", "0-0-0".
func (p *Position) Long(m rules.Move) string {
	switch mKind(m) {
	case kindCastleK:
		return "0-0"
	case kindCastleQ:
		return "0-0-0"
	}
	s := mFrom(m).String() + "-" + mTo(m).String()
	if k := mPromo(m); k != 0 {
		s += "=" + string(pieceLetters[k])
	}
	return s
}

// Short is the short notation of m, with "+" or "#": piece letter (never a
// figurine), disambiguation, "x" for a capture, destination; pawn moves by
// destination, pawn captures by origin file; the long form when two pawns
// could make the same pawn move.
func (p *Position) Short(m rules.Move) string {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [maxMoves]rules.Move
	s := p.short(m, p.legalMoves(buf[:0]))
	after := *p
	after.make(m)
	if after.inCheck(after.side) {
		if len(after.legalMoves(buf[:0])) == 0 {
			return s + "#"
		}
		return s + "+"
	}
	return s
}

func (p *Position) short(m rules.Move, legal []rules.Move) string {
	switch mKind(m) {
	case kindCastleK:
		return "0-0"
	case kindCastleQ:
		return "0-0-0"
	}
	from, to := mFrom(m), mTo(m)
	promo := ""
	if k := mPromo(m); k != 0 {
		promo = "=" + string(pieceLetters[k])
	}
	pc := p.board[from]
	// others are the squares of the pieces of the same kind that could go
	// to the same destination (same promotion too).
	var others []Square
	for _, o := range legal {
		if mTo(o) == to && mFrom(o) != from && mPromo(o) == mPromo(m) && mKind(o) < kindCastleK && p.board[mFrom(o)] == pc {
			others = append(others, mFrom(o))
		}
	}
	if pc.Kind() == Pawn {
		if !mCapture(m) {
			for _, o := range legal {
				if mTo(o) == to && mFrom(o) != from && mPromo(o) == mPromo(m) && mKind(o) < kindCastleK &&
					!mCapture(o) && p.board[mFrom(o)] == pc {
					return p.Long(m) // two pawns could make this pawn move
				}
			}
			return to.String() + promo
		}
		for _, o := range others {
			if o.File() == from.File() {
				return p.Long(m) // the origin file does not tell them apart
			}
		}
		return string(rune('a'+from.File())) + "x" + to.String() + promo
	}
	dis := ""
	if len(others) > 0 {
		file := string(rune('a' + from.File()))
		rank := string(rune('1' + from.Rank()))
		unique := func(same func(Square) bool) bool {
			for _, o := range others {
				if same(o) {
					return false
				}
			}
			return true
		}
		switch {
		case unique(func(o Square) bool { return o.File() == from.File() }):
			dis = file
		case unique(func(o Square) bool { return o.Rank() == from.Rank() }):
			dis = rank
		case unique(func(o Square) bool { return o.File() == from.File() && o.Rank() == from.Rank() }):
			dis = file + rank
		default:
			dis = from.String()
		}
	}
	x := ""
	if mCapture(m) {
		x = "x"
	}
	return string(pieceLetters[pc.Kind()]) + dis + x + to.String()
}

// ParseMove reads a move in long form or short notation, as
// rules.CleanMove reduces it: figurines, "×" and any dash are read; check
// marks, "e.p.", assessments and NAGs are ignored. The note is
// always empty: no convention resolves an ambiguous move.
func (p *Position) ParseMove(s string) (rules.Move, string, error) {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [maxMoves]rules.Move
	legal := p.legalMoves(buf[:0])
	return rules.Reader{
		System: "millennium",
		Match:  func(in string) ([]rules.Move, error) { return p.match(in, legal) },
		Long:   p.Long,
	}.ReadMove(s)
}

// match finds the legal moves that in may name.
func (p *Position) match(in string, legal []rules.Move) ([]rules.Move, error) {
	var cands []rules.Move
	add := func(f func(m rules.Move) bool) {
		for _, m := range legal {
			if f(m) {
				cands = append(cands, m)
			}
		}
	}
	switch in {
	case "0-0", "O-O":
		add(func(m rules.Move) bool { return mKind(m) == kindCastleK })
		return cands, nil
	case "0-0-0", "O-O-O":
		add(func(m rules.Move) bool { return mKind(m) == kindCastleQ })
		return cands, nil
	}
	// Promotion: "=Q", or a bare letter after the destination.
	var promo Piece
	body := in
	if i := strings.IndexByte(in, '='); i >= 0 {
		if i != len(in)-2 || strings.IndexByte("QRBN", in[i+1]) < 0 {
			return nil, fmt.Errorf("promotion must be =Q, =R, =B or =N")
		}
		promo = Piece(strings.IndexByte(pieceLetters, in[i+1]))
		body = in[:i]
	} else if n := len(in); n > 3 && strings.IndexByte("QRBN", in[n-1]) >= 0 {
		promo = Piece(strings.IndexByte(pieceLetters, in[n-1]))
		body = in[:n-1]
	}
	kind := Pawn
	if body != "" && strings.IndexByte("KQRBN", body[0]) >= 0 {
		kind = Piece(strings.IndexByte(pieceLetters, body[0]))
		body = body[1:]
	}
	if len(body) < 3 {
		return nil, fmt.Errorf("no destination cell")
	}
	to, err := ParseSquare(body[len(body)-3:])
	if err != nil {
		return nil, fmt.Errorf("destination: %v", err)
	}
	hint := body[:len(body)-3]
	capture := false
	fromSq := NoSquare
	file, rank := -1, -1
	if len(hint) == 4 && (hint[3] == '-' || hint[3] == 'x') {
		// Long form: origin, "-" or "x", destination (a leading piece
		// letter must fit the piece).
		if fromSq, err = ParseSquare(hint[:3]); err != nil {
			return nil, fmt.Errorf("origin: %v", err)
		}
		capture = hint[3] == 'x'
	} else {
		if strings.HasSuffix(hint, "x") {
			capture = true
			hint = hint[:len(hint)-1]
		}
		switch {
		case hint == "":
		case len(hint) == 3:
			if fromSq, err = ParseSquare(hint); err != nil {
				return nil, fmt.Errorf("origin: %v", err)
			}
		case len(hint) == 1 && hint[0] >= 'a' && hint[0] <= 'h':
			file = int(hint[0] - 'a')
		case len(hint) == 1 && hint[0] >= '1' && hint[0] <= '8' && kind != Pawn:
			rank = int(hint[0] - '1')
		case len(hint) == 2 && hint[0] >= 'a' && hint[0] <= 'h' && hint[1] >= '1' && hint[1] <= '8' && kind != Pawn:
			file, rank = int(hint[0]-'a'), int(hint[1]-'1')
		default:
			return nil, fmt.Errorf("cannot read %q before the destination", hint)
		}
		if kind == Pawn && fromSq == NoSquare && capture && file < 0 {
			return nil, fmt.Errorf("a pawn capture names the origin file, such as ex3d5")
		}
	}
	long := fromSq != NoSquare
	needPromo := false
	add(func(m rules.Move) bool {
		if mKind(m) >= kindCastleK || mTo(m) != to {
			return false
		}
		from := mFrom(m)
		pk := p.board[from].Kind()
		if long {
			if from != fromSq || kind != Pawn && pk != kind {
				return false
			}
		} else if pk != kind || file >= 0 && from.File() != file || rank >= 0 && from.Rank() != rank {
			return false
		}
		if capture && !mCapture(m) || kind == Pawn && !long && !capture && file < 0 && mCapture(m) {
			return false // a pawn named by its destination alone pushes
		}
		if mPromo(m) != promo {
			needPromo = needPromo || promo == 0
			return false
		}
		return true
	})
	if len(cands) == 0 && needPromo {
		return nil, fmt.Errorf("a promotion needs its piece: =Q, =R, =B or =N (M9)")
	}
	return cands, nil
}
