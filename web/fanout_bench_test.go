package web

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
)

// The spectators of BenchmarkFanout run in a process of their own (this
// test binary again, with fanoutEnv set), so that the benchmark's CPU is
// the view's alone.
const fanoutEnv = "TRIDBOARD_FANOUT_SPECTATORS"

func init() {
	if v := os.Getenv(fanoutEnv); v != "" {
		os.Exit(fanoutSpectators(v))
	}
}

// fanoutSpectators opens n wall streams on the view at addr ("addr n
// marker"), reads them, prints "ready" once every stream has carried every
// board, "done" once every stream has carried the marker, and exits when
// its input closes.
func fanoutSpectators(arg string) int {
	f := strings.Fields(arg)
	if len(f) != 3 {
		fmt.Fprintln(os.Stderr, "fanout spectators: want addr n marker")
		return 2
	}
	n, _ := strconv.Atoi(f[1])
	marker := []byte(f[2])
	var wg, ready sync.WaitGroup
	wg.Add(n)
	ready.Add(n)
	go func() { ready.Wait(); fmt.Println("ready") }()
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", f[0])
			if err != nil {
				fmt.Fprintln(os.Stderr, "fanout spectators:", err)
				os.Exit(1)
			}
			fmt.Fprintf(c, "GET /events HTTP/1.1\r\nHost: %s\r\n\r\n", f[0])
			r := bufio.NewReaderSize(c, 64<<10)
			for seen := false; ; {
				line, err := r.ReadSlice('\n')
				if !seen && bytes.HasPrefix(line, []byte("event: now")) {
					seen = true // every board's summary came
					ready.Done()
				}
				if bytes.Contains(line, marker) {
					break
				}
				if err != nil && err != bufio.ErrBufferFull {
					fmt.Fprintln(os.Stderr, "fanout spectators:", err)
					os.Exit(1)
				}
			}
			go io.Copy(io.Discard, c) // the stream goes on: keep reading
		}()
	}
	wg.Wait()
	fmt.Println("done")
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// BenchmarkFanout is the view's wall streams in a hall: 500 boards, one
// move every 10 s each (50 moves a second, each a move and a state), and
// spectators reading the wall's event stream (a process of their own, over
// loopback). It reports the view's CPU (this process: the hub, the
// streams, the feeding of the moves) per move per spectator, and checks
// that every spectator gets the last change; with no spectator, the CPU
// the moves cost alone.
//
//	go test ./web -run - -bench Fanout -benchtime 1x
func BenchmarkFanout(b *testing.B) {
	for _, n := range []int{0, 200, 2000} {
		b.Run(fmt.Sprintf("boards=500/spectators=%d", n), func(b *testing.B) { fanoutBench(b, 500, n) })
	}
}

func fanoutBench(b *testing.B, boards, spectators int) {
	h := NewHub(DefaultOpts())
	sets := make([]*fakeSet, boards)
	for i := range sets {
		sets[i] = newFakeSet(b, h, "hall-"+strconv.Itoa(i+1), "st3d")
		sets[i].tags = map[string]string{"White": "White " + strconv.Itoa(i), "Black": "Black " + strconv.Itoa(i)}
	}
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	marker := "20990101-000000-marker"
	var stdout io.Reader = strings.NewReader("")
	if spectators > 0 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fanoutEnv+"="+u.Host+" "+strconv.Itoa(spectators)+" "+marker)
		stdin, _ := cmd.StdinPipe()
		stdout, _ = cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { stdin.Close(); cmd.Wait() }()
	}
	lines := make(chan string, 2)
	go func() {
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- strings.TrimSpace(line)
		}
	}()
	if spectators > 0 {
		expect(b, lines, "ready")
	}
	const rate = 50 // moves a second
	moves := 0
	var cpu, wall time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		start := time.Now()
		tick := time.NewTicker(time.Second / rate)
		for k := 0; time.Since(start) < 5*time.Second; {
			<-tick.C
			// The moves due by now, late ones too: the rate holds on a busy machine.
			for ; k < int(time.Since(start)*rate/time.Second); k++ {
				f := sets[(k*7)%len(sets)] // spread over the hall
				if f.g.Len() < 200 && f.random() {
					moves++
				}
			}
		}
		tick.Stop()
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		wall += time.Since(start)
		cpu += time.Duration(ru1.Utime.Nano()-ru0.Utime.Nano()) + time.Duration(ru1.Stime.Nano()-ru0.Stime.Nano())
	}
	b.StopTimer()
	// The last change, on every stream: nothing lost at the end.
	f := sets[0]
	f.game = marker
	h.State(f.id, f.state(protocol.Board{Status: protocol.BoardInSync}))
	if spectators > 0 {
		expect(b, lines, "done")
	}
	if spectators > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(moves*spectators), "view-ns/move/spectator")
	}
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "view-cpu-%")
	b.ReportMetric(float64(moves)/wall.Seconds(), "moves/s")
}

