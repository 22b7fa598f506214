package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/bringup"
	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/sdnotify"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/setup"
	"github.com/tridboard/tridboard/sim"
)

// waitPage polls the wiring's status until ok accepts it.
func waitPage(t *testing.T, url, what string, ok func(setup.LearnStatus) bool) setup.LearnStatus {
	t.Helper()
	var st setup.LearnStatus
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if code := pageCall(t, "GET", url+"/status", "", "", &st); code == 200 && ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("no status with %s: last %+v", what, st)
		}
	}
}

// Learning from the page during a game: refused until confirmed; then
// the table is paused (a new game over MQTT refused, the game and its
// journal kept), the LEDs light the cell the page names and only it, as
// wiring learn does; cancelled, the table resumes on the same game and
// reads the set again; learned and discarded, nothing is written.
func TestLearnPageDuringAGame(t *testing.T) {
	d, c, topics := startInProcess(t, func(c *config.Config) { c.MQTT.CommandToken = "tok-3" })
	pos := handMove(t, d, st3d.Start(), "b2W-b3W", sim.PlainStyle)
	for deadline := time.Now().Add(30 * time.Second); len(d.tb.Snapshot().Moves) != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the move was not recognised")
		}
	}
	url := d.webURL + "setup/wiring"
	var r map[string]any
	if code := pageCall(t, "POST", url+"/start", "tok-3", "", &r); code != 409 || r["confirm"] != true ||
		!strings.Contains(r["reason"].(string), "a game is in progress: game ") {
		t.Fatalf("start during a game: %d %v", code, r)
	}

	// Confirmed: held at the fifth cell lit.
	held, release := make(chan string), make(chan struct{})
	n := 0
	d.learnShown = func(cell, pass string) {
		if n++; n == 5 {
			held <- cell
			<-release
		}
	}
	if code := pageCall(t, "POST", url+"/start", "tok-3", `{"confirm": true}`, &r); code != 202 {
		t.Fatalf("confirmed start: %d %v", code, r)
	}
	var cell string
	select {
	case cell = <-held:
	case <-time.After(60 * time.Second):
		t.Fatal("no fifth cell lit within 60 s")
	}
	st := waitPage(t, url, "the fifth cell", func(s setup.LearnStatus) bool { return s.Done == 5 })
	if st.State != setup.StateLearning || st.Cell != cell || st.Where == "" || st.Pass != "learn" || st.Total != 2*len(bringup.LearnOrder(st3d.System)) {
		t.Errorf("status at the fifth cell (%s): %+v", cell, st)
	}
	if lit := litNow(d.board); !slices.Equal(lit, []string{cell}) {
		t.Errorf("LEDs lit %v, want %s alone", lit, cell)
	}
	if !d.tb.Health().Paused {
		t.Error("the table scans while the wiring is learned")
	}
	if r := sendCommand(t, c, topics, "new_game", `{"variant":"st3d","token":"tok-3"}`); r["status"] != "error" || !strings.Contains(r["reason"].(string), "paused") {
		t.Errorf("a new game while learning: %v", r)
	}
	// Cancelled from the page.
	cancelled := make(chan int)
	go func() { cancelled <- pageCall(t, "POST", url+"/cancel", "tok-3", "", nil) }()
	close(release)
	if code := <-cancelled; code != 200 {
		t.Fatalf("cancel: %d", code)
	}
	st = waitPage(t, url, "idle after the cancel", func(s setup.LearnStatus) bool { return s.State == setup.StateIdle })
	if st.Message != "cancelled: nothing was saved" {
		t.Errorf("after the cancel: %+v", st)
	}
	if d.tb.Health().Paused {
		t.Fatal("the table is still paused after the cancel")
	}
	// The same game goes on once its pieces are back.
	s := d.tb.Snapshot()
	if len(s.Moves) != 1 || s.Moves[0].Move != "b2W-b3W" {
		t.Fatalf("after learning the game has %v", s.Moves)
	}
	d.board.Set.SetUp(pos.Occupancy())
	for deadline := time.Now().Add(30 * time.Second); d.tb.Snapshot().Status.State.String() != "in sync"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not in sync again: %s", d.tb.Snapshot().Status.State)
		}
	}
	handMove(t, d, pos, "c7B-c6B", sim.PlainStyle)
	for deadline := time.Now().Add(30 * time.Second); len(d.tb.Snapshot().Moves) != 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a move after learning was not recognised")
		}
	}

	// Learned whole, then discarded: setup.yaml is not written.
	d.learnShown = nil
	if code := pageCall(t, "POST", url+"/start", "tok-3", `{"confirm": true}`, &r); code != 202 {
		t.Fatalf("start again: %d %v", code, r)
	}
	st = waitPage(t, url, "a result", func(s setup.LearnStatus) bool { return s.State != setup.StateLearning })
	if st.State != setup.StateDone || st.Result.Problems != 0 || st.Result.Learned != len(st3d.System.Cells()) {
		t.Fatalf("learned: %+v", st)
	}
	if code := pageCall(t, "POST", url+"/discard", "tok-3", "", &r); code != 200 {
		t.Fatalf("discard: %d %v", code, r)
	}
	if s, err := config.ReadSetup(d.o.cfg.StateDir); err != nil || s.Wiring != nil {
		t.Errorf("after a discard setup.yaml has %+v, %v", s, err)
	}
	if d.tb.Health().Paused || len(d.tb.Snapshot().Moves) != 2 {
		t.Errorf("after the discard: paused %v, %d moves", d.tb.Health().Paused, len(d.tb.Snapshot().Moves))
	}
}

