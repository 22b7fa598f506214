package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sim"
)

// daemonOpts are what "run" and "demo" set up.
type daemonOpts struct {
	cfg *config.Config
	// sim runs on the simulated board instead of the I2C bus.
	sim bool
	// out receives a line per recognized move (nil: none).
	out io.Writer
	log *slog.Logger
	// onReady is called once the daemon runs, with the broker's URL.
	onReady func(d *daemon)
}

// daemon is the running pipeline: sensors -> recognition -> game -> LEDs
// and MQTT. Everything but the MQTT client's own goroutines runs on the
// scan loop's goroutine; MQTT commands are handed to it through cmds.
type daemon struct {
	o       daemonOpts
	log     *slog.Logger
	sys     rules.System
	board   *sim.Board // with --sim
	bus     i2c.BusCloser
	spi     spi.PortCloser
	scanner *sensors.Scanner
	rec     *recognize.Recognizer
	sess    *game.Session
	ledw    *leds.Writer
	broker  *mqtt.Broker
	client  *mqtt.Client
	cmds    chan cmdReq
	// setup asks the loop to stand the simulated set in the expected
	// position (the "setup" simulator action).
	setup chan struct{}
	// outq hands journaled moves to the outbox writer, so that the
	// outbox's fsync never holds up the scan loop; outDone closes when the
	// writer has drained it.
	outq    chan mqtt.Move
	outDone chan struct{}

	view     leds.View
	moveBuf  []rules.Move
	lastMove rules.CellSet
	// remoteFrom/To show a move made elsewhere until the set shows it.
	remoteFrom, remoteTo rules.CellSet
	buttons              []byte // what each scanner button does: a promotion piece, 'n' new game, 't' take back
	pressed              uint64
	health               []sensors.Health
	faulty               string
	// synced is closed the first time the board matches the position.
	synced     chan struct{}
	syncedOnce bool
}

type cmdReq struct {
	cmd   mqtt.Command
	reply chan cmdResult
}

type cmdResult struct {
	data any
	err  error
}

// newDaemon opens everything; on error it closes what it opened.
func newDaemon(o daemonOpts) (d *daemon, err error) {
	d = &daemon{o: o, log: o.log, sys: st3d.System, cmds: make(chan cmdReq), synced: make(chan struct{}),
		setup: make(chan struct{}, 1)}
	defer func() {
		if err != nil {
			d.close(context.Background())
		}
	}()
	cfg := o.cfg
	if err := d.openGame(); err != nil {
		return nil, err
	}
	wiring, err := cfg.Wiring(d.sys.Cells())
	if err != nil {
		return nil, err
	}
	if o.sim {
		if d.board, err = sim.New(wiring); err != nil {
			return nil, fmt.Errorf("sim: %w", err)
		}
		d.standSet(d.sess.Position())
		d.board.Clock.Set(time.Now())
		d.bus = d.board.Bus
	} else {
		state, err := host.Init()
		if err != nil {
			return nil, fmt.Errorf("periph: %w", err)
		}
		for _, f := range state.Failed {
			d.log.Warn("periph driver failed to load", "driver", f.D.String(), "err", f.Err)
		}
		if d.bus, err = i2creg.Open(cfg.I2C.Bus); err != nil {
			return nil, fmt.Errorf("i2c bus %q: %w", cfg.I2C.Bus, err)
		}
	}
	sopts := sensors.DefaultOpts
	sopts.Cells = d.sys.Cells()
	sopts.Period = cfg.Sensors.Period.D()
	sopts.Debounce = cfg.Sensors.Debounce.D()
	if d.scanner, err = sensors.New(d.bus, wiring, &sopts); err != nil {
		return nil, err
	}
	for _, b := range d.scanner.Buttons() {
		piece := byte(0)
		switch b {
		case cfg.Buttons.Queen:
			piece = 'Q'
		case cfg.Buttons.Rook:
			piece = 'R'
		case cfg.Buttons.Bishop:
			piece = 'B'
		case cfg.Buttons.Knight:
			piece = 'N'
		case cfg.Buttons.NewGame:
			piece = 'n'
		case cfg.Buttons.TakeBack:
			piece = 't'
		}
		d.buttons = append(d.buttons, piece)
	}
	ropts := recognize.DefaultOpts()
	ropts.Settle = cfg.Recognition.Settle.D()
	ropts.SettleExtended = cfg.Recognition.SettleExtended.D()
	ropts.MismatchAfter = cfg.Recognition.MismatchAfter.D()
	ropts.TakeBacks = cfg.Recognition.TakeBacks
	d.rec = recognize.New(d.sess.Position(), ropts)
	if err := d.openLEDs(); err != nil {
		return nil, err
	}
	if err := d.openMQTT(); err != nil {
		return nil, err
	}
	return d, nil
}

// openGame resumes the current game from the journal, or starts one.
func (d *daemon) openGame() error {
	gopts := game.DefaultOpts()
	s, err := game.Open(d.o.cfg.StateDir, &gopts)
	switch {
	case errors.Is(err, game.ErrNoGame):
		if s, err = game.New(d.o.cfg.StateDir, d.sys, "", game.Tags{Site: d.o.cfg.BoardID}, &gopts); err != nil {
			return err
		}
		d.log.Info("new game", "game", s.ID(), "journal", s.Path())
	case err != nil:
		return err
	default:
		d.log.Info("resumed game", "game", s.ID(), "moves", len(s.Moves()), "journal", s.Path())
	}
	if dmg := s.Recovered(); dmg != nil {
		d.log.Warn("journal tail was damaged and cut off", "err", dmg)
	}
	d.sess = s
	return nil
}

// standSet puts the simulated set in pos, as a real set would stand.
func (d *daemon) standSet(pos rules.Position) {
	occ := pos.Occupancy()
	for i, n := range d.sys.Cells() {
		_ = d.board.Set.SetCell(n, occ.Has(rules.Cell(i)))
	}
}

func (d *daemon) openLEDs() error {
	m, layout, err := d.o.cfg.LEDMapping(d.sys.Cells())
	if err != nil || m == nil {
		return err
	}
	if m.Driver == leds.DriverAPA102 && !d.o.sim {
		if d.spi, err = spireg.Open(m.Port); err != nil {
			return fmt.Errorf("leds: spi port %q: %w", m.Port, err)
		}
	}
	var port spi.Port
	if d.spi != nil {
		port = d.spi
	}
	if d.o.sim && m.Driver == leds.DriverAPA102 {
		m2 := *m
		m2.Driver = leds.DriverMemory
		m = &m2
	}
	drv, err := leds.NewDriver(m, d.bus, port)
	if err != nil {
		// A failing LED driver never stops scanning: report and go on dark.
		d.log.Error("LEDs off", "err", err)
		return nil
	}
	wo := leds.DefaultWriterOpts
	wo.Style = m.StyleOf()
	wo.OnError = func(err error) { d.log.Warn("LED write failed", "err", err) }
	d.ledw = leds.NewWriter(drv, layout, &wo)
	d.view.NoHints = !d.o.cfg.LEDs.Hints
	return nil
}

func (d *daemon) openMQTT() error {
	cfg := d.o.cfg.MQTT
	opts := mqtt.DefaultOpts()
	opts.Broker = cfg.Broker
	if cfg.Broker == "" {
		b, err := mqtt.StartBroker(mqtt.BrokerOpts{Addr: cfg.Listen, WSAddr: cfg.WebSocket,
			Username: cfg.Username, Password: cfg.Password, Logger: d.log,
			StorePath: filepath.Join(d.o.cfg.StateDir, "broker.db")})
		if err != nil {
			return err
		}
		d.broker = b
		opts.Broker = b.URL()
		d.log.Info("embedded MQTT broker", "tcp", b.URL(), "websocket", b.WSURL())
	}
	opts.Username, opts.Password = cfg.Username, cfg.Password
	opts.CAFile, opts.CertFile, opts.KeyFile = cfg.CAFile, cfg.CertFile, cfg.KeyFile
	opts.Prefix, opts.BoardID, opts.StateDir = cfg.Prefix, d.o.cfg.BoardID, d.o.cfg.StateDir
	opts.Discovery, opts.CommandToken, opts.Version = cfg.Discovery, cfg.CommandToken, version
	opts.Logger = d.log
	c, err := mqtt.New(opts, mqtt.HandlerFunc(d.handle))
	if err != nil {
		return err
	}
	d.client = c
	if err := c.Recovered(); err != nil {
		d.log.Warn("MQTT outbox tail was damaged; the journal fills the gap", "err", err)
	}
	if dmg := d.sess.Recovered(); dmg != nil {
		c.PublishEvent(mqtt.Event{Type: mqtt.EventFault, Game: d.sess.ID(), Detail: dmg.Error(), Time: time.Now()})
	}
	// A crash between the journal and the outbox loses nothing: enqueue the
	// journal's moves again (known seqs are no-ops).
	for _, m := range d.sess.Published() {
		if err := c.Enqueue(mqtt.Move(m)); err != nil {
			return err
		}
	}
	d.outq, d.outDone = make(chan mqtt.Move, 1024), make(chan struct{})
	go d.writeOutbox()
	d.publishState()
	return nil
}

// writeOutbox enqueues journaled moves in the MQTT outbox, in order. A
// move lost here by a crash is still in the journal, which is enqueued
// again at start-up.
func (d *daemon) writeOutbox() {
	defer close(d.outDone)
	for m := range d.outq {
		if err := d.client.Enqueue(m); err != nil {
			d.log.Error("MQTT outbox: move stays in the journal and is enqueued at the next start",
				"seq", m.Seq, "err", err)
		}
	}
}

// publishMove hands a journaled move to the outbox writer.
func (d *daemon) publishMove(m game.Move) { d.outq <- mqtt.Move(m) }

// run is the scan loop. It returns when ctx ends.
func (d *daemon) run(ctx context.Context) error {
	period := d.o.cfg.Sensors.Period.D()
	tk := time.NewTicker(period)
	defer tk.Stop()
	d.showLEDs()
	if d.o.onReady != nil {
		d.o.onReady(d)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case req := <-d.cmds:
			data, err := d.command(req.cmd)
			req.reply <- cmdResult{data, err}
		case <-d.setup:
			if d.board != nil {
				d.standSet(d.rec.Position())
			}
		case <-tk.C:
			d.tick(time.Now())
		}
	}
}

// tick scans once and handles what the recognizer makes of it.
func (d *daemon) tick(now time.Time) {
	if d.board != nil {
		if now.After(d.board.Clock.Now()) {
			d.board.Clock.Set(now)
		}
	}
	d.scanner.Scan(now)
	snap := d.scanner.Snapshot()
	d.checkHealth(now)
	if pressed := snap.Buttons &^ d.pressed; pressed != 0 {
		d.buttonsPressed(now, pressed)
	}
	d.pressed = snap.Buttons
	d.handleEvents(d.rec.Observe(now, snap.Closed, snap.Unknown))
}

func (d *daemon) checkHealth(now time.Time) {
	d.health = d.scanner.Health(d.health[:0])
	var bad []string
	for _, h := range d.health {
		if !h.OK {
			bad = append(bad, fmt.Sprintf("expander %s: %v", h.Expander, h.LastErr))
		}
	}
	f := strings.Join(bad, "; ")
	if f != d.faulty {
		d.faulty = f
		if f != "" {
			d.log.Warn("sensor fault", "detail", f)
			d.client.PublishEvent(mqtt.Event{Type: mqtt.EventFault, Game: d.sess.ID(), Detail: f, Time: now})
		} else {
			d.log.Info("sensors read again")
		}
	}
}

func (d *daemon) buttonsPressed(now time.Time, pressed uint64) {
	for i, piece := range d.buttons {
		if pressed&(1<<i) == 0 || piece == 0 {
			continue
		}
		switch piece {
		case 'n', 't':
			var c mqtt.Command = mqtt.NewGame{Variant: d.sys.Name()}
			if piece == 't' {
				c = mqtt.TakeBack{}
			}
			if _, err := d.command(c); err != nil {
				d.log.Warn("button", "button", d.scanner.Buttons()[i], "err", err)
			}
			continue
		}
		evs, err := d.rec.Choose(now, piece)
		if err != nil {
			d.log.Info("promotion button pressed with no promotion waiting", "piece", string(piece))
			continue
		}
		d.handleEvents(evs)
	}
}

// handleEvents carries the recognizer's events to the game, the LEDs and
// MQTT.
func (d *daemon) handleEvents(evs []recognize.Event) {
	changed := false
	for _, e := range evs {
		changed = true
		switch e.Kind {
		case recognize.Moved:
			d.moved(e)
		case recognize.TookBack:
			d.tookBack(e)
		case recognize.StatusChanged:
			d.statusChanged(e)
		}
	}
	if changed {
		d.showLEDs()
	}
}

func (d *daemon) moved(e recognize.Event) {
	m, err := d.sess.Play(e.Move)
	if err != nil {
		// The game refuses (it is over, or the journal cannot be written):
		// nothing is published; the board must go back.
		d.log.Error("move not accepted", "move", e.Before.Long(e.Move), "err", err)
		d.rec.SetPosition(d.sess.Position(), "the game did not accept "+e.Before.Long(e.Move)+": "+err.Error())
		d.client.PublishEvent(mqtt.Event{Type: mqtt.EventIllegal, Game: d.sess.ID(), Move: e.Before.Long(e.Move),
			Detail: err.Error(), Time: e.At})
		return
	}
	d.lastMove = leds.MoveCells(e.Before, e.Move)
	d.publishMove(m)
	if d.o.out != nil {
		num := fmt.Sprintf("%d.", e.Before.FullmoveNumber())
		if e.Before.Turn() == rules.Black {
			num += ".."
		}
		fmt.Fprintf(d.o.out, "%6s %-14s %-14s seq %d\n", num, m.Move, m.SAN, m.Seq)
	}
	d.log.Info("move", "seq", m.Seq, "move", m.Move, "san", m.SAN)
	if check, king := e.After.InCheck(); check {
		d.client.PublishEvent(mqtt.Event{Type: mqtt.EventCheck, Game: d.sess.ID(), Cell: d.sys.Cells()[king], Time: e.At})
	}
	if res, reason := d.sess.Result(); res != rules.NoResult {
		d.client.PublishEvent(mqtt.Event{Type: mqtt.EventGameOver, Game: d.sess.ID(), Result: string(res),
			Detail: string(reason), Time: e.At})
		if d.o.out != nil {
			fmt.Fprintf(d.o.out, "     %s (%s)\n", res, reason)
		}
	}
	d.publishState()
}

func (d *daemon) tookBack(e recognize.Event) {
	m, err := d.sess.TakeBack()
	if err != nil {
		d.log.Error("take-back not accepted", "err", err)
		d.rec.SetPosition(d.sess.Position(), "the game did not accept the take-back: "+err.Error())
		return
	}
	d.lastMove = rules.CellSet{}
	d.client.PublishEvent(mqtt.Event{Type: mqtt.EventTakeBack, Game: d.sess.ID(), Move: m.Move, Time: e.At})
	if d.o.out != nil {
		fmt.Fprintf(d.o.out, "     take-back of %s\n", m.Move)
	}
	d.publishState()
}

func (d *daemon) statusChanged(e recognize.Event) {
	st := e.Status
	names := d.sys.Cells()
	d.log.Debug("board", "state", st.State.String(), "lifted", st.Lifted.Names(names), "placed", st.Placed.Names(names),
		"fix", st.Fix.Names(names), "reason", st.Reason)
	switch st.State {
	case recognize.InSync:
		d.remoteFrom, d.remoteTo = rules.CellSet{}, rules.CellSet{}
		if !d.syncedOnce {
			d.syncedOnce = true
			close(d.synced)
			d.log.Info("board in sync with the position")
		}
	case recognize.Mismatch:
		d.client.PublishEvent(mqtt.Event{Type: mqtt.EventMismatch, Game: d.sess.ID(), Cells: st.Fix.Names(names),
			Detail: st.Reason, Time: e.At})
	case recognize.MoveInProgress:
		if !st.Lifted.Empty() {
			ev := mqtt.Event{Type: mqtt.EventLift, Game: d.sess.ID(), Cells: st.Lifted.Names(names), Time: e.At}
			if st.FirstLifted != rules.NoCell {
				ev.Cell = names[st.FirstLifted] // touch-move: the piece touched first
			}
			d.client.PublishEvent(ev)
		}
		if !st.Placed.Empty() {
			d.client.PublishEvent(mqtt.Event{Type: mqtt.EventPlace, Game: d.sess.ID(), Cells: st.Placed.Names(names), Time: e.At})
		}
	}
	d.publishState()
}

