package table_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

var fourMoves = []string{"b2W-b3W", "b7B-b6B", "c2W-c3W", "c7B-c6B"}

// Every kind of control, through the set: each move stops the mover's
// clock at its completion time and applies the period's bonus; the
// opponent's clock runs from then. The thinking times straddle the delays.
func TestClockControls(t *testing.T) {
	thinks := []time.Duration{500 * time.Millisecond, 5 * time.Second, 1500 * time.Millisecond, 4 * time.Second}
	for _, ctl := range []string{"300", "180+2", "300d3", "300b3"} {
		t.Run(ctl, func(t *testing.T) {
			r := newClockRig(t, ctl)
			m := newModel(ctl, r.clockStarted())
			r.check(m, "at the start")
			for i, long := range fourMoves {
				r.run(thinks[i])
				r.play(long)
				mv := r.lastMove()
				m.moved(mv.Time)
				r.check(m, "after "+long)
				snap := r.tb.Snapshot().Clock
				if snap == nil || snap.Control != ctl || snap.Running != m.turn.String() {
					t.Errorf("after %s: snapshot %+v", long, snap)
				}
			}
		})
	}
}

// A control in periods: after White's 40th move the next period's time is
// added, and the snapshot says which period each side is in.
func TestClockPeriodAfterThe40thMove(t *testing.T) {
	const ctl = "40/600+2:300+2"
	r := newClockRig(t, ctl)
	m := newModel(ctl, r.clockStarted())
	shuffle := []string{"a1W-b3W", "a8B-b6B", "b3W-a1W", "b6B-a8B"}
	for i := range 80 {
		r.play(shuffle[i%4])
		m.moved(r.lastMove().Time)
		switch i {
		case 76, 77, 78, 79:
			r.check(m, "after half-move "+shuffle[i%4])
		}
		snap := r.tb.Snapshot().Clock
		switch i {
		case 78: // White's 40th move
			if snap.WhitePeriod != 2 || snap.WhiteToGo != 0 || snap.BlackPeriod != 1 || snap.BlackToGo != 1 {
				t.Errorf("after White's 40th move: %+v", snap)
			}
		case 76:
			if snap.WhitePeriod != 1 || snap.WhiteToGo != 1 {
				t.Errorf("after White's 39th move: %+v", snap)
			}
		}
	}
	if w := r.clk().Remaining(rules.White, r.b.Clock.Now()); w < 300*time.Second+600*time.Second-5*time.Minute {
		t.Errorf("White has %v after the 40th move: the second period was not added", w)
	}
}

// journalResult reads the journal's result record: its time and fields.
func journalResult(t *testing.T, r *rig) map[string]any {
	t.Helper()
	snap := r.tb.Snapshot()
	b, err := os.ReadFile(filepath.Join(r.opts.StateDir, game.GamesDir, snap.Game+game.JournalExt))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.IndexByte(l, '{'); i >= 0 && strings.Contains(l, `"t":"result"`) {
			var v map[string]any
			if err := json.Unmarshal([]byte(l[i:]), &v); err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatal("no result record in the journal")
	return nil
}

// The flag falls at exactly zero; with the set in sync (no move on the way)
// the table declares it on the first Tick that sees it, within one scan
// period (issue 21: it came ~445 ms late), the game is lost on time, and
// the journal, the game_over event, the snapshot and the LEDs (the loser's
// king) say so.
func TestClockFlagAtExactlyZero(t *testing.T) {
	r := newClockRig(t, "10")
	start := r.clockStarted()
	flag := start.Add(10 * time.Second)
	c := r.clk()
	if got := c.Remaining(rules.White, flag.Add(-time.Nanosecond)); got != time.Nanosecond {
		t.Errorf("a nanosecond before the flag White has %v", got)
	}
	if at, ok := c.FlagAt(); !ok || !at.Equal(flag) {
		t.Errorf("FlagAt %v, want %v", at, flag)
	}
	r.run(flag.Sub(r.b.Clock.Now()) - r.opts.Sensors.Period)
	if _, over := r.event(table.GameOver); over {
		t.Fatal("game over before the flag fell")
	}
	r.run(r.opts.Sensors.Period)
	e, ok := r.event(table.GameOver)
	if !ok || e.Result != rules.BlackWins || e.Reason != game.ReasonTime {
		t.Fatalf("game over %+v (%v) one scan period after the flag, want 0-1 on time", e, ok)
	}
	if late := e.At.Sub(flag); late < 0 || late > r.opts.Sensors.Period {
		t.Errorf("declared %v after the flag fell, want within a scan period (%v)", late, r.opts.Sensors.Period)
	}
	snap := r.tb.Snapshot()
	if snap.Result != rules.BlackWins || snap.Reason != game.ReasonTime || snap.Clock.Flag != "white" || snap.Clock.WhiteMS != 0 ||
		!snap.Clock.Stopped || snap.Time.Sub(flag) > r.opts.Sensors.Period {
		t.Errorf("snapshot at +%v after the flag: %s (%s), clock %+v", snap.Time.Sub(flag), snap.Result, snap.Reason, snap.Clock)
	}
	res := journalResult(t, r)
	if res["reason"] != "time" || res["side"] != "white" || res["result"] != "0-1" ||
		res["time"] != flag.UTC().Format(time.RFC3339Nano) {
		t.Errorf("journal's result %v, want White's flag at %s", res, flag.UTC().Format(time.RFC3339Nano))
	}
	if v := r.leds.view(); v.Draw || len(v.GameOver.Names(st3d.CellNames())) != 1 {
		t.Errorf("LEDs: game over %v, draw %v", v.GameOver.Names(st3d.CellNames()), v.Draw)
	} else if king := v.GameOver.Names(st3d.CellNames())[0]; king != "e0KL1" && king != "d0KL1" {
		t.Errorf("LEDs show %s, want White's king", king)
	}
	// The game is over: moves and clock commands are refused.
	if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockAdd, Side: rules.White, D: time.Minute}); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("clock command after the flag: %v", err)
	}
}