// A learned wiring the set could not start with (a cell not learned) is
// not saved: the page says why, setup.yaml is not written, the daemon
// does not restart.
func TestLearnSaveRefusesAWiringTheSetCannotStartWith(t *testing.T) {
	d, _, _ := startInProcess(t)
	w := d.wiring.Clone()
	e := &w.Expanders[0]
	lost := e.Cells[0].Cell
	e.Cells = e.Cells[1:]
	msg, err := d.learnSave(setup.Result{Wiring: w})
	if err == nil || !strings.HasPrefix(err.Error(), "not saved, the set could not start with it: ") || !strings.Contains(err.Error(), lost) {
		t.Fatalf("save of a wiring without %s: %q, %v", lost, msg, err)
	}
	if s, err := config.ReadSetup(d.o.cfg.StateDir); err != nil || s.Wiring != nil {
		t.Errorf("setup.yaml after a refused save: %+v, %v", s, err)
	}
	if d.restarting() {
		t.Error("the daemon restarts after a refused save")
	}
}

// Buttons are not learned: those of the wiring the set had are kept, on
// their expanders (one added when the learned wiring left it out).
func TestWithButtonsKeepsTheButtons(t *testing.T) {
	mux := &sensors.MuxPort{Address: 0x70, Channel: 2}
	old := &sensors.Wiring{Expanders: []sensors.Expander{
		{Address: 0x20, Mode: sensors.Direct, Cells: []sensors.Wire{{Cell: "a1W", Bit: 0}, {Cell: "button:clock_white", Bit: 15}}},
		{Address: 0x21, Mux: mux, Mode: sensors.Direct, Cells: []sensors.Wire{{Cell: "button:hint", Bit: 3}}},
	}}
	learned := &sensors.Wiring{Expanders: []sensors.Expander{
		{Address: 0x20, Mode: sensors.Direct, Cells: []sensors.Wire{{Cell: "b1W", Bit: 0}}},
	}}
	got := withButtons(learned, old)
	want := []string{"0x20 b1W 0", "0x20 button:clock_white 15", "0x21 (mux 0x70 channel 2) button:hint 3"}
	var have []string
	for _, e := range got.Expanders {
		for _, c := range e.Cells {
			have = append(have, fmt.Sprintf("%s %s %d", e.Name(), c.Cell, c.Bit))
		}
	}
	if !slices.Equal(have, want) {
		t.Errorf("with buttons: %q, want %q", have, want)
	}
	if len(learned.Expanders[0].Cells) != 1 {
		t.Error("withButtons changed the learned wiring")
	}
}

// A game on the clock: learning pauses the running clock first (the
// players are not playing while the set is emptied), and it stays paused
// for the arbiter or the players to resume.
func TestLearnPagePausesTheClock(t *testing.T) {
	d, _, _ := startInProcess(t, func(c *config.Config) { c.Clock.Default = clock.MustParse("300+2") })
	startClock(t, d)
	url := d.webURL + "setup/wiring"
	var r map[string]any
	if code := pageCall(t, "POST", url+"/start", "", "", &r); code != 202 {
		t.Fatalf("start: %d %v", code, r)
	}
	st := waitPage(t, url, "a result", func(s setup.LearnStatus) bool { return s.State != setup.StateLearning })
	if st.State != setup.StateDone {
		t.Fatalf("learned: %+v", st)
	}
	if c := d.tb.Snapshot().Clock; c == nil || c.Running != "white" || !c.Paused {
		t.Errorf("the clock after learning: %+v, want paused", c)
	}
	if code := pageCall(t, "POST", url+"/discard", "", "", &r); code != 200 {
		t.Fatalf("discard: %d %v", code, r)
	}
}

// Under systemd's watchdog, a table paused for learning the wiring still
// counts as alive: WATCHDOG=1 goes on while it does not scan.
func TestWatchdogFedWhileTheTableIsPaused(t *testing.T) {
	d, read, cancel, done := underSystemd(t)
	ctx := context.Background()
	if got := read(); got != sdnotify.Ready {
		t.Fatalf("first notification %q", got)
	}
	// onReady comes just before the table's Run: Pause refuses until then.
	for deadline := time.Now().Add(30 * time.Second); d.tb.Pause(ctx) != nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the table never paused")
		}
	}
	scans := d.tb.Health().Scans
	for i := 0; i < 4; i++ { // 4 of 100 ms: two intervals at least with no scan
		if got := read(); got != sdnotify.Watchdog {
			t.Fatalf("notification %d while paused: %q, want %q", i+1, got, sdnotify.Watchdog)
		}
	}
	if got := d.tb.Health().Scans; got != scans {
		t.Errorf("%d scans while paused", got-scans)
	}
	if err := d.tb.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("daemon exit %d", code)
	}
}

// run --state-dir DIR reads DIR's setup.yaml (where the page saved the
// wiring and the name); flags still win over it.
func TestRunReadsTheSetupOfTheStateDirGiven(t *testing.T) {
	dir := t.TempDir()
	w, err := config.Default().Wiring(st3d.System.Cells())
	if err != nil {
		t.Fatal(err)
	}
	if err := config.UpdateSetup(dir, func(s *config.Setup) error { s.BoardID, s.Wiring = "from-page", w; return nil }); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		board string
	}{
		{[]string{"--state-dir", dir}, "from-page"},
		{[]string{"--state-dir", dir, "--board-id", "from-flag"}, "from-flag"},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		df := addDaemonFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		c, err := df.load(true)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if c.BoardID != tc.board || c.Sensors.Wiring == nil || c.Sensors.Preset != "" {
			t.Errorf("%v: board %q, wiring %v, preset %q; want %q and the page's wiring", tc.args, c.BoardID, c.Sensors.Wiring != nil, c.Sensors.Preset, tc.board)
		}
	}
}