// expect waits for the spectators' process to say want.
func expect(b *testing.B, lines <-chan string, want string) {
	b.Helper()
	select {
	case l, ok := <-lines:
		if !ok || l != want {
			b.Fatalf("spectators said %q (open: %v), want %q", l, ok, want)
		}
	case <-time.After(2 * time.Minute):
		b.Fatalf("spectators not %s in 2 minutes", want)
	}
}

// wallStreams counts the wall streams open on h.
func wallStreams(h *Hub) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams
}

// BenchmarkWallFanout is the wall's fan-out alone, in this process: one
// tick's changes (one change, or twelve: a hall of 500 sets moving every
// 10 s, at the default 250 ms tick) written to N wall streams. A stream
// writes into a counter instead of a connection, so the figure is the
// view's own work per spectator (the hub, the log, the stream's wake-up
// and write), without net/http's and the kernel's share of a write
// (BenchmarkFanout measures those, over loopback). It reports the view's
// CPU (the process's: the changes, the hub, the streams, the collector)
// per change per spectator.
//
//	go test ./web -run - -bench WallFanout
func BenchmarkWallFanout(b *testing.B) {
	for _, n := range []int{200, 2000} {
		for _, changes := range []int{1, 12} {
			b.Run(fmt.Sprintf("spectators=%d/changes=%d", n, changes), func(b *testing.B) { wallFanoutBench(b, n, changes) })
		}
	}
}

// countingStream is a wall stream's response: it counts what is written
// and signals when the flushes of all the streams reach a target.
type countingStream struct {
	hdr     http.Header
	bytes   int
	flushes *atomic.Int64
	target  *atomic.Int64
	reached chan<- struct{}
}

func (w *countingStream) Header() http.Header         { return w.hdr }
func (w *countingStream) WriteHeader(int)             {}
func (w *countingStream) Write(p []byte) (int, error) { w.bytes += len(p); return len(p), nil }
func (w *countingStream) Flush() {
	if w.flushes.Add(1) == w.target.Load() {
		w.reached <- struct{}{}
	}
}

func wallFanoutBench(b *testing.B, spectators, changes int) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	timers := make(chan chan time.Time, 1)
	ho := DefaultOpts()
	ho.Eval = false
	ho.Now = func() time.Time { return t0 }
	// The tick's end is the benchmark's to decide: it fires the timer of
	// the tick once the tick's changes are made.
	ho.NewTimer = func(time.Duration) (<-chan time.Time, func() bool) {
		ch := make(chan time.Time, 1)
		timers <- ch
		return ch, func() bool { return true }
	}
	h := NewHub(ho)
	sets := make([]*fakeSet, 500)
	for i := range sets {
		sets[i] = newFakeSet(b, h, "hall-"+strconv.Itoa(i+1), "st3d")
	}
	h.mu.Lock()
	h.lastPublish = t0 // every change waits for the tick's end
	h.mu.Unlock()
	so := DefaultServerOpts()
	so.Heartbeat = time.Hour
	srv := New(h, so)
	var flushes, target atomic.Int64
	reached := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	// Each stream flushes twice on opening: its headers, then every board.
	target.Store(int64(2 * spectators))
	for range spectators {
		w := &countingStream{hdr: http.Header{}, flushes: &flushes, target: &target, reached: reached}
		r := httptest.NewRequest("GET", "/events", nil).WithContext(ctx)
		wg.Add(1)
		go func() { defer wg.Done(); srv.wallEvents(w, r) }()
	}
	<-reached
	k := 0
	tick := func() {
		target.Add(int64(spectators))
		for range changes {
			sets[(k*7)%len(sets)].random()
			k++
		}
		(<-timers) <- t0
		<-reached
	}
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b.ResetTimer()
	for range b.N {
		tick()
	}
	b.StopTimer()
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	// The process's CPU, not the time passed: on a shared machine the
	// streams wait for a core longer than they work.
	cpu := ru1.Utime.Nano() - ru0.Utime.Nano() + ru1.Stime.Nano() - ru0.Stime.Nano()
	b.ReportMetric(float64(cpu)/float64(b.N*spectators*changes), "cpu-ns/change/spectator")
	cancel()
	wg.Wait()
}
