package st3d

// An independent, deliberately simple reference implementation of Star Trek
// 3D chess (docs/rules.md, decisions D1..D17), written from the spec alone, used to
// cross-check the engine by perft, by walking move trees of hand-made
// positions and by random games. It shares nothing with the engine but the
// exported Parse, String, LegalMoves, Long and Play: it reads and writes the
// position string itself, keeps its state in maps and decides every rule by
// the most literal reading of docs/rules.md, favouring obviousness over speed.

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// ---------------------------------------------------------------- geometry

// A reference square: file index (z=0 .. e=5), rank 0..9 and level:
// 0 W, 1 N, 2 B, 3+k for pin k (k 0..5 = QL1..QL6, 6..11 = KL1..KL6).
// The level numbering is also the writer's sort order.
type refSq struct{ f, r, lv int }

const refFiles = "zabcde"

func refLevelName(lv int) string {
	switch lv {
	case 0:
		return "W"
	case 1:
		return "N"
	case 2:
		return "B"
	}
	k := lv - 3
	if k < 6 {
		return fmt.Sprintf("QL%d", k+1)
	}
	return fmt.Sprintf("KL%d", k-5)
}

func refPinName(k int) string { return refLevelName(k + 3) }

func (s refSq) String() string {
	return string(refFiles[s.f]) + strconv.Itoa(s.r) + refLevelName(s.lv)
}

// refPinCols is docs/rules.md's pin table: the four columns of a board on pin k,
// in the table's order (z0 a0 z1 a1 for QL1).
func refPinCols(k int) [4][2]int {
	f0 := 0 // QL pins: files z, a
	if k >= 6 {
		f0 = 4 // KL pins: files d, e
	}
	base := [6]int{0, 4, 2, 6, 4, 8}[k%6] // QL1 z0.., QL2 z4.., QL3 z2.., QL4 z6.., QL5 z4.., QL6 z8..
	return [4][2]int{{f0, base}, {f0 + 1, base}, {f0, base + 1}, {f0 + 1, base + 1}}
}

// refPinBase is the lower rank a pin covers (for forward/backward, D13).
func refPinBase(k int) int { return refPinCols(k)[0][1] }

func refAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func refSign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func refIsWhite(pc byte) bool { return pc >= 'A' && pc <= 'Z' }
func refKind(pc byte) byte    { return pc | 0x20 } // ASCII lower case

func refColored(kind byte, white bool) byte {
	if white {
		return kind &^ 0x20 // ASCII upper case
	}
	return kind | 0x20
}

// ---------------------------------------------------------------- state

type refPos struct {
	boards [12]byte       // 0: no board on the pin; else its marking 'w' or 'b'
	pcs    map[refSq]byte // FEN letters
	white  bool           // White to move
	castle [4]bool        // K Q k q
	hasEP  bool           // en-passant field set
	ep     refSq          // the pawn that has just double-stepped
	ds     map[refSq]bool // pawns that may still double-step
	half   int            // halfmove clock
	full   int            // fullmove number
	// set by apply for board moves:
	needPromo   bool    // an own pawn stands on its furthest rank and the move named no piece
	oppPromoted []refSq // opponent pawns that became queens (D10)
}

func (p *refPos) clone() *refPos {
	n := &refPos{boards: p.boards, white: p.white, castle: p.castle, hasEP: p.hasEP, ep: p.ep,
		half: p.half, full: p.full, pcs: maps.Clone(p.pcs), ds: maps.Clone(p.ds)}
	return n
}

// exists: W ranks 1-4, N 3-6, B 5-8 on files a-d; a pin's squares only while
// a board stands on it (D1).
func (p *refPos) exists(s refSq) bool {
	if s.f < 0 || s.f > 5 || s.r < 0 || s.r > 9 {
		return false
	}
	if s.lv < 3 {
		lo := 1 + 2*s.lv
		return s.f >= 1 && s.f <= 4 && s.r >= lo && s.r <= lo+3
	}
	k := s.lv - 3
	if p.boards[k] == 0 {
		return false
	}
	for _, c := range refPinCols(k) {
		if c[0] == s.f && c[1] == s.r {
			return true
		}
	}
	return false
}

// column lists the existing squares of a column (D2), bottom level first.
func (p *refPos) column(f, r int) []refSq {
	var out []refSq
	for lv := 0; lv < 15; lv++ {
		if s := (refSq{f, r, lv}); p.exists(s) {
			out = append(out, s)
		}
	}
	return out
}

// colOccupied: a piece on any level of the column (D5).
func (p *refPos) colOccupied(f, r int) bool {
	for _, s := range p.column(f, r) {
		if p.pcs[s] != 0 {
			return true
		}
	}
	return false
}

// furthest is D9's furthest rank, judged on file f.
func (p *refPos) furthest(f int, white bool) int {
	switch f {
	case 2, 3: // b, c
		if white {
			return 8
		}
		return 1
	case 0, 5: // z, e
		if white {
			return 9
		}
		return 0
	}
	ql := f == 1 // a: QL6/QL1; d: KL6/KL1
	rear, front := 0, 5
	if !ql {
		rear, front = 6, 11
	}
	if white {
		if p.boards[front] != 0 {
			return 9
		}
		return 8
	}
	if p.boards[rear] != 0 {
		return 0
	}
	return 1
}

// attacksCol: the piece pc on from could capture on column (tf, tr)
// (a piece attacks every square of such a column).
func (p *refPos) attacksCol(from refSq, pc byte, tf, tr int) bool {
	df, dr := tf-from.f, tr-from.r
	if df == 0 && dr == 0 {
		return false
	}
	switch refKind(pc) {
	case 'p':
		dir := -1
		if refIsWhite(pc) {
			dir = 1
		}
		return dr == dir && refAbs(df) == 1
	case 'n':
		return refAbs(df)*refAbs(dr) == 2
	case 'k':
		return refAbs(df) <= 1 && refAbs(dr) <= 1
	}
	straight := df == 0 || dr == 0
	diag := refAbs(df) == refAbs(dr)
	switch refKind(pc) {
	case 'r':
		if !straight {
			return false
		}
	case 'b':
		if !diag {
			return false
		}
	case 'q':
		if !straight && !diag {
			return false
		}
	}
	sf, sr := refSign(df), refSign(dr)
	for f, r := from.f+sf, from.r+sr; f != tf || r != tr; f, r = f+sf, r+sr {
		if p.colOccupied(f, r) {
			return false
		}
	}
	return true
}

func (p *refPos) attacked(s refSq, byWhite bool) bool {
	for from, pc := range p.pcs {
		if refIsWhite(pc) == byWhite && p.attacksCol(from, pc, s.f, s.r) {
			return true
		}
	}
	return false
}

func (p *refPos) king(white bool) (refSq, bool) {
	for s, pc := range p.pcs {
		if pc == refColored('k', white) {
			return s, true
		}
	}
	return refSq{}, false
}

// ---------------------------------------------------------------- moves

const (
	refPieceMove = iota
	refBoardMove
	refCastleK
	refCastleQ
)

type refMove struct {
	kind           int
	from, to       refSq
	promo          byte // 'Q', 'R', 'B', 'N' or 0
	epCap          bool
	pinFrom, pinTo int
}

func (m refMove) long() string {
	var s string
	switch m.kind {
	case refCastleK:
		return "0-0"
	case refCastleQ:
		return "0-0-0"
	case refBoardMove:
		s = refPinName(m.pinFrom) + "-" + refPinName(m.pinTo)
	default:
		s = m.from.String() + "-" + m.to.String()
	}
	if m.promo != 0 {
		s += "=" + string(m.promo)
	}
	return s
}

