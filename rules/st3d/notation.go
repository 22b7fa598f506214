package st3d

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Long is the long (machine) form of m: "b2W-b4N", "c7B-b8B=Q", "QL1-QL3",
// "QL4-QL6=Q", "0-0", "0-0-0".
func (p *Position) Long(m rules.Move) string {
	var s string
	switch mKind(m) {
	case kindCastleK:
		return "0-0"
	case kindCastleQ:
		return "0-0-0"
	case kindBoard:
		s = Pin(mFrom(m)).String() + "-" + Pin(mTo(m)).String()
	case kindExt:
		return p.longExt(m)
	default:
		s = Square(mFrom(m)).String() + "-" + Square(mTo(m)).String()
	}
	if k := mPromo(m); k != 0 {
		s += "=" + string(promoLetters[k])
	}
	return s
}

// Short is Meder's short notation of m (Appendix E, D17), with "+" or "#".
func (p *Position) Short(m rules.Move) string {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [256]rules.Move
	legal := p.legalMoves(buf[:0])
	s := p.short(m, legal)
	after := *p
	after.make(m)
	if after.inCheck(after.side) {
		var b2 [256]rules.Move
		if len(after.legalMoves(b2[:0])) == 0 {
			return s + "#"
		}
		return s + "+"
	}
	return s
}

func (p *Position) short(m rules.Move, legal []rules.Move) string {
	from, to := mFrom(m), mTo(m)
	promo := ""
	if k := mPromo(m); k != 0 {
		promo = string(promoLetters[k])
	}
	switch mKind(m) {
	case kindCastleK:
		return "0-0"
	case kindCastleQ:
		return "0-0-0"
	case kindExt:
		return p.shortExt(m, legal)
	case kindBoard:
		for _, o := range legal {
			if mKind(o) == kindBoard && mTo(o) == to && mFrom(o) != from {
				return Pin(from).String() + "-" + Pin(to).String() + promo
			}
		}
		return Pin(to).String() + promo
	}
	fs, ts := Square(from), Square(to)
	pc := p.board[fs]
	if pc.Kind() == Pawn {
		if mCapture(m) {
			s := string(fileNames[sqFile[fs]]) + levelName(int(sqLevel[fs])) + "x" + ts.String() + promo
			if mKind(m) == kindEP {
				s += " e.p."
			}
			return s
		}
		// D17: name the departure square when another pawn pushes there too.
		for _, o := range legal {
			if mTo(o) == to && mFrom(o) != from && !mCapture(o) && mKind(o) != kindBoard &&
				mKind(o) < kindCastleK && p.board[mFrom(o)].Kind() == Pawn {
				return fs.String() + ts.String() + promo
			}
		}
		return ts.String() + promo
	}
	// Pieces: disambiguate by file, rank or level, then by more.
	var others []Square
	for _, o := range legal {
		if mTo(o) == to && mFrom(o) != from && mKind(o) < kindCastleK && p.board[mFrom(o)] == pc {
			others = append(others, Square(mFrom(o)))
		}
	}
	dis := ""
	if len(others) > 0 {
		file := string(fileNames[sqFile[fs]])
		rank := string(rune('0' + sqRank[fs]))
		level := levelName(int(sqLevel[fs]))
		unique := func(same func(Square) bool) bool {
			for _, o := range others {
				if same(o) {
					return false
				}
			}
			return true
		}
		switch {
		case unique(func(o Square) bool { return sqFile[o] == sqFile[fs] }):
			dis = file
		case unique(func(o Square) bool { return sqRank[o] == sqRank[fs] }):
			dis = rank
		case unique(func(o Square) bool { return sqLevel[o] == sqLevel[fs] }):
			dis = level
		case unique(func(o Square) bool { return sqFile[o] == sqFile[fs] && sqRank[o] == sqRank[fs] }):
			dis = file + rank
		default:
			dis = fs.String()
		}
	}
	x := ""
	if mCapture(m) {
		x = "x"
	}
	return string(pc.Kind().Letter()) + dis + x + ts.String() + promo
}

