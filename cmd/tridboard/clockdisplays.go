package main

import (
	"time"

	"github.com/tridboard/tridboard/clock/segment"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table/segsink"
)

// openClockDisplays opens the chess clock's 7-segment displays when the
// configuration has them (clock.displays). Like the LEDs, failing displays
// never stop the daemon: it reports and goes on without them. With --sim
// the two backpacks are simulated on the simulated bus.
func (d *daemon) openClockDisplays(now func() time.Time) {
	c := d.o.cfg.Clock.Displays
	if c == nil {
		return
	}
	o := *c
	if d.board != nil {
		for _, a := range []uint16{o.White, o.Black} {
			if err := d.board.Bus.Attach(a, sim.NewHT16K33(a)); err != nil {
				d.log.Error("clock displays off", "err", err)
				return
			}
		}
	}
	disp, err := segment.New(d.bus, &o)
	if err != nil {
		d.log.Error("clock displays off", "err", err)
		return
	}
	d.seg = segsink.New(disp, &segsink.Opts{Now: now, Log: d.log})
}
