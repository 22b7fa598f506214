package table_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// tournament makes the rig's games tournament games.
func tournament(o *table.Opts) { o.Game.Play = game.PlayTournament }

// A tournament game is touch-move (issue 33; the seeds' rules 4.7, FIDE
// 4.7): the pawn released on b3W stands, going on to b4W is an illegal move
// and no correction. A casual game and a lesson keep the set's forgiving
// settings: the same hand is a change of mind.
func TestPlayTouchMove(t *testing.T) {
	for _, tc := range []struct {
		play  game.Play
		moves []string
		state recognize.State
	}{
		{game.PlayTournament, []string{"b2W-b3W"}, recognize.Mismatch},
		{game.PlayCasual, []string{"b2W-b4W"}, recognize.InSync},
		{game.PlayLesson, []string{"b2W-b4W"}, recognize.InSync},
	} {
		t.Run(string(tc.play), func(t *testing.T) {
			r := newRig(t, func(o *table.Opts) { o.Game.Play = tc.play })
			r.act("lift b2W", "wait 100", "place b3W", "wait 700", "lift b3W", "wait 150", "place b4W")
			r.run(3 * time.Second)
			r.drain()
			if got := r.moveList(); !slices.Equal(got, tc.moves) {
				t.Fatalf("record %q, want %q", got, tc.moves)
			}
			if st := r.tb.Snapshot().Status.State; st != tc.state {
				t.Fatalf("the set is %s, want %s", st, tc.state)
			}
			_, illegal := r.event(table.Illegal)
			if illegal != (tc.play == game.PlayTournament) {
				t.Fatalf("illegal event %v in a %s game: %s", illegal, tc.play, r.rec.kinds())
			}
		})
	}
}

// A tournament game's penalty for an illegal move, without one configured,
// is FIDE's for its control (Laws 7.5.5 and A.3): one minute in blitz and
// rapid (under 60 minutes with 60 moves of increment), two in standard
// play; a configured penalty stands; a casual game gives the configured
// one (none by default).
func TestPlayPenalty(t *testing.T) {
	for _, tc := range []struct {
		play       game.Play
		control    string
		configured time.Duration
		want       time.Duration
	}{
		{game.PlayTournament, "180+2", 0, time.Minute},
		{game.PlayTournament, "300", 0, time.Minute},
		{game.PlayTournament, "900+10", 0, time.Minute},      // rapid: 25 min
		{game.PlayTournament, "3000+10", 0, 2 * time.Minute}, // 60 min
		{game.PlayTournament, "5400+30", 0, 2 * time.Minute},
		{game.PlayTournament, "40/7200:3600", 0, 2 * time.Minute},
		{game.PlayTournament, "180+2", 30 * time.Second, 30 * time.Second},
		{game.PlayCasual, "180+2", 0, 0},
		{game.PlayCasual, "180+2", time.Minute, time.Minute},
		{game.PlayLesson, "5400+30", 0, 0},
	} {
		r := newClockRig(t, tc.control, func(o *table.Opts) { o.Game.Play, o.Clock.Penalty = tc.play, tc.configured })
		if got := table.Penalty(r.tb); got != tc.want {
			t.Errorf("%s %s, configured %v: penalty %v, want %v", tc.play, tc.control, tc.configured, got, tc.want)
		}
	}
}

// In a tournament game a move pressed is final (issue 33): White moves and
// presses, then puts the pawn back by hand in Black's time. No take-back:
// the record keeps b2W-b3W, the set shows an illegal move by White for the
// arbiter (the pawn to put back on b3W), Black gets FIDE's minute, and
// White's clock, not Black's, runs until the set shows the position again.
// White's second illegal move loses the game (FIDE 7.5.5), also after a
// restart in between. In a casual game the same hand is a take-back.
func TestPlayTournamentHandTakeBack(t *testing.T) {
	takeBack := []string{"lift b3W", "wait 120", "place b2W", "wait 2500"}
	for _, play := range []game.Play{game.PlayTournament, game.PlayCasual} {
		t.Run(string(play), func(t *testing.T) {
			r := newClockRig(t, "180+2", clockButtons, func(o *table.Opts) { o.Game.Play = play })
			r.act("tap knight", "wait 500") // Black starts White's clock
			r.play("b2W-b3W")
			r.act("wait 300", "tap queen", "wait 1500")
			r.drain()
			lift := r.b.Clock.Now()
			black := r.clk().Remaining(rules.Black, lift)
			r.act(takeBack...)
			r.drain()
			if play == game.PlayCasual {
				if _, ok := r.event(table.TookBack); !ok || len(r.moveList()) != 0 {
					t.Fatalf("casual: no take-back by hand: %s", r.rec.kinds())
				}
				return
			}
			if got := r.moveList(); !slices.Equal(got, []string{"b2W-b3W"}) {
				t.Fatalf("record %q, want b2W-b3W to stand", got)
			}
			if _, ok := r.event(table.TookBack); ok {
				t.Fatalf("a take-back by hand in a tournament game: %s", r.rec.kinds())
			}
			ill, ok := r.event(table.Illegal)
			if !ok || !strings.HasPrefix(ill.Detail, "tournament game: no take-back by hand (b2W-b3W stands)") {
				t.Fatalf("illegal event %+v, want one saying the take-back is refused: %s", ill, r.rec.kinds())
			}
			s := r.tb.Snapshot()
			if s.Status.State != recognize.Mismatch || s.Clock.Running != "white" {
				t.Fatalf("status %s, clock running %q: want a mismatch on White's time", s.Status.State, s.Clock.Running)
			}
			if e, _ := r.event(table.ClockChanged); e.Detail != "penalty: black gets 1m0s for white's illegal move" {
				t.Errorf("clock event %q, want Black's penalty minute", e.Detail)
			}
			// Black's clock ran until the sensors saw the lift (their
			// debounce and a scan after the hand).
			seen := r.opts.Sensors.Debounce + r.opts.Sensors.Period
			if got, want := r.clk().Remaining(rules.Black, r.b.Clock.Now()), black+time.Minute; got > want || got < want-seen {
				t.Errorf("Black has %v, want %v less at most %v (the minute, and nothing of White's mismatch)", got, want, seen)
			}
			// The pawn back on b3W: in sync, Black's clock runs.
			r.act("lift b2W", "wait 120", "place b3W", "wait 800")
			if s := r.tb.Snapshot(); s.Status.State != recognize.InSync || s.Clock.Running != "black" {
				t.Fatalf("after the pawn is back: %s, clock %q", s.Status.State, s.Clock.Running)
			}
			if err := r.tb.Close(); err != nil {
				t.Fatal(err)
			}
			r.open()
			if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockResume}); err != nil {
				t.Fatal(err)
			}
			r.act(takeBack...)
			r.drain()
			e, ok := r.event(table.GameOver)
			if !ok || e.Result != rules.BlackWins || e.Reason != game.ReasonIllegal {
				t.Fatalf("after White's second illegal move: %+v, want 0-1 for illegal moves (%s)", e, r.rec.kinds())
			}
			if c := r.tb.Snapshot().Clock; c == nil || !c.Stopped {
				t.Errorf("the clock %+v, want stopped", c)
			}
		})
	}
}