// ParseMove reads a move in long form or in Meder's short notation, as
// rules.CleanMove reduces it: check marks, "e.p." (before or after them),
// assessments and NAGs are ignored, any dash and "×" are read. The note is non-empty when an
// ambiguous pawn push was resolved by D17's convention.
func (p *Position) ParseMove(s string) (rules.Move, string, error) {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [256]rules.Move
	legal := p.legalMoves(buf[:0])
	var d17 bool
	return rules.Reader{
		System: "st3d",
		Match: func(in string) (cands []rules.Move, err error) {
			cands, d17, err = p.match(in, legal)
			return cands, err
		},
		Long: p.Long,
		Settle: func(cands []rules.Move) (rules.Move, string, bool) {
			if !d17 {
				return 0, "", false
			}
			// D17: take the pawn that stays on its level, if exactly one does.
			var stay []rules.Move
			for _, m := range cands {
				if sqLevel[mFrom(m)] == sqLevel[mTo(m)] {
					stay = append(stay, m)
				}
			}
			if len(stay) != 1 {
				return 0, "", false
			}
			return stay[0], fmt.Sprintf("%s: ambiguous push read as %s, the pawn that stays on its level (D17)", s, p.Long(stay[0])), true
		},
	}.ReadMove(s)
}

// parseLevel reads a level name at the start of s: W, N, B (or S), QL1..KL6.
func parseLevel(s string) (lv int, n int) {
	if s == "" {
		return -1, 0
	}
	switch s[0] {
	case 'W':
		return levelW, 1
	case 'N':
		return levelN, 1
	case 'B', 'S':
		return levelB, 1
	}
	if len(s) >= 3 {
		if q, err := ParsePin(s[:3]); err == nil {
			return 3 + int(q), 3
		}
	}
	return -1, 0
}

