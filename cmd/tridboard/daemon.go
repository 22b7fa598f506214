package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/tridboard/tridboard/announce"
	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/sdnotify"
	"github.com/tridboard/tridboard/internal/statelock"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/ledsink"
	"github.com/tridboard/tridboard/table/mqttsink"
	"github.com/tridboard/tridboard/table/printsink"
	"github.com/tridboard/tridboard/table/segsink"
	"github.com/tridboard/tridboard/table/websink"
	"github.com/tridboard/tridboard/web"
)

// daemonOpts are what "run" and "demo" set up.
type daemonOpts struct {
	cfg *config.Config
	// sim runs on the simulated board instead of the I2C bus.
	sim bool
	// out receives a line per recognized move (nil: none).
	out io.Writer
	// stderr receives the one line of a start-up failure.
	stderr io.Writer
	log    *slog.Logger
	// held, if set, holds log's lines until the daemon has started.
	held *heldWriter
	// onReady is called once the daemon runs.
	onReady func(d *daemon)
	// systemd, if set, is told when the daemon runs and stops, and fed
	// its watchdog (systemd.go).
	systemd *sdnotify.Notifier
	// reread reads the configuration anew (the file, the environment,
	// setup.yaml and the flags), unvalidated, for a restart in place (the
	// setup page); nil: the page cannot set the name and rules. pinned
	// are the keys the flags set, which the page cannot change.
	reread func() (*config.Config, error)
	pinned []string
	// scramble, with sim, solders the simulated set's switches to random
	// pins (this seed, sim.Scramble of the system's own set), whatever
	// the configured wiring: a set whose wiring is to be learned
	// (/setup/wiring, learnpage.go).
	scramble uint64
}

// daemon wires the parts: the bus (or the simulated set), the LEDs, the
// broker and the MQTT client around one table.
type daemon struct {
	o      daemonOpts
	log    *slog.Logger
	board  *sim.Board // with --sim
	bus    i2c.BusCloser
	spi    spi.PortCloser
	ledw   *leds.Writer
	broker *broker.Broker
	client *mqtt.Client
	msink  *mqttsink.Sink
	lock   *statelock.Lock
	opp    *opponent.Manager
	// The web displays: the hub the table feeds and the HTTP server.
	hub     *web.Hub
	wsink   *websink.Sink
	http    *http.Server
	webURL  string
	webStop chan struct{}
	webLn   net.Listener  // taken first, served once the table runs
	seg     *segsink.Sink // the clock's displays (clockdisplays.go)
	tb      *table.Table
	trust   setTrust // the set's key and whom it believes (keys.go)
	// The wiring the table reads, and the LEDs' driver: the setup page
	// learns the wiring with them (learnpage.go).
	wiring    *sensors.Wiring
	ledDriver leds.Driver
	// learnShown, if set (tests), runs as each cell is lit.
	learnShown func(cell, pass string)
	// restarts is closed, once, to end run for a restart in place with
	// what the setup page saved (restart, setup_apply.go).
	restarts    chan struct{}
	restartOnce sync.Once
	// mdns is the set's mDNS announcement (daemon_announce.go).
	mdns *announce.Responder
}

// newDaemon opens everything; on error it closes what it opened and returns
// the error, which says what and where.
func newDaemon(o daemonOpts) (*daemon, error) {
	d := &daemon{o: o, log: o.log, restarts: make(chan struct{})}
	if err := d.open(); err != nil {
		d.close(context.Background())
		return nil, err
	}
	return d, nil
}