// A second illegal move draws when the opponent cannot mate (FIDE 7.5.5),
// as a flag does (clock.FlagResult): here a bare king.
func TestPlaySecondIllegalMoveAgainstABareKing(t *testing.T) {
	r := newClockRig(t, "180+2", tournament)
	bare := "QL1:w,QL6:b,KL1:w,KL6:b Kd0KL1,rb7B,kd9KL6 b - - - 0 40"
	if _, err := r.tb.Exec(table.NewGame{Position: bare, DefaultClock: true, Tags: game.Tags{Play: game.PlayTournament}}); err != nil {
		t.Fatal(err)
	}
	r.setup()
	r.run(time.Second)
	// Black, with a rook against White's bare king, moves its king twice
	// where it cannot go.
	for i := 0; i < 2; i++ {
		r.act("lift d9KL6", "wait 100", "place b8B", "wait 2500")
		if i == 0 {
			r.act("lift b8B", "wait 100", "place d9KL6", "wait 800")
		}
	}
	r.drain()
	e, ok := r.event(table.GameOver)
	if !ok || e.Result != rules.Draw || e.Reason != game.ReasonIllegal {
		t.Fatalf("game over %+v, want a draw for illegal moves: White's bare king cannot mate (%s)", e, r.rec.kinds())
	}
}

// FIDE Laws 7.5.4 (issue 33): in a tournament game, the side to move
// pressing its clock without making a move has made an illegal move,
// penalized as one (7.5.5, A.3: Black gets a minute) and the second loses
// the game. A press that completes a move is none, nor a press by the side
// not to move. A casual game ignores a press without a move, as before.
func TestPlayClockPressWithoutAMove(t *testing.T) {
	for _, play := range []game.Play{game.PlayTournament, game.PlayCasual} {
		t.Run(string(play), func(t *testing.T) {
			r := newClockRig(t, "180+2", clockButtons, func(o *table.Opts) { o.Game.Play = play })
			r.act("tap knight", "wait 500") // Black starts White's clock
			r.play("b2W-b3W")
			r.act("wait 300", "tap queen", "wait 1500") // the press completes White's move
			r.act("tap queen", "wait 1500")             // White's press in Black's time
			r.drain()
			if _, ok := r.event(table.Illegal); ok || len(r.moveList()) != 1 {
				t.Fatalf("a press completing a move, or in the other side's time, was punished: %s", r.rec.kinds())
			}
			r.play("b7B-b6B")
			r.act("wait 300", "tap knight", "wait 1500")
			white := r.clk().Remaining(rules.White, r.b.Clock.Now())
			r.act("tap queen", "wait 1500") // White presses with no move
			r.drain()
			ill, illegal := r.event(table.Illegal)
			if play == game.PlayCasual {
				if illegal || r.clk().Remaining(rules.White, r.b.Clock.Now()) >= white {
					t.Fatalf("casual: illegal %v, White %v: want nothing but White's clock running (%s)", illegal,
						r.clk().Remaining(rules.White, r.b.Clock.Now()), r.rec.kinds())
				}
				return
			}
			if !illegal || ill.Side != rules.White || ill.Detail != "tournament game: white pressed the clock without making a move (FIDE Laws 7.5.4): an illegal move" {
				t.Fatalf("illegal event %+v (%s)", ill, r.rec.kinds())
			}
			if e, _ := r.event(table.ClockChanged); e.Detail != "penalty: black gets 1m0s for white's illegal move" {
				t.Errorf("clock event %q, want Black's penalty minute", e.Detail)
			}
			s := r.tb.Snapshot()
			if s.Clock.Running != "white" || s.Result != rules.NoResult || len(s.Moves) != 2 {
				t.Fatalf("after the first: clock %+v, result %s, %d moves", s.Clock, s.Result, len(s.Moves))
			}
			r.act("tap queen", "wait 1500")
			r.drain()
			e, ok := r.event(table.GameOver)
			if !ok || e.Result != rules.BlackWins || e.Reason != game.ReasonIllegal {
				t.Fatalf("after White's second press without a move: %+v, want 0-1 for illegal moves (%s)", e, r.rec.kinds())
			}
		})
	}
}
