package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
)

// TestEndToEndDamagedLastRecord (issue 22): a bit flips in the journal's
// last record, a move a display already applied as seq 7. After a restart
// the daemon cuts the record off (keeping a copy aside) but does not hand
// seq 7 out again: the move played next (another one) is seq 8, so the
// display, which drops every seq not above the last it applied, shows it.
func TestEndToEndDamagedLastRecord(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	listen := freeport.Addr(t)
	first := sets.ST3DDemo[:7]
	d := startDaemon(t, state, listen)
	sub := subscribe(t, listen)
	d.play(t, st3d.Start(), first)
	for _, l := range first {
		d.waitMoveLine(t, l)
	}
	sub.waitFor(t, len(first))
	journal, data := stopAndRead(t, d, state)
	last := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	if !bytes.Contains(data[last:], []byte(`"seq":7,`)) {
		t.Fatalf("the last record is not seq 7: %s", data[last:])
	}
	data[last+40] ^= 0x04 // inside the JSON body: a checksum mismatch
	if err := os.WriteFile(journal, data, 0o644); err != nil {
		t.Fatal(err)
	}

	// The set stands where the journal's game is: before the seventh move.
	// Another move is played there.
	before := st3d.Start()
	for _, l := range first[:6] {
		m, _, err := before.ParseMove(l)
		if err != nil {
			t.Fatal(err)
		}
		before = before.Play(m)
	}
	var other string
	for _, m := range before.LegalMoves(nil) {
		if in := before.Info(m); before.Long(m) != first[6] && in.Captured == rules.NoCell && !in.Board && !in.Castle && !in.Promotion {
			other = before.Long(m)
			break
		}
	}
	d2 := startDaemon(t, state, listen)
	d2.play(t, before, []string{other})
	d2.waitMoveLine(t, other)
	got := sub.waitFor(t, len(first)+1)
	if m := got[len(first)]; m.Seq != 8 || m.Move != other {
		t.Errorf("the next move arrived as seq %d %s, want seq 8 %s", m.Seq, m.Move, other)
	}
	if got[6].Move != first[6] {
		t.Errorf("seq 7 is %s, want %s", got[6].Move, first[6])
	}
	if m, _ := filepath.Glob(journal + ".damaged-*"); len(m) != 1 {
		t.Errorf("copies aside: %v, want one", m)
	}
}

// TestEndToEndDamagedMiddleRecord (issue 35): a bit flips in a record in
// the middle of the set's journal (the game's third move). The daemon
// starts all the same: the damaged record is cut out with the moves that
// followed from it (a copy of the whole file kept aside), the game resumes
// after its second move, and its state says so to every display.
func TestEndToEndDamagedMiddleRecord(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	listen := freeport.Addr(t)
	first := sets.ST3DDemo[:5]
	d := startDaemon(t, state, listen)
	d.play(t, st3d.Start(), first)
	for _, l := range first {
		d.waitMoveLine(t, l)
	}
	journal, data := stopAndRead(t, d, state)
	at := bytes.Index(data, []byte(`"seq":3,`))
	if at < 0 {
		t.Fatalf("no seq 3 in\n%s", data)
	}
	data[at+20] ^= 0x04
	if err := os.WriteFile(journal, data, 0o644); err != nil {
		t.Fatal(err)
	}
	startDaemon(t, state, listen)
	states := make(chan protocol.State, 16)
	opts := paho.NewClientOptions().AddBroker("tcp://" + listen).SetClientID("e2e-state").
		SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond)
	opts.SetOnConnectHandler(func(c paho.Client) {
		c.Subscribe("tridboard/e2e/state", 1, func(_ paho.Client, msg paho.Message) {
			var s protocol.State
			if json.Unmarshal(msg.Payload(), &s) == nil {
				select {
				case states <- s:
				default:
				}
			}
		})
	})
	c := paho.NewClient(opts)
	c.Connect()
	defer c.Disconnect(100)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case s := <-states:
			if len(s.Moves) == 2 && s.Moves[0] == first[0] && s.Moves[1] == first[1] {
				if m, _ := filepath.Glob(journal + ".damaged-*"); len(m) != 1 {
					t.Errorf("copies aside: %v, want one", m)
				}
				return
			}
		case <-deadline:
			t.Fatal("the daemon's state never showed the game resumed after its second move")
		}
	}
}

// stopAndRead stops the daemon (SIGTERM) and returns its one game journal
// and the journal's bytes.
func stopAndRead(t *testing.T, d *daemonProc, state string) (string, []byte) {
	t.Helper()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	d.cmd.Wait()
	journals, _ := filepath.Glob(filepath.Join(state, game.GamesDir, "*"+game.JournalExt))
	if len(journals) != 1 {
		t.Fatalf("journals %v", journals)
	}
	data, err := os.ReadFile(journals[0])
	if err != nil {
		t.Fatal(err)
	}
	return journals[0], data
}
