package millennium

import (
	"slices"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
)

// A short game in Millennium notation with figurines, "×", level-only
// pawn moves, a two-step, castling and pawn captures onto another level,
// read the way `tridboard replay --variant millennium` reads it; and a
// record from a Position tag that ends in mate from another level.
const figurineGame = `[Event "Figurine test"]
[Variant "millennium"]

1. 1e3 3e6 2. ♘2g3 ♞2g6 3. ♗2e2 ♝2e7 4. 0-0 3d5 {two forward}
5. ♘2f5 e×2f5 6. 1e4 3a6 7. ex2f5 *
`

const figurineMate = `[Variant "millennium"]
[Position "K3c3,Q1c2,k1a1 w - - - 0 40"]

40. ♕2b2# 1-0
`

func replay(t *testing.T, text string) (*rules.Game, *record.Record) {
	t.Helper()
	rec, err := record.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	start := System.Start()
	if pos := rec.Tag("Position"); pos != "" {
		if start, err = System.ParsePosition(pos); err != nil {
			t.Fatal(err)
		}
	}
	g := rules.NewGame(start)
	for i, mv := range rec.Moves {
		if _, _, err := g.PlayNotation(mv); err != nil {
			t.Fatalf("move %d %q: %v", i+1, mv, err)
		}
	}
	return g, rec
}

func TestReplayFigurineRecord(t *testing.T) {
	g, _ := replay(t, figurineGame)
	want := []string{"1e2-1e3", "3e7-3e6", "1g1-2g3", "3g8-2g6", "1f1-2e2", "3f8-2e7", "0-0", "3d7-3d5",
		"2g3-2f5", "3e6-2f5", "1e3-1e4", "3a7-3a6", "1e4-2f5"}
	if got := g.Long(); !slices.Equal(got, want) {
		t.Errorf("long forms %v, want %v", got, want)
	}
	// Written back in letters (no figurines), the record replays the same.
	short := g.Short()
	h := rules.NewGame(System.Start())
	for _, s := range short {
		if strings.ContainsAny(s, "♔♕♖♗♘♚♛♜♝♞×") {
			t.Errorf("Short wrote %q", s)
		}
		if _, _, err := h.PlayNotation(s); err != nil {
			t.Fatal(err)
		}
	}
	if h.Position().String() != g.Position().String() {
		t.Errorf("short forms %v replay to another position", short)
	}
	m, _ := replay(t, figurineMate)
	if res, why := m.Outcome(); res != rules.WhiteWins || why != "checkmate" {
		t.Errorf("mate record: outcome %s (%s)", res, why)
	}
	if got := m.Short(); !slices.Equal(got, []string{"Q2b2#"}) {
		t.Errorf("mate record written as %v", got)
	}
}

// davisDAgostino is the published game of games.go.
const davisDAgostino = DavisDAgostino

// TestReplayDavisDAgostino replays the published game in both forms it is
// found in (figurines, and letters with "x"), with annotations,
// comments and a variation added as other sites have them, to mate.
func TestReplayDavisDAgostino(t *testing.T) {
	letters := strings.NewReplacer("♘", "N", "♝", "B", "♗", "B", "♞", "N", "♛", "Q", "♕", "Q", "♔", "K", "♚", "K",
		"♜", "R", "×", "x").Replace(davisDAgostino)
	annotated := strings.Replace(davisDAgostino, "5. ♘3c5 ♛×1b2", "5. ♘3c5!? {a sacrifice} ♛×1b2 $2 (5... ♛3b4 6. 1a3; quieter\n) ", 1)
	annotated = strings.Replace(annotated, "28. 2f2", "28. 2f2 (28. ♔1h1 (28. ♔2h1) ♛3g1#)", 1)
	for name, text := range map[string]string{"figurines": davisDAgostino, "letters": letters, "annotated": annotated} {
		g, rec := replay(t, text)
		if rec.Result != "0-1" || len(rec.Moves) != 56 {
			t.Errorf("%s: result %q, %d moves, want 0-1 and 56", name, rec.Result, len(rec.Moves))
		}
		if res, why := g.Outcome(); res != rules.BlackWins || why != "checkmate" {
			t.Errorf("%s: outcome %s (%s), want black wins by checkmate", name, res, why)
		}
		if got := g.Long()[9]; got != "1b6-1b2" {
			t.Errorf("%s: move 5... is %s, want 1b6-1b2", name, got)
		}
	}
}
