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
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
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
	sopts := sensors.DefaultOpts()
	sopts.Period, sopts.Debounce = cfg.Sensors.Period.D(), cfg.Sensors.Debounce.D()
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
		renderScan(stdout, title, 0, sc)
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
			renderScan(stdout, title, rate, sc)
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
		raw, _ = sensors.Preset(cfg.Sensors.Preset)
	}
	sys := sim.Systems[0]
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

// renderScan prints one frame: the three main boards, the twelve pins, the
// buttons and the health of each expander.
func renderScan(out io.Writer, title string, rate float64, sc *sensors.Scanner) {
	snap := sc.Snapshot()
	index := map[string]rules.Cell{}
	for i, n := range sc.Cells() {
		index[n] = rules.Cell(i)
	}
	mark := func(name string) byte {
		c, ok := index[name]
		switch {
		case !ok || snap.Unknown.Has(c):
			return '?'
		case snap.Closed.Has(c):
			return '#'
		}
		return '.'
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tridboard scan: %s", title)
	if rate > 0 {
		fmt.Fprintf(&b, ", %.0f scans/s", rate)
	}
	fmt.Fprintf(&b, "  (# closed  . open  ? unknown)\n\n")

	if _, ok := index["1a1"]; ok {
		renderLevels(&b, mark)
	} else {
		renderST3D(&b, mark, index)
	}

	if buttons := sc.Buttons(); len(buttons) > 0 {
		b.WriteString("buttons:")
		for i, n := range buttons {
			state := "up"
			if snap.Buttons&(1<<i) != 0 {
				state = "DOWN"
			}
			fmt.Fprintf(&b, "  %s %s", strings.TrimPrefix(n, sensors.ButtonPrefix), state)
		}
		b.WriteString("\n\n")
	}

	b.WriteString("expanders:\n")
	for _, h := range sc.Health(nil) {
		state := "ok"
		if !h.OK {
			state = "FAIL"
		}
		fmt.Fprintf(&b, "  %-26s %-4s  reads %-8d errors %-4d resets %d", h.Expander, state, h.Reads, h.Failures, h.Resets)
		if !h.OK && !h.Retry.IsZero() {
			fmt.Fprintf(&b, "  retry in %v", h.Retry.Sub(snap.Time).Round(time.Millisecond))
		}
		b.WriteByte('\n')
		if h.LastErr != nil {
			fmt.Fprintf(&b, "      last error: %v\n", h.LastErr)
		}
	}
	// No trailing blanks: the frame is also compared in tests.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	io.WriteString(out, strings.Join(lines, "\n"))
}

// renderLevels draws the Millennium set: levels 1, 2, 3 side by side, rank
// 8 on top.
func renderLevels(b *strings.Builder, mark func(string) byte) {
	b.WriteString("        level 1                level 2                level 3\n")
	for rank := 8; rank >= 1; rank-- {
		for lv := 1; lv <= 3; lv++ {
			fmt.Fprintf(b, "  %d ", rank)
			for f := 'a'; f <= 'h'; f++ {
				fmt.Fprintf(b, " %c", mark(fmt.Sprintf("%d%c%d", lv, f, rank)))
			}
			if lv < 3 {
				b.WriteString("   ")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("     a b c d e f g h       a b c d e f g h       a b c d e f g h\n\n")
}

// renderST3D draws the ST3D set, for st3d and First Contact: the three main
// boards, then the twelve pins, once for each kind of position the cells
// have (st3d's pins; First Contact's up positions, and the inverted ones
// when sensed).
func renderST3D(b *strings.Builder, mark func(string) byte, index map[string]rules.Cell) {
	b.WriteString("       W             N             B\n")
	for row := 3; row >= 0; row-- {
		for lv, level := range []string{"W", "N", "B"} {
			rank := 1 + 2*lv + row
			fmt.Fprintf(b, "  %d ", rank)
			for _, f := range "abcd" {
				fmt.Fprintf(b, " %c", mark(fmt.Sprintf("%c%d%s", f, rank, level)))
			}
			if lv < 2 {
				b.WriteString("   ")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("     a b c d       a b c d       a b c d\n\n")

	// Pins: name and presence, then the 2x2 board, upper rank on top.
	var kinds []string
	for _, k := range []string{"", "u", "d"} {
		if _, ok := index["QL1"+k]; ok {
			kinds = append(kinds, k)
		}
	}
	for _, k := range kinds {
		for side := 0; side < 2; side++ {
			pins := make([]st3d.Pin, 6)
			for i := range pins {
				pins[i] = st3d.Pin(6*side + i)
			}
			for _, p := range pins {
				fmt.Fprintf(b, "  %s %c ", p.String()+k, mark(p.String()+k))
			}
			b.WriteByte('\n')
			for _, half := range [][2]int{{2, 3}, {0, 1}} {
				for _, p := range pins {
					sq := p.Squares()
					fmt.Fprintf(b, "   %c %c  %s", mark(sq[half[0]].String()+k), mark(sq[half[1]].String()+k), strings.Repeat(" ", len(k)))
				}
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
	}
}
