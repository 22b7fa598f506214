package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/sdnotify"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sim"
)

func init() {
	register("run", "run the daemon: sensors -> recognition -> game -> LEDs and MQTT", runRun)
}

// daemonFlags are the flags every daemon mode takes; they win over the
// configuration file.
type daemonFlags struct {
	config, stateDir, boardID, listen, broker, logLevel, variant, options, http *string
}

func addDaemonFlags(fs *flag.FlagSet) daemonFlags {
	return daemonFlags{
		config:   fs.String("config", "", "configuration file (YAML)"),
		stateDir: fs.String("state-dir", "", "directory of the game journals and the MQTT outbox (default "+config.DefaultStateDir()+")"),
		boardID:  fs.String("board-id", "", "name of this set in MQTT topics (default: the host name)"),
		listen:   fs.String("listen", "", "TCP address of the embedded MQTT broker (default 127.0.0.1:1883)"),
		broker:   fs.String("broker", "", "URL of an external MQTT broker; no embedded broker then"),
		logLevel: fs.String("log-level", "", "debug, info, warn or error (default info)"),
		variant:  fs.String("variant", "", "rule system of a new game: "+systemNames()+" (default st3d; a resumed game keeps its own)"),
		options:  fs.String("options", "", optionsUsage),
		http:     fs.String("http", "", "address of the web displays (default 127.0.0.1:8080; off for none)"),
	}
}

// check refuses bad flag values (bad usage, unlike a bad configuration).
func (f daemonFlags) check() error {
	if *f.logLevel != "" {
		if _, err := config.ParseLevel(*f.logLevel); err != nil {
			return err
		}
	}
	if *f.variant != "" || *f.options != "" {
		v := *f.variant
		if v == "" {
			v = systems.Default().Name()
		}
		if _, err := systemFor(v, *f.options); err != nil {
			return err
		}
	}
	return nil
}

// load reads the configuration and applies the flags over it.
// It validates the result as config check does (the same messages), the
// wiring against the cells of the configured system, except when a
// simulated set with no wiring of its own is the system's own set (sim).
func (f daemonFlags) load(sim bool) (*config.Config, error) {
	c, err := f.read()
	if err != nil {
		return nil, err
	}
	if err := checkLoaded(c, sim); err != nil {
		return nil, err
	}
	return c, nil
}

// read reads the configuration (the file, the environment, the setup
// page's setup.yaml) and applies the flags over it, unvalidated.
func (f daemonFlags) read() (*config.Config, error) {
	c, err := config.Read(*f.config)
	if err != nil {
		return nil, err
	}
	for _, o := range []struct{ flag, dst *string }{
		{f.stateDir, &c.StateDir}, {f.boardID, &c.BoardID}, {f.listen, &c.MQTT.Listen},
		{f.broker, &c.MQTT.Broker}, {f.logLevel, &c.LogLevel}, {f.variant, &c.Variant}, {f.options, &c.Options},
		{f.http, &c.HTTP.Listen},
	} {
		if *o.flag != "" {
			*o.dst = *o.flag
		}
	}
	if *f.stateDir != "" {
		// Read applied the configured state directory's setup.yaml: the
		// setup page writes into the one given. The flags still win.
		if err := c.ApplySetup(); err != nil {
			return nil, err
		}
		for _, o := range []struct{ flag, dst *string }{{f.boardID, &c.BoardID}, {f.variant, &c.Variant}, {f.options, &c.Options}} {
			if *o.flag != "" {
				*o.dst = *o.flag
			}
		}
	}
	return c, nil
}

// pinned are the setup page's keys that flags set (they win over it).
func (f daemonFlags) pinned() []string {
	var keys []string
	for _, o := range []struct {
		flag *string
		key  string
	}{{f.boardID, "board_id"}, {f.variant, "variant"}, {f.options, "options"}} {
		if *o.flag != "" {
			keys = append(keys, o.key)
		}
	}
	return keys
}

