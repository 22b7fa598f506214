package broker

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv, set to a JSON Opts, makes the test binary an embedded
// broker in a process of its own, which a test can kill (SIGKILL) like a
// daemon that crashed. It prints "ready" once it serves; on its standard
// input, "queued <client>\n" prints the number of messages the broker holds
// for that client, "conns\n" the connections its listener counts, and end
// of input closes the broker gracefully.
const childEnv = "TRIDBOARD_TEST_CHILD_BROKER"

func TestMain(m *testing.M) {
	if js := os.Getenv(childEnv); js != "" {
		os.Exit(childBroker(js))
	}
	os.Exit(m.Run())
}

// childLogEnv names a file for the child broker's log; childNofileEnv
// bounds its file descriptors (RLIMIT_NOFILE).
const childLogEnv, childNofileEnv = "TRIDBOARD_TEST_CHILD_LOG", "TRIDBOARD_TEST_CHILD_NOFILE"

func childBroker(js string) int {
	var o Opts
	if err := json.Unmarshal([]byte(js), &o); err != nil {
		fmt.Println("child:", err)
		return 2
	}
	o.Logger = mqtttest.Quiet
	if path := os.Getenv(childLogEnv); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Println("child:", err)
			return 2
		}
		defer f.Close()
		o.Logger = slog.New(slog.NewTextHandler(f, nil))
	}
	if n, err := strconv.ParseUint(os.Getenv(childNofileEnv), 10, 64); err == nil {
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
			fmt.Println("child:", err)
			return 2
		}
	}
	o.BcryptCost = 4
	o.LoginBackoff, o.LoginBackoffMax = time.Millisecond, 10*time.Millisecond
	b, err := Start(o)
	if err != nil {
		fmt.Println("child:", err)
		return 2
	}
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "conns" {
			fmt.Println(b.guard.open())
			continue
		}
		if id, ok := strings.CutPrefix(in.Text(), "queued "); ok {
			var ms []string
			if cl, ok := b.srv.Clients.Get(id); ok {
				for _, m := range cl.State.Inflight.GetAll(false) {
					ms = append(ms, fmt.Sprintf("%d:%s", m.PacketID, m.Payload))
				}
			}
			fmt.Printf("%d %s\n", len(ms), strings.Join(ms, " "))
		}
	}
	b.Close()
	return 0
}

// childBroker is an embedded broker in another process.
type child struct {
	cmd *exec.Cmd
	in  *os.File
	out *bufio.Scanner
}

func startChild(t testing.TB, o Opts, env ...string) *child {
	t.Helper()
	o.Logger = nil
	js, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+string(js)), env...)
	cmd.Stderr = os.Stderr
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = inR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	c := &child{cmd: cmd, in: inW, out: bufio.NewScanner(stdout)}
	t.Cleanup(func() { c.kill() })
	if line := c.line(t); line != "ready" {
		t.Fatalf("child broker: %s", line)
	}
	return c
}

// line reads the child's next line of output, waiting at most 10 s.
func (c *child) line(t testing.TB) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		if c.out.Scan() {
			got <- c.out.Text()
		} else {
			got <- "(exited)"
		}
	}()
	select {
	case l := <-got:
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("child broker: no answer within 10 s")
		return ""
	}
}

// waitQueued waits until the broker holds n messages for client.
func (c *child) waitQueued(t testing.TB, client string, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		fmt.Fprintf(c.in, "queued %s\n", client)
		if got := c.line(t); strings.HasPrefix(got, fmt.Sprint(n)+" ") {
			return
		} else if time.Now().After(deadline) {
			t.Fatalf("child broker holds %s messages for %s, want %d", got, client, n)
		}
	}
}

// stop closes the broker gracefully and waits for the process.
func (c *child) stop() {
	c.in.Close()
	c.cmd.Wait()
}

// kill ends the broker with SIGKILL, as a crash or power cut would.
func (c *child) kill() {
	if c.cmd.ProcessState == nil {
		c.cmd.Process.Signal(syscall.SIGKILL)
		c.cmd.Wait()
	}
	c.in.Close()
}
