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

// The flag falls at exactly zero; the table declares it on the first Tick
// past the recognition latency, the game is lost on time, and the journal,
// the snapshot and the LEDs (the loser's king) say so.
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
	r.run(flag.Sub(r.b.Clock.Now()))
	if _, over := r.event(table.GameOver); over {
		t.Fatal("game over before the recognition latency passed")
	}
	r.run(table.FlagGrace(r.tb) + 10*time.Millisecond)
	r.drain()
	e, ok := r.event(table.GameOver)
	if !ok || e.Result != rules.BlackWins || e.Reason != game.ReasonTime {
		t.Fatalf("game over %+v (%v), want 0-1 on time", e, ok)
	}
	if late := e.At.Sub(flag); late < table.FlagGrace(r.tb) || late > table.FlagGrace(r.tb)+r.opts.Sensors.Period {
		t.Errorf("declared %v after the flag fell", late)
	}
	snap := r.tb.Snapshot()
	if snap.Result != rules.BlackWins || snap.Reason != game.ReasonTime || snap.Clock.Flag != "white" || snap.Clock.WhiteMS != 0 {
		t.Errorf("snapshot: %s (%s), clock %+v", snap.Result, snap.Reason, snap.Clock)
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
	if _, err := r.tb.Exec(table.Clock{Action: table.ClockAdd, Side: rules.White, D: time.Minute}); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("clock command after the flag: %v", err)
	}
}

// FIDE 6.9: a flag with an opponent who cannot mate (a lone king) is a
// draw.
func TestClockFlagWithALoneKingIsADraw(t *testing.T) {
	r := newClockRig(t, "10")
	pos := "QL1:w,QL6:b,KL1:w,KL6:b Kc4N,ke0KL1,rb8B b - - - 0 40"
	if _, err := r.tb.Exec(table.NewGame{Position: pos, TimeControl: clock.MustParse("10")}); err != nil {
		t.Fatal(err)
	}
	r.setup()
	r.run(12 * time.Second)
	r.drain()
	e, ok := r.event(table.GameOver)
	if !ok || e.Result != rules.Draw || e.Reason != game.ReasonTime {
		t.Fatalf("game over %+v (%v), want a draw on time", e, ok)
	}
	if snap := r.tb.Snapshot(); snap.Clock.Flag != "black" {
		t.Errorf("clock %+v, want Black's flag", snap.Clock)
	}
	if v := r.leds.view(); !v.Draw || len(v.GameOver.Names(st3d.CellNames())) != 2 {
		t.Errorf("LEDs: game over %v, draw %v; want both kings", v.GameOver.Names(st3d.CellNames()), v.Draw)
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
	rep, err := r.tb.Exec(table.Clock{Action: table.ClockPause})
	if err != nil || rep.Clock == nil || !rep.Clock.Paused {
		t.Fatalf("pause: %+v, %v", rep.Clock, err)
	}
	r.run(30 * time.Second)
	if got := r.clk().Remaining(rules.Black, r.b.Clock.Now()); got != m.remaining(rules.Black, paused) {
		t.Errorf("Black's clock ran while paused: %v, want %v", got, m.remaining(rules.Black, paused))
	}
	resumed := r.b.Clock.Now()
	if _, err := r.tb.Exec(table.Clock{Action: table.ClockResume}); err != nil {
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
	if _, err := r.tb.Exec(table.Clock{Action: table.ClockAdd, Side: rules.Black, D: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
	m.rem[rules.Black] += 30 * time.Second
	now := r.b.Clock.Now()
	if _, err := r.tb.Exec(table.Clock{Action: table.ClockSet, Side: rules.White, D: time.Minute}); err != nil {
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
		{table.Clock{Action: table.ClockAdd, Side: rules.White, D: -2 * time.Minute}, "would leave"},
		{table.Clock{Action: table.ClockSet, Side: rules.Black, D: 0}, "would leave"},
		{table.Clock{Action: table.ClockAdd, Side: 5, D: time.Second}, "want white or black"},
		{table.Clock{Action: 9}, "want pause, resume, add or set"},
		{table.Clock{}, "want pause, resume, add or set"},
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
	if _, err := n.tb.Exec(table.Clock{Action: table.ClockPause}); !errors.Is(err, table.ErrNoClock) {
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
// journaled and come back too.
func TestClockRestartResumesPaused(t *testing.T) {
	r := newClockRig(t, "180+2")
	m := newModel("180+2", r.clockStarted())
	r.play("b2W-b3W")
	m.moved(r.lastMove().Time)
	r.play("b7B-b6B")
	m.moved(r.lastMove().Time)
	if _, err := r.tb.Exec(table.Clock{Action: table.ClockAdd, Side: rules.Black, D: 15 * time.Second}); err != nil {
		t.Fatal(err)
	}
	m.rem[rules.Black] += 15 * time.Second
	if err := r.tb.Close(); err != nil {
		t.Fatal(err)
	}
	r.b.Clock.Advance(time.Hour) // the set was off
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
	if _, err := r.tb.Exec(table.Clock{Action: table.ClockResume}); err != nil {
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
// was not declared yet: the game is lost on time and the set must take the
// move back.
func TestClockMoveAfterTheFlag(t *testing.T) {
	r := newClockRig(t, "10")
	flag := r.clockStarted().Add(10 * time.Second)
	r.run(flag.Sub(r.b.Clock.Now()) + 5*time.Millisecond)
	r.act("lift b2W", "place b3W") // completed after the flag, reported within the grace
	r.run(2 * time.Second)
	r.drain()
	snap := r.tb.Snapshot()
	if len(snap.Moves) != 0 || snap.Result != rules.BlackWins || snap.Reason != game.ReasonTime {
		t.Fatalf("moves %v, result %s (%s): want no move and 0-1 on time", snap.Moves, snap.Result, snap.Reason)
	}
	if snap.Status.State.String() != "mismatch" {
		t.Errorf("the board is %s: the move made after the flag must be taken back", snap.Status.State)
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
	if snap.Result != rules.BlackWins || snap.Clock == nil || !snap.Clock.Paused || snap.Clock.Running != "white" {
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
	if c := r.clk(); c.Paused() {
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