// FIDE 6.9: a flag with an opponent who cannot mate (a lone king) is a
// draw; with an opponent who has a lone bishop or knight it is a loss,
// since these mate on this set (D18).
func TestClockFlagAgainstWhatCanMate(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		want      rules.Result
		kings     int // the LEDs' game-over cells: both kings for a draw
	}{
		{"a lone king: draw", "QL1:w,QL6:b,KL1:w,KL6:b Kc4N,ke0KL1,rb8B b - - - 0 40", rules.Draw, 2},
		{"a lone bishop (D18): loss", "QL1:w,QL6:b,KL1:w,KL6:b Kc4N,Bc2W,ke0KL1 b - - - 0 40", rules.WhiteWins, 1},
		{"a lone knight (D18): loss", "QL1:w,QL6:b,KL1:w,KL6:b Kc4N,Nc2W,ke0KL1 b - - - 0 40", rules.WhiteWins, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newClockRig(t, "10")
			if _, err := r.tb.Exec(table.NewGame{Position: tc.pos, TimeControl: clock.MustParse("10")}); err != nil {
				t.Fatal(err)
			}
			r.setup()
			r.run(12 * time.Second)
			r.drain()
			e, ok := r.event(table.GameOver)
			if !ok || e.Result != tc.want || e.Reason != game.ReasonTime {
				t.Fatalf("game over %+v (%v), want %s on time", e, ok, tc.want)
			}
			if snap := r.tb.Snapshot(); snap.Clock.Flag != "black" {
				t.Errorf("clock %+v, want Black's flag", snap.Clock)
			}
			if v := r.leds.view(); v.Draw != (tc.want == rules.Draw) || len(v.GameOver.Names(st3d.CellNames())) != tc.kings {
				t.Errorf("LEDs: game over %v, draw %v", v.GameOver.Names(st3d.CellNames()), v.Draw)
			}
		})
	}
}

// A pause is charged to nobody; the commands are journaled and reported.
func TestClockPauseResume(t *testing.T) {
	r := newClockRig(t, "180+2")
	m := newModel("180+2", r.clockStarted())
	r.run(2 * time.Second)
	r.play("b2W-b3W")
	m.moved(r.lastMove().Time)
	r.run(time.Second)
	paused := r.b.Clock.Now()
	rep, err := r.tb.Exec(table.AdjustClock{Action: table.ClockPause})
	if err != nil || rep.Clock == nil || !rep.Clock.Paused {
		t.Fatalf("pause: %+v, %v", rep.Clock, err)
	}
	r.run(30 * time.Second)
	if got := r.clk().Remaining(rules.Black, r.b.Clock.Now()); got != m.remaining(rules.Black, paused) {
		t.Errorf("Black's clock ran while paused: %v, want %v", got, m.remaining(rules.Black, paused))
	}
	resumed := r.b.Clock.Now()
	if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockResume}); err != nil {
		t.Fatal(err)
	}
	m.since = m.since.Add(resumed.Sub(paused))
	r.check(m, "resumed")
	r.play("b7B-b6B")
	m.moved(r.lastMove().Time)
	r.check(m, "after Black's move")
	r.drain()
	var details []string
	for _, e := range r.rec.events() {
		if e.Kind == table.ClockChanged {
			details = append(details, e.Detail)
		}
	}
	if got := strings.Join(details, ", "); got != "started, pause, resume" {
		t.Errorf("clock events: %s", got)
	}
}

