package firstcontact

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/rulestest"
)

// An independent, slow reading of docs/rules.md, kept as plain as
// possible: cells are (file, rank, height) triples worked out from the
// names alone, existence is recomputed from the platform positions, every
// direction is a coordinate test, and a move's legality is found by playing
// it on a copy and listing every enemy piece's captures. It shares nothing
// with the engine but the position string reader (through the exported
// accessors) and the long form of the moves, so agreement at every node of
// the perft trees is a cross-check of the tables, the attack test, the
// shortcut legality test and the platform rules.

type rcell struct{ x, y, h int }

type rpin struct {
	king  bool // KL (files d, e) rather than QL (files z, a)
	level int  // 0 W, 1 N, 2 B
	front bool // pins 2, 4, 6
}

type rslot struct {
	pin rpin
	inv bool
}

func (q rpin) name() string {
	n := 1 + 2*q.level
	if q.front {
		n++
	}
	if q.king {
		return fmt.Sprintf("KL%d", n)
	}
	return fmt.Sprintf("QL%d", n)
}

func (s rslot) name() string {
	if s.inv {
		return s.pin.name() + "d"
	}
	return s.pin.name() + "u"
}

// origin is the lower file and rank of the four columns a pin covers.
func (q rpin) origin() (x, y int) {
	x = 0
	if q.king {
		x = 4
	}
	low := 1 + 2*q.level // lowest rank of the pin's fixed level
	y = low - 1
	if q.front {
		y = low + 3
	}
	return x, y
}

func (s rslot) height() int {
	if s.inv {
		return 2*s.pin.level - 1
	}
	return 2*s.pin.level + 1
}

func (s rslot) covers(c rcell) bool {
	x, y := s.pin.origin()
	return c.h == s.height() && c.x >= x && c.x <= x+1 && c.y >= y && c.y <= y+1
}

func rslotByName(n string) rslot {
	for _, k := range []bool{false, true} {
		for lv := 0; lv < 3; lv++ {
			for _, f := range []bool{false, true} {
				for _, inv := range []bool{false, true} {
					s := rslot{rpin{k, lv, f}, inv}
					if s.name() == n {
						return s
					}
				}
			}
		}
	}
	panic("no slot " + n)
}

func allRSlots() []rslot {
	var out []rslot
	for _, k := range []bool{false, true} {
		for lv := 0; lv < 3; lv++ {
			for _, f := range []bool{false, true} {
				for _, inv := range []bool{false, true} {
					out = append(out, rslot{rpin{k, lv, f}, inv})
				}
			}
		}
	}
	return out
}

type rstate struct {
	pieces  map[rcell]Piece
	slots   map[rslot]bool
	side    rules.Color
	reserve [2][King]uint8
	ban     string
	up      bool
}

func (s *rstate) fixedLevel(c rcell) bool {
	if c.h != 0 && c.h != 2 && c.h != 4 {
		return false
	}
	low := 1 + c.h
	return c.x >= 1 && c.x <= 4 && c.y >= low && c.y <= low+3
}

func (s *rstate) exists(c rcell) bool {
	if s.fixedLevel(c) {
		return true
	}
	for sl := range s.slots {
		if sl.covers(c) {
			return true
		}
	}
	return false
}

func (s *rstate) cellName(c rcell) string {
	base := fmt.Sprintf("%c%d", "zabcde"[c.x], c.y)
	if s.fixedLevel(c) {
		return base + string("WNB"[c.h/2])
	}
	for _, sl := range allRSlots() {
		if sl.covers(c) {
			return base + sl.name()
		}
	}
	panic("no cell")
}

// rparseCell reads a square name without the engine's tables.
func rparseCell(n string) rcell {
	c := rcell{x: int(n[0]-'a') + 1, y: int(n[1] - '0')}
	if n[0] == 'z' {
		c.x = 0
	}
	if n[0] == 'e' {
		c.x = 5
	}
	switch lv := n[2:]; lv {
	case "W":
		c.h = 0
	case "N":
		c.h = 2
	case "B":
		c.h = 4
	default:
		c.h = rslotByName(lv).height()
	}
	return c
}