// match finds the legal moves that in may name. d17 is true for a pawn push
// named by its arrival square alone.
func (p *Position) match(in string, legal []rules.Move) (cands []rules.Move, d17 bool, err error) {
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
		return cands, false, nil
	case "0-0-0", "O-O-O":
		add(func(m rules.Move) bool { return mKind(m) == kindCastleQ })
		return cands, false, nil
	}
	if strings.IndexByte(in, '@') >= 0 && p.opt.flags != 0 {
		cands, err := p.matchExt(in, legal) // placements and turns (options)
		return cands, false, err
	}
	// Promotion suffix: "=Q" or a bare letter after a square or pin.
	letters := "QRBN"
	if p.opt.flags&optA3 != 0 {
		letters = "QRBNA" // V.A3: promotion to an attack board
	}
	var promo Piece
	body := in
	if i := strings.IndexByte(in, '='); i >= 0 {
		if i != len(in)-2 || strings.IndexByte(letters, in[i+1]) < 0 {
			return nil, false, fmt.Errorf("promotion must be =Q, =R, =B or =N")
		}
		promo = Piece(strings.IndexByte(promoLetters, in[i+1]))
		body = in[:i]
	} else if n := len(in); n > 3 && strings.IndexByte(letters, in[n-1]) >= 0 && endsWithPlace(in[:n-1]) {
		promo = Piece(strings.IndexByte(promoLetters, in[n-1]))
		body = in[:n-1]
	}
	promoOK := func(m rules.Move) bool { return mPromo(m) == promo }
	// Board moves: "QL3", "KL1-KL3".
	if a, b, ok := strings.Cut(body, "-"); ok {
		if q, err1 := ParsePin(a); err1 == nil {
			o, err2 := ParsePin(b)
			if err2 != nil {
				return nil, false, err2
			}
			add(func(m rules.Move) bool {
				return mKind(m) == kindBoard && Pin(mFrom(m)) == q && Pin(mTo(m)) == o && promoOK(m)
			})
			return cands, false, nil
		}
		// A piece letter may lead the long form ("Nd8B-c6B"); it must fit.
		var kind Piece
		if len(a) > 3 && strings.IndexByte("KQRBN", a[0]) >= 0 {
			kind = Piece(strings.IndexByte(pieceLetters, a[0]))
			a = a[1:]
		}
		b = strings.TrimPrefix(strings.TrimPrefix(b, "x"), ":")
		fs, err := ParseSquare(a)
		if err != nil {
			return nil, false, err
		}
		ts, err := ParseSquare(b)
		if err != nil {
			return nil, false, err
		}
		add(func(m rules.Move) bool {
			return squareMove(m) && Square(mFrom(m)) == fs && Square(mTo(m)) == ts && promoOK(m) &&
				(kind == 0 || p.board[fs].Kind() == kind)
		})
		return cands, false, nil
	}
	if o, err := ParsePin(body); err == nil {
		add(func(m rules.Move) bool { return mKind(m) == kindBoard && Pin(mTo(m)) == o && promoOK(m) })
		return cands, false, nil
	}
	// Piece and pawn moves: [KQRBN][file][rank][level][x]square.
	if body == "" {
		return nil, false, fmt.Errorf("no arrival square")
	}
	kind := Pawn
	rest := body
	if strings.IndexByte("KQRBN", rest[0]) >= 0 {
		kind = Piece(strings.IndexByte(pieceLetters, rest[0]))
		rest = rest[1:]
	}
	ts, tn := trailingSquare(rest)
	if ts == NoSquare {
		return nil, false, fmt.Errorf("no arrival square")
	}
	hint := rest[:len(rest)-tn]
	capture := strings.HasSuffix(hint, "x") || strings.HasSuffix(hint, ":")
	if capture {
		hint = hint[:len(hint)-1]
	}
	file, rank, level := -1, -1, -1
	if hint != "" && strings.IndexByte(fileNames, hint[0]) >= 0 {
		file = strings.IndexByte(fileNames, hint[0])
		hint = hint[1:]
	}
	if hint != "" && hint[0] >= '0' && hint[0] <= '9' {
		rank = int(hint[0] - '0')
		hint = hint[1:]
	}
	if hint != "" {
		lv, n := parseLevel(hint)
		if lv < 0 || n != len(hint) {
			return nil, false, fmt.Errorf("cannot read %q before the arrival square", hint)
		}
		level = lv
	}
	add(func(m rules.Move) bool {
		if !squareMove(m) || Square(mTo(m)) != ts || !promoOK(m) {
			return false
		}
		fs := Square(mFrom(m))
		if p.board[fs].Kind() != kind || capture && !mCapture(m) {
			return false
		}
		if kind == Pawn && mCapture(m) && !capture && file < 0 && rank < 0 && level < 0 {
			return false // a bare arrival square names a push: captures name their file and level
		}
		return (file < 0 || int(sqFile[fs]) == file) && (rank < 0 || int(sqRank[fs]) == rank) &&
			(level < 0 || int(sqLevel[fs]) == level)
	})
	d17 = kind == Pawn && !capture && file < 0 && rank < 0 && level < 0
	return cands, d17, nil
}

// endsWithPlace reports whether s ends with a square or pin name.
func endsWithPlace(s string) bool {
	if sq, _ := trailingSquare(s); sq != NoSquare {
		return true
	}
	if len(s) >= 3 {
		if _, err := ParsePin(s[len(s)-3:]); err == nil {
			return true
		}
	}
	return false
}

// trailingSquare reads the square that ends s, and its length.
func trailingSquare(s string) (Square, int) {
	for _, n := range []int{5, 3} {
		if len(s) >= n {
			if sq, err := ParseSquare(s[len(s)-n:]); err == nil {
				return sq, n
			}
		}
	}
	return NoSquare, 0
}