func (d *daemon) open() error {
	cfg := d.o.cfg
	// One daemon a state directory: a second one would write the same seqs
	// into one journal.
	if err := os.MkdirAll(cfg.StateDir, 0o755); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	lock, err := statelock.Acquire(cfg.StateDir)
	if err != nil {
		return err
	}
	d.lock = lock
	sys, err := systems.Lookup(cfg.Variant, cfg.Options)
	if err != nil {
		return configError{err}
	}
	if d.o.sim && cfg.Sensors.Wiring == nil && cfg.Sensors.Preset == config.Default().Sensors.Preset {
		// The journal resumes a game of another system: simulate its set.
		if rs := resumedSystem(cfg.StateDir); rs != nil && !slices.Equal(rs.Cells(), sys.Cells()) {
			d.log.Info("the resumed game is of another system: simulating its set", "variant", rs.Name())
			sys = rs
		}
	}
	// Take the ports before anything is written: a start that fails on a
	// port in use leaves no new game behind.
	if err := d.listenWeb(); err != nil {
		return err
	}
	if err := d.startBroker(); err != nil {
		return err
	}
	// The simulated set has the buttons a set is built with (the clock's,
	// the choices, new game, take back, hint) on the free expander bits
	// of its wiring, unless the configuration names its own.
	simButtons := d.o.sim && d.o.scramble == 0 && cfg.Sensors.Wiring == nil && cfg.Buttons.None()
	if simButtons {
		cfg.Buttons = table.AllButtons(placesPieces(sys))
	}
	wiring, werr := cfg.Wiring(sys.Cells())
	now := time.Now
	if d.o.sim {
		// The simulated set is the one the configuration names, or, when it
		// names none that fits, the set the system is played on.
		switch {
		case werr == nil && d.o.scramble != 0:
			d.board, err = scrambledSet(sys, d.o.scramble)
		case werr == nil:
			d.board, err = sim.ForSystem(sys, wiring)
		case cfg.Sensors.Wiring == nil && cfg.Sensors.Preset == config.Default().Sensors.Preset:
			d.board, err = sets.Board(sys, shortButtons(cfg)...)
		default:
			return cannotSense(cfg, sys, werr)
		}
		if err != nil {
			return fmt.Errorf("sim: %w", err)
		}
		if d.o.scramble == 0 {
			wiring = d.board.Wiring
		}
		d.bus = d.board.Bus
		now = followReal(d.board.Clock)
	} else {
		if werr != nil {
			return cannotSense(cfg, sys, werr)
		}
		var err error
		if d.bus, err = openI2C(cfg.I2C.Bus, func(msg string) { d.log.Warn(msg) }); err != nil {
			return err
		}
	}
	topts := table.DefaultOpts()
	topts.BoardID, topts.StateDir, topts.System = cfg.BoardID, cfg.StateDir, sys
	topts.NewGames = d.pageRules()
	topts.Published = func(game string) int {
		seq, err := mqtt.HighestSeq(cfg.StateDir, game)
		if err != nil {
			d.log.Warn("MQTT outbox unreadable: the journal alone says which seqs were used", "err", err)
		}
		return seq
	}
	topts.Bus, topts.Wiring, topts.Now, topts.Log = d.bus, wiring, now, d.log
	d.wiring = wiring
	topts.Sensors = cfg.Sensors.Opts
	topts.Recognize = cfg.Recognition
	topts.Buttons = cfg.Buttons.Meanings()
	topts.Clock = cfg.Clock.ClockOpts
	topts.Game = cfg.Game
	topts.Hints = cfg.Lesson
	if d.o.out != nil {
		topts.Sinks = append(topts.Sinks, printsink.New(d.o.out))
	}
	d.tb, err = table.New(&topts)
	if err != nil {
		return err
	}
	if d.board != nil {
		standSet(d.board, d.tb.Snapshot().Expected)
	}
	// The LEDs and the clock's displays light the cells of the game the
	// table plays (a resumed game's own system).
	if err := d.openLEDs(d.tb.Snapshot().System); err != nil {
		return err
	}
	if d.ledw != nil {
		d.tb.AddSink(ledsink.New(d.ledw, &ledsink.Opts{NoTargets: !cfg.LEDs.ShowTargets}))
	}
	d.openClockDisplays(topts.Now)
	if d.seg != nil {
		d.tb.AddSink(d.seg)
	}
	if err := d.openMQTT(); err != nil {
		return err
	}
	d.announce()
	return nil
}

// run runs the table until ctx ends, or restart.
func (d *daemon) run(ctx context.Context) error {
	if d.o.onReady != nil {
		d.o.onReady(d)
	}
	return d.tb.Run(ctx)
}

// restart ends run for a restart in place with what the setup page saved
// (serve): the daemon closes as on SIGTERM (the game journaled) and opens
// again on the configuration read anew, in the same process.
func (d *daemon) restart() { d.restartOnce.Do(func() { close(d.restarts) }) }

// restarting tells whether restart was asked.
func (d *daemon) restarting() bool {
	select {
	case <-d.restarts:
		return true
	default:
		return false
	}
}

// close shuts down in order: the table (journal durable, last state to the
// outputs, the LEDs and clock displays closed), MQTT offline, broker down,
// bus closed. It closes only
// what was opened.
func (d *daemon) close(ctx context.Context) {
	// Goodbye on the network first: browsers drop the set before its page
	// goes.
	if d.mdns != nil {
		_ = d.mdns.Close()
	}
	if d.tb != nil {
		if err := d.tb.Close(); err != nil {
			d.log.Error("table close", "err", err)
		}
	}
	if d.msink != nil {
		d.msink.Close()
	}
	if d.opp != nil {
		d.opp.Close()
	}
	// The LEDs and the clock's displays are the table's sinks: its Close
	// closed them after their last event.
	if d.http != nil {
		d.wsink.Offline()
		// The pages' event streams last as long as their connections:
		// a moment for their last events, then closed (the pages
		// reconnect), so that an open page neither holds the stop nor
		// eats the MQTT client's time to say offline.
		sctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		_ = d.http.Shutdown(sctx)
		cancel()
		_ = d.http.Close()
		close(d.webStop)
	} else if d.webLn != nil {
		_ = d.webLn.Close() // taken, never served: the start failed
	}
	if d.client != nil {
		if err := d.client.Close(ctx); err != nil {
			d.log.Warn("MQTT close", "err", err)
		}
	}
	if d.broker != nil {
		_ = d.broker.Close()
	}
	if d.spi != nil {
		_ = d.spi.Close()
	}
	if d.bus != nil {
		_ = d.bus.Close()
	}
	if d.lock != nil {
		_ = d.lock.Release()
	}
}

// resumedSystem is the system of the game the state directory resumes, or
// nil (no game, or one that does not read: table.New then says why). The
// journal is only read.
func resumedSystem(stateDir string) rules.System {
	o := game.DefaultOpts()
	o.ReadOnly = true
	s, err := game.Open(stateDir, &o)
	if err != nil {
		return nil
	}
	defer s.Close()
	return s.System()
}