func refFrom(p *Position) *rstate {
	s := &rstate{pieces: map[rcell]Piece{}, slots: map[rslot]bool{}, side: p.Turn(), up: p.up}
	for sl := Slot(0); sl < NumSlots; sl++ {
		if p.HasPlatform(sl) {
			s.slots[rslotByName(sl.String())] = true
		}
	}
	for sq := Square(0); sq < NumSquares; sq++ {
		if pc := p.PieceAt(sq); pc != 0 {
			s.pieces[rparseCell(sq.String())] = pc
		}
	}
	for c := rules.White; c <= rules.Black; c++ {
		for k := Pawn; k < King; k++ {
			s.reserve[c][k] = uint8(p.Reserve(c, k))
		}
	}
	s.ban = p.Banned().String()
	return s
}

func (s *rstate) clone() *rstate {
	n := *s
	n.pieces = map[rcell]Piece{}
	for k, v := range s.pieces {
		n.pieces[k] = v
	}
	n.slots = map[rslot]bool{}
	for k, v := range s.slots {
		n.slots[k] = v
	}
	return &n
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// kinds of direction vectors (F1).
func isOrth(d rcell) bool  { return abs(d.x)+abs(d.y)+abs(d.h) == 1 }
func isDiag(d rcell) bool  { return abs(d.x) == 1 && abs(d.y) == 1 && d.h == 0 }
func isTriag(d rcell) bool { return abs(d.x) == 1 && abs(d.y) == 1 && abs(d.h) == 1 }

func unitVectors(keep func(rcell) bool) []rcell {
	var out []rcell
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for dh := -1; dh <= 1; dh++ {
				if d := (rcell{dx, dy, dh}); keep(d) {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

func add(a, b rcell) rcell { return rcell{a.x + b.x, a.y + b.y, a.h + b.h} }

// targets lists the cells the piece on c may move to (captures only:
// cells holding an enemy piece, when capturesOnly).
func (s *rstate) targets(c rcell, capturesOnly bool) []rcell {
	pc := s.pieces[c]
	me := pc.Color()
	var out []rcell
	try := func(t rcell, mayMove, mayCapture bool) bool { // reports whether a slide goes on
		if !s.exists(t) {
			return false
		}
		o, busy := s.pieces[t]
		if !busy {
			if mayMove && !capturesOnly {
				out = append(out, t)
			}
			return true
		}
		if mayCapture && o.Color() != me {
			out = append(out, t)
		}
		return false
	}
	slide := func(keep func(rcell) bool) {
		for _, d := range unitVectors(keep) {
			for t := add(c, d); try(t, true, true); t = add(t, d) {
			}
		}
	}
	steps := func(keep func(rcell) bool, mayMove, mayCapture bool) {
		for _, d := range unitVectors(keep) {
			try(add(c, d), mayMove, mayCapture)
		}
	}
	switch pc.Kind() {
	case Pawn:
		steps(isOrth, true, false)
		steps(func(d rcell) bool { return isDiag(d) || isTriag(d) }, false, true)
	case King:
		steps(func(d rcell) bool { return isOrth(d) || isDiag(d) || isTriag(d) }, true, true)
	case Queen:
		steps(isTriag, true, true)
		slide(func(d rcell) bool { return isOrth(d) || isDiag(d) })
	case Rook:
		slide(isOrth)
	case Bishop:
		steps(isTriag, true, true)
		slide(isDiag)
	case Knight:
		for dx := -2; dx <= 2; dx++ {
			for dy := -2; dy <= 2; dy++ {
				for dh := -2; dh <= 2; dh++ {
					a := []int{abs(dx), abs(dy), abs(dh)}
					sort.Ints(a)
					if a[0] != 0 || a[1] != 1 || a[2] != 2 {
						continue
					}
					t := rcell{c.x + dx, c.y + dy, c.h + dh}
					if s.fixedLevel(c) && s.fixedLevel(t) && c.h != t.h {
						// F3: through a platform cell directly above or below.
						via := rcell{c.x, c.y, c.h + dh/2}
						if !s.exists(via) || s.fixedLevel(via) {
							continue
						}
					}
					try(t, true, true)
				}
			}
		}
	}
	return out
}

func (s *rstate) kingAttacked(side rules.Color) bool {
	var king rcell
	found := false
	for c, pc := range s.pieces {
		if pc == rules.PieceOf(side, King) {
			king, found = c, true
		}
	}
	if !found {
		return false
	}
	for c, pc := range s.pieces {
		if pc.Color() != side {
			for _, t := range s.targets(c, true) {
				if t == king {
					return true
				}
			}
		}
	}
	return false
}

func (s *rstate) corners(q rpin) (adjacent []rpin, vertical []rpin) {
	adjacent = []rpin{{q.king, q.level, !q.front}, {!q.king, q.level, q.front}}
	for _, lv := range []int{q.level - 1, q.level + 1} {
		if lv >= 0 && lv < 3 {
			vertical = append(vertical, rpin{q.king, lv, q.front})
		}
	}
	return adjacent, vertical
}

func (s *rstate) allowed(sl rslot) bool { return !s.up || !sl.inv }

// legal lists the legal moves in long form, sorted.
func (s *rstate) legal() []string {
	var out []string
	if len(s.slots) < 4 {
		for _, sl := range allRSlots() {
			if !s.slots[sl] && s.allowed(sl) {
				out = append(out, "@"+sl.name())
			}
		}
		sort.Strings(out)
		return out
	}
	kings := [2]bool{}
	for _, pc := range s.pieces {
		if pc.Kind() == King {
			kings[pc.Color()] = true
		}
	}
	if !kings[0] || !kings[1] {
		h := 0
		if kings[0] {
			h = 4
		}
		for x := 1; x <= 4; x++ {
			for y := 1 + h; y <= 4+h; y++ {
				if c := (rcell{x, y, h}); s.pieces[c] == 0 {
					out = append(out, "K@"+s.cellName(c))
				}
			}
		}
		sort.Strings(out)
		return out
	}
	if s.kingAttacked(s.side) {
		return nil // giving check has won
	}
	safe := func(n *rstate) bool { return !n.kingAttacked(s.side) }
	for c, pc := range s.pieces {
		if pc.Color() != s.side {
			continue
		}
		for _, t := range s.targets(c, false) {
			n := s.clone()
			delete(n.pieces, c)
			n.pieces[t] = pc
			if safe(n) {
				out = append(out, s.cellName(c)+"-"+s.cellName(t))
			}
		}
	}
	for sl := range s.slots {
		if sl.name() == s.ban {
			continue
		}
		var on []rcell
		for c := range s.pieces {
			if sl.covers(c) {
				on = append(on, c)
			}
		}
		var dests []rslot
		adjacent, vertical := s.corners(sl.pin)
		switch {
		case len(on) == 0: // F4: an empty platform only inverts
			dests = append(dests, rslot{sl.pin, !sl.inv})
			for _, q := range adjacent {
				dests = append(dests, rslot{q, !sl.inv})
			}
		case len(on) == 1 && s.pieces[on[0]] == rules.PieceOf(s.side, Pawn):
			for _, q := range append(adjacent, vertical...) {
				dests = append(dests, rslot{q, sl.inv})
			}
		}
		for _, d := range dests {
			if s.slots[d] || !s.allowed(d) {
				continue
			}
			n := s.clone()
			delete(n.slots, sl)
			n.slots[d] = true
			if len(on) == 1 {
				x0, y0 := sl.pin.origin()
				x1, y1 := d.pin.origin()
				pc := n.pieces[on[0]]
				delete(n.pieces, on[0])
				n.pieces[rcell{on[0].x - x0 + x1, on[0].y - y0 + y1, d.height()}] = pc
			}
			if safe(n) {
				out = append(out, sl.name()+"-"+d.name())
			}
		}
	}
	h := 4 * int(s.side)
	for k := Pawn; k < King; k++ {
		if s.reserve[s.side][k] == 0 {
			continue
		}
		for x := 1; x <= 4; x++ {
			for y := 1 + h; y <= 4+h; y++ {
				if c := (rcell{x, y, h}); s.pieces[c] == 0 {
					out = append(out, string(pieceLetters[k])+"@"+s.cellName(c))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// compareTree checks the engine's legal moves against the reference at
// every node of the tree of the given depth below p.
func compareTree(t *testing.T, p *Position, depth int) {
	t.Helper()
	got := rulestest.Longs(p)
	want := refFrom(p).legal()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\nengine    %v\nreference %v", p, diff(got, want), diff(want, got))
	}
	if depth <= 1 {
		return
	}
	for _, m := range p.LegalMoves(nil) {
		compareTree(t, p.Play(m).(*Position), depth-1)
	}
}

// diff lists the elements of a not in b.
func diff(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// TestReferenceTables compares the engine with the reference at every node
// of the perft table's positions to depth 2, or 3 where that is under ten
// thousand nodes (unless -short).
func TestReferenceTables(t *testing.T) {
	for _, tc := range perftTable {
		depth := 2
		if !testing.Short() && len(tc.nodes) > 2 && tc.nodes[2] < 10000 {
			depth = 3
		}
		compareTree(t, tc.position(t), depth)
	}
}

// TestReferenceRandomGames compares the engine with the reference along
// seeded random games from positions with platforms up and inverted.
func TestReferenceRandomGames(t *testing.T) {
	rng := rulestest.Rand(3)
	games := 12
	if testing.Short() {
		games = 4
	}
	for g := 0; g < games; g++ {
		randomGame(StartPosition(), rng, 120, func(p *Position) { compareTree(t, p, 1) })
	}
	up := mustParseUp(t, StartString)
	for g := 0; g < games/4; g++ {
		randomGame(*up, rng, 120, func(p *Position) { compareTree(t, p, 1) })
	}
}

func mustParseUp(t testing.TB, s string) *Position {
	t.Helper()
	p, err := ParseUpOnly(s)
	if err != nil {
		t.Fatalf("ParseUpOnly(%q): %v", s, err)
	}
	return &p
}

// randomPosition builds a crowded position: four platforms anywhere, both
// kings and a random part of each army on random existing cells, the rest
// in reserve, a random side to move and move ban. Positions the reader
// refuses (the side not to move in check) are drawn again.
func randomPosition(rng interface{ Intn(int) int }, up bool) Position {
	for {
		var p Position
		p.up = up
		p.exist = fixedMask
		p.king = [2]Square{NoSquare, NoSquare}
		p.ban = NoSlot
		p.full = 1 + rng.Intn(40)
		p.half = rng.Intn(20)
		for p.plats == 0 || bitsCount(p.plats) < 4 {
			sl := Slot(rng.Intn(NumSlots))
			if !p.hasPlatform(sl) && p.slotAllowed(sl) {
				p.addPlatform(sl)
			}
		}
		var free []Square
		for s := Square(0); s < NumSquares; s++ {
			if p.exist.has(s) {
				free = append(free, s)
			}
		}
		rngPerm(rng, free)
		for c := rules.White; c <= rules.Black; c++ {
			p.put(free[0], rules.PieceOf(c, King))
			free = free[1:]
			for k := Pawn; k < King; k++ {
				for i := uint8(0); i < army[k]; i++ {
					switch rng.Intn(3) {
					case 0:
						p.reserve[c][k]++
					case 1:
						p.put(free[0], rules.PieceOf(c, k))
						free = free[1:]
					}
				}
			}
		}
		p.side = rules.Color(rng.Intn(2))
		if rng.Intn(2) == 0 {
			for pl := p.plats; ; pl &= pl - 1 {
				if rng.Intn(3) == 0 || pl&(pl-1) == 0 {
					p.ban = Slot(trailingZeros32(pl))
					break
				}
			}
		}
		q, err := parse(p.String(), up)
		if err == nil {
			return q
		}
	}
}

func rngPerm(rng interface{ Intn(int) int }, s []Square) {
	for i := len(s) - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}

// TestReferenceRandomPositions compares the engine with the reference in
// crowded random positions (pins, checks, captures across levels, pawns on
// platforms), to depth 2 for some of them.
func TestReferenceRandomPositions(t *testing.T) {
	rng := rulestest.Rand(11)
	n := 400
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		p := randomPosition(rng, i%5 == 4)
		depth := 1
		if i%20 == 0 {
			depth = 2
		}
		compareTree(t, &p, depth)
	}
}