// The arbiter adds and sets time; refused commands change nothing.
func TestClockCommands(t *testing.T) {
	r := newClockRig(t, "180+2")
	m := newModel("180+2", r.clockStarted())
	r.run(time.Second)
	if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockAdd, Side: rules.Black, D: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
	m.rem[rules.Black] += 30 * time.Second
	now := r.b.Clock.Now()
	if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockSet, Side: rules.White, D: time.Minute}); err != nil {
		t.Fatal(err)
	}
	m.rem[rules.White], m.since = time.Minute, now // White's clock shows 1:00 at now
	r.check(m, "after add and set")
	r.drain()
	before := len(r.rec.events())
	snap := r.tb.Snapshot().Clock
	for _, tc := range []struct {
		c    table.Command
		want string
	}{
		{table.AdjustClock{Action: table.ClockAdd, Side: rules.White, D: -2 * time.Minute}, "would leave"},
		{table.AdjustClock{Action: table.ClockSet, Side: rules.Black, D: 0}, "would leave"},
		{table.AdjustClock{Action: table.ClockAdd, Side: 5, D: time.Second}, "want white or black"},
		{table.AdjustClock{Action: 9}, "want pause, resume, add or set"},
		{table.AdjustClock{}, "want pause, resume, add or set"},
	} {
		if _, err := r.tb.Exec(tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
	r.check(m, "after refused commands")
	r.drain()
	if n := len(r.rec.events()); n != before {
		t.Errorf("refused commands sent %d events", n-before)
	}
	if got := r.tb.Snapshot().Clock; got != snap {
		t.Errorf("refused commands changed the snapshot")
	}
	// A game without a clock refuses every clock command.
	n := newRig(t)
	if _, err := n.tb.Exec(table.AdjustClock{Action: table.ClockPause}); !errors.Is(err, table.ErrNoClock) {
		t.Errorf("clock command without a clock: %v", err)
	}
	if n.tb.Snapshot().Clock != nil {
		t.Error("a game without a clock has a clock snapshot")
	}
}

// A take-back, on the set or by command, gives the clocks back the
// readings before the move taken back.
func TestClockTakeBack(t *testing.T) {
	r := newClockRig(t, "180+2")
	m := newModel("180+2", r.clockStarted())
	r.play("b2W-b3W")
	m.moved(r.lastMove().Time)
	afterWhite := *m
	r.run(3 * time.Second)
	r.play("b7B-b6B")
	m.moved(r.lastMove().Time)
	r.act("lift b6B", "wait 100", "place b7B")
	r.run(time.Second)
	r.drain()
	tb, ok := r.event(table.TookBack)
	if !ok {
		t.Fatalf("no take-back: %s", r.rec.kinds())
	}
	m = &afterWhite
	m.since = tb.Completed // Black thinks again from the position put back
	r.check(m, "after the take-back on the set")
	// By command: White's move goes too.
	r.run(2 * time.Second)
	now := r.b.Clock.Now()
	if _, err := r.tb.Exec(table.TakeBack{}); err != nil {
		t.Fatal(err)
	}
	m = newModel("180+2", now)
	r.check(m, "after the take-back by command")
}

// A game resumed after a restart has its times back, paused until someone
// resumes the clock, and says so; arbiter changes since the last move are
// journaled and come back too, and so does the thinking time of the side to
// move up to the shutdown (issue 21).
func TestClockRestartResumesPaused(t *testing.T) {
	r := newClockRig(t, "180+2")
	m := newModel("180+2", r.clockStarted())
	r.play("b2W-b3W")
	m.moved(r.lastMove().Time)
	r.play("b7B-b6B")
	m.moved(r.lastMove().Time)
	if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockAdd, Side: rules.Black, D: 15 * time.Second}); err != nil {
		t.Fatal(err)
	}
	m.rem[rules.Black] += 15 * time.Second
	closed := r.b.Clock.Now()
	if err := r.tb.Close(); err != nil {
		t.Fatal(err)
	}
	m.rem[rules.White] = m.remaining(rules.White, closed) // White's thinking time is kept
	r.b.Clock.Advance(time.Hour)                          // the set was off
	r.open()
	r.drain()
	snap := r.tb.Snapshot().Clock
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	if snap == nil || !snap.Paused || snap.Running != "white" || snap.WhiteMS != ms(m.rem[rules.White]) ||
		snap.BlackMS != ms(m.rem[rules.Black]) {
		t.Fatalf("resumed clock %+v, want paused at %v / %v", snap, m.rem[rules.White], m.rem[rules.Black])
	}
	e, ok := r.event(table.ClockChanged)
	if !ok || !strings.Contains(e.Detail, "resumed after a restart") || !e.Snap.Clock.Paused {
		t.Errorf("no event says the clock is paused by the restart: %+v", e)
	}
	r.run(10 * time.Second)
	resumed := r.b.Clock.Now()
	if _, err := r.tb.Exec(table.AdjustClock{Action: table.ClockResume}); err != nil {
		t.Fatal(err)
	}
	// Readings keep ms; the model's times are rounded the same way.
	m.rem = [2]time.Duration{time.Duration(ms(m.rem[0])) * time.Millisecond, time.Duration(ms(m.rem[1])) * time.Millisecond}
	m.since = resumed
	r.check(m, "resumed")
	r.play("c2W-c3W")
	m.moved(r.lastMove().Time)
	r.check(m, "after the first move after the restart")
}

