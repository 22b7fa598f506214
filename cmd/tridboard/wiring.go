package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/tridboard/tridboard/bringup"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
	"github.com/tridboard/tridboard/sim"
)

func init() {
	register("wiring", "learn a set's wiring with the LEDs' help: wiring learn", runWiring)
}

const wiringUsage = "usage: tridboard wiring learn [--config FILE] [--variant V] [--out FILE] [--sim [--scramble SEED]]"

func runWiring(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "learn" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			return runWiring([]string{"learn", "--help"}, stdout, stderr) // learn is its one subcommand
		}
		fmt.Fprintln(stderr, wiringUsage)
		return exitUsage
	}
	fs := flag.NewFlagSet("wiring learn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgFile := fs.String("config", "", "configuration `file`: its expanders (addresses, modes) and LEDs are used; its cells are what is learned")
	variant := fs.String("variant", "", "rule system of the set: "+strings.Join(systems.Names(), ", "))
	out := fs.String("out", "", "write the learned wiring to this `file` (default: standard output)")
	useSim := fs.Bool("sim", false, "learn the simulated set's wiring, a simulated builder following its LEDs")
	scramble := fs.Uint64("scramble", 0, "with --sim, solder the simulated set's switches to random pins (this `seed`)")
	timeout := fs.Duration("timeout", time.Minute, "how long each cell is waited for")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), wiringUsage)
		fmt.Fprintln(fs.Output(), "\nWith every piece and board off the set, lights one cell at a time (boards' pins before their")
		fmt.Fprintln(fs.Output(), "squares): put a piece there (a board on a pin, where it stays) and take it off again. It records")
		fmt.Fprintln(fs.Output(), "which expander input closed, flags inputs two cells share and cells nothing closed for, checks")
		fmt.Fprintln(fs.Output(), "every cell once more, and writes the wiring as the configuration's sensors.wiring.")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args[1:], stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tridboard wiring learn: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "tridboard wiring learn:", err)
		return exitFailure
	}
	cfg, sys, w, err := loadWiring(*cfgFile, *variant)
	if err != nil {
		return fail(err)
	}
	cells := sys.Cells()
	m, layout, err := cfg.LEDMapping(cells)
	if err != nil {
		return fail(err)
	}
	if m == nil {
		return fail(fmt.Errorf("the LEDs are off (leds.mapping.driver: none): learning lights one cell at a time"))
	}
	o := bringup.DefaultLearnOpts()
	o.Expanders, o.Cells, o.Timeout = w.Expanders, bringup.LearnOrder(sys), *timeout
	stays := bringup.Sockets(sys)
	o.Stays = func(c string) bool { return stays[c] }
	var bus i2c.Bus
	if *useSim {
		hw := w
		if *scramble != 0 {
			hw = sim.Scramble(w, *scramble)
		}
		b, err := sim.ForSystem(sys, hw)
		if err != nil {
			return fail(err)
		}
		b.Set.SetUp(rules.CellSet{})
		index := make([]int, len(cells))
		for i := range cells {
			index[i] = layout.LED(rules.Cell(i))
		}
		u := sim.NewBuilder(b, index, stays)
		bus, o.Now, o.Wait = b.Bus, b.Clock.Now, u.Wait
		fmt.Fprintf(stderr, "learning the simulated %s set's wiring (a simulated builder follows the LEDs)\n", sys.Name())
	} else {
		bc, err := openI2C(cfg.I2C.Bus, func(msg string) { fmt.Fprintln(stderr, "tridboard wiring learn:", msg) })
		if err != nil {
			return fail(err)
		}
		defer bc.Close()
		bus = bc
		fmt.Fprintln(stderr, "take every piece and board off the set; then put a piece on each cell as its LED lights")
	}
	o.Bus = bus
	d, err := leds.NewDriver(m, bus, nil)
	if err != nil {
		return fail(err)
	}
	lamp := bringup.NewLamp(d, layout, cells)
	n := 0
	o.Show = func(cell, pass string) {
		lamp.Light(cell)
		if cell == "" || *useSim {
			return
		}
		n++
		what := "a piece on " + cell + ", then take it off"
		if stays[cell] {
			what = "a board on pin " + cell + " (it stays)"
		}
		if pass == "check" {
			what = "check: " + what
		}
		fmt.Fprintf(stderr, "%3d/%d  put %s\n", n, 2*len(cells), what)
	}
	learned, findings, err := bringup.Learn(o)
	if err != nil {
		return fail(err)
	}
	problems := 0
	for _, f := range findings {
		fmt.Fprintln(stderr, f)
		if f.Problem {
			problems++
		}
	}
	text, err := wiringYAML(learned, sys.Name())
	if err != nil {
		return fail(err)
	}
	if *out == "" {
		stdout.Write(text)
	} else if err := os.WriteFile(*out, text, 0o644); err != nil {
		return fail(err)
	} else {
		fmt.Fprintf(stderr, "wrote %s: its sensors section goes into the configuration, in place of the one there\n", *out)
	}
	if problems > 0 {
		return exitFailure
	}
	return exitOK
}

// wiringYAML writes w as the configuration's sensors section, in the
// layout of deploy/reference.yaml.
func wiringYAML(w *sensors.Wiring, system string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The %s set's wiring, learned by tridboard wiring learn on %s.\n", system, time.Now().UTC().Format("2006-01-02"))
	b.WriteString("# Each cell is wired to bit 0..15 (GPA0..GPB7) of its expander, or to a row and column of a matrix.\n")
	b.WriteString("sensors:\n  preset: \"\"\n  wiring:\n    expanders:\n")
	for _, e := range w.Expanders {
		fmt.Fprintf(&b, "      - address: 0x%02x\n", e.Address)
		if e.Mux != nil {
			fmt.Fprintf(&b, "        mux: {address: 0x%02x, channel: %d}\n", e.Mux.Address, e.Mux.Channel)
		}
		fmt.Fprintf(&b, "        mode: %s\n        cells:\n", e.Mode)
		for _, c := range e.Cells {
			if e.Mode == sensors.Matrix {
				fmt.Fprintf(&b, "          - {cell: %q, row: %d, col: %d}\n", c.Cell, c.Row, c.Col)
			} else {
				fmt.Fprintf(&b, "          - {cell: %q, bit: %d}\n", c.Cell, c.Bit)
			}
		}
	}
	return b.Bytes(), nil
}
