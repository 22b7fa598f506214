// Package toy_test adds a system to tridboard from one package, as the
// registry promises: a toy game on two 3x3 levels, registered with one
// line (its rules, geometry and capabilities, and its set), then played
// by hand on its simulated set through the scanner, the recognizer, the
// table and the board page in headless Chromium. Nothing outside this
// package knows it.
package toy_test

import (
	"fmt"
	"io"
	"log/slog"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/websink"
	"github.com/tridboard/tridboard/web"
	"github.com/tridboard/tridboard/web/webtest"
)

// The toy's registration, one line: its rules, geometry and capabilities
// in the registry, and its set.
func init() {
	sets.Register(sets.Kit{Entry: &systems.Entry{Name: "toy", System: System, Geometry: geometry, Caps: systems.Caps{Set: "a toy set of two 3x3 levels"}}, Presets: []sets.WiringPreset{{Name: "toy-matrix", Build: matrix}}})
}

// The toy's rules. Cells are "1a1" .. "2c3" (level, file, rank), level
// by level, rank by rank. Every piece steps to a neighbouring cell: one
// square on its level (diagonals too) or straight up or down to the
// other level, onto an empty cell or an opponent's piece, which it
// captures. A side whose king is taken has lost (Checkmate); a side with
// no move is stalemated.
const (
	levels, files, ranks = 2, 3, 3
	numCells             = levels * files * ranks
	startString          = "K1a1,R1b1,k2c3,r2b3 w 0 1"
)

var cellNames = func() []string {
	var out []string
	for lv := 0; lv < levels; lv++ {
		for r := 0; r < ranks; r++ {
			for f := 0; f < files; f++ {
				out = append(out, fmt.Sprintf("%d%c%d", lv+1, 'a'+f, r+1))
			}
		}
	}
	return out
}()

