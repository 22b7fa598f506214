package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/statelock"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
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
	broker *mqtt.Broker
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
}

// newDaemon opens everything; on error it closes what it opened and returns
// the error, which says what and where.
func newDaemon(o daemonOpts) (*daemon, error) {
	d := &daemon{o: o, log: o.log}
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
	simButtons := d.o.sim && cfg.Sensors.Wiring == nil && cfg.Buttons.None()
	if simButtons {
		cfg.Buttons = config.DefaultButtons(placesPieces(sys))
	}
	wiring, werr := cfg.Wiring(sys.Cells())
	now := time.Now
	if d.o.sim {
		// The simulated set is the one the configuration names, or, when it
		// names none that fits, the set the system is played on.
		switch {
		case werr == nil:
			d.board, err = sim.ForSystem(sys, wiring)
		case cfg.Sensors.Wiring == nil && cfg.Sensors.Preset == config.Default().Sensors.Preset:
			d.board, err = sim.DefaultBoard(sys, shortButtons(cfg)...)
		default:
			return cannotSense(cfg, sys, werr)
		}
		if err != nil {
			return fmt.Errorf("sim: %w", err)
		}
		wiring, d.bus = d.board.Wiring, d.board.Bus
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
	topts.Published = func(game string) int {
		seq, err := mqtt.HighestSeq(cfg.StateDir, game)
		if err != nil {
			d.log.Warn("MQTT outbox unreadable: the journal alone says which seqs were used", "err", err)
		}
		return seq
	}
	topts.Bus, topts.Wiring, topts.Now, topts.Log = d.bus, wiring, now, d.log
	topts.Sensors.Period = cfg.Sensors.Period.D()
	topts.Sensors.Debounce = cfg.Sensors.Debounce.D()
	topts.Recognize.Settle = cfg.Recognition.Settle.D()
	topts.Recognize.SettleExtended = cfg.Recognition.SettleExtended.D()
	topts.Recognize.MismatchAfter = cfg.Recognition.MismatchAfter.D()
	topts.Recognize.TakeBacks = cfg.Recognition.TakeBacks
	topts.Recognize.Correction = cfg.Recognition.Correction.D()
	topts.Buttons = buttons(cfg.Buttons)
	topts.Clock = table.ClockOpts{Default: cfg.TimeControl(), Penalty: cfg.Clock.Penalty.D(), Low: cfg.Clock.Low.D()}
	l := cfg.Lesson
	topts.Hints.Limit, topts.Hints.Locked = [2]int{l.Hints.White, l.Hints.Black}, l.Lock
	topts.Hints.Assist = [2]game.Assist{game.Assist(l.Assist.White), game.Assist(l.Assist.Black)}
	if d.o.out != nil {
		topts.Sinks = append(topts.Sinks, printsink.New(d.o.out))
	}
	d.tb, err = table.New(&topts)
	var se *table.SenseError
	if errors.As(err, &se) && d.o.sim && cfg.Sensors.Wiring == nil && cfg.Sensors.Preset == config.Default().Sensors.Preset {
		// The journal resumes a game of another system: simulate its set.
		d.log.Info("the resumed game is of another system: simulating its set", "variant", se.System.Name())
		if simButtons {
			cfg.Buttons = config.DefaultButtons(placesPieces(se.System))
			topts.Buttons = buttons(cfg.Buttons)
		}
		if d.board, err = sim.DefaultBoard(se.System, shortButtons(cfg)...); err != nil {
			return fmt.Errorf("sim: %w", err)
		}
		d.bus = d.board.Bus
		topts.Bus, topts.Wiring, topts.Now, topts.System = d.bus, d.board.Wiring, followReal(d.board.Clock), se.System
		d.tb, err = table.New(&topts)
	}
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
		d.tb.AddSink(ledsink.New(d.ledw, &ledsink.Opts{NoHints: !cfg.LEDs.Hints}))
	}
	d.openClockDisplays(topts.Now)
	if d.seg != nil {
		d.tb.AddSink(d.seg)
	}
	return d.openMQTT()
}

// cannotSense explains a wiring refused for sys: when it is the wiring of
// another system's set, it says so instead of listing every cell.
func cannotSense(cfg *config.Config, sys rules.System, err error) error {
	for _, name := range systems.Names() {
		other, _ := systems.Lookup(name, "")
		if _, werr := cfg.Wiring(other.Cells()); werr == nil && !slices.Equal(other.Cells(), sys.Cells()) {
			return configError{fmt.Errorf("the configured set is wired for %s: it cannot sense the cells of a %s game "+
				"(configure that set's wiring: sensors.preset or sensors.wiring)", name, sys.Name())}
		}
	}
	return configError{err}
}

