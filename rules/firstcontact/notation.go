package firstcontact

import (
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Notation (docs/rules.md, "Notation and positions").
//
// Long (machine) form: a piece move "b2W-b3W", "a2QL3u-b3N"; an
// introduction or king placement "N@b2W", "K@c1W" (upper-case letter for
// both colours); a platform placement "@QL3u"; a platform move
// "QL3u-QL5u".
//
// Short notation, as this package defines it (the spec leaves it open):
//
//   - A piece move is the piece letter and the arrival square, "Nb3N"; a
//     pawn move the arrival square alone, "b3W". A capture puts "x" before
//     the arrival square, and a pawn capture always names the departure
//     file first, as in chess: "axb4W".
//   - When another piece of the same kind can reach the same square, the
//     departure is named after the piece letter as in st3d: by file, else
//     rank, else level (W, N, B or a platform position such as QL3u), else
//     file and rank, else the whole square ("Nab3W", "N5b3W", "NQL3ub3W").
//   - A pawn's departure always starts with its file, since a level letter
//     N or B first would read as a knight or bishop, and a platform
//     position first as a platform move. A pawn capture names the file
//     ("bxc4W"), and so does a pawn move another pawn can make too; when
//     the file does not tell them apart, file and rank, else file and
//     level, else the whole square ("d3d3W", "dNd3KL3d"). A pawn move no
//     other pawn can make names its arrival only.
//   - A platform move is its arrival position, "QL5u", or departure and
//     arrival ("QL3u-QL5u") when another platform could go there too.
//   - Drops and platform placements are written as in the long form.
//   - A move that gives check wins at once; it is marked "#".
//
// ParseMove reads both forms as rules.CleanMove reduces them: any dash and
// "×" are read; check marks, assessments and NAGs are ignored.

// Long is the long (machine) form of m.
func (p *Position) Long(m rules.Move) string {
	from, to := mFrom(m), mTo(m)
	switch mKind(m) {
	case kindPlace:
		return "@" + Slot(to).String()
	case kindDrop:
		return string(pieceLetters[mPiece(m)]) + "@" + Square(to).String()
	case kindPlatform:
		return Slot(from).String() + "-" + Slot(to).String()
	}
	return Square(from).String() + "-" + Square(to).String()
}

// Short is the short notation of m (see above), with "#" when m gives check.
func (p *Position) Short(m rules.Move) string {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [maxMoves]rules.Move
	legal := p.legalMoves(buf[:0])
	s := p.short(m, legal)
	after := *p
	after.make(m)
	if after.phase() == phasePlay && after.inCheck(after.side) {
		return s + "#"
	}
	return s
}

func (p *Position) short(m rules.Move, legal []rules.Move) string {
	from, to := mFrom(m), mTo(m)
	switch mKind(m) {
	case kindPlace, kindDrop:
		return p.Long(m)
	case kindPlatform:
		for _, o := range legal {
			if mKind(o) == kindPlatform && mTo(o) == to && mFrom(o) != from {
				return p.Long(m)
			}
		}
		return Slot(to).String()
	}
	fs, ts := Square(from), Square(to)
	pc := p.board[fs]
	var others []Square
	for _, o := range legal {
		if mKind(o) == kindPiece && mTo(o) == to && mFrom(o) != from && p.board[mFrom(o)] == pc {
			others = append(others, Square(mFrom(o)))
		}
	}
	file := string(fileNames[sqX[fs]])
	rank := string(rune('0' + sqY[fs]))
	level := levelName(int(sqLevel[fs]))
	unique := func(same func(Square) bool) bool {
		for _, o := range others {
			if same(o) {
				return false
			}
		}
		return true
	}
	sameFile := func(o Square) bool { return sqX[o] == sqX[fs] }
	sameRank := func(o Square) bool { return sqY[o] == sqY[fs] }
	sameLevel := func(o Square) bool { return sqLevel[o] == sqLevel[fs] }
	dis := ""
	switch {
	case pc.Kind() == Pawn && (mCapture(m) || len(others) > 0):
		// A pawn's disambiguation starts with its file, so that it is
		// never read as a piece letter (level N or B) or a platform move
		// (a platform position).
		switch {
		case unique(sameFile):
			dis = file
		case unique(func(o Square) bool { return sameFile(o) && sameRank(o) }):
			dis = file + rank
		case unique(func(o Square) bool { return sameFile(o) && sameLevel(o) }):
			dis = file + level
		default:
			dis = fs.String()
		}
	case len(others) == 0:
	case unique(sameFile):
		dis = file
	case unique(sameRank):
		dis = rank
	case unique(sameLevel):
		dis = level
	case unique(func(o Square) bool { return sameFile(o) && sameRank(o) }):
		dis = file + rank
	default:
		dis = fs.String()
	}
	x := ""
	if mCapture(m) {
		x = "x"
	}
	letter := ""
	if pc.Kind() != Pawn {
		letter = string(pieceLetters[pc.Kind()])
	}
	return letter + dis + x + ts.String()
}

// ParseMove reads a move in long form or short notation. The note is always
// empty: First Contact's notation resolves no ambiguity by convention.
func (p *Position) ParseMove(s string) (rules.Move, string, error) {
	cp := *p // its methods make moves to try them: never on a shared position
	p = &cp
	var buf [maxMoves]rules.Move
	legal := p.legalMoves(buf[:0])
	return rules.Reader{
		System: "first-contact",
		Match:  func(in string) ([]rules.Move, error) { return p.match(in, legal) },
		Long:   p.Long,
	}.ReadMove(s)
}

// isSlotPrefix reports whether s starts like a platform position (QL, KL
// and a digit).
func isSlotPrefix(s string) bool {
	return len(s) >= 3 && (s[0] == 'Q' || s[0] == 'K') && s[1] == 'L' && s[2] >= '0' && s[2] <= '9'
}

// match finds the legal moves that in may name.
func (p *Position) match(in string, legal []rules.Move) (cands []rules.Move, err error) {
	add := func(f func(m rules.Move) bool) {
		for _, m := range legal {
			if f(m) {
				cands = append(cands, m)
			}
		}
	}
	// Drops and placements: "N@b2W", "K@c1W", "@QL3u".
	if a, b, ok := strings.Cut(in, "@"); ok {
		if a == "" {
			sl, err := ParseSlot(b)
			if err != nil {
				return nil, err
			}
			add(func(m rules.Move) bool { return mKind(m) == kindPlace && Slot(mTo(m)) == sl })
			return cands, nil
		}
		k := strings.IndexByte(pieceLetters, a[0])
		if len(a) != 1 || k <= 0 {
			return nil, fmt.Errorf("%q before @ is not a piece letter (PNBRQK)", a)
		}
		ts, err := ParseSquare(b)
		if err != nil {
			return nil, err
		}
		add(func(m rules.Move) bool {
			return mKind(m) == kindDrop && mPiece(m) == Piece(k) && Square(mTo(m)) == ts
		})
		return cands, nil
	}
	// Platform moves: "QL5u", "QL3u-QL5u". (A pawn move led by a platform
	// position, "KL3dd3W", is no longer written but still read below.)
	if _, err := ParseSlot(in); isSlotPrefix(in) && (err == nil || strings.Contains(in, "-")) {
		a, b, long := strings.Cut(in, "-")
		if !long {
			b = a
		}
		to, err := ParseSlot(b)
		if err != nil {
			return nil, err
		}
		from := NoSlot
		if long {
			if from, err = ParseSlot(a); err != nil {
				return nil, err
			}
		}
		add(func(m rules.Move) bool {
			return mKind(m) == kindPlatform && Slot(mTo(m)) == to && (from == NoSlot || Slot(mFrom(m)) == from)
		})
		return cands, nil
	}
	// Long piece moves: "b2W-b3W", with an optional piece letter and "x".
	if a, b, ok := strings.Cut(in, "-"); ok {
		var kind Piece
		if len(a) > 3 && strings.IndexByte("KQRBN", a[0]) >= 0 {
			kind = Piece(strings.IndexByte(pieceLetters, a[0]))
			a = a[1:]
		}
		b = strings.TrimPrefix(b, "x")
		fs, err := ParseSquare(a)
		if err != nil {
			return nil, err
		}
		ts, err := ParseSquare(b)
		if err != nil {
			return nil, err
		}
		add(func(m rules.Move) bool {
			return mKind(m) == kindPiece && Square(mFrom(m)) == fs && Square(mTo(m)) == ts &&
				(kind == 0 || p.board[fs].Kind() == kind)
		})
		return cands, nil
	}
	// Short piece and pawn moves: [KQRBN][file][rank][level][x]square.
	kind := Pawn
	rest := in
	if strings.IndexByte("KQRBN", rest[0]) >= 0 && !isSlotPrefix(rest) {
		kind = Piece(strings.IndexByte(pieceLetters, rest[0]))
		rest = rest[1:]
	}
	ts, tn := trailingSquare(rest)
	if ts == NoSquare {
		return nil, fmt.Errorf("no arrival square")
	}
	hint := rest[:len(rest)-tn]
	capture := strings.HasSuffix(hint, "x")
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
		if level = parseLevel(hint); level < 0 {
			return nil, fmt.Errorf("cannot read %q before the arrival square", hint)
		}
	}
	add(func(m rules.Move) bool {
		if mKind(m) != kindPiece || Square(mTo(m)) != ts {
			return false
		}
		fs := Square(mFrom(m))
		if p.board[fs].Kind() != kind || capture && !mCapture(m) {
			return false
		}
		return (file < 0 || int(sqX[fs]) == file) && (rank < 0 || int(sqY[fs]) == rank) &&
			(level < 0 || int(sqLevel[fs]) == level)
	})
	return cands, nil
}

// parseLevel reads a whole level name: W, N, B or a platform position.
func parseLevel(s string) int {
	switch s {
	case "W":
		return levelW
	case "N":
		return levelN
	case "B":
		return levelB
	}
	if sl, err := ParseSlot(s); err == nil {
		return 3 + int(sl)
	}
	return -1
}

// trailingSquare reads the square that ends s, and its length.
func trailingSquare(s string) (Square, int) {
	for _, n := range []int{6, 3} {
		if len(s) >= n {
			if sq, err := ParseSquare(s[len(s)-n:]); err == nil {
				return sq, n
			}
		}
	}
	return NoSquare, 0
}
