package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
)

// buildBinary builds tridboard once for the end-to-end tests.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tridboard-e2e-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "tridboard")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// daemonProc is a "tridboard run --sim" process fed through its stdin
// (startDaemon's extra arguments follow the others).
type daemonProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string // its stdout, a line at a time
}

// startDaemon starts "tridboard run --sim" with args after its own flags.
func startDaemon(t *testing.T, stateDir, listen string, args ...string) *daemonProc {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The pages on a free port (a later --http in args wins): 8080 may be
	// taken on the test machine, and a taken port stops the start.
	cmd := exec.Command(bin, append([]string{"run", "--sim", "--state-dir", stateDir, "--listen", listen, "--board-id", "e2e", "--log-level", "warn", "--http", "127.0.0.1:0"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := &daemonProc{cmd: cmd, stdin: stdin, lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			d.lines <- sc.Text()
		}
		close(d.lines)
	}()
	t.Cleanup(func() {
		if d.cmd.ProcessState == nil {
			_ = d.cmd.Process.Kill()
			_ = d.cmd.Wait()
		}
	})
	return d
}

// play writes the gestures of moves (from pos) to the daemon's stdin.
func (d *daemonProc) play(t *testing.T, pos rules.Position, moves []string) rules.Position {
	t.Helper()
	style := sim.PlainStyle
	style.Pause = 120 * time.Millisecond
	var b strings.Builder
	for _, l := range moves {
		m, _, err := pos.ParseMove(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range sim.Gestures(pos, m, style) {
			fmt.Fprintln(&b, a)
		}
		fmt.Fprintln(&b, "wait 500")
		pos = pos.Play(m)
	}
	if _, err := io.WriteString(d.stdin, b.String()); err != nil {
		t.Fatal(err)
	}
	return pos
}

// waitMoveLine waits for the daemon to print the recognized move.
func (d *daemonProc) waitMoveLine(t *testing.T, long string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-d.lines:
			if !ok {
				t.Fatalf("daemon exited before printing %s", long)
			}
			if f := strings.Fields(l); len(f) >= 2 && f[1] == long {
				return
			}
		case <-deadline:
			t.Fatalf("daemon did not recognize %s within 30 s", long)
		}
	}
}

// subscriber records the moves a display receives.
type subscriber struct {
	mu    sync.Mutex
	moves []protocol.Move
}

func subscribe(t *testing.T, listen string) *subscriber {
	t.Helper()
	s := &subscriber{}
	topic := "tridboard/e2e/move"
	// A persistent session with QoS 1: the embedded broker keeps it in the
	// state directory across the daemon's restart.
	opts := paho.NewClientOptions().AddBroker("tcp://" + listen).SetClientID("e2e-display").SetCleanSession(false).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond).
		SetMaxReconnectInterval(200 * time.Millisecond)
	opts.SetOnConnectHandler(func(c paho.Client) {
		c.Subscribe(topic, 1, func(_ paho.Client, msg paho.Message) {
			var m protocol.Move
			if err := json.Unmarshal(msg.Payload(), &m); err != nil {
				t.Errorf("bad move payload %q: %v", msg.Payload(), err)
				return
			}
			s.mu.Lock()
			s.moves = append(s.moves, m)
			s.mu.Unlock()
		})
	})
	c := paho.NewClient(opts)
	c.Connect()
	t.Cleanup(func() { c.Disconnect(100) })
	return s
}

// distinct returns the moves received, duplicates (same seq) dropped, after
// checking that a duplicate repeats its first copy exactly and that seqs
// arrive in order.
func (s *subscriber) distinct(t *testing.T) []protocol.Move {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []protocol.Move
	for _, m := range s.moves {
		if n := len(out); n > 0 && m.Seq <= out[n-1].Seq {
			if o := out[m.Seq-1]; o.Move != m.Move || o.Position != m.Position || o.Game != m.Game {
				t.Errorf("seq %d arrived twice with different content: %+v, %+v", m.Seq, o, m)
			}
			continue
		}
		if m.Seq != len(out)+1 {
			t.Errorf("seq %d arrived after seq %d", m.Seq, len(out))
		}
		out = append(out, m)
	}
	return out
}

func (s *subscriber) waitFor(t *testing.T, n int) []protocol.Move {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if got := s.distinct(t); len(got) >= n {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := s.distinct(t)
	t.Fatalf("subscriber has %d distinct moves, want %d", len(got), n)
	return nil
}

// TestEndToEndKillAndResume plays a game on "run --sim" through stdin with
// a real MQTT client subscribed, SIGKILLs the daemon right after it
// recognizes a move, starts it again on the same state directory, and
// finishes the game: every move arrives, in order, duplicates only with the
// same seq and content.
func TestEndToEndKillAndResume(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	listen := freeport.Addr(t)
	first, second := sets.ST3DDemo[:7], sets.ST3DDemo[7:]

	d := startDaemon(t, state, listen)
	// The daemon reads the hand's actions once the set is in sync.
	sub := subscribe(t, listen)
	pos := d.play(t, st3d.Start(), first)
	for _, l := range first[:6] {
		d.waitMoveLine(t, l)
	}
	sub.waitFor(t, 6)
	d.waitMoveLine(t, first[6])
	// Killed at once: the move is journaled; it may or may not be out.
	if err := d.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = d.cmd.Wait()

	d2 := startDaemon(t, state, listen)
	got := sub.waitFor(t, len(first))
	if got[len(first)-1].Move != first[6] {
		t.Fatalf("after the restart seq %d is %s, want %s", len(first), got[len(first)-1].Move, first[6])
	}
	d2.play(t, pos, second)
	got = sub.waitFor(t, len(sets.ST3DDemo))
	for i, m := range got {
		if m.Move != sets.ST3DDemo[i] || m.Game != got[0].Game {
			t.Errorf("move %d: %s in game %s, want %s in %s", i+1, m.Move, m.Game, sets.ST3DDemo[i], got[0].Game)
		}
	}
	if want := "Nxc1W#"; got[len(got)-1].SAN != want {
		t.Errorf("last move %q, want %q", got[len(got)-1].SAN, want)
	}
	// A clean stop: SIGTERM, exit status 0.
	if err := d2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := d2.cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v, want exit status 0", err)
	}
}

func TestDemo(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "demo", "--pause", "100").CombinedOutput()
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), fmt.Sprintf("All %d moves were recognized, journaled and published in order.", len(sets.ST3DDemo))) {
		t.Errorf("demo output:\n%s", out)
	}
}