// configError is a start-up failure the configuration causes: retrying
// cannot fix it, so the daemon exits with exitConfig, which the systemd
// unit does not retry.
type configError struct{ error }

func (e configError) Unwrap() error { return e.error }

// followReal is the simulated set's clock for run --sim: it follows the
// real time, and the bus's transactions may move it on in between.
func followReal(c *sim.Clock) func() time.Time {
	return func() time.Time {
		if real := time.Now(); real.After(c.Now()) {
			c.Set(real)
		}
		return c.Now()
	}
}

// buttons says what each configured button does.
func buttons(b config.Buttons) map[string]table.Button {
	m := map[string]table.Button{}
	for name, btn := range map[string]table.Button{
		b.Queen: {Kind: table.ButtonPromote, Piece: 'Q'}, b.Rook: {Kind: table.ButtonPromote, Piece: 'R'},
		b.Bishop: {Kind: table.ButtonPromote, Piece: 'B'}, b.Knight: {Kind: table.ButtonPromote, Piece: 'N'},
		b.NewGame: {Kind: table.ButtonNewGame}, b.TakeBack: {Kind: table.ButtonTakeBack},
		b.Hint: {Kind: table.ButtonHint}, b.Pawn: {Kind: table.ButtonPromote, Piece: 'P'}, b.King: {Kind: table.ButtonPromote, Piece: 'K'},
		b.ClockWhite: {Kind: table.ButtonClockWhite}, b.ClockBlack: {Kind: table.ButtonClockBlack},
	} {
		if name != "" {
			m[name] = btn
		}
	}
	return m
}

// shortButtons are the configured buttons' cells without
// sensors.ButtonPrefix, as the wiring presets take them.
func shortButtons(cfg *config.Config) []string {
	var short []string
	for _, b := range cfg.ButtonCells() {
		short = append(short, strings.TrimPrefix(b, sensors.ButtonPrefix))
	}
	return short
}

// placesPieces reports whether the games of sys place pieces that a pawn
// or king button must choose (First Contact's introductions and king
// placements).
func placesPieces(sys rules.System) bool {
	v, _ := systems.Split(sys)
	return strings.HasPrefix(v, "first-contact")
}

// standSet puts the simulated set in pos, as players set up a set.
func standSet(b *sim.Board, pos rules.Position) { b.Set.SetUp(pos.Occupancy()) }

func (d *daemon) openLEDs(sys rules.System) error {
	m, layout, err := d.o.cfg.LEDMapping(sys.Cells())
	if err != nil {
		return configError{err}
	}
	if m == nil {
		return nil
	}
	if d.o.sim {
		m = m.Simulated()
	} else if p, ok := m.SPIPort(); ok {
		if d.spi, err = spireg.Open(p); err != nil {
			return fmt.Errorf("leds: spi port %q: %w", p, err)
		}
	}
	var port spi.Port
	if d.spi != nil {
		port = d.spi
	}
	drv, err := leds.NewDriver(m, d.bus, port)
	if err != nil {
		// A failing LED driver never stops scanning: report and go on dark.
		d.log.Error("LEDs off", "err", err)
		return nil
	}
	wo := leds.DefaultWriterOpts()
	wo.Style = m.StyleOf()
	wo.OnError = func(err error) { d.log.Warn("LED write failed", "err", err) }
	d.ledw = leds.NewWriter(drv, layout, &wo)
	return nil
}

// startBroker starts the embedded broker, unless an external one is
// configured.
func (d *daemon) startBroker() error {
	if d.o.cfg.MQTT.Broker != "" {
		return nil
	}
	bo, err := brokerOpts(d.o.cfg, d.log)
	if err != nil {
		return err
	}
	b, err := mqtt.StartBroker(bo)
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("MQTT broker: %s is in use (another tridboard, or Mosquitto): --listen ADDR (mqtt.listen) takes another port, --broker URL uses that broker instead", d.o.cfg.MQTT.Listen)
	}
	if err != nil {
		return err
	}
	d.broker = b
	d.log.Info("embedded MQTT broker", "tcp", b.URL(), "websocket", b.WSURL())
	return nil
}

