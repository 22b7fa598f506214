package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/millennium"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// startInProcess runs a daemon on the simulated board in this process and
// returns it once the set is in sync, with an MQTT client on its broker.
func startInProcess(t *testing.T, edit ...func(*config.Config)) (*daemon, paho.Client, mqtt.Topics) {
	t.Helper()
	cfg := config.Default()
	cfg.StateDir, cfg.BoardID = t.TempDir(), "unit"
	for _, e := range edit {
		e(cfg)
	}
	cfg.MQTT.Listen, cfg.MQTT.Discovery, cfg.HTTP.Listen = "127.0.0.1:0", "", "127.0.0.1:0"
	ready := make(chan *daemon, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	o := daemonOpts{cfg: cfg, sim: true, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		onReady: func(d *daemon) { ready <- d }}
	go func() { done <- serve(ctx, o) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("daemon exit %d", code)
		}
	})
	var d *daemon
	select {
	case d = <-ready:
	case code := <-done:
		t.Fatalf("daemon exited %d", code)
	}
	select {
	case <-d.tb.Synced():
	case <-time.After(5 * time.Second):
		t.Fatal("the simulated set never came in sync")
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := d.client.WaitConnected(wctx); err != nil {
		t.Fatalf("the daemon's MQTT client: %v", err)
	}
	c := paho.NewClient(paho.NewClientOptions().AddBroker(d.broker.URL()).SetClientID("unit-test"))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	topics, _ := mqtt.NewTopics(cfg.MQTT.Prefix, cfg.BoardID)
	return d, c, topics
}

// handMove makes move long (long form) on the simulated set with a
// hand's gestures in style, as a player does, and returns the position
// after it.
func handMove(t *testing.T, d *daemon, pos rules.Position, long string, style sim.Style) rules.Position {
	t.Helper()
	m, _, err := pos.ParseMove(long)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range sim.Gestures(pos, m, style) {
		if a.Op == sim.OpWait {
			time.Sleep(a.Wait)
		} else if err := d.board.Set.Do(a); err != nil {
			t.Fatal(err)
		}
	}
	return pos.Play(m)
}