// home squares: king, kingside rook, queenside rook (D11, D16).
func refHomes(white bool) (k, rk, rq refSq) {
	if white {
		return refSq{4, 0, 3 + 6}, refSq{5, 0, 3 + 6}, refSq{0, 0, 3 + 0}
	}
	return refSq{4, 9, 3 + 11}, refSq{5, 9, 3 + 11}, refSq{0, 9, 3 + 5}
}

// touch applies D16: a move starting or ending on s loses the rights tied to s.
func (p *refPos) touch(s refSq) {
	for i, white := range []bool{true, false} {
		k, rk, rq := refHomes(white)
		if s == k {
			p.castle[2*i], p.castle[2*i+1] = false, false
		}
		if s == rk {
			p.castle[2*i] = false
		}
		if s == rq {
			p.castle[2*i+1] = false
		}
	}
}

// apply plays m (assumed pseudo-legal) and returns the new state.
func (p *refPos) apply(m refMove) *refPos {
	n := p.clone()
	n.hasEP = false // the right ends with the next move, whatever it is (D8)
	mover := p.white
	switch m.kind {
	case refPieceMove:
		pc := p.pcs[m.from]
		capture := p.pcs[m.to] != 0
		delete(n.pcs, m.from)
		if m.epCap {
			delete(n.pcs, p.ep)
			delete(n.ds, p.ep)
			capture = true
		}
		if m.promo != 0 {
			pc = refColored(m.promo, mover)
		}
		n.pcs[m.to] = pc
		delete(n.ds, m.from)
		delete(n.ds, m.to)
		pawn := refKind(p.pcs[m.from]) == 'p'
		if pawn && refAbs(m.to.r-m.from.r) == 2 {
			n.hasEP, n.ep = true, m.to // written after every double step
		}
		if pawn || capture {
			n.half = 0
		} else {
			n.half++
		}
		n.touch(m.from)
		n.touch(m.to)
	case refCastleK, refCastleQ:
		k, rk, rq := refHomes(mover)
		king, rook := refColored('k', mover), refColored('r', mover)
		if m.kind == refCastleK { // swap
			n.pcs[k], n.pcs[rk] = rook, king
			n.touch(rk)
		} else { // king beside the rook (a0QL1 / a9QL6), rook to the king's square
			delete(n.pcs, rq)
			n.pcs[refSq{1, k.r, rq.lv}] = king
			n.pcs[k] = rook
			n.touch(rq)
		}
		n.touch(k)
		n.half++
	case refBoardMove:
		n.boards[m.pinTo], n.boards[m.pinFrom] = p.boards[m.pinFrom], 0
		src, dst := refPinCols(m.pinFrom), refPinCols(m.pinTo)
		for i := range 4 {
			s := refSq{src[i][0], src[i][1], 3 + m.pinFrom}
			if pc := p.pcs[s]; pc != 0 { // D14: same place on the board
				t := refSq{dst[i][0], dst[i][1], 3 + m.pinTo}
				delete(n.pcs, s)
				n.pcs[t] = pc
				delete(n.ds, s) // D7: a carried pawn loses its double step
				delete(n.ds, t)
				n.touch(s) // D16: carried from or to a home square
				n.touch(t)
			}
		}
		n.half++ // even one that promotes
		// D10 / D14: every pawn now on its furthest rank promotes.
		for s, pc := range n.pcs {
			if refKind(pc) != 'p' || s.r != n.furthest(s.f, refIsWhite(pc)) {
				continue
			}
			delete(n.ds, s)
			if refIsWhite(pc) == mover {
				if m.promo == 0 {
					n.needPromo = true
					continue
				}
				n.pcs[s] = refColored(m.promo, mover)
			} else {
				n.pcs[s] = refColored('q', !mover)
				n.oppPromoted = append(n.oppPromoted, s)
			}
		}
	}
	if !mover {
		n.full++
	}
	n.white = !mover
	return n
}

