package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
	"periph.io/x/conn/v3/i2c"
)

func init() {
	register("scan", "live view of the sensing cells (for wiring a board)", runScan)
}

func runScan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	useSim := fs.Bool("sim", false, "scan the simulated set the configuration describes instead of the I²C bus")
	variant := fs.String("variant", "", "rule system whose cells the wiring senses: "+strings.Join(systems.Names(), ", ")+" (default: the first whose cells the wiring covers)")
	cfgFile := fs.String("config", "", "configuration `file` (the daemon's; default: the reference board of hardware.md)")
	once := fs.Bool("once", false, "print one settled frame and exit")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard scan [--sim] [--config FILE] [--variant V] [--once]")
		fmt.Fprintln(fs.Output(), "\nShows every sensing cell (# closed, . open, ? unknown) laid out like the boards:")
		fmt.Fprintln(fs.Output(), "the ST3D set's main boards and pins, the Millennium set's three 8x8 levels, or")
		fmt.Fprintln(fs.Output(), "First Contact's boards and platform positions (up and inverted); the scan rate and")
		fmt.Fprintln(fs.Output(), "the errors of each expander. Ctrl-C stops it.")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tridboard scan: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}

	cfg, sys, w, err := loadWiring(*cfgFile, *variant)
	if err != nil {
		fmt.Fprintln(stderr, "tridboard scan:", err)
		return exitFailure
	}

	var (
		bus   i2c.Bus
		board *sim.Board
		title string
	)
	if *useSim {
		var err error
		if board, err = sim.ForSystem(sys, w); err != nil {
			fmt.Fprintln(stderr, "tridboard scan:", err)
			return exitFailure
		}
		bus, title = board.Bus, "simulated "+sys.Name()+" set"
	} else {
		bc, err := openI2C(cfg.I2C.Bus, func(msg string) { fmt.Fprintln(stderr, "tridboard scan:", msg) })
		if err != nil {
			fmt.Fprintln(stderr, "tridboard scan:", err)
			return exitFailure
		}
		defer bc.Close()
		bus, title = bc, "I²C bus "+bc.String()
	}
	sopts := cfg.Sensors.Opts
	sopts.Cells = sys.Cells()
	sc, err := sensors.New(bus, w, &sopts)
	if err != nil {
		fmt.Fprintln(stderr, "tridboard scan:", err)
		return exitFailure
	}
	title = fmt.Sprintf("%s, %d expanders", title, len(w.Expanders))

	if *once {
		// Scan until the debounce window has passed (simulated time on
		// the simulator, real time on the bus).
		p := sopts.Period
		n := int(sopts.Debounce/p) + 2
		for i := 0; i < n; i++ {
			if board != nil {
				sc.Scan(board.Clock.Advance(p))
			} else {
				sc.Scan(time.Now())
				time.Sleep(p)
			}
		}
		renderScan(stdout, title, 0, sys, sc)
		if sc.Snapshot().Unknown.Empty() {
			return exitOK
		}
		return exitFailure
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go sc.Run(ctx, nil)
	tty := isTerminal(stdout)
	refresh := 200 * time.Millisecond
	if !tty {
		refresh = time.Second
	}
	tk := time.NewTicker(refresh)
	defer tk.Stop()
	last, lastScans := time.Now(), uint64(0)
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(stdout)
			return exitOK
		case now := <-tk.C:
			scans := sc.Stats().Scans
			rate := float64(scans-lastScans) / now.Sub(last).Seconds()
			last, lastScans = now, scans
			if tty {
				fmt.Fprint(stdout, "\x1b[H\x1b[2J")
			}
			renderScan(stdout, title, rate, sys, sc)
		}
	}
}

// scanWiring is the configured wiring and the system whose cells it senses:
// the one named, or the one whose cells the wiring names (sim.SystemOf; the
// first system's error when it fits none).
// loadWiring reads the configuration file (the reference board without
// one) and the wiring of the set it describes, for variant when given (see
// scanWiring): what scan, doctor and wiring learn start from.
func loadWiring(cfgFile, variant string) (*config.Config, rules.System, *sensors.Wiring, error) {
	cfg, err := config.Load(cfgFile)
	if err != nil {
		return nil, nil, nil, err
	}
	sys, w, err := scanWiring(cfg, variant)
	if err != nil {
		return nil, nil, nil, err
	}
	return cfg, sys, w, nil
}

func scanWiring(cfg *config.Config, variant string) (rules.System, *sensors.Wiring, error) {
	if variant != "" {
		sys, err := systems.Lookup(variant, "")
		if err != nil {
			return nil, nil, err
		}
		cfg.Variant = variant // for the wiring's messages
		w, err := cfg.Wiring(sys.Cells())
		return sys, w, err
	}
	raw := cfg.Sensors.Wiring
	if raw == nil {
		raw, _ = sets.Preset(cfg.Sensors.Preset)
	}
	sys := systems.Default()
	if raw != nil {
		if s, err := sim.SystemOf(raw); err == nil {
			sys = s
		}
	}
	w, err := cfg.Wiring(sys.Cells())
	return sys, w, err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