// Issue 21: a restart does not refund thinking time. Black thinks 4 s, and
// the daemon stops: cleanly (SIGTERM: Close keeps the clock exactly), or by
// a crash (SIGKILL: the table is dropped without Close; the checkpoint kept
// every CheckpointEvery without an fsync survives it), and starts again.
// Black comes back with its 4 s charged: exactly, or less at most
// CheckpointEvery.
func TestClockRestartKeepsThinkingTime(t *testing.T) {
	for _, tc := range []struct {
		name  string
		clean bool
	}{{"clean shutdown", true}, {"crash", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newClockRig(t, "60")
			r.play("b2W-b3W")
			mv := r.lastMove().Time
			black := r.clk().Remaining(rules.Black, mv)
			r.run(mv.Add(4*time.Second + 700*time.Millisecond).Sub(r.b.Clock.Now())) // 4.7 s of thought
			stop := r.b.Clock.Now()
			thought := stop.Sub(mv)
			if tc.clean {
				if err := r.tb.Close(); err != nil {
					t.Fatal(err)
				}
			}
			r.b.Clock.Advance(time.Hour) // the set was off
			r.open()
			snap := r.tb.Snapshot().Clock
			got := black - time.Duration(snap.BlackMS)*time.Millisecond // charged to Black
			if !snap.Paused || snap.Running != "black" {
				t.Errorf("after the restart: %+v, want Black's clock paused", snap)
			}
			lost := thought - got
			if tc.clean && lost != 0 || !tc.clean && (lost < 0 || lost > table.CheckpointEvery) {
				t.Errorf("Black thought %v and is charged %v: %v refunded, want %s", thought, got, lost,
					map[bool]string{true: "none", false: "at most " + table.CheckpointEvery.String()}[tc.clean])
			}
		})
	}
}

// Recognition's latency is never charged: the mover's clock stops at the
// move's completion time (completedAt), which is the move's Time, and the
// opponent's clock runs from it, not from when the move was recognized.
func TestClockSettleLatencyNotCharged(t *testing.T) {
	r := newClockRig(t, "180+2")
	start := r.clockStarted()
	r.run(2 * time.Second)
	placed := r.b.Clock.Now()
	r.play("b2W-b3W")
	r.drain()
	e, _ := r.event(table.Moved)
	mv := e.Move
	if mv.Time.Before(placed) || mv.Time.After(e.At) {
		t.Errorf("move time %v outside [%v, %v]", mv.Time, placed, e.At)
	}
	c := r.clk()
	if got, want := c.Remaining(rules.White, e.At), 180*time.Second-mv.Time.Sub(start)+2*time.Second; got != want {
		t.Errorf("White has %v, want %v: charged up to the completion", got, want)
	}
	if got, want := c.Remaining(rules.Black, e.At), 180*time.Second-e.At.Sub(mv.Time); got != want {
		t.Errorf("Black has %v at the recognition, want %v: its clock runs from the completion", got, want)
	}
	rs, ok := r.sessionReadings()
	if !ok || len(rs) != 1 || !rs[0].At.Equal(mv.Time) || rs[0].WhiteMS != (180*time.Second-mv.Time.Sub(start)+2*time.Second).Milliseconds() {
		t.Errorf("journaled readings %+v (move at %v)", rs, mv.Time)
	}
}

