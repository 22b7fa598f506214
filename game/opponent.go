package game

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tridboard/tridboard/rules"
)

// Opponent says who plays a side of a game from elsewhere: the players of
// another set (remote play) or an engine. Tags.Opponent keeps it as String
// writes it.
type Opponent struct {
	// Side is the side the opponent plays.
	Side rules.Color
	// Set is the board id of the other set (remote play), or "".
	Set string
	// Engine is the engine's level (1 and up) when Set is "".
	Engine int
}

// String writes s as Tags.Opponent keeps it: "black=set:enterprise",
// "white=engine:3".
func (s Opponent) String() string {
	if s.Set != "" {
		return s.Side.String() + "=set:" + s.Set
	}
	return s.Side.String() + "=engine:" + strconv.Itoa(s.Engine)
}

// ParseOpponent reads what Opponent.String writes; "" is no opponent (ok false).
func ParseOpponent(str string) (s Opponent, ok bool, err error) {
	if str == "" {
		return Opponent{}, false, nil
	}
	side, who, found := strings.Cut(str, "=")
	switch side {
	case "white":
		s.Side = rules.White
	case "black":
		s.Side = rules.Black
	default:
		return Opponent{}, false, fmt.Errorf("opponent %q: the side must be white or black", str)
	}
	kind, arg, _ := strings.Cut(who, ":")
	switch {
	case !found:
		return Opponent{}, false, fmt.Errorf("opponent %q: want SIDE=set:BOARD or SIDE=engine:LEVEL", str)
	case kind == "set":
		if err := checkBoard(arg); err != nil {
			return Opponent{}, false, fmt.Errorf("opponent %q: %w", str, err)
		}
		s.Set = arg
	case kind == "engine":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 {
			return Opponent{}, false, fmt.Errorf("opponent %q: the engine level must be a number from 1", str)
		}
		s.Engine = n
	default:
		return Opponent{}, false, fmt.Errorf("opponent %q: want set:BOARD or engine:LEVEL", str)
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
