// Package opponent plays one side of a table's game from elsewhere: the
// players of another set on the same broker (remote play), or an engine. The
// opponent's moves reach the table as moves made elsewhere (table.PlayMove),
// which its LEDs show until the players make them on the set; the set's own
// moves are published as usual, and the other set picks them up.
//
// Who the opponent is belongs to the game: it is kept in the game's tags
// (game.Tags.Opponent, see Spec), so a set that restarts goes on with the
// same opponent. A Manager, a sink of the table, starts and stops the
// opponent as games begin and end.
package opponent

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Spec says who plays a side from elsewhere.
type Spec struct {
	// Side is the side the opponent plays.
	Side rules.Color
	// Set is the board id of the other set (remote play), or "".
	Set string
	// Engine is the engine's level (1 and up) when Set is "".
	Engine int
}

// String writes s as game.Tags.Opponent keeps it: "black=set:enterprise",
// "white=engine:3".
func (s Spec) String() string {
	if s.Set != "" {
		return s.Side.String() + "=set:" + s.Set
	}
	return s.Side.String() + "=engine:" + strconv.Itoa(s.Engine)
}

// Parse reads what String writes; "" is no opponent (ok false).
func Parse(str string) (s Spec, ok bool, err error) {
	if str == "" {
		return Spec{}, false, nil
	}
	side, who, found := strings.Cut(str, "=")
	switch side {
	case "white":
		s.Side = rules.White
	case "black":
		s.Side = rules.Black
	default:
		return Spec{}, false, fmt.Errorf("opponent %q: the side must be white or black", str)
	}
	kind, arg, _ := strings.Cut(who, ":")
	switch {
	case !found:
		return Spec{}, false, fmt.Errorf("opponent %q: want SIDE=set:BOARD or SIDE=engine:LEVEL", str)
	case kind == "set":
		if err := checkBoard(arg); err != nil {
			return Spec{}, false, fmt.Errorf("opponent %q: %w", str, err)
		}
		s.Set = arg
	case kind == "engine":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 {
			return Spec{}, false, fmt.Errorf("opponent %q: the engine level must be a number from 1", str)
		}
		s.Engine = n
	default:
		return Spec{}, false, fmt.Errorf("opponent %q: want set:BOARD or engine:LEVEL", str)
	}
	return s, true, nil
}

// checkBoard refuses what cannot be a topic level.
func checkBoard(b string) error {
	if b == "" || strings.ContainsAny(b, "/+#\x00") {
		return fmt.Errorf("board id %q: not a topic level", b)
	}
	return nil
}
