package millennium

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/tridboard/tridboard/rules/rulestest"
)

// An independent, deliberately plain implementation of docs/rules.md's
// moves, written from the spec with coordinates and copy-make, to check the
// bitset generator (legal move lists, perft) against.

type refCell struct{ l, r, f int }

func (c refCell) ok() bool { return c.l >= 0 && c.l < 3 && c.r >= 0 && c.r < 8 && c.f >= 0 && c.f < 8 }
func (c refCell) String() string {
	return fmt.Sprintf("%d%c%d", c.l+1, 'a'+c.f, c.r+1)
}
func (c refCell) add(df, dr, dl int) refCell { return refCell{c.l + dl, c.r + dr, c.f + df} }

type refPos struct {
	b      [3][8][8]byte // FEN letter or 0
	white  bool
	castle [4]bool // K Q k q
	ep     refCell // l = -1: none
	ds     [3][8][8]bool
}

func refFrom(p *Position) refPos {
	var r refPos
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != 0 {
			r.b[s.Level()][s.Rank()][s.File()] = pc.Letter()
		}
		r.ds[s.Level()][s.Rank()][s.File()] = p.ds.has(s)
	}
	r.white = p.side == 0
	for i := 0; i < 4; i++ {
		r.castle[i] = p.castle&(1<<i) != 0
	}
	r.ep = refCell{-1, 0, 0}
	if p.ep != NoSquare {
		r.ep = refCell{p.ep.Level(), p.ep.Rank(), p.ep.File()}
	}
	return r
}

func (r *refPos) at(c refCell) byte     { return r.b[c.l][c.r][c.f] }
func (r *refPos) set(c refCell, v byte) { r.b[c.l][c.r][c.f] = v }

func isWhite(x byte) bool { return x >= 'A' && x <= 'Z' }
func upper(x byte) byte {
	if x >= 'a' {
		return x - 32
	}
	return x
}

type refMove struct {
	from, to refCell
	promo    byte
	castle   int // 0 none, 1 king side, 2 queen side
	ep       bool
	double   bool // leaves an en-passant cell
}

func (m refMove) long() string {
	switch m.castle {
	case 1:
		return "0-0"
	case 2:
		return "0-0-0"
	}
	s := m.from.String() + "-" + m.to.String()
	if m.promo != 0 {
		s += "=" + string(m.promo)
	}
	return s
}

var refStepCache = map[byte][][3]int{}

func refSteps(kind byte) ([][3]int, bool) {
	slide := kind == 'Q' || kind == 'R' || kind == 'B'
	if s, ok := refStepCache[kind]; ok {
		return s, slide
	}
	s := refStepsOf(kind)
	refStepCache[kind] = s
	return s, slide
}

func refStepsOf(kind byte) (steps [][3]int) {
	for dl := -2; dl <= 2; dl++ {
		for dr := -2; dr <= 2; dr++ {
			for df := -2; df <= 2; df++ {
				a := []int{abs(df), abs(dr), abs(dl)}
				sort.Ints(a)
				one := a[2] == 1
				switch kind {
				case 'K', 'Q':
					if one {
						steps = append(steps, [3]int{df, dr, dl})
					}
				case 'R':
					// lateral orthogonal, vertical, or one lateral axis with the vertical
					if one && (df == 0 || dr == 0) {
						steps = append(steps, [3]int{df, dr, dl})
					}
				case 'B':
					if one && df != 0 && dr != 0 {
						steps = append(steps, [3]int{df, dr, dl})
					}
				case 'N':
					if a[0] == 0 && a[1] == 1 && a[2] == 2 {
						steps = append(steps, [3]int{df, dr, dl})
					}
				}
			}
		}
	}
	return steps
}

// attacks reports whether the piece on c attacks t.
func (r *refPos) attacks(c, t refCell) bool {
	x := r.at(c)
	k := upper(x)
	if k == 'P' {
		f := 1
		if !isWhite(x) {
			f = -1
		}
		return t.r-c.r == f && abs(t.f-c.f) == 1 && abs(t.l-c.l) <= 1
	}
	steps, slide := refSteps(k)
	for _, s := range steps {
		for n := c.add(s[0], s[1], s[2]); n.ok(); n = n.add(s[0], s[1], s[2]) {
			if n == t {
				return true
			}
			if !slide || r.at(n) != 0 {
				break
			}
		}
	}
	return false
}

