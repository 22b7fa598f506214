package rules

import "fmt"

// Result is the outcome of a game.
type Result string

// Results, written as in game records.
const (
	NoResult  Result = "*"
	WhiteWins Result = "1-0"
	BlackWins Result = "0-1"
	Draw      Result = "1/2-1/2"
)

// Game is a game's history: the positions from the start and the moves
// between them, with what can be claimed (threefold repetition, the 50-move
// rule). It works for any System.
type Game struct {
	positions []Position
	moves     []Move
	keys      []string
}

// NewGame starts a history at pos.
func NewGame(pos Position) *Game {
	return &Game{positions: []Position{pos}, keys: []string{pos.Key()}}
}

// Position is the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Len is the number of moves played.
func (g *Game) Len() int { return len(g.moves) }

// Move returns the i-th move (from 0) and the position it was played in.
func (g *Game) Move(i int) (Move, Position) { return g.moves[i], g.positions[i] }

// Start is the position the history starts from.
func (g *Game) Start() Position { return g.positions[0] }

// Play plays m, which must be legal in the current position.
func (g *Game) Play(m Move) Position {
	next := g.Position().Play(m)
	g.positions = append(g.positions, next)
	g.moves = append(g.moves, m)
	g.keys = append(g.keys, next.Key())
	return next
}

// PlayNotation reads a move in long or short notation and plays it. The note
// is non-empty when the reader resolved an ambiguity by convention.
func (g *Game) PlayNotation(s string) (Move, string, error) {
	m, note, err := g.Position().ParseMove(s)
	if err != nil {
		return 0, "", err
	}
	g.Play(m)
	return m, note, nil
}

// TakeBack removes the last move. It reports false when there is none.
func (g *Game) TakeBack() bool {
	if len(g.moves) == 0 {
		return false
	}
	n := len(g.moves)
	g.moves = g.moves[:n-1]
	g.positions = g.positions[:n]
	g.keys = g.keys[:n]
	return true
}

// Repetitions counts how often the current position has stood on the board
// in this history (itself included).
func (g *Game) Repetitions() int {
	k := g.keys[len(g.keys)-1]
	n := 0
	for _, o := range g.keys {
		if o == k {
			n++
		}
	}
	return n
}

// CanClaimThreefold reports whether a draw by threefold repetition can be
// claimed (5.4): the current position has appeared three times.
func (g *Game) CanClaimThreefold() bool { return g.Repetitions() >= 3 }

// CanClaimFiftyMoves reports whether a draw by the 50-move rule can be
// claimed (5.5): 50 moves by each player without a pawn move or capture.
func (g *Game) CanClaimFiftyMoves() bool { return g.Position().HalfmoveClock() >= 100 }

// Outcome is the result decided by the position alone (mate, stalemate,
// dead position), and why; NoResult while the game goes on.
func (g *Game) Outcome() (Result, string) {
	p := g.Position()
	switch p.Status() {
	case Checkmate:
		if p.Turn() == White {
			return BlackWins, "checkmate"
		}
		return WhiteWins, "checkmate"
	case Stalemate:
		return Draw, "stalemate"
	case DeadPosition:
		return Draw, "dead position"
	}
	return NoResult, ""
}

// Long is the long form of every move, in order.
func (g *Game) Long() []string {
	out := make([]string, len(g.moves))
	for i, m := range g.moves {
		out[i] = g.positions[i].Long(m)
	}
	return out
}

// Short is the short notation of every move, in order.
func (g *Game) Short() []string {
	out := make([]string, len(g.moves))
	for i, m := range g.moves {
		out[i] = g.positions[i].Short(m)
	}
	return out
}

// ReplayLong plays moves given in long form from pos.
func ReplayLong(pos Position, moves []string) (*Game, error) {
	g := NewGame(pos)
	for i, s := range moves {
		if _, _, err := g.PlayNotation(s); err != nil {
			return g, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return g, nil
}