// pseudo generates the moves of the side to move before the king-safety test.
func (p *refPos) pseudo() []refMove {
	var out []refMove
	white := p.white
	own := func(s refSq) bool { pc := p.pcs[s]; return pc != 0 && refIsWhite(pc) == white }
	enemy := func(s refSq) bool { pc := p.pcs[s]; return pc != 0 && refIsWhite(pc) != white }
	for from, pc := range p.pcs {
		if refIsWhite(pc) != white {
			continue
		}
		add := func(to refSq) { out = append(out, refMove{kind: refPieceMove, from: from, to: to}) }
		switch refKind(pc) {
		case 'n', 'k':
			var offs [][2]int
			if refKind(pc) == 'n' {
				offs = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
			} else {
				offs = [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
			}
			for _, o := range offs {
				for _, t := range p.column(from.f+o[0], from.r+o[1]) {
					if !own(t) {
						add(t)
					}
				}
			}
		case 'r', 'b', 'q':
			var dirs [][2]int
			if refKind(pc) != 'b' {
				dirs = append(dirs, [2]int{1, 0}, [2]int{-1, 0}, [2]int{0, 1}, [2]int{0, -1})
			}
			if refKind(pc) != 'r' {
				dirs = append(dirs, [2]int{1, 1}, [2]int{1, -1}, [2]int{-1, 1}, [2]int{-1, -1})
			}
			for _, d := range dirs {
				for f, r := from.f+d[0], from.r+d[1]; f >= 0 && f <= 5 && r >= 0 && r <= 9; f, r = f+d[0], r+d[1] {
					blocked := false
					for _, t := range p.column(f, r) { // voids have no squares: passed over
						if p.pcs[t] != 0 {
							blocked = true
						}
						if !own(t) {
							add(t)
						}
					}
					if blocked {
						break
					}
				}
			}
		case 'p':
			dir := -1
			if white {
				dir = 1
			}
			addP := func(to refSq, ep bool) {
				if to.r == p.furthest(to.f, white) {
					for _, k := range []byte("QRBN") {
						out = append(out, refMove{kind: refPieceMove, from: from, to: to, promo: k, epCap: ep})
					}
					return
				}
				out = append(out, refMove{kind: refPieceMove, from: from, to: to, epCap: ep})
			}
			r1 := from.r + dir
			for _, t := range p.column(from.f, r1) {
				if p.pcs[t] == 0 {
					addP(t, false)
				}
			}
			if p.ds[from] && !p.colOccupied(from.f, r1) {
				for _, t := range p.column(from.f, from.r+2*dir) {
					if p.pcs[t] == 0 {
						addP(t, false)
					}
				}
			}
			for _, df := range []int{-1, 1} {
				for _, t := range p.column(from.f+df, r1) {
					if enemy(t) {
						addP(t, false)
					}
				}
			}
			if p.hasEP && enemy(p.ep) && refKind(p.pcs[p.ep]) == 'p' &&
				p.ep.r == from.r && refAbs(p.ep.f-from.f) == 1 {
				for _, t := range p.column(p.ep.f, p.ep.r+dir) { // the skipped column
					if p.pcs[t] == 0 {
						addP(t, true)
					}
				}
			}
		}
	}
	// castling (3.5, D11, D16)
	if p.full != 1 {
		k, rk, rq := refHomes(white)
		i := 0
		if !white {
			i = 2
		}
		king, rook := refColored('k', white), refColored('r', white)
		if p.pcs[k] == king && !p.attacked(k, !white) {
			if p.castle[i] && p.pcs[rk] == rook && !p.attacked(rk, !white) {
				out = append(out, refMove{kind: refCastleK})
			}
			dest := refSq{1, k.r, rq.lv}
			if p.castle[i+1] && p.pcs[rq] == rook && p.exists(dest) && p.pcs[dest] == 0 && !p.attacked(dest, !white) {
				out = append(out, refMove{kind: refCastleQ})
			}
		}
	}
	// attack-board moves (3.6, D12, D13)
	for k := 0; k < 12; k++ {
		if p.boards[k] == 0 {
			continue
		}
		var held []byte
		for _, c := range refPinCols(k) {
			if pc := p.pcs[refSq{c[0], c[1], 3 + k}]; pc != 0 {
				held = append(held, pc)
			}
		}
		if len(held) > 1 {
			continue
		}
		ctrlWhite := p.boards[k] == 'w'
		if len(held) == 1 {
			ctrlWhite = refIsWhite(held[0])
		}
		if ctrlWhite != white {
			continue
		}
		for q := 0; q < 12; q++ {
			if p.boards[q] != 0 {
				continue
			}
			sameSide := k/6 == q/6
			dn := refAbs(k%6 - q%6)
			adjacent := (sameSide && (dn == 1 || dn == 2)) || (!sameSide && dn == 0)
			if !adjacent {
				continue
			}
			backward := refPinBase(q) < refPinBase(k)
			if !white {
				backward = refPinBase(q) > refPinBase(k)
			}
			if len(held) == 1 && backward {
				continue
			}
			out = append(out, refMove{kind: refBoardMove, pinFrom: k, pinTo: q})
		}
	}
	return out
}

// legal returns the legal moves with their successor states.
func (p *refPos) legal() ([]refMove, []*refPos) {
	var ms []refMove
	var ns []*refPos
	try := func(m refMove, n *refPos) {
		if ks, ok := n.king(p.white); ok {
			if n.attacked(ks, !p.white) {
				return
			}
			for _, s := range n.oppPromoted { // D10: a knight there would attack it
				if refAbs(s.f-ks.f)*refAbs(s.r-ks.r) == 2 {
					return
				}
			}
		}
		ms = append(ms, m)
		ns = append(ns, n)
	}
	for _, m := range p.pseudo() {
		n := p.apply(m)
		if n.needPromo {
			for _, k := range []byte("QRBN") {
				m2 := m
				m2.promo = k
				try(m2, p.apply(m2))
			}
			continue
		}
		try(m, n)
	}
	return ms, ns
}

// ---------------------------------------------------------------- position string

func refParseSq(s string) (refSq, error) {
	if len(s) < 3 {
		return refSq{}, fmt.Errorf("bad square %q", s)
	}
	f := strings.IndexByte(refFiles, s[0])
	r := int(s[1] - '0')
	if f < 0 || r < 0 || r > 9 {
		return refSq{}, fmt.Errorf("bad square %q", s)
	}
	lvName := s[2:]
	if lvName == "S" {
		lvName = "B"
	}
	for lv := 0; lv < 15; lv++ {
		if refLevelName(lv) == lvName {
			return refSq{f, r, lv}, nil
		}
	}
	return refSq{}, fmt.Errorf("bad level in %q", s)
}

func refParse(str string) (*refPos, error) {
	fs := strings.Fields(str)
	if len(fs) != 8 {
		return nil, fmt.Errorf("want 8 fields, got %d", len(fs))
	}
	p := &refPos{pcs: map[refSq]byte{}, ds: map[refSq]bool{}}
	for _, b := range strings.Split(fs[0], ",") {
		name, owner, ok := strings.Cut(b, ":")
		if !ok || (owner != "w" && owner != "b") {
			return nil, fmt.Errorf("bad board %q", b)
		}
		found := false
		for k := 0; k < 12; k++ {
			if refPinName(k) == name {
				p.boards[k] = owner[0]
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("bad pin %q", b)
		}
	}
	for _, ps := range strings.Split(fs[1], ",") {
		if !strings.ContainsRune("PNBRQKpnbrqk", rune(ps[0])) {
			return nil, fmt.Errorf("bad piece %q", ps)
		}
		s, err := refParseSq(ps[1:])
		if err != nil {
			return nil, err
		}
		p.pcs[s] = ps[0]
	}
	p.white = fs[2] == "w"
	if fs[3] != "-" {
		for _, c := range fs[3] {
			p.castle[strings.IndexRune("KQkq", c)] = true
		}
	}
	if fs[4] != "-" {
		s, err := refParseSq(fs[4])
		if err != nil {
			return nil, err
		}
		p.hasEP, p.ep = true, s
	}
	if fs[5] != "-" {
		for _, d := range strings.Split(fs[5], ",") {
			s, err := refParseSq(d)
			if err != nil {
				return nil, err
			}
			p.ds[s] = true
		}
	}
	var err error
	if p.half, err = strconv.Atoi(fs[6]); err != nil {
		return nil, err
	}
	if p.full, err = strconv.Atoi(fs[7]); err != nil {
		return nil, err
	}
	return p, nil
}

func refSqLess(a, b refSq) int {
	if a.lv != b.lv {
		return a.lv - b.lv
	}
	if a.r != b.r {
		return a.r - b.r
	}
	return a.f - b.f
}

func (p *refPos) String() string {
	var bs []string
	for k := 0; k < 12; k++ {
		if p.boards[k] != 0 {
			bs = append(bs, refPinName(k)+":"+string(p.boards[k]))
		}
	}
	var sqs []refSq
	for s := range p.pcs {
		sqs = append(sqs, s)
	}
	slices.SortFunc(sqs, refSqLess)
	var ps []string
	for _, s := range sqs {
		ps = append(ps, string(p.pcs[s])+s.String())
	}
	side := "b"
	if p.white {
		side = "w"
	}
	cs := ""
	for i, c := range "KQkq" {
		if p.castle[i] {
			cs += string(c)
		}
	}
	if cs == "" {
		cs = "-"
	}
	ep := "-"
	if p.hasEP {
		ep = p.ep.String()
	}
	var dsq []refSq
	for s := range p.ds {
		dsq = append(dsq, s)
	}
	slices.SortFunc(dsq, refSqLess)
	var ds []string
	for _, s := range dsq {
		ds = append(ds, s.String())
	}
	dstr := strings.Join(ds, ",")
	if dstr == "" {
		dstr = "-"
	}
	return strings.Join([]string{strings.Join(bs, ","), strings.Join(ps, ","), side, cs, ep, dstr,
		strconv.Itoa(p.half), strconv.Itoa(p.full)}, " ")
}

func (p *refPos) perft(depth int) int {
	ms, ns := p.legal()
	if depth == 1 {
		return len(ms)
	}
	total := 0
	for _, n := range ns {
		total += n.perft(depth - 1)
	}
	return total
}

// ---------------------------------------------------------------- comparison

// refChecker compares the engine with the reference and collects disagreements.
type refChecker struct {
	t        *testing.T
	errs     int
	maxErrs  int
	nodes    int
	deadline time.Time
}

func (c *refChecker) fail(format string, args ...any) {
	c.t.Helper()
	c.errs++
	if c.errs <= c.maxErrs {
		c.t.Errorf(format, args...)
	}
}

// node compares the legal move sets of one position; it returns the common
// moves (sorted by long form) with the engine's move and the reference's
// successor. path says how the node was reached.
func (c *refChecker) node(ref *refPos, eng *Position, path string) (names []string, em map[string]rules.Move, rn map[string]*refPos) {
	c.t.Helper()
	c.nodes++
	rms, rns := ref.legal()
	rn = map[string]*refPos{}
	for i, m := range rms {
		l := m.long()
		if _, dup := rn[l]; dup {
			c.fail("reference generates %s twice in %s", l, ref)
		}
		rn[l] = rns[i]
	}
	em = map[string]rules.Move{}
	for _, m := range eng.LegalMoves(nil) {
		l := eng.Long(m)
		if _, dup := em[l]; dup {
			c.fail("engine generates %s twice in %s (after %s)", l, eng.String(), path)
		}
		em[l] = m
	}
	var onlyEng, onlyRef []string
	for l := range em {
		if _, ok := rn[l]; ok {
			names = append(names, l)
		} else {
			onlyEng = append(onlyEng, l)
		}
	}
	for l := range rn {
		if _, ok := em[l]; !ok {
			onlyRef = append(onlyRef, l)
		}
	}
	slices.Sort(names)
	slices.Sort(onlyEng)
	slices.Sort(onlyRef)
	if len(onlyEng)+len(onlyRef) > 0 {
		c.fail("move sets differ in %q (after %s):\n  only engine:    %v\n  only reference: %v",
			eng.String(), path, onlyEng, onlyRef)
	}
	return names, em, rn
}

// walk compares the trees below ref/eng down to depth plies.
func (c *refChecker) walk(ref *refPos, eng *Position, depth int, path string) {
	c.t.Helper()
	names, em, rn := c.node(ref, eng, path)
	for _, l := range names {
		if c.errs > c.maxErrs || time.Now().After(c.deadline) {
			return
		}
		child := eng.Play(em[l]).(*Position)
		es, rs := child.String(), rn[l].String()
		if es != rs {
			c.fail("after %s %s from %q:\n  engine:    %s\n  reference: %s", path, l, eng.String(), es, rs)
			continue
		}
		if depth > 1 {
			c.walk(rn[l], child, depth-1, path+" "+l)
		}
	}
}

// refPair parses a position string with both implementations and checks
// that they write it back the same way.
func refPair(t *testing.T, s string) (*refPos, *Position) {
	t.Helper()
	ep, err := Parse(s)
	if err != nil {
		t.Fatalf("engine refuses %q: %v", s, err)
	}
	rp, err := refParse(s)
	if err != nil {
		t.Fatalf("reference refuses %q: %v", s, err)
	}
	if es, rs := ep.String(), rp.String(); es != rs {
		t.Errorf("canonical strings differ for %q:\n  engine:    %s\n  reference: %s", s, es, rs)
	}
	return rp, &ep
}

// ---------------------------------------------------------------- tests

func TestReferenceStartPerft(t *testing.T) {
	rp, err := refParse(StartString)
	if err != nil {
		t.Fatal(err)
	}
	if rp.String() != StartString {
		t.Errorf("reference writes the start position as\n%s\nwant\n%s", rp.String(), StartString)
	}
	for depth, want := range []int{0, 20, 400, 9128} {
		if depth == 0 {
			continue
		}
		if got := rp.perft(depth); got != want {
			t.Errorf("reference perft(%d) = %d, want %d (docs/rules.md)", depth, got, want)
		}
	}
}

// The hand-made positions. Every string is accepted by the engine's Parse
// (which refuses impossible positions), so they are also valid positions.
var refPositions = []struct{ name, pos string }{
	{"start", StartString},
	// White to move: empty white board QL3 (all directions), white board KL1
	// holding only the king (forward KL2/KL3, sideways QL1, not backward),
	// black-marked KL4 holding a white rook (White controls it: only KL6 or
	// QL4); Black then has QL6 holding a knight (forward QL4/QL5, KL6).
	{"boards-white", "QL3:w,QL6:b,KL1:w,KL4:b Kd0KL1,Rb1W,Pb2W,Re7KL4,kb8B,pc7B,nz9QL6 w - - - 10 30"},
	// Black to move: white-marked KL3 holding a black rook (Black controls it,
	// forward for Black is KL1, sideways QL3), empty black QL4 (every
	// direction), black KL6 holding only the king; the empty white QL1 is not
	// Black's to move.
	{"boards-black", "QL1:w,QL4:b,KL3:w,KL6:b Kb1W,Pc2W,re3KL3,pb6N,kd9KL6 b - - - 5 40"},
	// Both castlings for both sides (White at once, Black at ply 2).
	{"castling-free", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Pz1QL1,Pa1QL1,Kd0KL1,Re0KL1,Pd1KL1,Pe1KL1,Bb1W,bc8B,pz8QL6,pa8QL6,rz9QL6,pd8KL6,pe8KL6,kd9KL6,re9KL6 w KQkq - - 2 8"},
	// D11: everything is ready but the fullmove number is 1, for White and
	// then for Black; at ply 3 White may castle. The rooks see each other over
	// the voids of files z and e once a pawn moves (a rook captured at home
	// loses the right, D16); the attack-board pawns cannot double-step over voids.
	{"castling-first-move", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Pz1QL1,Kd0KL1,Re0KL1,Pe1KL1,Pb2W,pc7B,pz8QL6,rz9QL6,kd9KL6,re9KL6,pe8KL6 w KQkq - z1QL1,e1KL1,b2W,c7B,z8QL6,e8KL6 0 1"},
	// Attacked squares: the bishop d3N sees a0QL1 (no 0-0-0 for White), the
	// knight d7B sees e9KL6 (no 0-0 for Black); the other castlings are legal.
	{"castling-attacked", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Pz1QL1,Kd0KL1,Re0KL1,Pe1KL1,bd3N,Nd7B,pz8QL6,rz9QL6,kd9KL6,re9KL6,pe8KL6 w KQkq - - 4 12"},
	// Lost rights: White keeps only Q, Black only k.
	{"castling-rights-lost", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Pz1QL1,Kd0KL1,Re0KL1,Pe1KL1,Pb2W,pc7B,pz8QL6,rz9QL6,kd9KL6,re9KL6,pe8KL6 w Qk - - 3 9"},
	// White may castle queenside; moving the KL1 board carries the king off
	// its home square and loses the right (D11, D16).
	{"castling-board-carries-king", "QL1:w,KL1:w,KL6:b Rz0QL1,Pa1QL1,Kd0KL1,kd9KL6 w Q - - 0 10"},
	// QL1 holds only the rook z0QL1: QL1-QL2 / QL1-QL3 carry it off its home
	// square and lose Q (D11, D16); both castlings are legal at the root.
	{"castling-board-carries-rook", "QL1:w,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,kd9KL6 w KQ - - 0 10"},
	// D16, carried TO a home square (an artificial position: White's Q right
	// is listed although QL1 is away): QL3-QL1 carries the knight z2QL3 to
	// z0QL1, White's queenside rook's home square, so Q is lost.
	{"castling-board-carries-to-home", "QL3:b,KL1:w Kd0KL1,Re0KL1,nz2QL3,kb7B b KQ - - 0 10"},
	// The king's own square attacked (check from d5N): no castling at all,
	// although a0QL1 and e0KL1 are not attacked.
	{"castling-in-check", "QL1:w,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,rd5N,kb7B w KQ - - 0 10"},
	// The rooks see each other along z and e over the voids: 0-0 is
	// prevented (e0KL1 attacked), 0-0-0 is not (only a0QL1 and d0KL1 count,
	// not the rook's square z0QL1); rooks captured at home lose the rights.
	{"castling-rook-attacked", "QL1:w,QL6:b,KL1:w,KL6:b Rz0QL1,Kd0KL1,Re0KL1,rz9QL6,kd9KL6,re9KL6 w KQkq - - 0 10"},
	// D15: the king e1KL1 is in check along the e-file over voids from e7KL4.
	// Evasions: KL1-QL1 carries the king away; QL3-KL3 carries the bishop
	// a3QL3 to e3KL3 into the line; Ba3QL3xe7KL4; KL1-KL2 / KL1-KL3 stay in check.
	{"check-board-evasion", "QL3:w,KL1:w,KL4:b Ba3QL3,Ke1KL1,re7KL4,kb8B w - - - 0 20"},
	// Pins across levels: the bishop c3N is pinned by d4W against a1W (it
	// may take d4W or go to b2W; c3N-d4N would leave the diagonal open: the
	// same column does not block); the knight a3QL3 is pinned by a6N against
	// a1W, and its board may move only to pins that keep it on the a-file
	// between them (QL2, QL5; not QL4 or KL3).
	{"pins-across-levels", "QL3:w,KL6:b Ka1W,Bc3N,Na3QL3,bd4W,ra6N,kd8B w - - - 0 30"},
	// QL2 and QL5 both stand (D2): a4 and z4/z5 have two pin squares each;
	// the rook z4QL2 may land on every free level, the bishop a5QL5 may take
	// it or land beside it on z4QL5; QL2 and QL5 are not adjacent (D13).
	{"two-boards-one-column", "QL2:w,QL5:b,KL1:w,KL6:b Kd0KL1,Rz4QL2,ba5QL5,kd9KL6 w - - - 0 20"},
	// Sliders over voids: the queens z3QL3 and z6QL4 see each other over z4,z5;
	// z3 sees e8KL6 along the diagonal; z6 sees e1KL1.
	{"sliders-over-voids", "QL3:w,QL4:b,KL1:w,KL6:b Kd0KL1,Pe1KL1,Ba2W,Qz3QL3,qz6QL4,nb7B,pe8KL6,kd9KL6 w - - - 6 25"},
	// En passant for Black on both levels: b2W-b4W or b2W-b4N, then a4N or c4W
	// takes onto b3W or b3N.
	{"ep-black", "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,Pb2W,pc4W,pa4N,kd9KL6 w - - b2W 0 15"},
	// En passant for White: d7B double-steps to d5N, d5B or d5KL5 over d6N,
	// d6B, d6KL4; c5B and e5KL5 may take onto any of the three.
	{"ep-white", "QL1:w,KL4:b,KL5:w,KL6:b Ka1QL1,Pc5B,Pe5KL5,pd7B,kb8B b - - d7B 3 22"},
	// En passant right in the position string itself (Black has just played d5N).
	{"ep-in-string", "QL1:w,KL4:b,KL5:w,KL6:b Ka1QL1,Pc5B,Pe5KL5,pd5N,kb8B w - d5N - 0 23"},
	// En passant takes the named pawn only: d7B-d5N next to the black pawn
	// d5B; c5B takes e.p. onto d6N or d6B and removes d5N, not d5B.
	{"ep-two-pawns-one-column", "KL6:b Ka1W,Pc5B,pd5B,pd7B,kb8B b - - d7B 0 30"},
	// Double step from an attack board onto another (z1QL1-z3QL3 over
	// z2QL3), taken en passant by a3N onto z2QL3.
	{"ep-on-boards", "QL1:w,QL3:w,KL1:w,KL6:b Pz1QL1,Kd0KL1,pa3N,kd9KL6 w - - z1QL1 0 12"},
	// Promotion by capture, judged on the arrival file: b7B takes a8QL6 (QL6
	// stands: a's furthest rank is 9, no promotion) or c8B (promotes);
	// e8KL6 pushes to e9KL6 or takes d9KL6, both promoting. KL6 holds pieces
	// of both colours and cannot move.
	{"promotion-captures", "QL6:b,KL6:b Kc2W,Pb7B,nc8B,na8QL6,kz9QL6,Pe8KL6,rd9KL6 w - - - 0 45"},
	// Promotion on every file type: c7B (b/c: rank 8), d7B with no KL6 board
	// (rank 8), a7B with QL6 standing (rank 9: a8B/a8QL6 do not promote),
	// z8QL6 (z/e: rank 9); Black: b2W (rank 1), d2W with no KL1 (rank 1),
	// a2W with QL1 standing (rank 0), z1QL1 (rank 0). QL6-KL6 / QL1-KL1
	// carry pawns sideways without promoting.
	{"promotion-files", "QL1:w,QL6:b Kc4W,Pa7B,Pc7B,Pd7B,Pz8QL6,pa2W,pb2W,pd2W,pz1QL1,ka5N w - - - 0 40"},
	// D10, own pawn: the empty white QL6 board leaves and a8B promotes to the
	// named piece (QL6-QL4=Q ...); then Black's KL6 carrying the king turns
	// d8B into a white queen (KL4/KL5 illegal, QL6 depends on a8's piece).
	{"deferred-own", "QL6:w,KL6:b Kb2W,Pa8B,Pd8B,kd9KL6 w - - - 0 50"},
	// D10, own pawn with the own king a knight's move from the promotion
	// square: the knight rule is about the opponent's promoted pawn (an own
	// knight attacks nothing of its own side), so QL6-QL4=N etc. stay legal.
	{"deferred-own-king-near", "QL6:w,KL6:b Pa8B,Kc7B,kd9KL6 w - - - 0 50"},
	// D10, opponent pawn and the knight rule: QL6 leaving makes a8B a queen
	// that does not see c7B but a knight there would: illegal; KL6 leaving
	// makes d8B a queen that sees c7B: illegal.
	{"deferred-knight-rule", "QL6:b,KL6:b Kb2W,Pa8B,Pd8B,kc7B b - - - 0 50"},
	// D10, opponent pawn: all four black board moves are legal and each makes
	// a white queen; White then plays on with it.
	{"deferred-opponent", "QL6:b,KL6:b Kb2W,Pa8B,Pd8B,kb5N b - - - 0 50"},
	// D10 for Black: QL1-QL2=Q ... promotes a1W; White's KL1 carrying the king
	// then makes d1W a black queen.
	{"deferred-black", "QL1:b,KL1:w Kd0KL1,pa1W,pd1W,kb7B b - - - 0 50"},
	// Carried pawns (D7, D14): z1QL1 cannot move on its own (voids), QL1-QL2
	// carries it to z5QL2 where it has lost its double step; QL4-QL6=Q
	// carries a7QL4 to a9QL6 and promotes, giving check along rank 9 over the
	// voids b9, c9; QL4-KL4 carries it to e7KL4.
	{"carried-pawns", "QL1:w,QL4:w,KL6:b Kc2W,Pz1QL1,Pa7QL4,kd9KL6 w - - z1QL1 0 30"},
	// Checkmate: the rook e9KL6 checks z9QL6 over the voids; every flight
	// square is own or attacked, the QL6 board holds three pieces.
	{"checkmate", "QL6:b,KL6:w Kb2W,pa8B,pz8QL6,pa8QL6,kz9QL6,Re9KL6 b - - - 0 60"},
	// Mate by a board move: KL4-KL6 carries the rook e7KL4 to e9KL6.
	{"board-move-mate", "QL6:b,KL4:w Kb2W,pa8B,Re7KL4,pz8QL6,pa8QL6,kz9QL6 w - - - 0 60"},
	// Stalemate: z9QL6 has no move (z8 and a9 attacked, a8 full on both
	// levels), its pawns are blocked, its board holds two pieces.
	{"stalemate", "QL6:b Kc2W,Na6N,Pa7B,Bb8B,pa8B,pa8QL6,kz9QL6 b - - - 0 70"},
	// Pawn pushes with other levels occupied: b2W may go to b3W (b3N is
	// occupied) but not double-step; c2W may double-step to c4W but not c4N;
	// z1QL1 and a1QL1 step and double-step onto QL3.
	{"pawn-levels", "QL1:w,QL3:w,KL1:w,KL6:b Pz1QL1,Pa1QL1,Kd0KL1,Pb2W,Pc2W,nb3N,bc4N,kd9KL6 w - - z1QL1,a1QL1,b2W,c2W 0 12"},
}

func TestReferenceAgreesWithEngine(t *testing.T) {
	for _, tc := range refPositions {
		t.Run(tc.name, func(t *testing.T) {
			ref, eng := refPair(t, tc.pos)
			// Depth 2 in full, then as much of depth 3 as the time budget allows.
			c := &refChecker{t: t, maxErrs: 12, deadline: time.Now().Add(time.Minute)}
			c.walk(ref, eng, 2, "root")
			if c.errs == 0 {
				c.deadline = time.Now().Add(300 * time.Millisecond)
				c.walk(ref, eng, 3, "root")
			}
			t.Logf("%d nodes compared", c.nodes)
		})
	}
}

// TestReferenceRandomGames plays seeded random games (uniform among the
// legal moves) from the start position, and then from sparse hand-made
// positions where attack boards move often, comparing the move sets and the
// position strings at every ply.
func TestReferenceRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(20240611, 3))
	c := &refChecker{t: t, maxErrs: 20, deadline: time.Now().Add(time.Hour)}
	stats := map[string]int{}
	plies := 0
	// -short (the ARM runs under emulation, deploy/arm-test.sh): a tenth.
	games, perStart := 200, 12
	if testing.Short() {
		games, perStart = 20, 2
	}
	for game := 0; game < games && c.errs <= c.maxErrs; game++ {
		plies += c.randomGame(rng, StartString, 80, fmt.Sprintf("start game %d:", game), stats)
	}
	t.Logf("start: %d plies compared; move kinds played: %v", plies, stats)
	stats, plies = map[string]int{}, 0
	for _, name := range []string{"boards-white", "boards-black", "promotion-files", "deferred-own",
		"deferred-opponent", "deferred-black", "carried-pawns", "ep-white", "sliders-over-voids", "castling-free"} {
		for game := 0; game < perStart && c.errs <= c.maxErrs; game++ {
			plies += c.randomGame(rng, refPosition(t, name), 60, fmt.Sprintf("%s game %d:", name, game), stats)
		}
	}
	t.Logf("hand-made starts: %d plies compared; move kinds played: %v", plies, stats)
}

// randomGame plays one random game from pos and returns the plies played.
func (c *refChecker) randomGame(rng *rand.Rand, pos string, maxPlies int, path string, stats map[string]int) int {
	c.t.Helper()
	ref, eng := refPair(c.t, pos)
	for ply := 0; ply < maxPlies; ply++ {
		names, em, rn := c.node(ref, eng, path)
		if len(names) == 0 {
			return ply
		}
		l := names[rng.IntN(len(names))]
		refCountMove(stats, ref, l, rn[l])
		child := eng.Play(em[l]).(*Position)
		if es, rs := child.String(), rn[l].String(); es != rs {
			c.fail("after %s %s from %q:\n  engine:    %s\n  reference: %s", path, l, eng.String(), es, rs)
			return ply
		}
		path += " " + l
		ref, eng = rn[l], child
	}
	return maxPlies
}

// refCountMove tallies what kind of move l is, to show what random games cover.
func refCountMove(stats map[string]int, p *refPos, l string, next *refPos) {
	switch {
	case l == "0-0" || l == "0-0-0":
		stats["castling"]++
	case strings.HasPrefix(l, "QL") || strings.HasPrefix(l, "KL"):
		stats["board"]++
		if strings.Contains(l, "=") {
			stats["board-promotion"]++
		}
		if len(next.oppPromoted) > 0 {
			stats["board-promotes-opponent"]++
		}
	default:
		if strings.Contains(l, "=") {
			stats["promotion"]++
		}
		from, _ := refParseSq(l[:strings.Index(l, "-")])
		to, _ := refParseSq(strings.Split(l[strings.Index(l, "-")+1:], "=")[0])
		if refKind(p.pcs[from]) == 'p' && p.pcs[to] == 0 && from.f != to.f {
			stats["en-passant"]++
		}
		if p.pcs[to] != 0 {
			stats["capture"]++
		}
	}
	if ks, ok := next.king(next.white); ok && next.attacked(ks, !next.white) {
		stats["check"]++
	}
}

// refPosition returns the string of a named hand-made position.
func refPosition(t *testing.T, name string) string {
	t.Helper()
	for _, tc := range refPositions {
		if tc.name == name {
			return tc.pos
		}
	}
	t.Fatalf("no position %q", name)
	return ""
}

// TestReferenceHandWorked anchors the reference (and the engine with it) to
// moves and positions worked out by hand from docs/rules.md, so that the two
// cannot agree on a shared misreading of the positions above unnoticed.
func TestReferenceHandWorked(t *testing.T) {
	cases := []struct {
		pos     string   // name in refPositions
		path    []string // long-form moves played first
		has     []string // must be legal
		hasNot  []string // must not be legal
		count   int      // number of legal moves, or -1
		inCheck int      // 1: side to move in check, 0: not, -1: don't care
		after   string   // position string after path, or ""
	}{
		{"castling-free", nil, []string{"0-0", "0-0-0"}, nil, 12, 0, ""},
		{"castling-free", []string{"0-0-0"}, []string{"0-0", "0-0-0"}, nil, -1, 0,
			"QL1:w,QL6:b,KL1:w,KL6:b Bb1W,bc8B,Ka0QL1,Pz1QL1,Pa1QL1,pz8QL6,pa8QL6,rz9QL6,Rd0KL1,Re0KL1,Pd1KL1,Pe1KL1,pd8KL6,pe8KL6,kd9KL6,re9KL6 b kq - - 3 8"},
		{"castling-free", []string{"0-0", "0-0"}, nil, []string{"0-0", "0-0-0"}, -1, 0,
			"QL1:w,QL6:b,KL1:w,KL6:b Bb1W,bc8B,Rz0QL1,Pz1QL1,Pa1QL1,pz8QL6,pa8QL6,rz9QL6,Rd0KL1,Ke0KL1,Pd1KL1,Pe1KL1,pd8KL6,pe8KL6,rd9KL6,ke9KL6 w - - - 4 9"},
		{"castling-first-move", nil, []string{"b2W-b4N", "b2W-b4W"}, []string{"0-0", "0-0-0", "z1QL1-z3QL3"}, 8, 0, ""},
		{"castling-first-move", []string{"b2W-b3W"}, nil, []string{"0-0", "0-0-0"}, -1, 0, ""},
		{"castling-first-move", []string{"b2W-b3W", "c7B-c6B"}, []string{"0-0", "0-0-0"}, nil, -1, 0, ""},
		{"castling-attacked", nil, []string{"0-0"}, []string{"0-0-0"}, -1, 0, ""},
		{"castling-attacked", []string{"0-0"}, []string{"0-0-0"}, []string{"0-0"}, -1, 0, ""},
		{"castling-rights-lost", nil, []string{"0-0-0"}, []string{"0-0"}, -1, 0, ""},
		{"castling-rights-lost", []string{"b2W-b3W"}, []string{"0-0"}, []string{"0-0-0"}, -1, 0, ""},
		{"castling-board-carries-rook", []string{"QL1-QL3"}, nil, nil, -1, 0,
			"QL3:w,KL1:w,KL6:b Rz2QL3,Kd0KL1,Re0KL1,kd9KL6 b K - - 1 10"},
		{"castling-board-carries-king", []string{"KL1-KL3"}, nil, nil, -1, 0,
			"QL1:w,KL3:w,KL6:b Rz0QL1,Pa1QL1,Kd2KL3,kd9KL6 b - - - 1 10"},
		{"castling-board-carries-to-home", []string{"QL3-QL1"}, nil, nil, -1, 0,
			"QL1:b,KL1:w kb7B,nz0QL1,Kd0KL1,Re0KL1 w K - - 1 11"},
		{"check-board-evasion", nil, []string{"KL1-QL1", "QL3-KL3", "a3QL3-e7KL4"},
			[]string{"KL1-KL2", "KL1-KL3", "QL3-QL2", "e1KL1-e0KL1"}, 7, 1, ""},
		{"check-board-evasion", []string{"QL3-KL3"}, nil, nil, -1, 0,
			"KL1:w,KL3:w,KL4:b kb8B,Ke1KL1,Be3KL3,re7KL4 b - - - 1 20"},
		{"pins-across-levels", nil, []string{"c3N-b2W", "c3N-d4W", "QL3-QL2", "QL3-QL5"},
			[]string{"c3N-d4N", "c3N-b4N", "a3QL3-b5N", "QL3-QL4", "QL3-KL3"}, -1, 0, ""},
		{"sliders-over-voids", nil, []string{"z3QL3-z6QL4", "z3QL3-e8KL6", "z3QL3-z2QL3"},
			[]string{"z3QL3-z1QL1", "z3QL3-e3KL3", "a2W-z1QL1"}, 34, 0, ""},
		{"ep-black", []string{"b2W-b4N"}, []string{"a4N-b3W", "a4N-b3N", "c4W-b3W", "c4W-b3N"}, nil, -1, 0,
			"QL1:w,QL6:b,KL1:w,KL6:b pc4W,pa4N,Pb4N,Kd0KL1,kd9KL6 b - b4N - 0 15"},
		{"ep-black", []string{"b2W-b4W", "c4W-b3N"}, nil, nil, -1, 0,
			"QL1:w,QL6:b,KL1:w,KL6:b pb3N,pa4N,Kd0KL1,kd9KL6 w - - - 0 16"},
		{"ep-black", []string{"b2W-b4W", "KL6-KL4"}, nil, nil, -1, 0, // board moves end the right too
			"QL1:w,QL6:b,KL1:w,KL4:b Pb4W,pc4W,pa4N,Kd0KL1,kd7KL4 w - - - 1 16"},
		{"ep-white", []string{"d7B-d5KL5"}, []string{"c5B-d6N", "c5B-d6B", "c5B-d6KL4", "e5KL5-d6N", "e5KL5-d6B", "e5KL5-d6KL4"}, nil, -1, 0, ""},
		{"ep-white", []string{"d7B-d6B"}, nil, []string{"c5B-d6N", "e5KL5-d6N"}, -1, 0, ""},
		{"ep-in-string", []string{"e5KL5-d6KL4"}, nil, nil, -1, 0,
			"QL1:w,KL4:b,KL5:w,KL6:b Pc5B,kb8B,Ka1QL1,Pd6KL4 b - - - 0 23"},
		{"promotion-files", nil, []string{"c7B-c8B=Q", "d7B-d8B=N", "z8QL6-z9QL6=R", "a7B-a8B", "a7B-a8QL6", "QL6-KL6"},
			[]string{"a7B-a8B=Q", "c7B-c8B", "z8QL6-z9QL6"}, 27, 0, ""},
		{"promotion-files", []string{"a7B-a8B"}, []string{"b2W-b1W=Q", "d2W-d1W=N", "z1QL1-z0QL1=B", "a2W-a1W", "a2W-a1QL1", "QL1-KL1"},
			[]string{"a2W-a1W=Q", "b2W-b1W"}, -1, 0, ""},
		{"promotion-files", []string{"QL6-KL6"}, nil, nil, -1, 0,
			"QL1:w,KL6:b pa2W,pb2W,pd2W,Kc4W,ka5N,Pa7B,Pc7B,Pd7B,pz1QL1,Pd8KL6 b - - - 1 40"},
		{"deferred-own", nil, []string{"QL6-QL4=Q", "QL6-QL4=N", "QL6-QL5=R", "a8B-a9QL6=B"}, []string{"QL6-QL4", "QL6-KL6"}, 23, 0, ""},
		{"deferred-own", []string{"QL6-QL4=R"}, []string{"KL6-QL6"}, []string{"KL6-KL4", "KL6-KL5"}, -1, 0,
			"QL4:w,KL6:b Kb2W,Ra8B,Pd8B,kd9KL6 b - - - 1 50"},
		{"deferred-own", []string{"QL6-QL4=B"}, nil, []string{"KL6-QL6", "KL6-KL4", "KL6-KL5"}, -1, 0, ""},
		{"deferred-own", []string{"QL6-QL4=R", "KL6-QL6"}, nil, nil, -1, 0,
			"QL4:w,QL6:b Kb2W,Ra8B,Qd8B,kz9QL6 w - - - 2 51"},
		{"deferred-knight-rule", nil, nil, []string{"QL6-QL4", "QL6-QL5", "KL6-KL4", "KL6-KL5"}, 12, 0, ""},
		{"deferred-opponent", nil, []string{"QL6-QL4", "QL6-QL5", "KL6-KL4", "KL6-KL5"}, []string{"QL6-QL4=Q"}, 20, 0, ""},
		{"deferred-opponent", []string{"QL6-QL4"}, nil, nil, -1, 0,
			"QL4:b,KL6:b Kb2W,kb5N,Qa8B,Pd8B w - - - 1 51"},
		{"deferred-black", nil, []string{"QL1-QL2=Q", "QL1-QL3=N", "a1W-a0QL1=R"}, []string{"QL1-QL2", "QL1-KL1"}, 23, 0, ""},
		{"deferred-black", []string{"QL1-QL3=N"}, []string{"KL1-QL1"}, []string{"KL1-KL2", "KL1-KL3"}, -1, 0, ""},
		{"deferred-black", []string{"QL1-QL3=Q"}, nil, []string{"KL1-QL1", "KL1-KL2", "KL1-KL3"}, -1, 0, ""},
		{"deferred-black", []string{"QL1-QL3=N", "KL1-QL1"}, nil, nil, -1, 0,
			"QL1:w,QL3:b na1W,qd1W,kb7B,Kz0QL1 b - - - 2 51"},
		{"carried-pawns", nil, []string{"QL1-QL2", "QL1-QL3", "QL1-KL1", "QL4-QL6=Q", "QL4-KL4", "a7QL4-a8B=Q"},
			[]string{"z1QL1-z2QL3", "QL4-QL6", "QL4-QL2"}, 23, 0, ""},
		{"carried-pawns", []string{"QL4-QL6=Q"}, nil, nil, -1, 1,
			"QL1:w,QL6:w,KL6:b Kc2W,Pz1QL1,Qa9QL6,kd9KL6 b - - z1QL1 1 30"},
		{"carried-pawns", []string{"QL1-QL2", "d9KL6-d8B"}, []string{"z5QL2-z6QL4"}, []string{"z5QL2-z7QL4"}, -1, 0,
			"QL2:w,QL4:w,KL6:b Kc2W,kd8B,Pz5QL2,Pa7QL4 w - - - 2 31"},
		{"castling-in-check", nil, nil, []string{"0-0", "0-0-0"}, -1, 1, ""},
		{"castling-rook-attacked", nil, []string{"0-0-0", "z0QL1-z9QL6", "e0KL1-e9KL6"}, []string{"0-0"}, -1, 0, ""},
		{"castling-rook-attacked", []string{"z0QL1-z9QL6"}, nil, []string{"0-0-0"}, -1, 1,
			"QL1:w,QL6:b,KL1:w,KL6:b Rz9QL6,Kd0KL1,Re0KL1,kd9KL6,re9KL6 b Kk - - 0 10"},
		{"castling-rook-attacked", []string{"0-0-0"}, nil, []string{"e9KL6-e0KL1", "0-0", "0-0-0"}, -1, 1,
			"QL1:w,QL6:b,KL1:w,KL6:b Ka0QL1,rz9QL6,Rd0KL1,Re0KL1,kd9KL6,re9KL6 b kq - - 1 10"},
		{"castling-rook-attacked", []string{"z0QL1-a0QL1", "e9KL6-e0KL1"}, nil, nil, -1, 1,
			"QL1:w,QL6:b,KL1:w,KL6:b Ra0QL1,rz9QL6,Kd0KL1,re0KL1,kd9KL6 w q - - 0 11"},
		{"ep-two-pawns-one-column", []string{"d7B-d5N"}, []string{"c5B-d6N", "c5B-d6B"}, nil, -1, 0, ""},
		{"ep-two-pawns-one-column", []string{"d7B-d5N", "c5B-d6B"}, nil, nil, -1, 0,
			"KL6:b Ka1W,pd5B,Pd6B,kb8B b - - - 0 31"},
		{"ep-on-boards", []string{"z1QL1-z3QL3"}, []string{"a3N-z2QL3"}, nil, -1, 0,
			"QL1:w,QL3:w,KL1:w,KL6:b pa3N,Pz3QL3,Kd0KL1,kd9KL6 b - z3QL3 - 0 12"},
		{"ep-on-boards", []string{"z1QL1-z3QL3", "a3N-z2QL3"}, nil, nil, -1, 0,
			"QL1:w,QL3:w,KL1:w,KL6:b pz2QL3,Kd0KL1,kd9KL6 w - - - 0 13"},
		{"promotion-captures", nil, []string{"b7B-a8QL6", "b7B-c8B=Q", "b7B-b8B=N", "e8KL6-e9KL6=R", "e8KL6-d9KL6=B"},
			[]string{"b7B-a8QL6=Q", "b7B-c8B", "KL6-KL4", "KL6-QL6"}, -1, 0, ""},
		{"promotion-captures", []string{"b7B-a8QL6"}, nil, []string{"KL6-KL4", "KL6-KL5", "QL6-QL4"}, -1, 1, ""},
		{"deferred-own-king-near", nil, []string{"QL6-QL4=Q", "QL6-QL4=N", "QL6-QL5=N", "QL6-QL5=Q"}, []string{"QL6-KL6=N"}, -1, 0, ""},
		{"two-boards-one-column", nil, []string{"z4QL2-a4W", "z4QL2-a4N", "z4QL2-a4QL2", "z4QL2-a4QL5", "z4QL2-z5QL2", "z4QL2-z5QL5", "QL2-QL4", "QL2-KL2"},
			[]string{"z4QL2-z6QL4", "QL2-QL5", "QL2-QL1", "QL2-QL3", "z4QL2-z4QL5"}, -1, 0, ""},
		{"two-boards-one-column", []string{"d0KL1-c1W"}, []string{"a5QL5-z4QL2", "a5QL5-z4QL5", "QL5-QL3", "QL5-KL5"},
			[]string{"QL5-QL2", "QL5-QL4", "QL5-QL6"}, -1, 0, ""},
		{"checkmate", nil, nil, nil, 0, 1, ""},
		{"board-move-mate", []string{"KL4-KL6"}, nil, nil, 0, 1, ""},
		{"stalemate", nil, nil, nil, 0, 0, ""},
		{"pawn-levels", nil, []string{"b2W-b3W", "c2W-c4W", "c2W-b3N", "z1QL1-z2QL3", "z1QL1-z3QL3", "a1QL1-a3QL3", "a1QL1-a2QL3"},
			[]string{"b2W-b3N", "b2W-b4W", "b2W-b4N", "c2W-c4N", "d0KL1-c1W"}, 20, 0, ""},
	}
	for _, tc := range cases {
		name := tc.pos + " " + strings.Join(tc.path, " ")
		ref, eng := refPair(t, refPosition(t, tc.pos))
		for _, l := range tc.path {
			ms, ns := ref.legal()
			i := slices.IndexFunc(ms, func(m refMove) bool { return m.long() == l })
			if i < 0 {
				t.Fatalf("%s: reference has no %s", name, l)
			}
			ref = ns[i]
			var next *Position
			for _, m := range eng.LegalMoves(nil) {
				if eng.Long(m) == l {
					next = eng.Play(m).(*Position)
				}
			}
			if next == nil {
				t.Fatalf("%s: engine has no %s", name, l)
			}
			eng = next
		}
		for impl, s := range map[string]string{"reference": ref.String(), "engine": eng.String()} {
			if tc.after != "" && s != tc.after {
				t.Errorf("%s: %s writes\n  %s\nwant\n  %s", name, impl, s, tc.after)
			}
		}
		rms, _ := ref.legal()
		refSet := map[string]bool{}
		for _, m := range rms {
			refSet[m.long()] = true
		}
		engSet := map[string]bool{}
		for _, m := range eng.LegalMoves(nil) {
			engSet[eng.Long(m)] = true
		}
		for impl, set := range map[string]map[string]bool{"reference": refSet, "engine": engSet} {
			for _, l := range tc.has {
				if !set[l] {
					t.Errorf("%s: %s lacks %s (hand-worked)", name, impl, l)
				}
			}
			for _, l := range tc.hasNot {
				if set[l] {
					t.Errorf("%s: %s has %s (hand-worked: illegal)", name, impl, l)
				}
			}
			if tc.count >= 0 && len(set) != tc.count {
				t.Errorf("%s: %s has %d moves, hand count %d", name, impl, len(set), tc.count)
			}
		}
		if tc.inCheck >= 0 {
			ks, _ := ref.king(ref.white)
			rc := ref.attacked(ks, !ref.white)
			ec, _ := eng.InCheck()
			if rc != (tc.inCheck == 1) || ec != (tc.inCheck == 1) {
				t.Errorf("%s: in check: reference %v, engine %v, hand-worked %v", name, rc, ec, tc.inCheck == 1)
			}
		}
	}
}
