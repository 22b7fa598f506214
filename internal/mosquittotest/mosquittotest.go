// Package mosquittotest runs a real Mosquitto broker for tests: on a free
// loopback port, with persistence (so that sessions and retained messages
// survive a restart), anonymous logins allowed. The tests that use it fail,
// not skip, when Mosquitto is not installed (apt-get install mosquitto).
package mosquittotest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Broker is a running (or stopped) Mosquitto.
type Broker struct {
	// URL is its tcp:// URL; Addr its host:port.
	URL, Addr string

	bin, conf string
	cmd       *exec.Cmd
	stderr    bytes.Buffer
}

// Start starts a broker for t; it stops when t ends.
func Start(t testing.TB) *Broker {
	t.Helper()
	bin := ""
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if p, err := exec.LookPath("mosquitto"); err == nil {
			bin = p
		} else {
			t.Fatal("mosquitto is not installed (want /usr/sbin/mosquitto): apt-get install mosquitto")
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	conf := fmt.Sprintf("persistence true\npersistence_location %s/\nlog_dest stderr\nlog_type error\n"+
		"listener %s 127.0.0.1\nallow_anonymous true\n", dir, port)
	if os.Getuid() == 0 {
		conf += "user root\n" // else it drops to "mosquitto", who cannot read the temp dir
	}
	b := &Broker{URL: "tcp://" + addr, Addr: addr, bin: bin, conf: filepath.Join(dir, "mosquitto.conf")}
	if err := os.WriteFile(b.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Start(t)
	t.Cleanup(b.Stop)
	return b
}

// Start starts the broker again after Stop, and waits until it listens.
func (b *Broker) Start(t testing.TB) {
	t.Helper()
	b.stderr.Reset()
	b.cmd = exec.Command(b.bin, "-c", b.conf)
	b.cmd.Stderr = &b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", b.bin, err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", b.Addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			b.Stop()
			t.Fatalf("mosquitto did not listen on %s: %v\n%s", b.Addr, err, b.stderr.String())
		}
	}
}

// Stop stops the broker (it saves its state first).
func (b *Broker) Stop() {
	if b.cmd == nil || b.cmd.ProcessState != nil {
		return
	}
	_ = b.cmd.Process.Signal(syscall.SIGTERM)
	_ = b.cmd.Wait()
}
