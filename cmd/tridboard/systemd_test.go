package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/sdnotify"
)

// The daemon under a Type=notify unit with WatchdogSec=: READY=1 once it
// runs, WATCHDOG=1 while its scan loop goes on, STOPPING=1 at SIGTERM, in
// that order, on a notification socket as systemd opens one.
func TestDaemonTellsSystemd(t *testing.T) {
	_, read, cancel, done := underSystemd(t)
	if got := read(); got != sdnotify.Ready {
		t.Fatalf("first notification %q, want %q", got, sdnotify.Ready)
	}
	for i := 0; i < 3; i++ {
		if got := read(); got != sdnotify.Watchdog {
			t.Fatalf("notification %d after READY: %q, want %q", i+1, got, sdnotify.Watchdog)
		}
	}
	cancel()
	for {
		got := read()
		if got == sdnotify.Stopping {
			break
		}
		if got != sdnotify.Watchdog {
			t.Fatalf("at shutdown: %q, want %q", got, sdnotify.Stopping)
		}
	}
	if code := <-done; code != exitOK {
		t.Errorf("daemon exit %d", code)
	}
}

// underSystemd serves a daemon on the simulated set as a Type=notify unit
// with WatchdogSec=200ms runs it: read returns the next notification (30 s
// at most), cancel stops the daemon, done gives its exit status.
func underSystemd(t *testing.T) (d *daemon, read func() string, cancel context.CancelFunc, done chan int) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "notify")
	sd, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sd.Close() })
	env := map[string]string{"NOTIFY_SOCKET": sock, "WATCHDOG_USEC": "200000"}
	cfg := config.Default()
	cfg.StateDir, cfg.BoardID = t.TempDir(), "unit"
	cfg.MQTT.Listen, cfg.MQTT.Discovery, cfg.HTTP.Listen = "127.0.0.1:0", "", "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done, ready := make(chan int, 1), make(chan *daemon, 1)
	o := daemonOpts{cfg: cfg, sim: true, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		systemd: sdnotify.FromEnv(func(k string) string { return env[k] }, 1), onReady: func(d *daemon) { ready <- d }}
	go func() { done <- serve(ctx, o) }()
	read = func() string {
		t.Helper()
		buf := make([]byte, 256)
		_ = sd.SetReadDeadline(time.Now().Add(30 * time.Second))
		n, err := sd.Read(buf)
		if err != nil {
			t.Fatalf("no notification: %v", err)
		}
		return string(buf[:n])
	}
	select {
	case d = <-ready:
	case code := <-done:
		t.Fatalf("daemon exited %d", code)
	}
	return d, read, cancel, done
}
