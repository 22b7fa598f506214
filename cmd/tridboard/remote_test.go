package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
)

// inproc is a daemon running in this process, on a simulated set, that can
// be stopped and started again on its state directory.
type inproc struct {
	t      *testing.T
	logTo  io.Writer // the daemon's log (nil: discarded)
	cfg    *config.Config
	d      *daemon
	cancel context.CancelFunc
	done   chan int
}

func startSet(t *testing.T, board, stateDir, broker string) *inproc {
	t.Helper()
	return startSetWith(t, board, stateDir, broker, nil)
}

// startSetWith is startSet with edit's changes to the configuration.
func startSetWith(t *testing.T, board, stateDir, broker string, edit func(*config.Config)) *inproc {
	t.Helper()
	p := newSet(t, board, stateDir, broker, edit)
	p.start()
	t.Cleanup(p.stop)
	return p
}

// newSet is a set not started yet, with edit's changes to the
// configuration.
func newSet(t *testing.T, board, stateDir, broker string, edit func(*config.Config)) *inproc {
	cfg := config.Default()
	cfg.StateDir, cfg.BoardID, cfg.MQTT.Broker, cfg.MQTT.Discovery = stateDir, board, broker, ""
	cfg.MQTT.Listen = "127.0.0.1:0" // with no broker given: an embedded one on a free port
	cfg.HTTP.Listen = "127.0.0.1:0"
	// A set without clock buttons: nobody presses a clock here, so a
	// game's clock starts when the set shows its position and moves settle.
	cfg.Buttons = table.AllButtons(false)
	cfg.Buttons.ClockWhite, cfg.Buttons.ClockBlack = "", ""
	if edit != nil {
		edit(cfg)
	}
	return &inproc{t: t, cfg: cfg}
}

func (p *inproc) start() {
	p.t.Helper()
	ready := make(chan *daemon, 1)
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel, p.done = cancel, make(chan int, 1)
	logTo := p.logTo
	if logTo == nil {
		logTo = io.Discard
	}
	o := daemonOpts{cfg: p.cfg, sim: true, log: slog.New(slog.NewTextHandler(logTo, nil)), stderr: io.Discard,
		onReady: func(d *daemon) { ready <- d }}
	go func() { p.done <- serve(ctx, o) }()
	select {
	case p.d = <-ready:
	case code := <-p.done:
		p.t.Fatalf("set %s exited %d", p.cfg.BoardID, code)
	}
}

func (p *inproc) stop() {
	if p.cancel == nil {
		return
	}
	p.cancel()
	p.cancel = nil
	if code := <-p.done; code != exitOK {
		p.t.Errorf("set %s exit %d", p.cfg.BoardID, code)
	}
}

// moves are the set's game so far, in long form.
func (p *inproc) moves() []string {
	var out []string
	for _, m := range p.d.tb.Snapshot().Moves {
		out = append(out, m.Move)
	}
	return out
}

// waitFor waits until the set's game has n moves and its board is in sync
// or waits for a move made elsewhere (mismatch).
func (p *inproc) waitMoves(n int) {
	p.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); len(p.moves()) < n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("set %s has %d moves %v, want %d", p.cfg.BoardID, len(p.moves()), p.moves(), n)
		}
	}
}

// hand makes the move long on the set by hand, in real time: a move of its
// own players, or the last move of the game when it came from the other
// set and waits to be made here.
func (p *inproc) hand(long string) {
	p.t.Helper()
	snap := p.d.tb.Snapshot()
	pos := snap.Expected
	if n := len(snap.Moves); n > 0 && snap.Moves[n-1].Move == long {
		pos = snap.Start
		for _, m := range snap.Moves[:n-1] {
			mv, _, err := pos.ParseMove(m.Move)
			if err != nil {
				p.t.Fatal(err)
			}
			pos = pos.Play(mv)
		}
	}
	m, _, err := pos.ParseMove(long)
	if err != nil {
		p.t.Fatalf("set %s: %s: %v", p.cfg.BoardID, long, err)
	}
	st := sim.PlainStyle
	st.Pause = 80 * time.Millisecond
	for _, a := range sim.Gestures(pos, m, st) {
		if a.Op == sim.OpWait {
			time.Sleep(a.Wait)
			continue
		}
		if err := p.d.board.Set.Do(a); err != nil {
			p.t.Fatalf("set %s: %s: %v", p.cfg.BoardID, a, err)
		}
	}
}

// handSynced makes the move by hand and waits for the board to be in sync.
// handSynced makes the move long by hand and waits until the set has it as
// its last move (recognized, or made elsewhere and now on the board) and is
// in sync: in sync alone may be the position before the move, when a
// loaded machine's scan has not yet seen the hand.
func (p *inproc) handSynced(long string) {
	p.t.Helper()
	p.hand(long)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s := p.d.tb.Snapshot()
		if n := len(s.Moves); n > 0 && s.Moves[n-1].Move == long && s.Status.State == recognize.InSync {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("set %s: %s made by hand, never its last move in sync: %s (%s), moves %v", p.cfg.BoardID, long, s.Status.State, s.Status.Reason, p.moves())
		}
	}
}

func (p *inproc) waitInSync() {
	p.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); p.d.tb.Snapshot().Status.State != recognize.InSync; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			s := p.d.tb.Snapshot()
			p.t.Fatalf("set %s is %s (%s): fix %v, moves %v", p.cfg.BoardID, s.Status.State, s.Status.Reason, s.Status.Fix.Names(s.Cells()), p.moves())
		}
	}
}

// Two simulated sets play one game through Mosquitto: each set's moves
// reach the other as moves made elsewhere, which its players then make.
// The broker is stopped and started mid-game and one set restarted; both
// journals hold the same moves in the same order.
func TestTwoSetsPlayOneGame(t *testing.T) {
	t.Parallel()
	broker := mosquittotest.Start(t)
	white, black, ctl := pairedSets(t, broker)
	game := []string{"b2W-b3W", "b7B-b6B", "c2W-c3W", "c7B-c6B", "d1W-c3N", "d7B-d6B"}
	// play makes move i on the set of its side, waits for it to reach the
	// other set, and makes it there too.
	play := func(i int) {
		t.Helper()
		mover, other := white, black
		if i%2 == 1 {
			mover, other = black, white
		}
		mover.handSynced(game[i])
		other.waitMoves(i + 1)
		other.handSynced(game[i])
	}
	play(0)
	play(1)
	// The broker goes down: White's move is recognized and journaled, and
	// reaches Black once the broker is back.
	broker.Stop()
	white.handSynced(game[2])
	white.waitMoves(3)
	broker.Start(t)
	black.waitMoves(3)
	black.handSynced(game[2])
	// Black's set restarts mid-game and goes on with the same opponent.
	black.stop()
	black.start()
	standSet(black.d.board, black.d.tb.Snapshot().Expected)
	black.waitInSync()
	play(3)
	play(4)
	play(5)
	w, b := strings.Join(white.moves(), " "), strings.Join(black.moves(), " ")
	if w != strings.Join(game, " ") || b != w {
		t.Errorf("journals:\nwhite %s\nblack %s\nwant  %s", w, b, strings.Join(game, " "))
	}
	// The retained states agree too, and name both players' sets' games.
	var st protocol.State
	done := make(chan struct{})
	topics, _ := mqtt.NewTopics(black.cfg.MQTT.Prefix, black.cfg.BoardID)
	ctl.Subscribe(topics.State(), 1, func(_ paho.Client, m paho.Message) {
		if json.Unmarshal(m.Payload(), &st) == nil && len(st.Moves) == len(game) {
			select {
			case <-done:
			default:
				close(done)
			}
		}
	})
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no retained state of the whole game from the black set")
	}
}

// pairedSets starts two simulated sets on the broker, enterprise (White,
// Kirk) and klingon (Black, Kor), and a controller's client there, and
// starts one game on both, each set standing in it.
func pairedSets(t *testing.T, broker *mosquittotest.Broker) (white, black *inproc, ctl paho.Client) {
	t.Helper()
	pair := startPairOn(t, broker, nil)
	white, black, ctl = pair.white, pair.black, pair.ctl
	for _, x := range []struct {
		p       *inproc
		payload string
	}{
		{white, `{"variant":"st3d","white":"Kirk","opponent":{"set":"klingon","side":"black"}}`},
		{black, `{"variant":"st3d","black":"Kor","opponent":{"set":"enterprise","side":"white"}}`},
	} {
		topics, _ := mqtt.NewTopics(x.p.cfg.MQTT.Prefix, x.p.cfg.BoardID)
		if r := sendCommand(t, ctl, topics, "new_game", x.payload); r["status"] != "ok" {
			t.Fatalf("new_game on %s: %v", x.p.cfg.BoardID, r)
		}
		standSet(x.p.d.board, x.p.d.tb.Snapshot().Expected)
		x.p.waitInSync()
	}
	return white, black, ctl
}

// connectTo is a controller's MQTT client on p's broker, once the daemon
// listens for commands there.
func connectTo(t *testing.T, p *inproc) (paho.Client, mqtt.Topics) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.d.client.WaitConnected(ctx); err != nil {
		t.Fatalf("set %s: MQTT: %v", p.cfg.BoardID, err)
	}
	url := p.cfg.MQTT.Broker
	if p.d.broker != nil {
		url = p.d.broker.URL()
	}
	c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID("controller-" + p.cfg.BoardID))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	topics, _ := mqtt.NewTopics(p.cfg.MQTT.Prefix, p.cfg.BoardID)
	return c, topics
}
