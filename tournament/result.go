package tournament

import "fmt"

// Result is a game's result as the event counts it.
type Result string

// The results. Forfeits are unplayed games: they score but are no game for
// colours, rematches or tie-breaks (FIDE C.04.1, C.07 16).
const (
	None          Result = ""    // not over yet
	WhiteWins     Result = "1-0" // played
	BlackWins     Result = "0-1"
	Draw          Result = "1/2-1/2"
	WhiteForfeit  Result = "+-" // White wins by forfeit (Black did not play)
	BlackForfeit  Result = "-+" // Black wins by forfeit
	DoubleForfeit Result = "--" // neither played, neither scores
	Bye           Result = "bye"
	// HalfPointBye and ZeroPointBye are byes a player asked for (or, for
	// the zero-point one, an absence): not paired, half a point or none
	// (TRF's H and Z).
	HalfPointBye Result = "bye-half"
	ZeroPointBye Result = "bye-zero"
)

// ParseResult reads a result as PGN, the API and the arbiter write it:
// "1-0", "0-1", "1/2-1/2" (or "½-½", "=", "0.5-0.5"), "+-", "-+", "--".
func ParseResult(s string) (Result, error) {
	switch s {
	case "1-0":
		return WhiteWins, nil
	case "0-1":
		return BlackWins, nil
	case "1/2-1/2", "½-½", "=", "0.5-0.5":
		return Draw, nil
	case "+-", "1-0F", "1F-0F":
		return WhiteForfeit, nil
	case "-+", "0-1F", "0F-1F":
		return BlackForfeit, nil
	case "--", "0F-0F":
		return DoubleForfeit, nil
	}
	return None, fmt.Errorf("tournament: result %q: want 1-0, 0-1, 1/2-1/2, +- (forfeit win for White), -+ or --", s)
}

// Played reports whether the game was played over the board.
func (r Result) Played() bool { return r == WhiteWins || r == BlackWins || r == Draw }

// Over reports whether the game has a result.
func (r Result) Over() bool { return r != None }

// points returns each side's score in half points.
func (r Result) points() (white, black int) {
	switch r {
	case WhiteWins, WhiteForfeit, Bye:
		return 2, 0
	case BlackWins, BlackForfeit:
		return 0, 2
	case Draw, HalfPointBye:
		return 1, 1
	}
	return 0, 0
}

// Game is one pairing of a round. Black is 0 for a bye.
type Game struct {
	Board  int    `json:"board"`
	White  int    `json:"white"`
	Black  int    `json:"black"`
	Result Result `json:"result,omitempty"`
	// Reason says how it ended or why the arbiter decided it (checkmate,
	// resignation, time, "arbiter: illegal move claim").
	Reason string `json:"reason,omitempty"`
	// GameID is the id of the game on the set, once it started.
	GameID string `json:"game_id,omitempty"`
	// Set is the board id of the set it is played on.
	Set string `json:"set,omitempty"`
}

// IsBye reports whether g is a bye.
func (g Game) IsBye() bool { return g.Black == 0 }

// Round is one round's pairings.
type Round struct {
	No    int    `json:"no"`
	Games []Game `json:"games"`
	// Started is set once the games were sent to the sets: pairings can no
	// longer be changed, only results.
	Started bool `json:"started,omitempty"`
}

// Over reports whether every game of the round has a result.
func (r Round) Over() bool {
	for _, g := range r.Games {
		if !g.Result.Over() {
			return false
		}
	}
	return len(r.Games) > 0
}