func (r *refPos) attacked(t refCell, byWhite bool) bool {
	for l := 0; l < 3; l++ {
		for rk := 0; rk < 8; rk++ {
			for f := 0; f < 8; f++ {
				x := r.b[l][rk][f]
				if x != 0 && isWhite(x) == byWhite && r.attacks(refCell{l, rk, f}, t) {
					return true
				}
			}
		}
	}
	return false
}

func (r *refPos) kingCell(white bool) (refCell, bool) {
	want := byte('K')
	if !white {
		want = 'k'
	}
	for l := 0; l < 3; l++ {
		for rk := 0; rk < 8; rk++ {
			for f := 0; f < 8; f++ {
				if r.b[l][rk][f] == want {
					return refCell{l, rk, f}, true
				}
			}
		}
	}
	return refCell{}, false
}

func (r *refPos) pseudo() []refMove {
	var out []refMove
	for l := 0; l < 3; l++ {
		for rk := 0; rk < 8; rk++ {
			for f := 0; f < 8; f++ {
				x := r.b[l][rk][f]
				if x == 0 || isWhite(x) != r.white {
					continue
				}
				c := refCell{l, rk, f}
				if upper(x) == 'P' {
					out = append(out, r.pawnMoves(c)...)
					continue
				}
				steps, slide := refSteps(upper(x))
				for _, s := range steps {
					for n := c.add(s[0], s[1], s[2]); n.ok(); n = n.add(s[0], s[1], s[2]) {
						y := r.at(n)
						if y == 0 || isWhite(y) != r.white {
							out = append(out, refMove{from: c, to: n})
						}
						if !slide || y != 0 {
							break
						}
					}
				}
			}
		}
	}
	// Castling on the home board.
	lv, rk, i := 0, 0, 0
	if !r.white {
		lv, rk, i = 2, 7, 2
	}
	K, R := byte('K'), byte('R')
	if !r.white {
		K, R = 'k', 'r'
	}
	kc := refCell{lv, rk, 4}
	if r.at(kc) == K && !r.attacked(kc, !r.white) {
		if r.castle[i] && r.at(refCell{lv, rk, 7}) == R && r.at(refCell{lv, rk, 5}) == 0 && r.at(refCell{lv, rk, 6}) == 0 &&
			!r.attacked(refCell{lv, rk, 5}, !r.white) && !r.attacked(refCell{lv, rk, 6}, !r.white) {
			out = append(out, refMove{from: kc, to: refCell{lv, rk, 6}, castle: 1})
		}
		if r.castle[i+1] && r.at(refCell{lv, rk, 0}) == R && r.at(refCell{lv, rk, 1}) == 0 && r.at(refCell{lv, rk, 2}) == 0 &&
			r.at(refCell{lv, rk, 3}) == 0 && !r.attacked(refCell{lv, rk, 3}, !r.white) && !r.attacked(refCell{lv, rk, 2}, !r.white) {
			out = append(out, refMove{from: kc, to: refCell{lv, rk, 2}, castle: 2})
		}
	}
	return out
}

func (r *refPos) pawnMoves(c refCell) []refMove {
	var out []refMove
	f := 1
	if !r.white {
		f = -1
	}
	promoAt := func(t refCell) bool {
		if r.white {
			return t.l == 2 && t.r == 7
		}
		return t.l == 0 && t.r == 0
	}
	add := func(m refMove) {
		if promoAt(m.to) {
			for _, p := range "QRBN" {
				m.promo = byte(p)
				out = append(out, m)
			}
			return
		}
		out = append(out, m)
	}
	for _, s := range [][2]int{{1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}} {
		if t := c.add(0, s[0]*f, s[1]); t.ok() && r.at(t) == 0 {
			add(refMove{from: c, to: t})
		}
	}
	if r.ds[c.l][c.r][c.f] {
		for _, s := range [][2]int{{2, 0}, {2, 2}, {2, -2}, {0, 2}, {0, -2}} {
			t := c.add(0, s[0]*f, s[1])
			mid := c.add(0, s[0]/2*f, s[1]/2)
			if t.ok() && r.at(t) == 0 && r.at(mid) == 0 {
				add(refMove{from: c, to: t, double: s[0] == 2})
			}
		}
	}
	for _, df := range []int{-1, 1} {
		for dl := -1; dl <= 1; dl++ {
			t := c.add(df, f, dl)
			if !t.ok() {
				continue
			}
			if y := r.at(t); y != 0 && isWhite(y) != r.white {
				add(refMove{from: c, to: t})
			}
			if t == r.ep {
				add(refMove{from: c, to: t, ep: true})
			}
		}
	}
	return out
}