// sendCommand sends set/<name> and waits for its response.
func sendCommand(t *testing.T, c paho.Client, topics mqtt.Topics, name, payload string) map[string]any {
	t.Helper()
	// The daemon says it is online once it has subscribed to its commands:
	// a command published before then would reach nobody.
	online := make(chan struct{}, 1)
	if tok := c.Subscribe(topics.Availability(), 1, func(_ paho.Client, m paho.Message) {
		if string(m.Payload()) == mqtt.Online {
			select {
			case online <- struct{}{}:
			default:
			}
		}
	}); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	select {
	case <-online:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: the daemon never said it was online", name)
	}
	c.Unsubscribe(topics.Availability())
	got := make(chan []byte, 1)
	if tok := c.Subscribe(topics.Response(name), 1, func(_ paho.Client, m paho.Message) { got <- m.Payload() }); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer c.Unsubscribe(topics.Response(name))
	if tok := c.Publish(topics.Set(name), 1, false, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	select {
	case b := <-got:
		var r map[string]any
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return r
	case <-time.After(15 * time.Second):
		t.Fatalf("no response to %s", name)
	}
	return nil
}

// litNow lists, sorted, the cells whose LED the simulated set lights at
// this instant.
func litNow(b *sim.Board) []string {
	var out []string
	for i, n := range st3d.CellNames() {
		if b.LEDs.LED(i) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// waitLit waits, for at most 5 s, until the LEDs show exactly want: the
// view the daemon's LED writer shows lights want in some phase of its
// blinking (leds.Writer.Lit), and the set's LED registers, polled, have
// lit every cell of want and no other since. Polling catches a blinking
// cell in a lit phase; nothing waits a fixed time.
func waitLit(t *testing.T, d *daemon, want string) {
	t.Helper()
	names := st3d.CellNames()
	var view string
	seen := map[string]bool{}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var lit []string
		for _, c := range d.ledw.Lit().Cells(nil) {
			lit = append(lit, names[c])
		}
		sort.Strings(lit)
		if view = strings.Join(lit, " "); view != want {
			clear(seen)
			continue
		}
		extra := false
		for _, n := range litNow(d.board) {
			if !slices.Contains(lit, n) {
				extra = true // the registers still show an earlier view
				break
			}
			seen[n] = true
		}
		if extra {
			clear(seen)
			continue
		}
		if len(seen) == len(lit) {
			return
		}
	}
	t.Fatalf("LEDs: the writer's view lights %q, the registers lit %v since; want %q", view, slices.Sorted(maps.Keys(seen)), want)
}

func TestRemoteMove(t *testing.T) {
	t.Parallel()
	d, c, topics := startInProcess(t)
	waitLit(t, d, "") // nothing lit at rest
	r := sendCommand(t, c, topics, "move", `{"transaction":"r1","move":"Nc3N"}`)
	if r["status"] != "ok" || r["transaction"] != "r1" {
		t.Fatalf("move: %v", r)
	}
	// The retained state carries the game so far.
	states := make(chan protocol.State, 16)
	c.Subscribe(topics.State(), 1, func(_ paho.Client, m paho.Message) {
		var s protocol.State
		if json.Unmarshal(m.Payload(), &s) == nil {
			states <- s
		}
	}).WaitTimeout(5 * time.Second)
	for deadline := time.After(5 * time.Second); ; {
		select {
		case s := <-states:
			if len(s.Moves) != 1 || s.Moves[0] != "d1W-c3N" || s.LastMove == nil || s.LastMove.SAN != "Nc3N" {
				continue
			}
		case <-deadline:
			t.Fatal("no retained state with the remote move")
		}
		break
	}
	// The LEDs show the move to make: from d1W to c3N.
	waitLit(t, d, "c3N d1W")
	// Until the players make it, no other move is taken.
	if r := sendCommand(t, c, topics, "move", `{"move":"c7B-c6B"}`); r["status"] != "error" ||
		!strings.Contains(r["reason"].(string), "not in sync") {
		t.Fatalf("second remote move: %v", r)
	}
	for _, a := range []string{"lift d1W", "wait 100", "place c3N"} {
		act, _, _ := sim.ParseAction(a)
		if act.Op == sim.OpWait {
			time.Sleep(act.Wait)
		} else if err := d.board.Set.Do(act); err != nil {
			t.Fatal(err)
		}
	}
	// Once the board is in sync again, the next move is Black's, from the set.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		r := sendCommand(t, c, topics, "move", `{"move":"c7B-c6B"}`)
		if r["status"] == "ok" {
			break
		}
		if time.Now().After(deadline) || !strings.Contains(r["reason"].(string), "not in sync") {
			t.Fatalf("next remote move: %v", r)
		}
	}
	if r := sendCommand(t, c, topics, "move", `{"move":"Qz9"}`); r["status"] != "error" {
		t.Fatalf("a bad move: %v", r)
	}
}

func TestCommandsChangeNothingOnError(t *testing.T) {
	d, c, topics := startInProcess(t)
	for _, tc := range []struct{ name, payload, reason string }{
		{"promotion", `{"piece":"Q"}`, "no promotion is waiting"},
		{"take_back", `{}`, "no move to take back"},
		{"draw", `{"action":"claim","side":"white"}`, "claim"},
		{"new_game", `{"variant":"millennium"}`, "cannot sense"},
		{"new_game", `{"variant":"chess"}`, `unknown variant "chess"`},
		{"new_game", `{"variant":"st3d","position":"nonsense"}`, "position string"},
	} {
		r := sendCommand(t, c, topics, tc.name, tc.payload)
		if r["status"] != "error" || !strings.Contains(strings.ToLower(r["reason"].(string)), strings.ToLower(tc.reason)) {
			t.Errorf("%s %s: %v, want an error with %q", tc.name, tc.payload, r, tc.reason)
		}
	}
	if got := len(d.tb.Snapshot().Moves); got != 0 {
		t.Errorf("%d moves after refused commands", got)
	}
	r := sendCommand(t, c, topics, "resign", `{"side":"black"}`)
	if r["status"] != "ok" {
		t.Fatalf("resign: %v", r)
	}
	if snap := d.tb.Snapshot(); snap.Result != "1-0" || snap.Reason != "resignation" {
		res, reason := snap.Result, snap.Reason
		t.Errorf("after resigning: %s %s", res, reason)
	}
}

func TestLiftShowsTargetsThroughTheWholePipeline(t *testing.T) {
	d, _, _ := startInProcess(t)
	if err := d.board.Set.Lift("b2W"); err != nil {
		t.Fatal(err)
	}
	waitLit(t, d, "b3N b3W b4N b4W")
	if err := d.board.Set.Place("b4N"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(d.tb.Snapshot().Moves) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("b2W-b4N not recognized within 5 s")
		}
	}
	if got := d.tb.Snapshot().Moves; len(got) != 1 || got[0].Move != "b2W-b4N" {
		t.Fatalf("moves %+v", got)
	}
	// The last move stays lit: from and to.
	waitLit(t, d, "b2W b4N")
}

