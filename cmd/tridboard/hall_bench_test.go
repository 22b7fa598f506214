package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/natstest"
)

var (
	hallSets     = flag.Int("hall.sets", 500, "BenchmarkHall: sets")
	hallViewers  = flag.Int("hall.viewers", 2000, "BenchmarkHall: spectators of the wall, spread over two views")
	hallBoardV   = flag.Int("hall.board-viewers", 200, "BenchmarkHall: spectators of single boards, spread over two views")
	hallMoves    = flag.Int("hall.moves", 10, "BenchmarkHall: moves per set")
	hallInterval = flag.Duration("hall.interval", 10*time.Second, "BenchmarkHall: time between two moves of a set")
)

// The hall's views run as processes of their own (this test binary again,
// with hallViewEnv holding the arguments of `tridboard view`), as in a
// hall, so that their CPU is measured apart and one can be killed.
const hallViewEnv = "TRIDBOARD_HALL_VIEW"

func init() {
	if a := os.Getenv(hallViewEnv); a != "" {
		os.Exit(runView(strings.Fields(a), os.Stdout, os.Stderr))
	}
}

// hallView is a `tridboard view` process.
type hallView struct {
	cmd *exec.Cmd
	url string
	cpu time.Duration // when it ended
}

func startHallView(tb testing.TB, args ...string) *hallView {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hallViewEnv+"="+strings.Join(append([]string{"--http", "127.0.0.1:0", "--eval=false", "--qos", "0", "--streams-per-address", "-1"}, args...), " "))
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	v := &hallView{cmd: cmd}
	tb.Cleanup(func() { v.stop(true) })
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(out).ReadString('\n')
		line <- l
	}()
	select {
	case l := <-line:
		// "tridboard view: http://127.0.0.1:40123/ shows the sets on ..."
		f := strings.Fields(l)
		if len(f) < 3 || !strings.HasPrefix(f[2], "http://") {
			tb.Fatalf("tridboard view said %q", l)
		}
		v.url = strings.TrimSuffix(f[2], "/")
	case <-time.After(60 * time.Second):
		tb.Fatal("tridboard view did not start in 60 s")
	}
	return v
}

// stop ends the view, killed or asked to stop, and notes its CPU.
func (v *hallView) stop(kill bool) {
	if v.cmd.ProcessState != nil {
		return
	}
	if kill {
		v.cmd.Process.Kill()
	} else {
		v.cmd.Process.Signal(syscall.SIGTERM)
	}
	v.cmd.Wait()
	v.cpu = v.cmd.ProcessState.UserTime() + v.cmd.ProcessState.SystemTime()
}

// hallSize is a hall's size, for BenchmarkHall and BenchmarkHallSmall.
type hallSize struct {
	sets, viewers, boardViewers, moves int
	interval                           time.Duration
}

// runHallLoad runs a hall on a 3-node NATS cluster: the sets (each given the
// three nodes) play, two views (processes, each on a node of its own,
// at QoS 0, each listing the other as its peer) serve the spectators
// of the wall and of single boards, and when half the moves were sent
// the node of the first view and the second view are killed: the sets
// and the first view move to another node, the spectators of the second
// view to the first. It returns what the loadtest counts and the views'
// CPU per move per spectator.
func runHallLoad(tb testing.TB, size hallSize) (loadReport, float64) {
	c := natstest.Start(tb, 3)
	const prefix = "hall-bench"
	nodes := func(first int) string {
		return strings.Join([]string{c.MQTT(first), c.MQTT((first + 1) % 3), c.MQTT((first + 2) % 3)}, ",")
	}
	v1 := startHallView(tb, "--broker", nodes(0), "--prefix", prefix)
	v2 := startHallView(tb, "--broker", nodes(1), "--prefix", prefix, "--peers", v1.url)
	start := time.Now()
	var killed time.Duration
	r, err := loadTest(context.Background(), loadOpts{Broker: c.Brokers(), CheckBroker: c.MQTT(2), Prefix: prefix, Variant: "st3d",
		Boards: size.sets, Moves: size.moves, Interval: size.interval,
		Duration: time.Duration(size.moves+5) * size.interval * 2, Drain: 90 * time.Second,
		Views: []string{v1.url, v2.url}, Viewers: size.viewers, BoardViewers: size.boardViewers,
		Halfway: func() { killed = time.Since(start); c.Kill(0); v2.stop(true) }})
	if err != nil {
		tb.Fatal(err)
	}
	v1.stop(false)
	v2.stop(true)
	cpu := v1.cpu + v2.cpu
	perMove := float64(cpu.Nanoseconds()) / float64(max(1, r.Sent*(size.viewers+size.boardViewers)))
	tb.Logf("node 1 and view 2 killed after %v; the views' CPU %v (%.0f ns a move a spectator)\n%v",
		killed.Round(time.Millisecond), cpu.Round(time.Millisecond), perMove, r)
	return r, perMove
}

// BenchmarkHall is a hall at full size (docs/hall.md has the figures):
// 500 sets, one move every 10 s each, 2,000 spectators of the wall and
// 200 of single boards on two views, a node and a view killed between
// two moves. It reports moves lost, doubled, out of order, summaries
// seen going back, the latencies, and the views' CPU per move per
// spectator.
//
//	go test ./cmd/tridboard -run - -bench Hall -benchtime 1x -timeout 30m
func BenchmarkHall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r, perMove := runHallLoad(b, hallSize{sets: *hallSets, viewers: *hallViewers, boardViewers: *hallBoardV,
			moves: *hallMoves, interval: *hallInterval})
		b.ReportMetric(float64(r.Lost), "lost")
		b.ReportMetric(float64(r.Duplicated), "dup")
		b.ReportMetric(float64(r.OutOfOrder), "ooo")
		b.ReportMetric(float64(r.Reordered), "backwards")
		b.ReportMetric(float64(r.P99.Milliseconds()), "p99-ms")
		b.ReportMetric(float64(r.Viewers-r.Whole), "viewers-behind")
		b.ReportMetric(float64(r.VP99.Milliseconds()), "view-p99-ms")
		b.ReportMetric(perMove, "view-ns/move/spectator")
	}
}

// A hall at a tenth of its size, on this machine however busy: 50 sets,
// 450 spectators of the wall and 50 of single boards on two views, a node
// and a view killed between two moves. Nothing is lost, no view sends a
// board back, and every spectator ends with every move (the latencies are
// reported, not judged: docs/hall.md). A move the cluster redelivers after
// a later one (the sets moving off the dead node; docs/mqtt.md: displays
// drop it by seq) is counted in the log, not judged here.
//
// It is a benchmark, outside the test command, until its known failure is
// found: about one run in eight, after the node is killed, the surviving
// view receives nothing from a third of the sets for 90 s while a checker
// on another node gets every move (docs/hall.md).
//
//	go test ./cmd/tridboard -run - -bench HallSmall -benchtime 1x
func BenchmarkHallSmall(b *testing.B) {
	for range b.N {
		hallSmall(b)
	}
}

func hallSmall(t testing.TB) {
	r, _ := runHallLoad(t, hallSize{sets: 50, viewers: 450, boardViewers: 50, moves: 6, interval: 2 * time.Second})
	if r.Lost != 0 || r.Reordered != 0 || r.Viewers != 500 || r.Whole != 500 || r.Behind != 0 {
		t.Fatalf("%d lost, %d summaries going back, %d of %d spectators whole (%d boards behind)\n%v",
			r.Lost, r.Reordered, r.Whole, r.Viewers, r.Behind, r)
	}
	if want := fmt.Sprintf("%d sets: %d moves sent", 50, 300); !strings.Contains(r.String(), want) {
		t.Errorf("report %q, want %q", r, want)
	}
}
