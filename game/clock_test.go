package game

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
)

// loneWhiteKing: White has its king alone, Black a king and a rook.
const loneWhiteKing = "QL1:w,QL6:b,KL1:w,KL6:b Kc4N,ke0KL1,rb8B w - - - 0 40"

func clockGame(t *testing.T, start string) (*Session, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := New(dir, st3d.System, start, Tags{TimeControl: "180+2"}, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// Each move's record keeps its completion time and its clock reading; a
// take-back drops the reading; all of it replays.
func TestClockReadingsJournaled(t *testing.T) {
	s, dir := clockGame(t, "")
	if got := s.Control().String(); got != "180+2" {
		t.Fatalf("Control = %s", got)
	}
	done := time.Date(2026, 12, 1, 10, 0, 8, 766e6, time.UTC)
	r1 := clock.Reading{WhiteMS: 173234, BlackMS: 180000, At: done}
	pos := s.Position()
	mv, err := s.PlayAt(mustMove(t, pos, "b2W-b3W"), done, &r1)
	if err != nil {
		t.Fatal(err)
	}
	if !mv.Time.Equal(done) {
		t.Errorf("Move.Time %v, want the completion time %v", mv.Time, done)
	}
	r2 := clock.Reading{WhiteMS: 173234, BlackMS: 175000, At: done.Add(7 * time.Second)}
	if _, err := s.PlayAt(mustMove(t, s.Position(), "b7B-b6B"), r2.At, &r2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeBack(); err != nil {
		t.Fatal(err)
	}
	o := reopen(t, s, dir)
	got, ok := o.Readings()
	if !ok || !reflect.DeepEqual(got, []clock.Reading{r1}) {
		t.Errorf("Readings after replay = %+v, %v; want [%+v]", got, ok, r1)
	}
	if m := o.Moves(); len(m) != 1 || !m[0].Time.Equal(done) {
		t.Errorf("moves after replay: %+v", m)
	}
	// A game without a clock has no readings and refuses clock records.
	n, _ := newGame(t, "")
	playAll(t, n, "b2W-b3W")
	if _, ok := n.Readings(); ok {
		t.Error("a game without a clock has readings")
	}
	if err := n.ChangeClock(ClockChange{Action: ClockPause}); !errors.Is(err, ErrNoClock) {
		t.Errorf("ChangeClock without a clock: %v", err)
	}
}

func TestNewRefusesBadTimeControl(t *testing.T) {
	_, err := New(t.TempDir(), st3d.System, "", Tags{TimeControl: "180+x"}, testOpts())
	if err == nil || !strings.Contains(err.Error(), `time control "180+x"`) {
		t.Fatalf("New with a bad control: %v", err)
	}
}

// Arbiter changes are journaled and replayed; a move or a take-back ends
// them (the readings hold what they did).
func TestClockChangesReplay(t *testing.T) {
	s, dir := clockGame(t, "")
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	changes := []ClockChange{
		{Action: ClockPause, Time: at},
		{Action: ClockAdd, Side: rules.Black, D: -30 * time.Second, Time: at.Add(time.Second)},
		{Action: ClockSet, Side: rules.White, D: time.Minute, Time: at.Add(2 * time.Second)},
		{Action: ClockPenalty, Side: rules.White, D: time.Minute, Time: at.Add(3 * time.Second)},
		{Action: ClockResume, Time: at.Add(4 * time.Second)},
	}
	for _, c := range changes {
		if err := s.ChangeClock(c); err != nil {
			t.Fatalf("%s: %v", c.Action, err)
		}
	}
	for _, bad := range []ClockChange{
		{Action: ClockSet, Side: rules.White, D: 0, Time: at},
		{Action: ClockAdd, Side: 7, D: time.Second, Time: at},
		{Action: "wind", Time: at},
	} {
		if err := s.ChangeClock(bad); err == nil {
			t.Errorf("ChangeClock(%+v) accepted", bad)
		}
	}
	o := reopen(t, s, dir)
	if got := o.ClockChanges(); !reflect.DeepEqual(got, changes) {
		t.Errorf("ClockChanges after replay:\n%+v\nwant\n%+v", got, changes)
	}
	r := clock.Reading{WhiteMS: 60000, BlackMS: 150000, At: at.Add(5 * time.Second)}
	if _, err := o.PlayAt(mustMove(t, o.Position(), "b2W-b3W"), r.At, &r); err != nil {
		t.Fatal(err)
	}
	if got := o.ClockChanges(); len(got) != 0 {
		t.Errorf("changes after a move: %+v", got)
	}
}

// A flag's result: a loss, or a draw when the opponent cannot mate; it is
// journaled with the termination "time", replayed, and ends the game (no
// take-back).
func TestFlagFell(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 3, 0, 0, time.UTC)
	for _, tc := range []struct {
		start string
		side  rules.Color
		want  rules.Result
	}{
		{"", rules.White, rules.BlackWins},
		{"", rules.Black, rules.WhiteWins},
		{loneWhiteKing, rules.Black, rules.Draw},      // White cannot mate: FIDE 6.9
		{loneWhiteKing, rules.White, rules.BlackWins}, // Black can
	} {
		s, dir := clockGame(t, tc.start)
		if tc.start == "" {
			playAll(t, s, "b2W-b3W")
		}
		res := clock.FlagResult(s.Position(), tc.side, nil)
		if res != tc.want {
			t.Errorf("%s flagged in %q: FlagResult %s, want %s", tc.side, tc.start, res, tc.want)
		}
		if err := s.FlagFell(tc.side, rules.Draw+"x", at); err == nil {
			t.Error("FlagFell with a bad result accepted")
		}
		if err := s.FlagFell(tc.side, res, at); err != nil {
			t.Fatal(err)
		}
		o := reopen(t, s, dir)
		if r, why := o.Result(); r != tc.want || why != ReasonTime {
			t.Errorf("after replay: %s (%s), want %s (time)", r, why, tc.want)
		}
		if _, err := o.TakeBack(); !errors.Is(err, ErrGameOver) && tc.start == "" {
			t.Errorf("take-back after a flag: %v", err)
		}
		if err := o.FlagFell(tc.side, res, at); !errors.Is(err, ErrGameOver) {
			t.Errorf("a second flag: %v", err)
		}
	}
	n, _ := newGame(t, "")
	if err := n.FlagFell(rules.White, rules.BlackWins, at); !errors.Is(err, ErrNoClock) {
		t.Errorf("FlagFell without a clock: %v", err)
	}
}

// The record of a game with a clock has the TimeControl tag and the
// mover's time after each move.
func TestExportClock(t *testing.T) {
	s, _ := clockGame(t, "")
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i, r := range []clock.Reading{
		{WhiteMS: 178000, BlackMS: 180000, At: at},
		{WhiteMS: 178000, BlackMS: 175400, At: at.Add(time.Second)},
		{WhiteMS: 42300, BlackMS: 175400, At: at.Add(2 * time.Second)},
	} {
		long := []string{"b2W-b3W", "b7B-b6B", "c2W-c3W"}[i]
		if _, err := s.PlayAt(mustMove(t, s.Position(), long), r.At, &r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := s.Export(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{`[TimeControl "180+2"]`,
		"1. b3W {[%clk 0:02:58]} b6B {[%clk 0:02:55]} 2. c3W {[%clk 0:00:42.3]} *"} {
		if !strings.Contains(text, want) {
			t.Errorf("record lacks %q:\n%s", want, text)
		}
	}
	// The record reads back (comments dropped).
	rec, g := replay(t, text)
	if rec.Tag("TimeControl") != "180+2" || len(g.Short()) != 3 {
		t.Errorf("read back: %q, %d moves", rec.Tag("TimeControl"), len(g.Short()))
	}
	// A game going on has no Termination; a flag's is "time forfeit", as
	// PGN writes it.
	if strings.Contains(text, "Termination") {
		t.Errorf("a game going on has a Termination:\n%s", text)
	}
	if err := s.FlagFell(rules.Black, rules.WhiteWins, at.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := s.Export(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `[Termination "time forfeit"]`) || !strings.HasSuffix(b.String(), " 1-0\n") {
		t.Errorf("after Black's flag:\n%s", b.String())
	}
}

// A tournament game lost (or drawn, when the opponent cannot mate) by a
// second completed illegal move (FIDE 7.5.5, issue 33): journaled with the
// termination "illegal moves", replayed, exported with PGN's Termination
// "rules infraction"; a result that is not the side's loss or a draw is
// refused; the game's Play tag survives the replay.
func TestForfeit(t *testing.T) {
	for _, tc := range []struct {
		start string
		side  rules.Color
		want  rules.Result
	}{
		{"", rules.White, rules.BlackWins},
		{loneWhiteKing, rules.Black, rules.Draw},
	} {
		dir := t.TempDir()
		s, err := New(dir, st3d.System, tc.start, Tags{Play: PlayTournament}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Forfeit(tc.side, rules.WhiteWins+"x"); err == nil {
			t.Error("Forfeit with a bad result accepted")
		}
		if err := s.Forfeit(tc.side, resultOf(ReasonResignation, tc.side.Other())); err == nil {
			t.Error("Forfeit with the opponent's loss accepted")
		}
		if err := s.Forfeit(tc.side, tc.want); err != nil {
			t.Fatal(err)
		}
		o := reopen(t, s, dir)
		if r, why := o.Result(); r != tc.want || why != ReasonIllegal {
			t.Errorf("after replay: %s (%s), want %s (illegal moves)", r, why, tc.want)
		}
		if p := o.Tags().Play; p != PlayTournament {
			t.Errorf("after replay the play is %q", p)
		}
		if got := o.Record().Tag("Termination"); got != "rules infraction" {
			t.Errorf("Termination %q, want rules infraction", got)
		}
		if err := o.Forfeit(tc.side, tc.want); !errors.Is(err, ErrGameOver) {
			t.Errorf("a second forfeit: %v", err)
		}
	}
}

// ParsePlay reads the three plays; "" is casual.
func TestParsePlay(t *testing.T) {
	for in, want := range map[string]Play{"": PlayCasual, "casual": PlayCasual, "tournament": PlayTournament, "lesson": PlayLesson} {
		if got, err := ParsePlay(in); err != nil || got != want {
			t.Errorf("ParsePlay(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"Tournament", "blitz", " casual"} {
		if _, err := ParsePlay(bad); err == nil || !strings.Contains(err.Error(), "want casual, tournament or lesson") {
			t.Errorf("ParsePlay(%q): %v", bad, err)
		}
	}
}
