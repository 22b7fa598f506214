package table

import (
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/setting"
	"github.com/tridboard/tridboard/rules"
)

// How the game on the table is played (game.Play, issue 33). Casual and
// lesson games forgive the hand: a move the settle window completed can be
// corrected, the previous position put back is a take-back (the set's
// recognition settings). A tournament game follows the laws of
// over-the-board play:
//
//   - touch-move: a piece released on a square stands (the seeds' rules
//     4.3 and 4.7; FIDE Laws 4.3, 4.7): no correction;
//   - a move once made (and, with clock buttons, pressed) is final: the
//     previous position put back by hand is no take-back but a position no
//     legal move explains, shown to the arbiter as an illegal move of the
//     side that put it back (a take-back goes through the arbiter, the
//     take_back command);
//   - illegal moves are counted (FIDE Laws 7.5.5, with A.3 for rapid and
//     blitz): the first gives the opponent the penalty (the configured
//     clock.penalty, or FIDE's: one minute in rapid and blitz, two in
//     standard play), the second loses the game, or draws it when the
//     opponent cannot mate.

// GameOpts configure the games the table starts itself or is given
// without saying (a NewGame without Play). They are the configuration
// file's "game" section (the yaml names), checked by Validate.
type GameOpts struct {
	// Play is how they are played: casual (a change of mind and a
	// take-back by hand are forgiven), tournament (touch-move, no
	// take-back by hand, illegal moves counted as FIDE's laws say) or
	// lesson (docs/game.md, "Plays"); "" is casual.
	Play game.Play `yaml:"play"`
}

// DefaultGameOpts: casual games (a set on its own forgives).
func DefaultGameOpts() GameOpts { return GameOpts{Play: game.PlayCasual} }

// Validate checks the settings of the configuration file: play is
// casual, tournament or lesson. Its error is setting.Problems, keyed by
// the yaml names.
func (o *GameOpts) Validate() error {
	var ps setting.Problems
	if _, err := game.ParsePlay(string(o.Play)); err != nil {
		ps.Add("play", "%q: want casual, tournament or lesson", o.Play)
	}
	return ps.Err("table: game")
}

// play is the play of the table's game.
func (t *Table) play() game.Play {
	if p := t.sess.Tags().Play; p != "" {
		return p
	}
	return game.PlayCasual
}

// applyPlay sets the recognizer for the play of the table's game, and
// for a take-back by hand in a remote game (tbHeld: the set shows the
// position before the move, which is no take-back of this set's).
func (t *Table) applyPlay() {
	ro := t.o.Recognize
	if t.play() == game.PlayTournament {
		ro.TakeBacks, ro.Correction = false, 0
	}
	if t.remote.tbHeld {
		ro.TakeBacks = false
	}
	t.rec.SetForgiving(ro.TakeBacks, ro.Correction)
}

// penalty is what the opponent of a player whose move no legal move
// explains gets: the configured penalty, or in a tournament game without
// one FIDE's for its control (Laws 7.5.5: two minutes; A.3: one in rapid
// and blitz, where the time for the game, with 60 moves of increment, is
// under 60 minutes).
func (t *Table) penalty() time.Duration {
	if t.o.Clock.Penalty > 0 || t.sess == nil || t.play() != game.PlayTournament {
		return t.o.Clock.Penalty
	}
	ctl := t.sess.Control()
	if ctl.None() {
		return 0
	}
	p := ctl.Periods[0]
	total := p.Time
	if p.Bonus == clock.Increment || p.Bonus == clock.Bronstein || p.Bonus == clock.Delay {
		total += 60 * p.Amount
	}
	if len(ctl.Periods) > 1 || p.Moves > 0 || total >= time.Hour {
		return 2 * time.Minute
	}
	return clock.DefaultPenalty
}

// forfeitIllegal ends a tournament game at side's second completed illegal
// move n (FIDE Laws 7.5.5): a loss, or a draw when the opponent cannot mate.
func (t *Table) forfeitIllegal(at time.Time, side rules.Color, n int) {
	if n < 2 || t.play() != game.PlayTournament {
		return
	}
	if res, _ := t.sess.Result(); res != rules.NoResult {
		return
	}
	res := clock.FlagResult(t.sess.Position(), side, t.o.Clock.CannotMate)
	if err := t.sess.Forfeit(side, res); err != nil {
		t.log.Error("second illegal move: the journal refused the result", "side", side.String(), "err", err)
		return
	}
	t.log.Info("second illegal move: the game is over", "side", side.String(), "result", res)
	t.gameOver(at)
}