// boardState describes the recognizer's status for MQTT.
func (d *daemon) boardState() mqtt.Board {
	st := d.rec.Status()
	names := d.sys.Cells()
	switch st.State {
	case recognize.MoveInProgress:
		return mqtt.Board{Status: mqtt.BoardMoveInProgress, Cells: st.Lifted.Union(st.Placed).Names(names)}
	case recognize.NeedsChoice:
		b := mqtt.Board{Status: mqtt.BoardNeedsChoice}
		pos := d.rec.Position()
		for _, m := range st.Choices {
			b.Choices = append(b.Choices, string(pos.Info(m).PromoteTo))
		}
		return b
	case recognize.Mismatch:
		return mqtt.Board{Status: mqtt.BoardMismatch, Cells: st.Fix.Names(names), Fault: st.Reason}
	case recognize.SensorFault:
		return mqtt.Board{Status: mqtt.BoardSensorFault, Cells: st.Unknown.Names(names), Fault: st.Reason}
	}
	return mqtt.Board{Status: mqtt.BoardInSync}
}

func (d *daemon) publishState() {
	pos := d.sess.Position()
	res, reason := d.sess.Result()
	check, _ := pos.InCheck()
	s := mqtt.State{Game: d.sess.ID(), Variant: d.sys.Name(), Position: pos.String(), Turn: pos.Turn(),
		Board: d.boardState(), MoveNumber: pos.FullmoveNumber(), Check: check, Result: string(res),
		Reason: string(reason), Time: time.Now().UTC()}
	if moves := d.sess.Moves(); len(moves) > 0 {
		m := moves[len(moves)-1]
		s.LastMove = &mqtt.LastMove{Seq: m.Seq, Move: m.Move, SAN: m.SAN}
		s.Moves = make([]string, len(moves))
		for i, m := range moves {
			s.Moves[i] = m.Move
		}
	}
	if start := d.sess.Start().String(); start != d.sys.Start().String() {
		s.Start = start
	}
	d.client.PublishState(s)
}

// showLEDs derives the LED view from the recognizer and the game.
func (d *daemon) showLEDs() {
	if d.ledw == nil {
		return
	}
	st := d.rec.Status()
	pos := d.rec.Position()
	d.moveBuf = d.view.SetPosition(pos, st.Lifted, d.moveBuf)
	d.view.LastMove = d.lastMove
	d.view.Fix = rules.CellSet{}
	d.view.RemoteFrom, d.view.RemoteTo = d.remoteFrom, d.remoteTo
	if st.State == recognize.Mismatch {
		// Cells the remote move explains are shown as that move, not as
		// errors.
		d.view.Fix = st.Fix.Minus(d.remoteFrom).Minus(d.remoteTo)
	}
	d.view.Check = rules.CellSet{}
	if check, king := pos.InCheck(); check {
		d.view.Check.Add(king)
	}
	d.view.GameOver = rules.CellSet{}
	if res, _ := d.sess.Result(); res != rules.NoResult {
		if _, king := pos.InCheck(); king != rules.NoCell {
			d.view.GameOver.Add(king)
		}
	}
	d.ledw.Show(&d.view)
}

// handle runs an MQTT command on the scan loop's goroutine.
func (d *daemon) handle(ctx context.Context, c mqtt.Command) (any, error) {
	req := cmdReq{cmd: c, reply: make(chan cmdResult, 1)}
	select {
	case d.cmds <- req:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-req.reply:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// command carries out one MQTT command; an error changes nothing.
func (d *daemon) command(c mqtt.Command) (any, error) {
	now := time.Now()
	switch c := c.(type) {
	case mqtt.NewGame:
		if c.Variant != "" && c.Variant != d.sys.Name() {
			return nil, fmt.Errorf("variant %q: this board plays %s", c.Variant, d.sys.Name())
		}
		gopts := game.DefaultOpts()
		s, err := game.New(d.o.cfg.StateDir, d.sys, c.Position, game.Tags{Site: d.o.cfg.BoardID}, &gopts)
		if err != nil {
			return nil, err
		}
		_ = d.sess.Close()
		d.sess = s
		d.lastMove = rules.CellSet{}
		d.rec.SetPosition(s.Position(), "set up the new game")
		d.client.PublishEvent(mqtt.Event{Type: mqtt.EventNewGame, Game: s.ID(), Time: now})
		d.publishState()
		d.showLEDs()
		return map[string]string{"game": s.ID()}, nil
	case mqtt.Promotion:
		evs, err := d.rec.Choose(now, c.Piece)
		if err != nil {
			return nil, err
		}
		d.handleEvents(evs)
		return nil, nil
	case mqtt.TakeBack:
		m, err := d.sess.TakeBack()
		if err != nil {
			return nil, err
		}
		d.lastMove = rules.CellSet{}
		d.rec.SetPosition(d.sess.Position(), "take "+m.Move+" back on the board")
		d.client.PublishEvent(mqtt.Event{Type: mqtt.EventTakeBack, Game: d.sess.ID(), Move: m.Move, Time: now})
		d.publishState()
		d.showLEDs()
		return map[string]string{"move": m.Move}, nil
	case mqtt.Resign:
		if err := d.sess.Resign(c.Side); err != nil {
			return nil, err
		}
	case mqtt.Draw:
		var err error
		switch c.Action {
		case "offer":
			err = d.sess.OfferDraw(c.Side)
			if err == nil {
				d.client.PublishEvent(mqtt.Event{Type: mqtt.EventDrawOffer, Game: d.sess.ID(), Detail: c.Side.String(), Time: now})
			}
		case "accept":
			err = d.sess.AcceptDraw(c.Side)
		case "decline":
			err = d.sess.DeclineDraw(c.Side)
		case "claim":
			_, err = d.sess.ClaimDraw(c.Side, game.ClaimAny)
		default:
			err = fmt.Errorf("draw action %q: want offer, accept, decline or claim", c.Action)
		}
		if err != nil {
			return nil, err
		}
	case mqtt.PlayMove:
		if st := d.rec.Status().State; st != recognize.InSync {
			return nil, fmt.Errorf("the board is not in sync (%s): finish or fix the move on the set first", st)
		}
		before := d.sess.Position()
		m, note, err := before.ParseMove(c.Move)
		if err != nil {
			return nil, err
		}
		if note != "" {
			d.log.Info("remote move", "note", note)
		}
		rec, err := d.sess.Play(m)
		if err != nil {
			return nil, err
		}
		d.publishMove(rec)
		in := before.Info(m)
		d.remoteFrom = in.Touched.Minus(rules.CellSetOf(in.To))
		d.remoteTo = rules.CellSetOf(in.To)
		d.lastMove = leds.MoveCells(before, m)
		d.rec.SetPosition(d.sess.Position(), "make "+rec.Move+" on the set")
		if d.o.out != nil {
			fmt.Fprintf(d.o.out, "%6s %-14s %-14s seq %d (remote)\n", "", rec.Move, rec.SAN, rec.Seq)
		}
		d.publishState()
		d.showLEDs()
		return map[string]any{"seq": rec.Seq, "move": rec.Move, "san": rec.SAN}, nil
	case mqtt.Resync:
		d.rec.SetPosition(d.sess.Position(), "resync: set up the position")
		d.publishState()
		d.showLEDs()
		return nil, nil
	default:
		return nil, fmt.Errorf("command %q not supported", c.Name())
	}
	if res, reason := d.sess.Result(); res != rules.NoResult {
		d.client.PublishEvent(mqtt.Event{Type: mqtt.EventGameOver, Game: d.sess.ID(), Result: string(res), Detail: string(reason), Time: now})
	}
	d.publishState()
	d.showLEDs()
	return nil, nil
}

// close shuts down in order: last state published, LEDs off, journal
// closed, MQTT offline, broker down, bus closed.
func (d *daemon) close(ctx context.Context) {
	if d.client != nil && d.sess != nil {
		d.publishState()
	}
	if d.ledw != nil {
		if err := d.ledw.Close(); err != nil {
			d.log.Warn("LEDs off", "err", err)
		}
	}
	if d.sess != nil {
		if err := d.sess.Close(); err != nil {
			d.log.Error("journal close", "err", err)
		}
	}
	if d.outq != nil {
		close(d.outq)
		<-d.outDone
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
}