// checkLoaded validates a configuration read as config check does, the
// wiring against the cells of the configured system, except when a
// simulated set with no wiring of its own is the system's own set (sim).
func checkLoaded(c *config.Config, sim bool) error {
	sys, err := systems.Lookup(c.Variant, c.Options)
	if err != nil {
		return err
	}
	cells := sys.Cells()
	if sim && c.Sensors.Wiring == nil && c.Sensors.Preset == config.Default().Sensors.Preset {
		if _, werr := c.Wiring(cells); werr != nil {
			cells = nil // the simulated set will be the system's own (daemon.open)
		}
	}
	return c.Validate(cells)
}

func newLogger(w io.Writer, level string) *slog.Logger {
	l, _ := config.ParseLevel(level)
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

func runRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", "[--sim] [flags]",
		"Runs the daemon. With --sim it runs on a simulated set (the one the game's\n"+
			"system is played on, unless the configuration names a wiring) whose pieces\n"+
			"are moved by lines on standard input:\n"+
			"  lift CELL        lift a piece, or a board or platform by its pin (QL1, QL3d)\n"+
			"  place CELL       put it down; with nothing lifted, a piece (or a spare board\n"+
			"                   or platform) from off the set\n"+
			"  place PIN turned put the lifted board back on its pin turned half round\n"+
			"  wait MS          let MS milliseconds pass\n"+
			"  bounce CELL      contact bounce on a cell\n"+
			"  setup            stand the set in the position the game expects\n"+
			"  press BUTTON     press a button of the set and hold it\n"+
			"  release BUTTON   let it go\n"+
			"  tap BUTTON [MS]  press it, hold it MS milliseconds (80), let it go\n"+
			"Cells as each system names them: b2W, a4QL1 (st3d), 2e4 (Millennium), a2QL3u,\n"+
			"QL3d (First Contact). Buttons by the name the wiring gives them, without\n"+
			"\"button:\"; unless the configuration names buttons or a wiring table, the\n"+
			"simulated set has clock_white, clock_black (with a time control a move is\n"+
			"completed by its player's press), queen, rook, bishop, knight (the choice of\n"+
			"a promotion), new_game, take_back, hint, and on a First Contact set pawn and\n"+
			"king (the choice of a piece placed). Blank lines and # comments are ignored.\n"+
			"End of input leaves the daemon running until SIGINT or SIGTERM.", stdout, stderr)
	simFlag := fs.Bool("sim", false, "run on the simulated board, driven from standard input")
	scramble := fs.Uint64("scramble", 0, "with --sim, solder the simulated set's switches to random pins (this `seed`): a wiring to learn from /setup/wiring")
	df := addDaemonFlags(fs)
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "tridboard run: no arguments expected")
		return exitUsage
	}
	if err := df.check(); err != nil {
		fmt.Fprintf(stderr, "tridboard run: %v\n", err)
		return exitUsage
	}
	cfg, err := df.load(*simFlag)
	if err != nil {
		// A bad configuration: one line, and the exit status the systemd
		// unit does not retry (retrying cannot fix a file).
		fmt.Fprintf(stderr, "tridboard: cannot start: %s\n", oneLine(err))
		return exitConfig
	}
	held := holdWriter(stderr)
	log := newLogger(held, cfg.LogLevel)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o := daemonOpts{cfg: cfg, sim: *simFlag, out: stdout, stderr: stderr, log: log, held: held,
		systemd: sdnotify.FromEnv(os.Getenv, os.Getpid()), reread: df.read, pinned: df.pinned(), scramble: *scramble}
	if *simFlag {
		// One reader of the hand's actions, on the daemon running now (the
		// setup page restarts it in place).
		var cur atomic.Pointer[daemon]
		changed := make(chan struct{}, 1)
		o.onReady = func(d *daemon) {
			first := cur.Swap(d) == nil
			select {
			case changed <- struct{}{}:
			default:
			}
			if !first {
				return
			}
			go func() {
				// A person starts once the set is in sync: the set running
				// now (one whose wiring is learned never is, until the
				// daemon restarts with it).
				for {
					select {
					case <-cur.Load().tb.Synced():
						feedActions(ctx, os.Stdin, cur.Load, log)
						return
					case <-changed:
					case <-ctx.Done():
						return
					}
				}
			}()
		}
	}
	return serve(ctx, o)
}