func TestButtons(t *testing.T) {
	t.Parallel()
	d, c, topics := startInProcess(t, func(c *config.Config) {
		c.Buttons.Knight = "button:knight"
		c.Buttons.NewGame = "button:new"
	})
	games := make(chan string, 16)
	c.Subscribe(topics.State(), 1, func(_ paho.Client, m paho.Message) {
		var s protocol.State
		if json.Unmarshal(m.Payload(), &s) == nil {
			games <- s.Game
		}
	}).WaitTimeout(5 * time.Second)
	first := <-games
	// A press lasts a few scans (the buttons are debounced like the cells).
	press := func(b string) {
		t.Helper()
		if err := d.board.Set.Press(b); err != nil {
			t.Fatal(err)
		}
		scans := d.tb.Health().Scans
		for deadline := time.Now().Add(5 * time.Second); d.tb.Health().Scans < scans+10; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the table does not scan")
			}
		}
		if err := d.board.Set.Release(b); err != nil {
			t.Fatal(err)
		}
		scans = d.tb.Health().Scans
		for deadline := time.Now().Add(5 * time.Second); d.tb.Health().Scans < scans+10; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the table does not scan")
			}
		}
	}
	// "knight" with no promotion waiting changes nothing.
	press("button:knight")
	press("button:new")
	deadline := time.After(3 * time.Second)
	for {
		select {
		case g := <-games:
			if g != first {
				return
			}
		case <-deadline:
			t.Fatal("the new-game button did not start a game")
		}
	}
}

func TestLiftEventsNameTheFirstPieceTouched(t *testing.T) {
	t.Parallel()
	d, c, topics := startInProcess(t)
	events := make(chan protocol.Event, 32)
	c.Subscribe(topics.Event(), 1, func(_ paho.Client, m paho.Message) {
		var e protocol.Event
		if json.Unmarshal(m.Payload(), &e) == nil && e.Type == protocol.EventLift {
			events <- e
		}
	}).WaitTimeout(5 * time.Second)
	for _, sq := range []string{"b2W", "c2W"} {
		if err := d.board.Set.Lift(sq); err != nil {
			t.Fatal(err)
		}
		// The next lift comes once the table saw this one.
		for deadline := time.Now().Add(5 * time.Second); !d.tb.Snapshot().Status.Lifted.Has(cellOf(t, sq)); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("lift of %s not seen", sq)
			}
		}
	}
	for deadline := time.After(5 * time.Second); ; {
		select {
		case e := <-events:
			if strings.Join(e.Cells, " ") != "b2W c2W" {
				continue
			}
			if e.Cell != "b2W" {
				t.Fatalf("lift event %+v: want b2W as the first piece touched", e)
			}
			return
		case <-deadline:
			t.Fatal("no lift event for b2W and c2W")
		}
	}
}

func cellOf(t *testing.T, name string) rules.Cell {
	t.Helper()
	c, ok := rules.CellByName(st3d.System, name)
	if !ok {
		t.Fatalf("no cell %s", name)
	}
	return c
}