// sessionReadings reads the current game's readings from its journal.
func (r *rig) sessionReadings() ([]clock.Reading, bool) {
	r.t.Helper()
	r.drain()
	s, err := game.OpenGame(r.opts.StateDir, r.tb.Snapshot().Game, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	defer s.Close()
	return s.Readings()
}

// A move made elsewhere counts at the command's time.
func TestClockRemoteMove(t *testing.T) {
	r := newClockRig(t, "180+2")
	m := newModel("180+2", r.clockStarted())
	r.run(4 * time.Second)
	now := r.b.Clock.Now()
	rep, err := r.tb.Exec(table.PlayMove{Move: "b2W-b3W"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Move.Time.Equal(now) {
		t.Errorf("remote move at %v, want the command's time %v", rep.Move.Time, now)
	}
	m.moved(now)
	r.check(m, "after the remote move")
}

// The penalty, when configured, goes to the opponent of the side whose
// move on the set no legal move explains; by default there is none.
func TestClockPenalty(t *testing.T) {
	for _, penalty := range []time.Duration{0, time.Minute} {
		r := newClockRig(t, "180+2", func(o *table.Opts) { o.Clock.Penalty = penalty })
		r.act("place b5N") // White: a piece from nowhere
		r.run(3 * time.Second)
		r.drain()
		if _, ok := r.event(table.Illegal); !ok {
			t.Fatalf("no illegal event: %s", r.rec.kinds())
		}
		if got := r.clk().Remaining(rules.Black, r.b.Clock.Now()); got != 180*time.Second+penalty {
			t.Errorf("penalty %v: Black has %v, want %v", penalty, got, 180*time.Second+penalty)
		}
		e, ok := r.event(table.ClockChanged)
		if gave := ok && strings.HasPrefix(e.Detail, "penalty"); gave != (penalty > 0) {
			t.Errorf("penalty %v: clock event %q", penalty, e.Detail)
		}
	}
}

// Issue 21: a penalty and the running clock follow who actually moved.
// White's pawn is recognized on b3W (a ghost of b2W-b4W, or a change of
// mind after the settle window), then White moves it on to b4W: Black is to
// move but never touched a piece. The penalty goes to Black (for White's
// illegal move), White's clock runs during the mismatch, from the lift,
// and Black's stands; once the pawn is back on b3W Black's clock runs
// again.
func TestClockPenaltyToTheSideThatMoved(t *testing.T) {
	// Touch-move (no change of mind): White's pawn moved again on Black's
	// turn is an illegal move, not a correction of b2W-b3W.
	r := newClockRig(t, "180", func(o *table.Opts) { o.Clock.Penalty = time.Minute; o.Recognize.Correction = 0 })
	r.play("b2W-b3W")
	mv := r.lastMove().Time
	white := r.clk().Remaining(rules.White, mv)
	r.run(mv.Add(2 * time.Second).Sub(r.b.Clock.Now()))
	lift := r.b.Clock.Now().Add(r.opts.Sensors.Period)
	r.act("lift b3W", "wait 100", "place b4W")
	r.run(3 * time.Second)
	ill, ok := r.event(table.Illegal)
	if !ok {
		t.Fatalf("no illegal event: %s", r.rec.kinds())
	}
	e, ok := r.event(table.ClockChanged)
	if want := "penalty: black gets 1m0s for white's illegal move"; !ok || e.Detail != want || e.Side != rules.White {
		t.Errorf("clock event %q (side %v), want %q", e.Detail, e.Side, want)
	}
	now := r.b.Clock.Now()
	snap := r.tb.Snapshot().Clock
	if snap.Running != "white" {
		t.Errorf("during White's mismatch the state runs %q's clock, want white's", snap.Running)
	}
	// Black: 2 s of its turn before White lifted, plus the penalty; the
	// lift counts when the sensors saw it (their debounce later).
	seen := r.opts.Sensors.Debounce + r.opts.Sensors.Period
	if got, want := r.clk().Remaining(rules.Black, now), 180*time.Second-lift.Sub(mv)+time.Minute; got > want || got < want-seen {
		t.Errorf("Black has %v during White's mismatch, want %v (its clock stands)", got, want)
	}
	if got, want := r.clk().Remaining(rules.White, now), white-now.Sub(lift); got > want+seen || got < want {
		t.Errorf("White has %v during its mismatch (declared %v after the lift), want %v", got, ill.At.Sub(lift), want)
	}
	r.act("lift b4W", "place b3W")
	r.run(time.Second)
	if st := r.tb.Snapshot(); st.Status.State.String() != "in sync" || st.Clock.Running != "black" {
		t.Fatalf("after putting the pawn back: %s, running %q; want in sync, black's clock", st.Status.State, st.Clock.Running)
	}
	back := r.b.Clock.Now()
	r.run(2 * time.Second)
	if got, want := r.clk().Remaining(rules.Black, r.b.Clock.Now()), 180*time.Second-lift.Sub(mv)+time.Minute-2*time.Second; got > want || got < want-time.Second {
		t.Errorf("Black has %v two seconds after the set was back (%v), want about %v", got, back, want)
	}
}

// The side to move that takes an opponent's piece off (a capture begun) and
// puts it elsewhere is the culprit, though only the opponent's piece was
// lifted: it is not the piece that just moved.
func TestClockPenaltyForAnOpponentsPieceMoved(t *testing.T) {
	r := newClockRig(t, "180", func(o *table.Opts) { o.Clock.Penalty = time.Minute })
	r.play("b2W-b3W")
	r.run(time.Second)
	r.act("lift c2W", "wait 100", "place c3W") // Black moves White's pawn
	r.run(3 * time.Second)
	if _, ok := r.event(table.Illegal); !ok {
		t.Fatalf("no illegal event: %s", r.rec.kinds())
	}
	e, ok := r.event(table.ClockChanged)
	if want := "penalty: white gets 1m0s for black's illegal move"; !ok || e.Detail != want {
		t.Errorf("clock event %q, want %q", e.Detail, want)
	}
	if run := r.tb.Snapshot().Clock.Running; run != "black" {
		t.Errorf("during Black's mismatch %q's clock runs, want black's", run)
	}
}

// Under the threshold a side's clock warns once: an event and the
// snapshot's low.
func TestClockLowTime(t *testing.T) {
	r := newClockRig(t, "30")
	start := r.clockStarted()
	r.run(start.Add(10 * time.Second).Sub(r.b.Clock.Now()))
	if _, ok := r.event(table.LowTime); ok {
		t.Fatal("low time before the threshold")
	}
	r.run(r.opts.Sensors.Period)
	r.run(time.Second)
	r.drain()
	var lows []table.Event
	for _, e := range r.rec.events() {
		if e.Kind == table.LowTime {
			lows = append(lows, e)
		}
	}
	if len(lows) != 1 || lows[0].Side != rules.White || lows[0].Snap.Clock.Low != "white" {
		t.Fatalf("low-time events %+v", lows)
	}
	if late := lows[0].At.Sub(start.Add(10 * time.Second)); late <= 0 || late > r.opts.Sensors.Period {
		t.Errorf("low-time event %v after White went under 20 s", late)
	}
	// The LEDs warn: White's king blinks the low-time pattern.
	if v := r.leds.view(); v.LowTime != kings(r, rules.White) {
		t.Errorf("LEDs in White's low time: %v, want White's king", v.LowTime.Names(st3d.CellNames()))
	}
}

// With clock buttons the clock waits for a press at the start of a game.
func TestClockButtonsStartTheClock(t *testing.T) {
	r := newClockRig(t, "180+2", func(o *table.Opts) {
		o.Buttons = map[string]table.Button{"button:queen": {Kind: table.ButtonClockWhite},
			"button:knight": {Kind: table.ButtonClockBlack}}
	})
	r.run(2 * time.Second)
	if c := r.clk(); c.Started() {
		t.Fatal("the clock started without a press")
	}
	if err := r.b.Set.Press("button:knight"); err != nil {
		t.Fatal(err)
	}
	r.run(r.opts.Sensors.Period * 20)
	_ = r.b.Set.Release("button:knight")
	r.run(time.Second)
	start := r.clockStarted()
	m := newModel("180+2", start)
	r.check(m, "after Black's press")
	// With buttons, the press completes the move.
	r.play("b2W-b3W")
	if len(r.tb.Snapshot().Moves) != 0 {
		t.Fatal("a move completed by settling, with clock buttons wired")
	}
	if err := r.b.Set.Press("button:queen"); err != nil {
		t.Fatal(err)
	}
	r.run(r.opts.Sensors.Period * 20)
	_ = r.b.Set.Release("button:queen")
	r.run(time.Second)
	r.drain()
	m.moved(r.lastMove().Time)
	r.check(m, "after White's move and press")
}

// A move completed after the flag fell does not count, even when the flag
// was not declared yet (the pawn was in the air when it fell): the game is
// lost on time and the set must take the move back.
func TestClockMoveAfterTheFlag(t *testing.T) {
	r := newClockRig(t, "10")
	flag := r.clockStarted().Add(10 * time.Second)
	r.run(flag.Sub(r.b.Clock.Now()) - 100*time.Millisecond)
	r.act("lift b2W", "wait 120", "place b3W") // completed after the flag, reported within the grace
	if _, over := r.event(table.GameOver); over {
		t.Fatal("the flag was declared while a move was on the way")
	}
	r.run(2 * time.Second)
	// The journal refuses the move on its own goroutine; the table takes
	// the refusal at its next scan, however slow the journal was.
	r.drain()
	r.run(r.opts.Sensors.Period)
	r.drain()
	snap := r.tb.Snapshot()
	if len(snap.Moves) != 0 || snap.Result != rules.BlackWins || snap.Reason != game.ReasonTime {
		t.Fatalf("moves %v, result %s (%s): want no move and 0-1 on time", snap.Moves, snap.Result, snap.Reason)
	}
	if snap.Status.State.String() != "mismatch" {
		t.Errorf("the board is %s: the move made after the flag must be taken back", snap.Status.State)
	}
}

// A move completed just before the flag fell, still settling when it fell,
// counts: while a move is on the way the flag waits for the recognition
// latency (FlagGrace) before it is declared.
func TestClockMoveJustBeforeTheFlag(t *testing.T) {
	r := newClockRig(t, "10")
	flag := r.clockStarted().Add(10 * time.Second)
	r.run(flag.Sub(r.b.Clock.Now()) - 200*time.Millisecond)
	r.act("lift b2W", "wait 100", "place b3W") // completed some 90 ms before the flag
	r.run(2 * time.Second)
	r.drain()
	snap := r.tb.Snapshot()
	if len(snap.Moves) != 1 || snap.Result != rules.NoResult {
		t.Fatalf("moves %v, result %s (%s): want b2W-b3W played and the game going on", snap.Moves, snap.Result, snap.Reason)
	}
	if snap.Moves[0].Time.After(flag) {
		t.Errorf("the move was completed at %v, after the flag at %v", snap.Moves[0].Time, flag)
	}
}

// A game that ends stops the clock; a take-back of the mate starts it again.
func TestClockStopsAtTheEnd(t *testing.T) {
	r := newClockRig(t, "180+2")
	n := len(wholeGame)
	for _, long := range wholeGame[:n-1] {
		r.play(long)
	}
	black := r.clk().Remaining(rules.Black, r.lastMove().Time) // Black's time when its mating turn began
	r.play(wholeGame[n-1])
	r.drain()
	snap := r.tb.Snapshot()
	if snap.Result != rules.BlackWins || snap.Clock == nil || !snap.Clock.Stopped || snap.Clock.Paused || snap.Clock.Running != "" {
		t.Fatalf("after the mate: %s, clock %+v", snap.Result, snap.Clock)
	}
	stopped := snap.Clock.WhiteMS
	r.run(5 * time.Second)
	if w := r.clk().Remaining(rules.White, r.b.Clock.Now()).Milliseconds(); w != stopped {
		t.Errorf("White's clock ran after the mate: %d ms, stopped at %d", w, stopped)
	}
	now := r.b.Clock.Now()
	if _, err := r.tb.Exec(table.TakeBack{}); err != nil {
		t.Fatal(err)
	}
	if c := r.clk(); c.Paused() || c.Stopped() {
		t.Error("the clock stays stopped after the mate was taken back")
	} else if run, _ := c.Running(); run != rules.Black {
		t.Errorf("%s's clock runs after taking the mate back, want Black's", run)
	} else if got := c.Remaining(rules.Black, now); got != black {
		t.Errorf("Black has %v after taking the mate back, want %v (its time before the move)", got, black)
	}
}

// The clock adds no allocation to a scan while nothing changes.
func TestClockTickAllocatesNothing(t *testing.T) {
	tick := func(r *rig) float64 {
		return testing.AllocsPerRun(200, func() {
			r.b.Clock.Advance(r.opts.Sensors.Period)
			r.tb.Tick()
		})
	}
	without := tick(newRig(t))
	r := newClockRig(t, "180+2")
	r.clockStarted()
	with := tick(r)
	t.Logf("allocations per Tick: %v without a clock, %v with a running one", without, with)
	if with != without {
		t.Errorf("a Tick allocates %v times with a running clock, %v without", with, without)
	}
}

// Every ending stops the clock, and the state says so one way: "stopped",
// no side running, nothing paused, the times frozen (issue 21: a game that
// began in a dead position kept "running":"white", a mate showed running
// and paused together). A restart of the finished game says the same.
func TestClockStoppedAtEveryEnding(t *testing.T) {
	const kk = "QL1:w,QL6:b,KL1:w,KL6:b Kc4N,ke0KL1 w - - - 0 40"                // K v K (D18)
	const kxb = "QL1:w,QL6:b,KL1:w,KL6:b Kb5N,ke0KL1,ba6B w - - - 0 40"          // b5N-a6B leaves K v K
	const mate = "QL1:w,QL6:b,KL1:w,KL6:b Kd3W,Qa6N,Rc5B,kc5N,pb7B w - - - 0 40" // c5B-b5N mates
	for _, tc := range []struct {
		name   string
		pos    string
		end    func(r *rig)
		result rules.Result
		reason game.Reason
	}{
		{"mate", mate, func(r *rig) { r.play("c5B-b5N") }, rules.WhiteWins, game.ReasonCheckmate},
		{"a game that begins in a dead position", kk, func(r *rig) {}, rules.Draw, game.ReasonDeadPosition},
		{"a move into a dead position", kxb, func(r *rig) { r.play("b5N-a6B") }, rules.Draw, game.ReasonDeadPosition},
		{"flag", "", func(r *rig) { r.run(61 * time.Second) }, rules.BlackWins, game.ReasonTime},
		{"resignation", "", func(r *rig) {
			if _, err := r.tb.Exec(table.Resign{Side: rules.White}); err != nil {
				r.t.Fatal(err)
			}
		}, rules.BlackWins, game.ReasonResignation},
		{"draw by agreement", "", func(r *rig) {
			for _, d := range []table.Draw{{Side: rules.White, Action: table.DrawOffer}, {Side: rules.Black, Action: table.DrawAccept}} {
				if _, err := r.tb.Exec(d); err != nil {
					r.t.Fatal(err)
				}
			}
		}, rules.Draw, game.ReasonAgreement},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newClockRig(t, "60")
			if tc.pos != "" {
				if _, err := r.tb.Exec(table.NewGame{Position: tc.pos, TimeControl: clock.MustParse("60")}); err != nil {
					t.Fatal(err)
				}
				r.setup()
			}
			r.run(3 * time.Second)
			tc.end(r)
			r.drain()
			check := func(when string) *clock.Snapshot {
				t.Helper()
				snap := r.tb.Snapshot()
				c := snap.Clock
				if snap.Result != tc.result || snap.Reason != tc.reason || c == nil {
					t.Fatalf("%s: %s (%s), clock %+v; want %s (%s)", when, snap.Result, snap.Reason, c, tc.result, tc.reason)
				}
				b, _ := json.Marshal(c)
				if !c.Stopped || c.Running != "" || c.Paused || strings.Contains(string(b), `"running"`) || strings.Contains(string(b), `"paused"`) {
					t.Errorf("%s: clock %s, want stopped without running or paused", when, b)
				}
				return c
			}
			before := check("at the end")
			r.run(5 * time.Second)
			if after := check("5 s later"); after.WhiteMS != before.WhiteMS || after.BlackMS != before.BlackMS {
				t.Errorf("the times moved after the end: %d/%d, then %d/%d", before.WhiteMS, before.BlackMS, after.WhiteMS, after.BlackMS)
			}
			if err := r.tb.Close(); err != nil {
				t.Fatal(err)
			}
			r.open()
			if after := check("after a restart"); after.WhiteMS != before.WhiteMS || after.BlackMS != before.BlackMS {
				t.Errorf("a restart changed the final times: %d/%d, then %d/%d", before.WhiteMS, before.BlackMS, after.WhiteMS, after.BlackMS)
			}
		})
	}
}

// A promotion is complete when its new piece is set down (FIDE 4.6.3):
// the hand that swaps the pawn for a queen on the promotion square is the
// promoting side's time (issue 33 saw 0.10-0.17 s of it moved to the
// opponent). Whether the piece is chosen by the reply's lift or by a
// command, before or after the pawn stood the settle window, the move
// counts at the last placement on its square, and the mover is charged up
// to it.
func TestClockPromotionChargedToThePromotingSide(t *testing.T) {
	promo := "QL1:w,QL6:b,KL1:w Kb1W,kc5N,pd6N,Pb7B w - - - 0 30"
	reply := []string{"wait 700", "lift c5N", "wait 100", "place c4N", "wait 600"}
	for _, tc := range []struct {
		name string
		// hand is what comes before the placement that completes the move
		// ("place b8B"), then is what comes after it.
		hand, then []string
		// choose: the piece chosen by command after the hand; 0: the
		// reply's lift decides (the queen).
		choose byte
		want   string
	}{
		{"swapped, the reply's lift decides", []string{"lift b7B", "wait 100", "place b8B", "wait 120", "lift b8B", "wait 50"}, reply, 0, "b7B-b8B=Q"},
		{"swapped within the settle window, then chosen", []string{"lift b7B", "wait 100", "place b8B", "wait 150", "lift b8B", "wait 60"}, []string{"wait 900"}, 'N', "b7B-b8B=N"},
		{"swapped after the settle window, then chosen", []string{"lift b7B", "wait 100", "place b8B", "wait 500", "lift b8B", "wait 170"}, []string{"wait 900"}, 'R', "b7B-b8B=R"},
		{"swapped after the settle window, the reply decides", []string{"lift b7B", "wait 100", "place b8B", "wait 400", "lift b8B", "wait 100"}, reply, 0, "b7B-b8B=Q"},
		{"not swapped", []string{"lift b7B", "wait 100"}, reply, 0, "b7B-b8B=Q"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newClockRig(t, "180+2")
			if _, err := r.tb.Exec(table.NewGame{Position: promo, DefaultClock: true}); err != nil {
				t.Fatal(err)
			}
			r.setup()
			r.run(time.Second)
			m := newModel("180+2", r.clockStarted())
			r.act("wait 2000")
			r.act(tc.hand...)
			// The reading that shows the placement (the next scan, and the
			// debounce) is the move's time, as for any move.
			placed := r.b.Clock.Now().Add(r.opts.Sensors.Period + r.opts.Sensors.Debounce)
			r.act("place b8B")
			r.act(tc.then...)
			if tc.choose != 0 {
				if _, err := r.tb.Exec(table.Promote{Piece: tc.choose}); err != nil {
					t.Fatal(err)
				}
			}
			r.drain()
			var mv *game.Move
			for _, e := range r.rec.events() {
				if e.Kind == table.Moved && e.Move.Seq == 1 {
					mv = e.Move
				}
			}
			if mv == nil || mv.Move != tc.want {
				t.Fatalf("moves %v, want %s first", r.rec.moves(), tc.want)
			}
			if !mv.Time.Equal(placed) {
				t.Errorf("the promotion counts at %s, want at its last placement %s", mv.Time.Format(time.RFC3339Nano), placed.Format(time.RFC3339Nano))
			}
			m.moved(placed)
			if mv.ClkMS == nil || *mv.ClkMS != m.rem[rules.White].Milliseconds() {
				t.Errorf("White has %d ms after the promotion, want %d", *mv.ClkMS, m.rem[rules.White].Milliseconds())
			}
		})
	}
}