func cellIndex(name string) (int, bool) {
	for i, n := range cellNames {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

func coords(c int) (lv, f, r int) { return c / (files * ranks), c % files, c / files % ranks }

// System is the toy system.
var System = rules.NewSystem[position]("toy", func() []string { return cellNames }, start, parse)

func start() position { p, _ := parse(startString); return p }

// position is one position of the toy game.
type position struct {
	board      [numCells]rules.Piece
	side       rules.Color
	half, full int
}

func parse(s string) (position, error) {
	var p position
	f := strings.Fields(s)
	if len(f) != 4 {
		return p, fmt.Errorf("toy: position %q: want pieces, side, halfmove clock, move number", s)
	}
	for _, t := range strings.Split(f[0], ",") {
		if t == "" {
			continue
		}
		k := strings.IndexByte(rules.PieceLetters, t[0]&^0x20)
		c, ok := cellIndex(t[1:])
		if k <= 0 || !ok {
			return p, fmt.Errorf("toy: position %q: piece %q", s, t)
		}
		col := rules.White
		if t[0] >= 'a' {
			col = rules.Black
		}
		p.board[c] = rules.PieceOf(col, rules.Piece(k))
	}
	var err error
	if p.side, err = map[string]rules.Color{"w": rules.White, "b": rules.Black}[f[1]], nil; f[1] != "w" && f[1] != "b" {
		return p, fmt.Errorf("toy: position %q: side %q", s, f[1])
	}
	if p.half, err = strconv.Atoi(f[2]); err != nil {
		return p, fmt.Errorf("toy: position %q: %w", s, err)
	}
	if p.full, err = strconv.Atoi(f[3]); err != nil {
		return p, fmt.Errorf("toy: position %q: %w", s, err)
	}
	return p, nil
}

func (p *position) System() rules.System { return System }
func (p *position) Turn() rules.Color    { return p.side }
func (p *position) HalfmoveClock() int   { return p.half }
func (p *position) FullmoveNumber() int  { return p.full }

func (p *position) Key() string {
	var b strings.Builder
	for c, pc := range p.board {
		if pc != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteByte(pc.Letter())
			b.WriteString(cellNames[c])
		}
	}
	return b.String() + " " + map[rules.Color]string{rules.White: "w", rules.Black: "b"}[p.side]
}

func (p *position) String() string { return fmt.Sprintf("%s %d %d", p.Key(), p.half, p.full) }

func move(from, to int) rules.Move               { return rules.Move(from<<8 | to) }
func (p *position) ends(m rules.Move) (int, int) { return int(m >> 8), int(m & 0xff) }

func (p *position) hasKing(c rules.Color) bool {
	for _, pc := range p.board {
		if pc == rules.PieceOf(c, rules.King) {
			return true
		}
	}
	return false
}

func (p *position) LegalMoves(buf []rules.Move) []rules.Move {
	if !p.hasKing(p.side) || !p.hasKing(p.side.Other()) {
		return buf
	}
	for from, pc := range p.board {
		if pc == 0 || pc.Color() != p.side {
			continue
		}
		lv, f, r := coords(from)
		for to := range p.board {
			tl, tf, tr := coords(to)
			step := tl == lv && max(abs(tf-f), abs(tr-r)) == 1 || tl != lv && tf == f && tr == r
			if step && (p.board[to] == 0 || p.board[to].Color() != p.side) {
				buf = append(buf, move(from, to))
			}
		}
	}
	return buf
}

func abs(x int) int { return max(x, -x) }

func (p *position) Play(m rules.Move) rules.Position {
	n := *p
	from, to := p.ends(m)
	n.half++
	if n.board[to] != 0 {
		n.half = 0
	}
	n.board[to], n.board[from] = n.board[from], 0
	if n.side == rules.Black {
		n.full++
	}
	n.side = n.side.Other()
	return &n
}

func (p *position) Long(m rules.Move) string {
	from, to := p.ends(m)
	return cellNames[from] + "-" + cellNames[to]
}

func (p *position) Short(m rules.Move) string {
	from, to := p.ends(m)
	sep := "-"
	if p.board[to] != 0 {
		sep = "x"
	}
	return string(p.board[from].Letter()&^0x20) + cellNames[from] + sep + cellNames[to]
}

func (p *position) ParseMove(s string) (rules.Move, string, error) {
	for _, m := range p.LegalMoves(nil) {
		if s == p.Long(m) || s == p.Short(m) {
			return m, "", nil
		}
	}
	return 0, "", fmt.Errorf("toy: %q is not a legal move here", s)
}

func (p *position) Info(m rules.Move) rules.MoveInfo {
	from, to := p.ends(m)
	in := rules.MoveInfo{From: rules.Cell(from), To: rules.Cell(to), Captured: rules.NoCell, Promoted: rules.NoCell}
	in.Touched.Add(in.From)
	if p.board[to] != 0 {
		in.Captured = in.To
		in.Touched.Add(in.To)
	}
	return in
}

func (p *position) Occupancy() rules.CellSet {
	var s rules.CellSet
	for c, pc := range p.board {
		if pc != 0 {
			s.Add(rules.Cell(c))
		}
	}
	return s
}

func (p *position) CellPiece(c rules.Cell) (rules.Piece, bool) {
	if int(c) >= numCells || p.board[c] == 0 {
		return 0, false
	}
	return p.board[c], true
}

func (p *position) InCheck() (bool, rules.Cell) { return false, rules.NoCell }

func (p *position) Status() rules.Status {
	switch {
	case !p.hasKing(p.side):
		return rules.Checkmate
	case len(p.LegalMoves(nil)) == 0:
		return rules.Stalemate
	}
	return rules.Ongoing
}

// geometry draws the two levels side by side, each a 3x3 panel.
func geometry(sys rules.System) (*rules.Geometry, error) {
	g := &rules.Geometry{Panels: []rules.Panel{{Name: "Level 1", W: files, H: ranks}, {Name: "Level 2", W: files, H: ranks}}}
	for c, n := range sys.Cells() {
		lv, f, r := coords(c)
		g.Cells = append(g.Cells, rules.Geo{Name: n, X: float64(f), Y: float64(r), Z: 2 * lv, File: n[1:2], Rank: n[2:3],
			Panel: lv, PX: f, PY: ranks - 1 - r, Dark: (f+r)%2 == 0, Words: n[1:] + " on level " + n[:1]})
	}
	return g, nil
}

// matrix is the toy set's wiring: its 18 cells in one diode matrix.
func matrix(buttons []string) (*sensors.Wiring, error) {
	return sensors.MatrixWiringFor(cellNames, 0x20, buttons...)
}

// The toy is a system like the others: the registry finds it by name,
// the kits give its set, the simulator stands it in its start position,
// and a game played by hand on it is recognized move by move by the table
// and shown move by move on the board page, its pieces on the toy's own
// 3x3 panels, to the capture of a king.
func TestToyPlaysThroughTheSimulatorAndThePage(t *testing.T) {
	sys, err := systems.ByName("toy")
	if err != nil {
		t.Fatal(err)
	}
	if sets.DefaultPreset("toy") != "toy-matrix" || systems.CapsOf(sys).Set != "a toy set of two 3x3 levels" {
		t.Fatalf("toy's kit %q, caps %+v", sets.DefaultPreset("toy"), systems.CapsOf(sys))
	}
	b, err := sets.Board(sys)
	if err != nil {
		t.Fatal(err)
	}
	if b.Set.System() != sys || b.Set.Closed() != sys.Start().Occupancy() {
		t.Fatalf("the simulated set is of %s, closed %v", b.Set.System().Name(), b.Set.Closed())
	}
	if other, err := sim.SystemOf(b.Wiring); err != nil || other != sys {
		t.Fatalf("the toy's wiring reads as %v, %v", other, err)
	}

	hub := web.NewHub(web.DefaultOpts())
	url, _ := webtest.Serve(t, web.New(hub, web.DefaultServerOpts()).Handler(), "")
	o := table.DefaultOpts()
	o.BoardID, o.StateDir, o.System = "toy-1", t.TempDir(), sys
	o.Bus, o.Wiring, o.Now = b.Bus, b.Wiring, b.Clock.Now
	o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	o.Sinks = []table.Sink{websink.New(hub, "toy-1")}
	tb, err := table.New(&o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tb.Close() })
	run := func(d time.Duration) {
		for end := b.Clock.Now().Add(d); b.Clock.Now().Before(end); {
			b.Clock.Advance(o.Sensors.Period)
			tb.Tick()
		}
	}
	run(time.Second)
	if st := tb.Snapshot().Status.State; st.String() != "in sync" {
		t.Fatalf("the set is %s at the start", st)
	}

	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/boards/toy-1")); err != nil {
		t.Fatal(err)
	}
	const piecesJS = `Object.fromEntries([...document.querySelectorAll('#flat .cell:not(.absent) .piece')].map(p => [p.parentNode.dataset.cell, p.dataset.piece]).sort((a, b) => a[0] < b[0] ? -1 : 1))`
	shown := func(what string, pos rules.Position) {
		t.Helper()
		want := map[string]string{}
		for i, n := range sys.Cells() {
			if pc, ok := pos.CellPiece(rules.Cell(i)); ok {
				want[n] = string(pc.Letter())
			}
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			got := webtest.Eval[map[string]string](t, ctx, piecesJS)
			if maps.Equal(got, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the page shows %v, want %v", what, got, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	shown("the start", sys.Start())
	// A listener hears the toy's cells as its geometry says them.
	const described = "the board: White: king a1 on level 1; rook b1 on level 1. Black: king c3 on level 2; rook b3 on level 2"
	webtest.WaitJS(t, ctx, "the board described", `(document.querySelector('#flat svg').getAttribute('aria-label') || '') == '`+described+`'`)
	if got := webtest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#flat .cell')].map(e => e.dataset.cell).sort()`); len(got) != numCells {
		t.Fatalf("the flat view draws %d cells, want %d: %v", len(got), numCells, got)
	}

	// White's king climbs to take Black's king: two moves each, the last
	// one a capture that ends the game.
	style := sim.PlainStyle
	style.Pause = 150 * time.Millisecond
	game := []string{"1a1-1b2", "2b3-2a3", "1b2-2b2", "2a3-2a2", "2b2-2c3"}
	for i, long := range game {
		pos := tb.Snapshot().Expected
		m, _, err := pos.ParseMove(long)
		if err != nil {
			t.Fatalf("move %d %s in %s: %v", i+1, long, pos, err)
		}
		for _, act := range sim.Gestures(pos, m, style) {
			for _, a := range act.Steps() {
				if a.Op == sim.OpWait {
					run(a.Wait)
					continue
				}
				if err := b.Set.Do(a); err != nil {
					t.Fatalf("%s: %v", a, err)
				}
				run(o.Sensors.Period)
			}
		}
		run(time.Second)
		if !tb.Drain(10 * time.Second) {
			t.Fatal("the table's journal and sinks did not finish within 10 s")
		}
		snap := tb.Snapshot()
		if len(snap.Moves) != i+1 || snap.Moves[i].Move != long || snap.Status.State.String() != "in sync" {
			t.Fatalf("after %s: moves %+v, the set %s, expected %s, closed %v", long, snap.Moves, snap.Status.State, snap.Expected, b.Set.Closed().Cells(nil))
		}
		shown("after "+long, snap.Expected)
	}
	if st := tb.Snapshot().Expected.Status(); st != rules.Checkmate {
		t.Errorf("after the king's capture: %s, want checkmate", st)
	}
	if got := webtest.Eval[int](t, ctx, `document.querySelectorAll('#moves .move[data-ply]').length`); got != len(game) {
		t.Errorf("the move list shows %d moves, want %d", got, len(game))
	}
	if errs := webtest.Eval[[]string](t, ctx, "window.__errors"); len(errs) > 0 {
		t.Errorf("errors in the page: %q", errs)
	}
}