func (r refPos) play(m refMove) refPos {
	n := r
	n.ep = refCell{-1, 0, 0}
	x := n.at(m.from)
	n.set(m.from, 0)
	n.ds[m.from.l][m.from.r][m.from.f] = false
	n.ds[m.to.l][m.to.r][m.to.f] = false
	if m.ep {
		// The pawn that passed through m.to stands one rank on, on the far
		// level when it changed level.
		f := -1
		if !r.white {
			f = 1
		}
		for dl := -1; dl <= 1; dl++ {
			v := m.to.add(0, f, dl)
			o := m.to.add(0, -f, -dl)  // its start
			home := refCell{2, 6, o.f} // a black pawn's start
			if !r.white {
				home = refCell{0, 1, o.f}
			}
			if v.ok() && o == home && upper(n.at(v)) == 'P' && isWhite(n.at(v)) != r.white {
				n.set(v, 0)
				break
			}
		}
	}
	if m.promo != 0 {
		x = m.promo
		if !r.white {
			x += 32
		}
	}
	n.set(m.to, x)
	if m.castle != 0 {
		rf, rt := 7, 5
		if m.castle == 2 {
			rf, rt = 0, 3
		}
		rook := n.at(refCell{m.from.l, m.from.r, rf})
		n.set(refCell{m.from.l, m.from.r, rf}, 0)
		n.set(refCell{m.from.l, m.from.r, rt}, rook)
	}
	for i, home := range [4][2]refCell{{{0, 0, 4}, {0, 0, 7}}, {{0, 0, 4}, {0, 0, 0}}, {{2, 7, 4}, {2, 7, 7}}, {{2, 7, 4}, {2, 7, 0}}} {
		for _, h := range home {
			if m.from == h || m.to == h {
				n.castle[i] = false
			}
		}
	}
	if m.double {
		n.ep = refCell{(m.from.l + m.to.l) / 2, (m.from.r + m.to.r) / 2, m.from.f}
	}
	n.white = !r.white
	return n
}

func (r *refPos) legal() []refMove {
	var out []refMove
	for _, m := range r.pseudo() {
		n := r.play(m)
		if k, ok := n.kingCell(r.white); ok && n.attacked(k, !r.white) {
			continue
		}
		out = append(out, m)
	}
	return out
}

func (r refPos) perft(d int) uint64 {
	if d == 0 {
		return 1
	}
	var n uint64
	for _, m := range r.legal() {
		n += r.play(m).perft(d - 1)
	}
	return n
}

func refLongs(r *refPos) []string {
	var out []string
	for _, m := range r.legal() {
		out = append(out, m.long())
	}
	sort.Strings(out)
	return out
}

// TestReferenceAgrees plays seeded random games and compares every
// position's legal moves with the reference's.
func TestReferenceAgrees(t *testing.T) {
	rng := rulestest.Rand(3)
	starts := []string{StartString}
	for _, tc := range perftTable {
		starts = append(starts, tc.pos)
	}
	for game := 0; game < 40; game++ {
		p := rulestest.MustParse(t, Parse, starts[game%len(starts)])
		for ply := 0; ply < 120; ply++ {
			r := refFrom(p)
			got, want := rulestest.Longs(p), refLongs(&r)
			if !slices.Equal(got, want) {
				t.Fatalf("%s:\n engine    %v\n reference %v", p, got, want)
			}
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			p.make(moves[rng.Intn(len(moves))])
		}
	}
}