func (d *daemon) openMQTT() error {
	cfg := d.o.cfg.MQTT
	opts := mqtt.DefaultOpts()
	opts.Broker = cfg.Broker
	if d.broker != nil {
		// The daemon's own connection is a plain loopback one, TLS or not.
		opts.Broker = d.broker.LocalURL()
	}
	opts.Username, opts.Password = cfg.Username, cfg.Password
	if d.broker != nil && cfg.Username == "" {
		// No daemon account: the embedded broker's login for its daemon.
		opts.Username, opts.Password = d.broker.LocalLogin()
	}
	opts.CAFile, opts.CertFile, opts.KeyFile = cfg.CAFile, cfg.CertFile, cfg.KeyFile
	opts.Prefix, opts.BoardID, opts.StateDir = cfg.Prefix, d.o.cfg.BoardID, d.o.cfg.StateDir
	opts.Discovery, opts.CommandToken, opts.Version = cfg.Discovery, cfg.CommandToken, version
	opts.Logger = d.log
	c, err := mqtt.New(opts, mqttsink.Handler(d.tb, systems.Lookup))
	if err != nil {
		return err
	}
	d.client = c
	if err := c.Recovered(); err != nil {
		d.log.Warn("MQTT outbox tail was damaged; the journal fills the gap", "err", err)
	}
	so := mqttsink.DefaultOpts()
	so.Log = d.log
	d.msink = mqttsink.New(c, &so)
	d.tb.AddSink(d.msink)
	ro := opponent.RemoteOpts{Broker: opts.Broker, Username: cfg.Username, Password: cfg.Password,
		Prefix: cfg.Prefix, Local: d.o.cfg.BoardID, Log: d.log, Grace: cfg.RemoteGrace.D()}
	d.opp = opponent.NewManager(func(spec opponent.Spec, snap *table.Snapshot) (opponent.Player, error) {
		if spec.Set != "" {
			return opponent.NewRemote(spec, snap, d.tb, ro)
		}
		return d.enginePlayer(spec, snap)
	}, d.log)
	d.tb.AddSink(d.opp)
	return d.openWeb(mqttsink.Handler(d.tb, systems.Lookup))
}

// listenWeb takes the displays' port: one in use stops the start, saying
// how to choose another (a set whose pages the hall expects must not start
// without them, quietly).
func (d *daemon) listenWeb() error {
	addr := d.o.cfg.HTTP.Listen
	if addr == "off" {
		return nil
	}
	l, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("web displays: %s is in use (another tridboard, or another server): --http ADDR (http.listen) takes another port, --http off serves no pages", addr)
	}
	if err != nil {
		return fmt.Errorf("web displays: %s: %w", addr, errors.Unwrap(err))
	}
	d.webLn = l
	return nil
}

// openWeb serves the displays (docs/web.md) from the table's own payloads,
// on the port listenWeb took.
func (d *daemon) openWeb(h mqtt.Handler) error {
	cfg := d.o.cfg
	if d.webLn == nil {
		return nil
	}
	ho := web.DefaultOpts()
	ho.Delay = cfg.HTTP.Delay.D()
	ho.Eval = cfg.HTTP.Eval
	d.hub = web.NewHub(ho)
	d.wsink = websink.New(d.hub, cfg.BoardID)
	d.tb.AddSink(d.wsink)
	so := web.DefaultServerOpts()
	so.Token, so.Board = cfg.MQTT.CommandToken, cfg.BoardID
	so.Commander = web.HandlerCommander(h, cfg.MQTT.CommandToken)
	so.Archive = journalArchive{dir: cfg.StateDir, board: cfg.BoardID}
	l := d.webLn
	d.webURL = "http://" + l.Addr().String() + "/"
	d.http = web.New(d.hub, so).HTTPServer()
	d.webStop = make(chan struct{})
	if ho.Delay > 0 {
		go d.hub.Run(d.webStop, 100*time.Millisecond)
	}
	if ho.Eval {
		go d.hub.RunEval(d.webStop)
	}
	go func() {
		if err := d.http.Serve(l); err != nil && err != http.ErrServerClosed {
			d.log.Error("web displays stopped", "err", err)
		}
	}()
	d.log.Info("web displays", "url", d.webURL)
	return nil
}

// enginePlayer makes an engine opponent.
func (d *daemon) enginePlayer(spec opponent.Spec, snap *table.Snapshot) (opponent.Player, error) {
	return opponent.NewEngine(spec, snap, d.tb, opponent.EngineOpts{Log: d.log, Seed: uint64(time.Now().UnixNano())})
}

// run runs the table until ctx ends.
func (d *daemon) run(ctx context.Context) error {
	if d.o.onReady != nil {
		d.o.onReady(d)
	}
	return d.tb.Run(ctx)
}

// close shuts down in order: the table (journal durable, last state to the
// outputs), LEDs off, MQTT offline, broker down, bus closed. It closes only
// what was opened.
func (d *daemon) close(ctx context.Context) {
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
	if d.seg != nil {
		if err := d.seg.Close(); err != nil {
			d.log.Warn("clock displays off", "err", err)
		}
	}
	if d.ledw != nil {
		if err := d.ledw.Close(); err != nil {
			d.log.Warn("LEDs off", "err", err)
		}
	}
	if d.http != nil {
		d.wsink.Offline()
		_ = d.http.Shutdown(ctx)
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
