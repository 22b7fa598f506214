// Package mosquittotest runs a real Mosquitto broker for tests and
// benchmarks: on free loopback ports, as Opts say (password users, a
// websockets listener, TLS, persistence so that sessions and retained
// messages survive a restart, further config lines). It is the one place
// the tests start Mosquitto. Those tests fail, never skip, when Mosquitto
// is not installed.
package mosquittotest

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tridboard/tridboard/internal/freeport"
)

// install is the one-line fix when Mosquitto is missing.
const install = "mosquitto is not installed (want /usr/sbin/mosquitto and mosquitto_passwd): apt-get install mosquitto"

// Broker is a running (or stopped) Mosquitto.
type Broker struct {
	// URL is the main listener's URL (tcp://, or ssl:// with Opts.TLS);
	// Addr its host:port. Both stay the same across Stop and Start.
	URL, Addr string
	// WSURL is the websockets listener's ws:// URL (Opts.WebSockets),
	// else "".
	WSURL string

	bin, conf, text string
	listen          []string // the addresses polled until it listens
	ready           time.Duration
	cmd             *exec.Cmd
	exited          chan struct{} // closed once cmd has exited
	stderr          bytes.Buffer
}

// Start starts a broker with DefaultOpts for t; it stops when t ends.
func Start(t testing.TB) *Broker { return StartWith(t, DefaultOpts()) }

// StartWith starts a broker as o says for t; it stops when t ends.
func StartWith(t testing.TB, o Opts) *Broker {
	t.Helper()
	bin := binary(t)
	dir := t.TempDir()
	b := &Broker{bin: bin, conf: filepath.Join(dir, "mosquitto.conf"), ready: o.Ready}
	b.Addr = freeport.Addr(t)
	b.listen = []string{b.Addr}
	b.URL = "tcp://" + b.Addr
	if o.TLS != nil {
		b.URL = "ssl://" + b.Addr
	}
	wsPort := ""
	if o.WebSockets {
		ws := freeport.Addr(t)
		b.listen = append(b.listen, ws)
		b.WSURL = "ws://" + ws + "/"
		_, wsPort, _ = net.SplitHostPort(ws)
	}
	passwd := ""
	if len(o.Users) > 0 {
		passwd = filepath.Join(dir, "passwd")
		writePasswd(t, passwd, o.Users)
	}
	_, port, _ := net.SplitHostPort(b.Addr)
	b.text = o.config(dir, passwd, port, wsPort)
	if err := os.WriteFile(b.conf, []byte(b.text), 0o644); err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	b.Start(t)
	t.Cleanup(b.Stop)
	return b
}

// Start starts the broker again after Stop, on the same ports with the
// same persistence, and waits until it listens.
func (b *Broker) Start(t testing.TB) {
	t.Helper()
	b.stderr.Reset()
	b.cmd = exec.Command(b.bin, "-c", b.conf)
	b.cmd.Stderr = &b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatalf("mosquittotest: start %s: %v", b.bin, err)
	}
	exited := make(chan struct{})
	b.exited = exited
	go func(cmd *exec.Cmd) { _ = cmd.Wait(); close(exited) }(b.cmd)
	deadline := time.Now().Add(b.ready)
	for _, addr := range b.listen {
		for {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				break
			}
			select {
			case <-exited:
				t.Fatalf("mosquittotest: mosquitto exited before it listened on %s (%v)\nconfig:\n%s\nstderr:\n%s",
					addr, b.cmd.ProcessState, b.text, b.stderr.String())
			case <-time.After(10 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				b.Stop()
				t.Fatalf("mosquittotest: mosquitto did not listen on %s within %v: %v\nconfig:\n%s\nstderr:\n%s",
					addr, b.ready, err, b.text, b.stderr.String())
			}
		}
	}
}

// Stop stops the broker; with persistence, it saves its state first.
func (b *Broker) Stop() {
	if b.cmd == nil {
		return
	}
	select {
	case <-b.exited:
		return
	default:
	}
	_ = b.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-b.exited:
	case <-time.After(10 * time.Second):
		_ = b.cmd.Process.Kill()
		<-b.exited
	}
}

// Restart stops the broker and starts it again: its clients see it go
// away and come back on the same address.
func (b *Broker) Restart(t testing.TB) {
	t.Helper()
	b.Stop()
	b.Start(t)
}

// binary finds mosquitto, or fails t with the fix.
func binary(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p
	}
	t.Fatal(install)
	return ""
}

// writePasswd writes users to a Mosquitto password file at path (the
// passwords hashed by mosquitto_passwd).
func writePasswd(t testing.TB, path string, users map[string]string) {
	t.Helper()
	names := make([]string, 0, len(users))
	for u := range users {
		names = append(names, u)
	}
	sort.Strings(names)
	var plain strings.Builder
	for _, u := range names {
		plain.WriteString(u + ":" + users[u] + "\n")
	}
	if err := os.WriteFile(path, []byte(plain.String()), 0o600); err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	tool, err := exec.LookPath("mosquitto_passwd")
	if err != nil {
		t.Fatal(install)
	}
	if out, err := exec.Command(tool, "-U", path).CombinedOutput(); err != nil {
		t.Fatalf("mosquittotest: mosquitto_passwd -U %s: %v: %s", path, err, out)
	}
}

// StartConf starts mosquitto for t with conf, a whole configuration (its
// listener on addr, from freeport.Addr), as a hall's broker would run it;
// it stops when t ends.
func StartConf(t testing.TB, conf, addr string) *Broker {
	t.Helper()
	dir := t.TempDir()
	b := &Broker{bin: binary(t), conf: filepath.Join(dir, "mosquitto.conf"), ready: DefaultOpts().Ready,
		Addr: addr, URL: "tcp://" + addr, listen: []string{addr}}
	b.text = "log_dest stderr\nlog_type error\nlog_type warning\n"
	if os.Getuid() == 0 {
		b.text += "user root\n" // else it drops to "mosquitto", who cannot read the temp dir
	}
	b.text += conf
	if err := os.WriteFile(b.conf, []byte(b.text), 0o644); err != nil {
		t.Fatalf("mosquittotest: %v", err)
	}
	b.Start(t)
	t.Cleanup(b.Stop)
	return b
}