// serve runs a daemon until ctx ends and shuts it down. A daemon that
// restarts (the setup page saved the set's name, rules, wiring or token:
// daemon.restart)
// is shut down the same way, its game journaled, and opened again on the
// configuration read anew (reopen).
func serve(ctx context.Context, o daemonOpts) int {
	for {
		code, again := serveOnce(ctx, o)
		if !again || ctx.Err() != nil {
			return code
		}
		o.held, o.cfg = nil, reopen(o)
	}
}

// serveOnce runs one daemon until ctx ends or it restarts (again).
func serveOnce(ctx context.Context, o daemonOpts) (code int, again bool) {
	d, err := newDaemon(o)
	if o.held != nil {
		o.held.release(err == nil)
	}
	if err != nil {
		// One line, and exit status 1: a runtime failure, which systemd
		// retries; 2 for one the configuration causes.
		fmt.Fprintf(o.stderr, "tridboard: cannot start: %s\n", oneLine(err))
		if errors.As(err, new(configError)) {
			return exitConfig, false
		}
		return exitFailure, false
	}
	o.log.Info("running", "version", fullVersion(), "board", o.cfg.BoardID, "state", o.cfg.StateDir, "sim", o.sim)
	stopping := d.tellSystemd(ctx)
	rctx, stopRun := context.WithCancel(ctx)
	go func() {
		select {
		case <-d.restarts:
			stopRun()
		case <-rctx.Done():
		}
	}()
	err = d.run(rctx)
	stopRun()
	again = d.restarting() && ctx.Err() == nil
	if again {
		o.log.Info("restarting with the setup page's choices")
	} else {
		o.log.Info("shutting down")
	}
	stopping(again)
	cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.close(cctx)
	if err != nil && !again {
		o.log.Error("stopped", "err", err)
		return exitFailure, false
	}
	return exitOK, again
}

// feedActions reads simulator actions, one a line, and carries them out in
// real time. A bad line is reported and skipped.
func feedActions(ctx context.Context, r io.Reader, current func() *daemon, log *slog.Logger) {
	sc := bufio.NewScanner(r)
	n := 0
	var last *daemon
	for sc.Scan() {
		n++
		d := current()
		if d != last {
			// A daemon restarted in place: the hand waits for its set, as
			// for the first.
			select {
			case <-d.tb.Synced():
			case <-ctx.Done():
				return
			}
			last = d
		}
		if strings.TrimSpace(sc.Text()) == "setup" {
			// Stand the set in the expected position (after a new game).
			standSet(d.board, d.tb.Snapshot().Expected)
			continue
		}
		a, ok, err := sim.ParseAction(sc.Text())
		if err != nil {
			log.Error("simulator input", "line", n, "err", err)
			continue
		}
		if !ok {
			continue
		}
		if err := doAction(ctx, d.board.Set, a); err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Error("simulator input", "line", n, "err", err)
		}
	}
	log.Info("simulator input ended; running until a signal")
}

// doAction carries out a on set in real time: a wait waits, a tap holds
// its button (after checking it: a tap of a button the set lacks is
// refused before any wait).
func doAction(ctx context.Context, set *sim.Set, a sim.Action) error {
	if err := set.CheckButton(a); err != nil {
		return err
	}
	for _, st := range a.Steps() {
		if st.Op != sim.OpWait {
			if err := set.Do(st); err != nil {
				return err
			}
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(st.Wait):
		}
	}
	return nil
}

// oneLine is err's message on one line: an error listing several problems
// one per line gets them separated by "; ".
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }
