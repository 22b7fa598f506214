package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/natstest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
)

var (
	hallSets     = flag.Int("hall.sets", 500, "BenchmarkHall: sets")
	hallViewers  = flag.Int("hall.viewers", 2000, "BenchmarkHall: spectators of the wall, spread over two views")
	hallBoardV   = flag.Int("hall.board-viewers", 200, "BenchmarkHall: spectators of single boards, spread over two views")
	hallMoves    = flag.Int("hall.moves", 10, "BenchmarkHall: moves per set")
	hallInterval = flag.Duration("hall.interval", 10*time.Second, "BenchmarkHall: time between two moves of a set")
	hallOpening  = flag.Duration("hall.opening", 2*time.Minute, "BenchmarkHall: the hall opens before play (every set connected, every spectator showing every game) within this; 0: play as everything connects")
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
	// opening, when set, opens the hall before play (loadOpts.Opening).
	opening time.Duration
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
	// Probes: what a QoS 0 client following as the first view does (its
	// node killed) and one on the node it moves to see of the moves.
	probeA, probeB := newMoveProbe(tb, nodes(0), prefix), newMoveProbe(tb, c.MQTT(1), prefix)
	start := time.Now()
	var killed time.Duration
	var diagnosis string
	r, err := loadTest(context.Background(), loadOpts{Broker: c.Brokers(), CheckBroker: c.MQTT(2), Prefix: prefix, Variant: "st3d",
		Boards: size.sets, Moves: size.moves, Interval: size.interval,
		Duration: time.Duration(size.moves+5) * size.interval * 2, Drain: 90 * time.Second,
		Views: []string{v1.url, v2.url}, Viewers: size.viewers, BoardViewers: size.boardViewers, Opening: size.opening,
		Halfway: func() {
			killed = time.Since(start)
			fmt.Fprintln(os.Stderr, "KILL", time.Now().Format("15:04:05.000"), "sess", c.StreamLeader(natstest.SessionStream), "msgs", c.StreamLeader(natstest.MessageStream), "rmsgs", c.StreamLeader(natstest.RetainedStream), "meta", c.MetaLeader())
			c.Kill(0)
			v2.stop(true)
		},
		Report: func(r loadReport) {
			if r.Behind > 0 {
				diagnosis = hallDiagnosis(c, v1, r, probeA, probeB)
			}
		}})
	if err != nil {
		tb.Fatal(err)
	}
	if diagnosis != "" {
		tb.Log(diagnosis)
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
			moves: *hallMoves, interval: *hallInterval, opening: *hallOpening})
		b.ReportMetric(float64(r.Lost), "lost")
		b.ReportMetric(float64(r.Duplicated), "dup")
		b.ReportMetric(float64(r.OutOfOrder), "ooo")
		b.ReportMetric(float64(r.Reordered), "backwards")
		b.ReportMetric(float64(r.P99.Milliseconds()), "p99-ms")
		b.ReportMetric(float64(r.Viewers-r.Whole), "viewers-behind")
		b.ReportMetric(float64(r.VP99.Milliseconds()), "view-p99-ms")
		b.ReportMetric(float64(r.StayedP99.Milliseconds()), "stayed-p99-ms")
		b.ReportMetric(perMove, "view-ns/move/spectator")
	}
}

// TestHallSmall is a hall at a tenth of its size, on this machine however
// busy: three nats-server nodes, 50 sets (6 moves each, one every 2 s),
// 450 spectators of the wall and 50 of single boards on two views, a node
// and a view killed between two moves. Nothing is lost, no view sends a
// board back, and every spectator ends with every move (the latencies are
// reported, not judged: docs/hall.md). A move the cluster redelivers after
// a later one (the sets moving off the dead node; docs/mqtt.md: displays
// drop it by seq) is counted in the log, not judged here. On failure it
// says, for each set some spectator lacks, what the surviving view shows,
// what a QoS 0 follower moved as the view was and one that stayed on its
// node received, and what each surviving node serves retained.
//
// It failed about one run in eight before: the view, moved to another node,
// was deaf to every set until that node took its subscription (seconds,
// while the cluster elected new leaders, and 5 s more to time out loading
// the retained states), and the retained states the node served for a
// minute and more after were older than the sets': the sets whose last
// moves fell in that gap stayed behind to the end. Now a view follows the
// next node's states and moves too (newViewer), and subscribes to the live
// topics apart from the retained ones (mqtt.Follower.subscribe).
func TestHallSmall(t *testing.T) {
	hallSmall(t)
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

// hallDiagnosis says, for the sets some spectator ended behind, what the
// surviving view shows of them and which node each set's client and each
// view is on.
func hallDiagnosis(c *natstest.Cluster, v *hallView, r loadReport, probes ...*moveProbe) string {
	var b strings.Builder
	on := map[string]int{}
	for i := range 3 {
		for _, id := range c.Clients(i) {
			on[id] = i + 1
		}
	}
	for id, node := range on {
		if strings.Contains(id, "-view-") {
			fmt.Fprintf(&b, "view client %s on node %d\n", id, node)
		}
	}
	for i := range 3 {
		for _, part := range []string{"-view-", "-probe-"} {
			for _, l := range c.ClientStats(i, part) {
				fmt.Fprintln(&b, l)
			}
		}
	}
	// What a follower subscribing now on each surviving node gets
	// retained.
	fresh := map[int]map[string]int{}
	for i := 1; i < 3; i++ {
		got := map[string]int{}
		var mu sync.Mutex
		fo := mqtt.DefaultFollowerOpts()
		fo.Broker, fo.Prefix, fo.QoS, fo.Name = c.MQTT(i), "hall-bench", 0, "fresh"
		f, err := mqtt.Follow(fo, mqtt.Handlers{State: func(board string, s protocol.State) {
			mu.Lock()
			if s.LastMove != nil {
				got[board] = max(got[board], s.LastMove.Seq)
			}
			mu.Unlock()
		}})
		if err == nil {
			time.Sleep(3 * time.Second) // a diagnosis: what came in 3 s
			f.Close()
		}
		mu.Lock()
		fresh[i+1] = got
		mu.Unlock()
	}
	for _, id := range r.BehindBoards {
		node := -1
		for cid, n := range on {
			if strings.HasPrefix(cid, "tridboard-load-") && strings.HasSuffix(cid, "-"+strings.TrimPrefix(id, "load-")) {
				node = n
			}
		}
		shown := "?"
		if resp, err := http.Get(v.url + "/api/boards/" + id); err == nil {
			var bv struct {
				Game string `json:"game"`
				Seq  int    `json:"seq"`
			}
			json.NewDecoder(resp.Body).Decode(&bv)
			resp.Body.Close()
			shown = bv.Game + "/" + strconv.Itoa(bv.Seq)
		}
		fmt.Fprintf(&b, "%s: last move %s, the surviving view shows %s, its set on node %d; retained now on node 2: %d, 3: %d; probes",
			id, r.Final[id], shown, node, fresh[2][id], fresh[3][id])
		for _, p := range probes {
			fmt.Fprintf(&b, " %d", p.seq(id))
		}
		fmt.Fprintln(&b)
	}
	return b.String()
}

// moveProbe follows the moves at QoS 0 as a view does (the same handlers)
// and keeps the last seq of each board.
type moveProbe struct {
	mu   sync.Mutex
	last map[string]int
}

func newMoveProbe(tb testing.TB, broker, prefix string) *moveProbe {
	p := &moveProbe{last: map[string]int{}}
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Prefix, fo.QoS, fo.InOrder, fo.Commands, fo.Name = broker, prefix, 0, true, true, "probe"
	f, err := mqtt.Follow(fo, mqtt.Handlers{State: func(string, protocol.State) {}, Availability: func(string, bool) {},
		Event: func(string, protocol.Event) {},
		Move: func(board string, m protocol.Move) {
			p.mu.Lock()
			p.last[board] = max(p.last[board], m.Seq)
			p.mu.Unlock()
		}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(f.Close)
	return p
}

func (p *moveProbe) seq(board string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last[board]
}