// The simulated set of every system has the buttons a set is built with
// (issue 29), on its wiring's free expander bits, unless the configuration
// names buttons or a wiring table of its own; a press of each is seen.
func TestSimSetButtonsByDefault(t *testing.T) {
	t.Parallel()
	all := "queen rook bishop knight new_game take_back clock_white clock_black hint"
	for _, tc := range []struct {
		name string
		edit func(*config.Config)
		want string
	}{
		{"st3d", func(*config.Config) {}, all},
		{"V.P6", func(c *config.Config) { c.Options = "V.P6" }, all},
		{"millennium", func(c *config.Config) { c.Variant = "millennium" }, all},
		{"first contact", func(c *config.Config) { c.Variant = "first-contact" }, all + " pawn king"},
		{"first contact up", func(c *config.Config) { c.Variant = "first-contact-up" }, all + " pawn king"},
		{"buttons configured", func(c *config.Config) { c.Buttons.Hint = "button:ask" }, "ask"},
		{"a wiring table without buttons", func(c *config.Config) {
			c.Sensors.Preset, c.Sensors.Wiring = "", sets.ReferenceWiring()
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, c, topics := startInProcess(t, tc.edit)
			pressed := make(chan string, 8)
			c.Subscribe(topics.Event(), 1, func(_ paho.Client, m paho.Message) {
				var e protocol.Event
				if json.Unmarshal(m.Payload(), &e) == nil && e.Type == protocol.EventButton {
					pressed <- e.Detail
				}
			}).WaitTimeout(5 * time.Second)
			var got []string
			for _, b := range d.board.Wiring.Buttons() {
				got = append(got, strings.TrimPrefix(b, sensors.ButtonPrefix))
			}
			if strings.Join(got, " ") != tc.want {
				t.Fatalf("buttons %v, want %s", got, tc.want)
			}
			if len(got) == 0 {
				return
			}
			// The table sees a press of the last one, and says so.
			last := got[len(got)-1]
			if err := doAction(context.Background(), d.board.Set, sim.Action{Op: sim.OpTap, Button: last, Wait: 300 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			select {
			case name := <-pressed:
				if name != last {
					t.Fatalf("button event for %s, want %s", name, last)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no button event for a tap of %s", last)
			}
		})
	}
}

// tapButton taps a button of d's simulated set as a hand does (150 ms).
func tapButton(t *testing.T, d *daemon, b string) {
	t.Helper()
	if err := doAction(context.Background(), d.board.Set, sim.Action{Op: sim.OpTap, Button: b, Wait: 150 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
}

// startClock starts d's clock as Black's press does, and waits until it
// runs.
func startClock(t *testing.T, d *daemon) {
	t.Helper()
	tapButton(t, d, "clock_black")
	for deadline := time.Now().Add(5 * time.Second); d.tb.Snapshot().Clock == nil || d.tb.Snapshot().Clock.Running == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Black's press did not start the clock")
		}
	}
}

// The LEDs show a clock press (issue 29): with a clock, a move set down
// shows as a move in progress (the lifted piece's targets) however long
// the hand rests; its player's press completes it, and the LEDs light it
// as the last move.
func TestClockPressOnTheLEDs(t *testing.T) {
	d, _, _ := startInProcess(t, func(c *config.Config) { c.Clock.Default = clock.MustParse("300+2") })
	tap := func(b string) { t.Helper(); tapButton(t, d, b) }
	startClock(t, d)
	if err := d.board.Set.Move("b2W", "b3W"); err != nil {
		t.Fatal(err)
	}
	// The table holds the move for the press once it has stood the
	// settle window: only then is "nothing recorded" a finding.
	for deadline := time.Now().Add(5 * time.Second); !d.tb.Snapshot().Status.Held; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the move set down is not held for the press: status %+v, moves %v", d.tb.Snapshot().Status, d.tb.Snapshot().Moves)
		}
	}
	if m := d.tb.Snapshot().Moves; len(m) != 0 {
		t.Fatalf("moves %v before the press: the move must wait for it", m)
	}
	waitLit(t, d, "b3N b3W b4N b4W") // the lifted pawn's targets: a move in progress
	if m := d.tb.Snapshot().Moves; len(m) != 0 {
		t.Fatalf("moves %v before the press: the move must wait for it", m)
	}
	tap("clock_white")
	waitLit(t, d, "b2W b3W")
}

// A state directory whose current game is of another system (a Millennium
// game left by a run with another configuration) is resumed on the set that
// system is played on: run --sim simulates it from the start, with no
// second attempt at opening the table.
func TestSimResumesAGameOfAnotherSystem(t *testing.T) {
	dir := t.TempDir()
	s, err := game.New(dir, millennium.System, "", game.Tags{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Play(s.Position().LegalMoves(nil)[0]); err != nil {
		t.Fatal(err)
	}
	id := s.ID()
	s.Close()
	d, _, _ := startInProcess(t, func(c *config.Config) { c.StateDir = dir })
	snap := d.tb.Snapshot()
	if snap.System.Name() != millennium.System.Name() || snap.Game != id || len(snap.Moves) != 1 {
		t.Fatalf("resumed %s game %s with %d moves, want the Millennium game %s with its move", snap.System.Name(), snap.Game, len(snap.Moves), id)
	}
	if err := d.board.Wiring.Validate(millennium.System.Cells()); err != nil {
		t.Errorf("the simulated set is not a Millennium set: %v", err)
	}
}
