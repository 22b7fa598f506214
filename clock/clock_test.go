package clock

import (
	"errors"
	"testing"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// t0 is when the test clocks start.
var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

const ms = time.Millisecond

// after is t0 plus d.
func after(d time.Duration) time.Time { return t0.Add(d) }

// started is a clock for ctl, White's clock running from t0.
func started(t *testing.T, ctl string, opts *Opts) *Clock {
	t.Helper()
	c, err := New(MustParse(ctl), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(t0, rules.White); err != nil {
		t.Fatal(err)
	}
	return c
}

// play makes moves completed at the given offsets from t0.
func play(t *testing.T, c *Clock, offsets ...time.Duration) Reading {
	t.Helper()
	var r Reading
	for _, o := range offsets {
		var err error
		if r, err = c.Moved(after(o)); err != nil {
			t.Fatalf("move at +%v: %v", o, err)
		}
	}
	return r
}

// want checks both sides' remaining time at at.
func want(t *testing.T, c *Clock, at time.Time, white, black time.Duration) {
	t.Helper()
	if w, b := c.Remaining(rules.White, at), c.Remaining(rules.Black, at); w != white || b != black {
		t.Errorf("at +%v: white %v black %v, want %v %v", at.Sub(t0), w, b, white, black)
	}
}

func reading(w, b time.Duration, at time.Duration) Reading {
	return Reading{WhiteMS: w.Milliseconds(), BlackMS: b.Milliseconds(), At: after(at)}
}

// Fischer increment: the mover is charged its turn, then gets the
// increment; the opponent's clock runs from the move.
func TestIncrement(t *testing.T) {
	c := started(t, "180+2", nil)
	want(t, c, after(8*s), 172*s, 180*s)
	if r := play(t, c, 8*s); r != reading(174*s, 180*s, 8*s) {
		t.Errorf("reading %+v", r)
	}
	want(t, c, after(13*s), 174*s, 175*s)
	play(t, c, 13*s) // black: 5 s
	want(t, c, after(13*s), 174*s, 177*s)
	if side, ok := c.Running(); side != rules.White || !ok {
		t.Errorf("running %v %v after black's move", side, ok)
	}
}

// Simple delay: the clock stands still for the delay, then counts down;
// a move within the delay costs nothing; the flag falls at time + delay.
func TestSimpleDelay(t *testing.T) {
	c := started(t, "300d3", nil)
	for _, tc := range []struct{ at, white time.Duration }{
		{0, 300 * s}, {2 * s, 300 * s}, {3 * s, 300 * s}, {3*s + 500*ms, 299*s + 500*ms}, {10 * s, 293 * s},
	} {
		want(t, c, after(tc.at), tc.white, 300*s)
	}
	play(t, c, 2*s) // within the delay: nothing charged, nothing added
	want(t, c, after(2*s), 300*s, 300*s)
	play(t, c, 2*s+7*s) // black: 7 s, 4 s charged
	want(t, c, after(9*s), 300*s, 296*s)
	if at, _ := c.FlagAt(); !at.Equal(after(9*s + 303*s)) {
		t.Errorf("white's flag at +%v, want +312s (300 s after the 3 s delay)", at.Sub(t0))
	}
}

// Bronstein delay: the clock counts down at once; after the move the time
// used comes back up to the delay, never more than the move took; the delay
// does not hold the flag off.
func TestBronsteinDelay(t *testing.T) {
	c := started(t, "300b3", nil)
	want(t, c, after(2*s), 298*s, 300*s) // counts down at once
	play(t, c, 2*s)                      // 2 s back, not 3
	want(t, c, after(2*s), 300*s, 300*s)
	play(t, c, 2*s+7*s) // black: 7 s used, 3 back
	want(t, c, after(9*s), 300*s, 296*s)
	if at, _ := c.FlagAt(); !at.Equal(after(9*s + 300*s)) {
		t.Errorf("white's flag at +%v, want +309s", at.Sub(t0))
	}
}

// Periods: after each side's 40th move the second period's time is added
// (with the 40th move's increment, of the first period); the second period
// has its own increment.
func TestPeriods(t *testing.T) {
	c := started(t, "40/5400+30:1800+10", nil)
	at := time.Duration(0)
	for i := 1; i <= 80; i++ { // 40 moves each, 60 s per move
		at += 60 * s
		play(t, c, at)
	}
	// each side: 5400 - 40*60 + 40*30 + 1800
	want(t, c, after(at), 6000*s, 6000*s)
	sn := c.Snapshot(after(at))
	if sn.WhitePeriod != 2 || sn.WhiteToGo != 0 || sn.BlackPeriod != 2 {
		t.Errorf("snapshot periods %+v, want both in period 2 (rest of the game)", sn)
	}
	play(t, c, at+20*s)
	want(t, c, after(at+20*s), 5990*s, 6000*s) // second period: +10
}

// Between the two sides' 40th moves they are in different periods.
func TestPeriodsPerSide(t *testing.T) {
	c := started(t, "40/5400:1800", nil)
	var at time.Duration
	for i := 1; i <= 79; i++ {
		at += 10 * s
		play(t, c, at)
	}
	want(t, c, after(at), 5400*s-400*s+1800*s, 5400*s-390*s)
	sn := c.Snapshot(after(at))
	if sn.WhitePeriod != 2 || sn.BlackPeriod != 1 || sn.BlackToGo != 1 {
		t.Errorf("snapshot %+v: want white in period 2, black in 1 with 1 to go", sn)
	}
}

// A last period with a move count repeats: 40/7200 adds 7200 s every 40
// moves.
func TestRepeatingPeriod(t *testing.T) {
	c := started(t, "40/7200", nil)
	var at time.Duration
	for i := 1; i <= 160; i++ {
		at += 100 * s
		play(t, c, at)
	}
	want(t, c, after(at), 7200*s*3-80*100*s, 7200*s*3-80*100*s)
}

// The flag falls when the time reaches exactly zero: the clock freezes at
// 0; a move completed at that instant is too late, one completed a
// millisecond before counts even when reported after the flag.
func TestFlagAtExactlyZero(t *testing.T) {
	c := started(t, "60", nil)
	at, ok := c.FlagAt()
	if !ok || !at.Equal(after(60*s)) {
		t.Fatalf("FlagAt = %v %v, want +60s", at, ok)
	}
	if _, _, ok := c.Flagged(after(60*s - 1)); ok {
		t.Error("flag fell a nanosecond early")
	}
	side, when, ok := c.Flagged(after(60 * s))
	if !ok || side != rules.White || !when.Equal(after(60*s)) {
		t.Errorf("Flagged(+60s) = %v %v %v", side, when, ok)
	}
	want(t, c, after(90*s), 0, 60*s)
	if _, err := c.Moved(after(60 * s)); !errors.Is(err, ErrFlag) {
		t.Errorf("move at the flag: %v, want ErrFlag", err)
	}
	for _, cmd := range []func() error{
		func() error { return c.Pause(after(61 * s)) },
		func() error { return c.Add(after(61*s), rules.White, 10*s) },
		func() error { return c.TakeBack(after(61 * s)) },
	} {
		if err := cmd(); !errors.Is(err, ErrFlag) {
			t.Errorf("command after the flag: %v, want ErrFlag", err)
		}
	}
	sn := c.Snapshot(after(75 * s))
	if sn.Flag != "white" || sn.WhiteMS != 0 || sn.Running != "" {
		t.Errorf("snapshot %+v", sn)
	}
	// Reported after the flag, completed before it: it counts.
	r, err := c.Moved(after(60*s - ms))
	if err != nil || r != reading(1*ms, 60*s, 60*s-ms) {
		t.Errorf("move completed 1 ms before the flag: %+v %v", r, err)
	}
	if _, _, ok := c.Flagged(after(61 * s)); ok {
		t.Error("flag stands after a move completed before it")
	}
}

// The completion time counts: a move completed at t and reported 300 ms
// later is charged to t, and the opponent's clock runs from t.
func TestCompletionTimeCounts(t *testing.T) {
	a := started(t, "180+2", nil)
	// The report comes later; the moment is the completion.
	r := play(t, a, 10*s)
	want(t, a, after(10*s+300*ms), 172*s, 180*s-300*ms)
	if !r.At.Equal(after(10 * s)) {
		t.Errorf("reading at %v, want the completion time", r.At)
	}
	// A completion before the last event (a Resume reported first) counts
	// as that event: no negative turn.
	b := started(t, "180+2", nil)
	b.Pause(after(5 * s))
	b.Resume(after(6 * s))
	if r, _ := b.Moved(after(5*s + 500*ms)); r != reading(177*s, 180*s, 6*s) {
		t.Errorf("move completed before the resume: %+v", r)
	}
}

// Pause and resume: the paused time is nobody's, and a delay split by a
// pause is counted across it.
func TestPauseResume(t *testing.T) {
	c := started(t, "300d3", nil)
	if err := c.Pause(after(2 * s)); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.FlagAt(); ok {
		t.Error("a paused clock has a flag time")
	}
	want(t, c, after(100*s), 300*s, 300*s)
	sn := c.Snapshot(after(100 * s))
	if !sn.Paused || sn.Running != "white" || sn.DelayMS != 1000 {
		t.Errorf("paused snapshot %+v", sn)
	}
	c.Pause(after(101 * s)) // again: nothing
	if err := c.Resume(after(200 * s)); err != nil {
		t.Fatal(err)
	}
	want(t, c, after(201*s), 300*s, 300*s) // 2 s + 1 s: the delay's end
	want(t, c, after(205*s), 296*s, 300*s) // 4 s charged
	play(t, c, 205*s)                      // 7 s turn, 4 charged
	want(t, c, after(205*s), 296*s, 300*s) // black runs from the move
	if at, _ := c.FlagAt(); !at.Equal(after(205*s + 303*s)) {
		t.Errorf("black's flag at +%v", at.Sub(t0))
	}
	// A move made while paused: charged nothing more, bonus applied, still
	// paused with the opponent to move.
	d := started(t, "180+2", nil)
	d.Pause(after(4 * s))
	if r, err := d.Moved(after(50 * s)); err != nil || r != reading(178*s, 180*s, 50*s) {
		t.Errorf("move while paused: %+v %v", r, err)
	}
	if side, _ := d.Running(); side != rules.Black || !d.Paused() {
		t.Errorf("after a paused move: running %v paused %v", side, d.Paused())
	}
	want(t, d, after(90*s), 178*s, 180*s)
}

// Take-back: both clocks show the reading from before the move, the
// mover's clock runs from the take-back; a period's added time goes with
// its last move; there is nothing to take back before the first move.
func TestTakeBack(t *testing.T) {
	c := started(t, "2/100+5:50", nil)
	play(t, c, 10*s, 20*s, 30*s) // white 95, black 95, white (2nd move) 85+5+50
	want(t, c, after(30*s), 140*s, 95*s)
	if err := c.TakeBack(after(40 * s)); err != nil {
		t.Fatal(err)
	}
	want(t, c, after(40*s), 95*s, 95*s)
	want(t, c, after(45*s), 90*s, 95*s) // white runs from the take-back
	if c.Moves(rules.White) != 1 {
		t.Errorf("white has %d moves after the take-back", c.Moves(rules.White))
	}
	play(t, c, 50*s) // white's 2nd move again: 10 s, +5, then +50
	want(t, c, after(50*s), 140*s, 95*s)
	for range 3 {
		if err := c.TakeBack(after(60 * s)); err != nil {
			t.Fatal(err)
		}
	}
	want(t, c, after(60*s), 100*s, 100*s)
	if side, _ := c.Running(); side != rules.White {
		t.Errorf("after taking every move back %v runs", side)
	}
	if err := c.TakeBack(after(61 * s)); !errors.Is(err, ErrNoMove) {
		t.Errorf("take back at the start: %v", err)
	}
	if got := len(c.Readings()); got != 1 {
		t.Errorf("%d readings after taking every move back", got)
	}
}

// The arbiter adds or sets time; an illegal move gives the opponent the
// penalty (FIDE rapid and blitz: one minute); bad adjustments change
// nothing.
func TestArbiter(t *testing.T) {
	c := started(t, "180+2", nil)
	if err := c.Add(after(10*s), rules.Black, 30*s); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(after(10*s), rules.White, 100*s); err != nil {
		t.Fatal(err)
	}
	want(t, c, after(15*s), 95*s, 210*s)
	n, err := c.Illegal(after(15*s), rules.White)
	if err != nil || n != 1 {
		t.Fatalf("Illegal = %d %v", n, err)
	}
	want(t, c, after(15*s), 95*s, 270*s)
	if n, _ := c.Illegal(after(16*s), rules.White); n != 2 {
		t.Errorf("second illegal move counted %d", n)
	}
	for _, bad := range []func() error{
		func() error { return c.Set(after(17*s), rules.White, 0) },
		func() error { return c.Add(after(17*s), rules.Black, -400*s) },
		func() error { return c.Add(after(17*s), 7, s) },
	} {
		if err := bad(); err == nil {
			t.Error("a bad adjustment was accepted")
		}
	}
	want(t, c, after(17*s), 93*s, 330*s)
	none := started(t, "180+2", &Opts{})
	none.Illegal(after(s), rules.White)
	want(t, none, after(s), 179*s, 180*s)
}

// Set on a running side under a simple delay keeps the delay: the set time
// shows until the delay ends.
func TestSetDuringDelay(t *testing.T) {
	c := started(t, "300d5", nil)
	c.Set(after(2*s), rules.White, 60*s)
	want(t, c, after(4*s), 60*s, 300*s)
	want(t, c, after(6*s), 59*s, 300*s)
}

// Commands before Start are refused, except the arbiter's adjustments.
func TestNotStarted(t *testing.T) {
	c, _ := New(MustParse("300"), nil)
	if _, err := c.Moved(t0); !errors.Is(err, ErrNotStarted) {
		t.Errorf("Moved before Start: %v", err)
	}
	if err := c.Pause(t0); !errors.Is(err, ErrNotStarted) {
		t.Errorf("Pause before Start: %v", err)
	}
	if _, ok := c.FlagAt(); ok {
		t.Error("a clock not started has a flag time")
	}
	if err := c.Add(t0, rules.White, s); err != nil {
		t.Error(err)
	}
	want(t, c, after(time.Hour), 301*s, 300*s)
	if err := c.Start(t0, 3); err == nil {
		t.Error("Start with a bad side accepted")
	}
	c.Start(t0, rules.Black)
	if err := c.Start(t0, rules.White); err == nil {
		t.Error("second Start accepted")
	}
	want(t, c, after(10*s), 301*s, 290*s)
	if _, err := New(Control{}, nil); err == nil {
		t.Error("New without a control accepted")
	}
}

// A finished game's clock is stopped, and its snapshot says so one way:
// Stopped, neither Running nor Paused, the times frozen; a flag that fell
// stays named. A take-back of the move that ended the game starts it again.
func TestStopEndsTheGamesClock(t *testing.T) {
	for _, tc := range []struct {
		name  string
		clock func(t *testing.T) *Clock
		at    time.Duration
		white time.Duration
		flag  string
	}{
		{"running (mate, resignation, draw)", func(t *testing.T) *Clock { return started(t, "60", nil) }, 10 * s, 50 * s, ""},
		{"paused", func(t *testing.T) *Clock {
			c := started(t, "60", nil)
			if err := c.Pause(after(4 * s)); err != nil {
				t.Fatal(err)
			}
			return c
		}, 10 * s, 56 * s, ""},
		{"never started (a game that began over)", func(t *testing.T) *Clock {
			c, err := New(MustParse("60"), nil)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}, 10 * s, 60 * s, ""},
		{"flag", func(t *testing.T) *Clock { return started(t, "60", nil) }, 61 * s, 0, "white"},
	} {
		c := tc.clock(t)
		c.Stop(after(tc.at))
		for _, at := range []time.Duration{tc.at, tc.at + time.Hour} {
			got := c.Snapshot(after(at))
			if !got.Stopped || got.Running != "" || got.Paused || got.Flag != tc.flag || got.DelayMS != 0 {
				t.Errorf("%s: snapshot at +%v: %+v, want stopped, not running nor paused, flag %q", tc.name, at, got, tc.flag)
			}
			if r := got.Remaining(rules.White, after(at+time.Minute)); r != tc.white {
				t.Errorf("%s: white %v at +%v, want %v frozen", tc.name, r, at, tc.white)
			}
			if _, ok := c.FlagAt(); ok {
				t.Errorf("%s: a stopped clock has a flag to fall", tc.name)
			}
		}
		if _, err := c.Moved(after(tc.at + s)); !errors.Is(err, ErrStopped) && !errors.Is(err, ErrNotStarted) {
			t.Errorf("%s: Moved on a stopped clock: %v, want ErrStopped", tc.name, err)
		}
		if err := c.Add(after(tc.at+s), rules.White, s); !errors.Is(err, ErrStopped) {
			t.Errorf("%s: Add on a stopped clock: %v, want ErrStopped", tc.name, err)
		}
	}
	// The take-back of the mating move: the game goes on, the mover's clock runs.
	c := started(t, "60", nil)
	play(t, c, 5*s)
	c.Stop(after(5 * s))
	if err := c.TakeBack(after(20 * s)); err != nil {
		t.Fatal(err)
	}
	if got := c.Snapshot(after(21 * s)); got.Stopped || got.Running != "white" || got.WhiteMS != 59000 {
		t.Errorf("after the take-back: %+v, want white running at 59 s", got)
	}
}
