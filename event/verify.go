package event

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
)

// ErrNotCredible is a set's state that the event does not believe: its
// moves do not replay by the rules, or its result follows neither from the
// position nor from a recorded resignation, agreement, flag or arbiter's
// decision.
var ErrNotCredible = errors.New("not believed")

// replayed is the last game a set's state replayed to: the next state of
// the same game only plays its new moves.
type replayed struct {
	variant, options, start string
	moves                   []string
	g                       *rules.Game
}

// replaySet is replay with what set's last state replayed to kept in r:
// a state that extends it plays only its new moves. The caller holds r.mu.
func (r *Runner) replaySet(set, variant, options string, st protocol.State) (*rules.Game, error) {
	c := r.replays[set]
	if c != nil && c.variant == variant && c.options == options && c.start == st.Start && len(st.Moves) >= len(c.moves) &&
		slices.Equal(st.Moves[:len(c.moves)], c.moves) {
		for i, long := range st.Moves[len(c.moves):] {
			if _, _, err := c.g.PlayNotation(long); err != nil {
				delete(r.replays, set)
				return nil, fmt.Errorf("%w: move %d: %v", ErrNotCredible, len(c.moves)+i+1, err)
			}
		}
		c.moves = slices.Clone(st.Moves)
		return c.g, nil
	}
	g, err := replay(variant, options, st)
	if err != nil {
		delete(r.replays, set)
		return nil, err
	}
	r.replays[set] = &replayed{variant: variant, options: options, start: st.Start, moves: slices.Clone(st.Moves), g: g}
	return g, nil
}

// replay plays st's moves from its start by the rules of the event's
// variant: a move that is not legal there makes the state unbelievable.
func replay(variant, options string, st protocol.State) (*rules.Game, error) {
	sys, err := systems.Lookup(variant, options)
	if err != nil {
		return nil, err
	}
	pos := sys.Start()
	if st.Start != "" {
		if pos, err = sys.ParsePosition(st.Start); err != nil {
			return nil, fmt.Errorf("%w: start position: %v", ErrNotCredible, err)
		}
	}
	g, err := rules.ReplayLong(pos, st.Moves)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotCredible, err)
	}
	return g, nil
}

// credible checks that st's result follows from what g (its moves,
// replayed) and st show:
//   - checkmate, stalemate, a dead position: the position is that, and the
//     result is the one it decides;
//   - threefold repetition, the 50-move rule: the position can be claimed
//     so, and the result is a draw;
//   - time: the clock shows the loser's flag (its time at zero, or its
//     flag), and the result is a loss for it (or a draw: the opponent could
//     not mate);
//   - resignation (a decisive result), agreement (a draw), illegal moves
//     (FIDE 7.5.5, counted by the set) and a decision of the arbiter
//     ("arbiter..."): the set's record says so, and it signed it.
//
// A position that decides the game (mate, stalemate, dead position)
// decides its result whatever the reason given. Anything else is refused.
func credible(g *rules.Game, st protocol.State) error {
	res := rules.Result(st.Result)
	switch res {
	case rules.WhiteWins, rules.BlackWins, rules.Draw:
	default:
		return fmt.Errorf("%w: result %q", ErrNotCredible, st.Result)
	}
	out, why := g.Outcome()
	if out != rules.NoResult {
		if res != out {
			return fmt.Errorf("%w: %s by %s, but the position is %s (%s)", ErrNotCredible, res, or(st.Reason, "no reason"), why, out)
		}
		return nil
	}
	decisive := res != rules.Draw
	reason := strings.ToLower(st.Reason)
	switch {
	case reason == "checkmate", reason == "stalemate", reason == "dead position":
		return fmt.Errorf("%w: %s %s, but the position is not one (the game goes on)", ErrNotCredible, res, reason)
	case reason == "threefold repetition":
		if decisive || !g.CanClaimThreefold() {
			return fmt.Errorf("%w: %s by threefold repetition: the position stood %d times", ErrNotCredible, res, g.Repetitions())
		}
	case reason == "50-move rule":
		if decisive || !g.CanClaimFiftyMoves() {
			return fmt.Errorf("%w: %s by the 50-move rule: %d half-moves without capture or pawn move", ErrNotCredible, res, g.Position().HalfmoveClock())
		}
	case reason == "time":
		return flagged(st, res)
	case reason == "resignation":
		if !decisive {
			return fmt.Errorf("%w: a resignation scored %s", ErrNotCredible, res)
		}
	case reason == "agreement":
		if decisive {
			return fmt.Errorf("%w: an agreed draw scored %s", ErrNotCredible, res)
		}
	case reason == "illegal moves", strings.HasPrefix(reason, "arbiter"):
	default:
		return fmt.Errorf("%w: %s with termination %q: neither the position nor a resignation, agreement, flag or arbiter's decision", ErrNotCredible, res, st.Reason)
	}
	return nil
}

// flagged checks a result on time against the clock the state shows.
func flagged(st protocol.State, res rules.Result) error {
	c := st.Clock
	if c == nil {
		return fmt.Errorf("%w: %s on time, and no clock", ErrNotCredible, res)
	}
	white := c.Flag == "white" || c.WhiteMS <= 0
	black := c.Flag == "black" || c.BlackMS <= 0
	switch {
	case res == rules.WhiteWins && black, res == rules.BlackWins && white, res == rules.Draw && (white || black):
		return nil
	}
	return fmt.Errorf("%w: %s on time, but the clock shows white %d ms, black %d ms, flag %q", ErrNotCredible, res, c.WhiteMS, c.BlackMS, c.Flag)
}
