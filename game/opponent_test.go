package game_test

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
)

// The opponent tag reads back what it writes, and refuses what is not a
// side and a set or an engine level.
func TestOpponentTag(t *testing.T) {
	for _, tc := range []struct {
		in, err string
		want    game.Opponent
	}{
		{"black=set:klingon", "", game.Opponent{Side: rules.Black, Set: "klingon"}},
		{"white=engine:3", "", game.Opponent{Side: rules.White, Engine: 3}},
		{"red=set:x", "side", game.Opponent{}},
		{"black=engine:0", "level", game.Opponent{}},
		{"black=set:a/b", "topic level", game.Opponent{}},
		{"black=robot:1", "want set", game.Opponent{}},
		{"black", "want SIDE", game.Opponent{}},
	} {
		got, ok, err := game.ParseOpponent(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseOpponent(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !ok || got != tc.want || got.String() != tc.in {
			t.Errorf("ParseOpponent(%q) = %+v, %v, %v", tc.in, got, ok, err)
		}
	}
	if _, ok, err := game.ParseOpponent(""); ok || err != nil {
		t.Errorf("ParseOpponent(\"\") = %v, %v: want no opponent", ok, err)
	}
}
