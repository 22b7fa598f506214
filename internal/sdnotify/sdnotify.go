// Package sdnotify tells systemd how a service of Type=notify is doing, as
// sd_notify(3) does: READY=1 once it serves, WATCHDOG=1 while it works (for
// WatchdogSec=), STOPPING=1 when it shuts down. The states go as one
// datagram each to the Unix socket systemd names in $NOTIFY_SOCKET (a path,
// or an abstract name starting with "@"). Outside systemd there is no such
// socket, FromEnv returns nil, and a nil *Notifier does nothing.
package sdnotify

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// The states this package's users send (sd_notify(3) lists more).
const (
	Ready    = "READY=1"
	Stopping = "STOPPING=1"
	Watchdog = "WATCHDOG=1"
)

// Notifier sends states to systemd's notification socket. The zero of
// *Notifier, nil, sends nothing.
type Notifier struct {
	addr *net.UnixAddr
	// Interval is how often systemd wants WATCHDOG=1 ($WATCHDOG_USEC), or 0
	// when it watches nothing.
	Interval time.Duration
}

// FromEnv returns the notifier that getenv's $NOTIFY_SOCKET names, or nil
// when there is none (not started by systemd, or not as Type=notify). Its
// Interval is $WATCHDOG_USEC when $WATCHDOG_PID is unset or is pid (systemd
// sets it for the main process; a child must not feed its parent's watchdog).
func FromEnv(getenv func(string) string, pid int) *Notifier {
	sock := getenv("NOTIFY_SOCKET")
	if sock == "" {
		return nil
	}
	n := &Notifier{addr: &net.UnixAddr{Name: sock, Net: "unixgram"}}
	if p := getenv("WATCHDOG_PID"); p != "" && p != strconv.Itoa(pid) {
		return n
	}
	if us, err := strconv.ParseInt(getenv("WATCHDOG_USEC"), 10, 64); err == nil && us > 0 {
		n.Interval = time.Duration(us) * time.Microsecond
	}
	return n
}

// Notify sends states (Ready, "STATUS=...") in one datagram.
func (n *Notifier) Notify(states ...string) error {
	if n == nil {
		return nil
	}
	c, err := net.DialUnix("unixgram", nil, n.addr)
	if err != nil {
		return fmt.Errorf("sdnotify: %s: %w", n.addr.Name, err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(strings.Join(states, "\n"))); err != nil {
		return fmt.Errorf("sdnotify: %s: %w", n.addr.Name, err)
	}
	return nil
}

// Feed sends WATCHDOG=1 at every tick while alive says the service still
// works, until ctx ends. A tick at which alive says no sends nothing, so
// that systemd, missing the feed for Interval, stops and restarts the
// service. Tick at half the Interval (sd_watchdog_enabled(3)). errs, if
// set, gets every failed send.
func (n *Notifier) Feed(ctx context.Context, ticks <-chan time.Time, alive func() bool, errs func(error)) {
	if n == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			if !alive() {
				continue
			}
			if err := n.Notify(Watchdog); err != nil && errs != nil {
				errs(err)
			}
		}
	}
}
