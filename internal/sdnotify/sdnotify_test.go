package sdnotify

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// fakeSystemd is a notification socket as systemd opens one: a Unix
// datagram socket, at a path or an abstract name.
func fakeSystemd(t *testing.T, name string) *net.UnixConn {
	t.Helper()
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// next reads one datagram, or fails after a generous deadline.
func next(t *testing.T, c *net.UnixConn) string {
	t.Helper()
	buf := make([]byte, 4096)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := c.Read(buf)
	if err != nil {
		t.Fatalf("no datagram: %v", err)
	}
	return string(buf[:n])
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		none     bool
		interval time.Duration
	}{
		{"not under systemd", map[string]string{"WATCHDOG_USEC": "30000000"}, true, 0},
		{"notify, no watchdog", map[string]string{"NOTIFY_SOCKET": "/run/x"}, false, 0},
		{"watchdog for us", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"}, false, 30 * time.Second},
		{"watchdog, no pid named", map[string]string{"NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "500000"}, false, 500 * time.Millisecond},
		{"watchdog of another process", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"}, false, 0},
		{"watchdog garbled", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "soon"}, false, 0},
		{"watchdog negative", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "-5"}, false, 0},
	} {
		n := FromEnv(env(tc.env), 42)
		if (n == nil) != tc.none {
			t.Errorf("%s: notifier %v, want none=%v", tc.name, n, tc.none)
			continue
		}
		if n != nil && n.Interval != tc.interval {
			t.Errorf("%s: interval %v, want %v", tc.name, n.Interval, tc.interval)
		}
	}
}

// READY=1 and STOPPING=1 arrive as systemd reads them, at a socket path
// and at an abstract name; a nil notifier sends nothing and says no error.
func TestNotify(t *testing.T) {
	for _, name := range []string{filepath.Join(t.TempDir(), "notify"), "@tridboard-sdnotify-test-" + time.Now().Format("150405.000000000")} {
		sd := fakeSystemd(t, name)
		n := FromEnv(env(map[string]string{"NOTIFY_SOCKET": name}), 1)
		if err := n.Notify(Ready); err != nil {
			t.Fatal(err)
		}
		if got := next(t, sd); got != "READY=1" {
			t.Errorf("%s: got %q, want READY=1", name, got)
		}
		if err := n.Notify(Stopping, "STATUS=bye"); err != nil {
			t.Fatal(err)
		}
		if got := next(t, sd); got != "STOPPING=1\nSTATUS=bye" {
			t.Errorf("%s: got %q", name, got)
		}
	}
	var none *Notifier
	if err := none.Notify(Ready); err != nil {
		t.Errorf("nil notifier: %v", err)
	}
}

// A socket that is gone is an error naming it.
func TestNotifyNoSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gone")
	err := FromEnv(env(map[string]string{"NOTIFY_SOCKET": path}), 1).Notify(Ready)
	if err == nil || err.Error()[:len("sdnotify: "+path)] != "sdnotify: "+path {
		t.Errorf("err %v, want one naming %s", err, path)
	}
}

// Feed sends WATCHDOG=1 at the ticks where the service is alive, and none
// where it is not; it ends with ctx.
func TestFeed(t *testing.T) {
	name := filepath.Join(t.TempDir(), "notify")
	sd := fakeSystemd(t, name)
	n := FromEnv(env(map[string]string{"NOTIFY_SOCKET": name, "WATCHDOG_USEC": "1000000"}), 1)
	ticks := make(chan time.Time)
	alive := make(chan bool)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	// alive sends a marker before it answers: the socket keeps the
	// datagrams' order, so what follows a marker is what that tick sent.
	go func() {
		n.Feed(ctx, ticks, func() bool {
			a := <-alive
			if err := n.Notify("STATUS=tick"); err != nil {
				t.Error(err)
			}
			return a
		}, func(err error) { t.Error(err) })
		close(done)
	}()
	want := []string{}
	for _, a := range []bool{true, false, false, true, true} {
		ticks <- time.Time{}
		alive <- a
		want = append(want, "STATUS=tick")
		if a {
			want = append(want, "WATCHDOG=1")
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Feed did not end with its context")
	}
	if err := n.Notify("STATUS=end"); err != nil {
		t.Fatal(err)
	}
	for i, w := range append(want, "STATUS=end") {
		if got := next(t, sd); got != w {
			t.Fatalf("datagram %d: got %q, want %q (all: %q)", i, got, w, want)
		}
	}
}
