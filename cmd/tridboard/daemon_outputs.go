package main

// The daemon's outputs: the LEDs, the broker and the MQTT client, the web
// displays, and the opponents the table plays against.

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/opponent"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/setup"
	"github.com/tridboard/tridboard/table"
	"github.com/tridboard/tridboard/table/mqttsink"
	"github.com/tridboard/tridboard/table/websink"
	"github.com/tridboard/tridboard/web"
)

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
	d.ledDriver = drv
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
	b, err := broker.Start(bo)
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
	// The file's client settings (mqtt.Opts) as they are; the daemon adds
	// the broker it runs, the set's name and directory, and its version.
	opts := cfg.Opts
	if d.broker != nil {
		// The daemon's own connection is a plain loopback one, TLS or not.
		opts.Broker = d.broker.LocalURL()
	}
	if d.broker != nil && cfg.Username == "" {
		// No daemon account: the embedded broker's login for its daemon.
		opts.Username, opts.Password = d.broker.LocalLogin()
	}
	opts.BoardID, opts.StateDir, opts.Version = d.o.cfg.BoardID, d.o.cfg.StateDir, version
	opts.Logger = d.log
	st, err := loadTrust(d.o.cfg.StateDir, d.log)
	if err != nil {
		return err
	}
	d.trust = st
	opts.Signer, opts.CommandAuth = st.key, st.auth
	c, err := mqtt.New(opts, st.handler(protocol.TableHandler(d.tb, systems.Lookup)))
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
		Prefix: cfg.Prefix, Local: d.o.cfg.BoardID, Log: d.log, RemoteSettings: cfg.RemoteSettings,
		Checker: st.peers, Signer: st.key}
	d.opp = opponent.NewManager(func(spec game.Opponent, snap *table.Snapshot) (opponent.Player, error) {
		if spec.Set != "" {
			return opponent.NewRemote(spec, snap, d.tb, ro)
		}
		return d.enginePlayer(spec, snap)
	}, d.log)
	d.tb.AddSink(d.opp)
	return d.openWeb(st.handler(protocol.TableHandler(d.tb, systems.Lookup)))
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
func (d *daemon) openWeb(h protocol.Handler) error {
	cfg := d.o.cfg
	if d.webLn == nil {
		return nil
	}
	ho := cfg.HTTP.HubOpts
	d.hub = web.NewHub(ho)
	d.wsink = websink.New(d.hub, cfg.BoardID)
	d.tb.AddSink(d.wsink)
	so := web.DefaultServerOpts()
	so.Token, so.Board = cfg.MQTT.CommandToken, cfg.BoardID
	so.Commander = web.HandlerCommander(h, cfg.MQTT.CommandToken)
	so.Archive = journalArchive{dir: cfg.StateDir, board: cfg.BoardID}
	if d.trust.key != nil {
		so.Fingerprint = d.trust.key.Public().Fingerprint()
	}
	so.Version, so.UpdatePending = fullVersion(), exeReplaced
	sp := d.setupPage()
	sp.Wiring = d.learnPage()
	so.Setup = setup.Handler(sp)
	l := d.webLn
	d.webURL = "http://" + l.Addr().String() + "/"
	d.http = web.New(d.hub, so).HTTPServer()
	d.http.Handler = sp.Portal(d.http.Handler)
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
func (d *daemon) enginePlayer(spec game.Opponent, snap *table.Snapshot) (opponent.Player, error) {
	return opponent.NewEngine(spec, snap, d.tb, opponent.EngineOpts{Log: d.log, Seed: uint64(time.Now().UnixNano())})
}
