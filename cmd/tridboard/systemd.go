package main

import (
	"context"
	"time"

	"github.com/tridboard/tridboard/internal/sdnotify"
)

// tellSystemd tells systemd (the unit's Type=notify) that the daemon runs,
// and, when the unit sets WatchdogSec=, sends WATCHDOG=1 every half of it
// as long as the table's scan loop goes on: a scan loop that hangs (a bus
// that locks up, a deadlock) misses the watchdog, and systemd kills the
// daemon and starts it again (Restart=). The returned func ends the
// feeding and says STOPPING=1, or RELOADING=1 when the daemon restarts in
// place (the next start says READY=1 again). Without systemd (no
// $NOTIFY_SOCKET) it does nothing.
func (d *daemon) tellSystemd(ctx context.Context) (stopping func(restarting bool)) {
	n := d.o.systemd
	if n == nil {
		return func(bool) {}
	}
	warn := func(err error) { d.log.Warn("systemd notification failed", "err", err) }
	if err := n.Notify(sdnotify.Ready); err != nil {
		warn(err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	if n.Interval > 0 {
		tick := time.NewTicker(n.Interval / 2)
		var last uint64
		scanning := func() bool {
			h := d.tb.Health()
			s := h.Scans
			// Paused, the setup page learns the wiring: the loop stands
			// still on purpose.
			ok := s != last || h.Paused
			last = s
			if !ok {
				d.log.Error("the scan loop stands still: systemd's watchdog will restart the daemon", "scans", s)
			}
			return ok
		}
		go func() {
			defer close(done)
			defer tick.Stop()
			n.Feed(ctx, tick.C, scanning, warn)
		}()
	} else {
		close(done)
	}
	return func(restarting bool) {
		cancel()
		<-done
		state := sdnotify.Stopping
		if restarting {
			state = "RELOADING=1"
		}
		if err := n.Notify(state); err != nil {
			warn(err)
		}
	}
}
