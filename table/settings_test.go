package table_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/table"
)

// TestClockOptsValidate: the defaults are valid; each bad setting of the
// clock section is named by its yaml key with what it accepts, all at
// once.
func TestClockOptsValidate(t *testing.T) {
	o := table.DefaultClockOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.Default = clock.Control{Periods: []clock.Period{{Time: 1500 * time.Millisecond}}}
	o.Low, o.Penalty = 2*time.Hour, -time.Second
	const want = "table: clock: time_control: time control period 1: time 1.5s: want whole seconds, 1s..360000s; " +
		"low: 2h0m0s: want 0s to 1h0m0s; penalty: -1s: want 0s to 1h0m0s"
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestHintOptsValidate: the defaults are valid; each side's hint limit
// and assistance are checked under their yaml keys, all at once.
func TestHintOptsValidate(t *testing.T) {
	o := table.DefaultHintOpts()
	if err := o.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	o.Limit = table.Sides[int]{White: -1, Black: game.MaxHintLimit + 1}
	o.Assist = table.Sides[game.Assist]{White: "most", Black: game.AssistNone}
	const want = `table: lesson: assist.white: "most": want full, explain or none; hints.black: 1001: want -1 (no limit) to 1000`
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if s := (table.Sides[int]{White: 1, Black: 2}); s.Of(0) != 1 || s.Of(1) != 2 {
		t.Errorf("Of: %d %d", s.Of(0), s.Of(1))
	}
}

// TestButtonOpts: AllButtons puts every button on the cell of its name,
// pawn and king only for a set whose games place pieces; Cells lists them
// in ButtonNames order, Meanings says what each does; Validate names the
// bad ones by their yaml keys, all at once.
func TestButtonOpts(t *testing.T) {
	for _, placements := range []bool{false, true} {
		b := table.AllButtons(placements)
		want := "queen rook bishop knight new_game take_back clock_white clock_black hint"
		if placements {
			want += " pawn king"
		}
		var got []string
		for _, c := range b.Cells() {
			got = append(got, strings.TrimPrefix(c, "button:"))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("placements %v: %v, want %s", placements, got, want)
		}
		if err := b.Validate(); err != nil || b.None() {
			t.Errorf("placements %v: %v, none %v", placements, err, b.None())
		}
	}
	if !(table.ButtonOpts{}).None() {
		t.Error("None")
	}
	b := table.ButtonOpts{Queen: "button:q", ClockBlack: "button:cb", Hint: "button:h", King: "button:k", NewGame: "button:n",
		Pawn: "button:p", TakeBack: "button:t"}
	wantMeanings := map[string]table.Button{"button:q": {Kind: table.ButtonPromote, Piece: 'Q'},
		"button:cb": {Kind: table.ButtonClockBlack}, "button:h": {Kind: table.ButtonHint},
		"button:k": {Kind: table.ButtonPromote, Piece: 'K'}, "button:n": {Kind: table.ButtonNewGame},
		"button:p": {Kind: table.ButtonPromote, Piece: 'P'}, "button:t": {Kind: table.ButtonTakeBack}}
	if got := b.Meanings(); !reflect.DeepEqual(got, wantMeanings) {
		t.Errorf("Meanings = %v\nwant %v", got, wantMeanings)
	}
	b = table.ButtonOpts{Rook: "r", Bishop: "button:x", Knight: "button:x", ClockWhite: "button:x"}
	const want = `table: buttons: rook: "r": a button's cell name starts with "button:"; ` +
		`knight: "button:x" is also buttons.bishop; clock_white: "button:x" is also buttons.knight`
	if err := b.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestGameOptsValidate: the default is casual; play is checked under its
// yaml key.
func TestGameOptsValidate(t *testing.T) {
	o := table.DefaultGameOpts()
	if err := o.Validate(); err != nil || o.Play != game.PlayCasual {
		t.Fatalf("defaults %+v: %v", o, err)
	}
	o.Play = "blitz"
	const want = `table: game: play: "blitz": want casual, tournament or lesson`
	if err := o.Validate(); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
