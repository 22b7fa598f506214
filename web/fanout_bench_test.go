package web

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
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
