package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/tridboard/tridboard/bringup"
	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/setup"
	"github.com/tridboard/tridboard/sim"
)

func init() {
	register("doctor", "check a set: the bus, every chip, every switch; one line a problem", runDoctor)
}

// faultList collects repeated --sim-fault flags.
type faultList []string

func (f *faultList) String() string     { return strings.Join(*f, ",") }
func (f *faultList) Set(v string) error { *f = append(*f, v); return nil }

func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgFile := fs.String("config", "", "configuration `file` (the daemon's; default: the reference board)")
	variant := fs.String("variant", "", "rule system whose cells the wiring senses: "+strings.Join(systems.Names(), ", "))
	useSim := fs.Bool("sim", false, "check the simulated set instead of the I²C bus")
	empty := fs.Bool("empty", false, "the set is empty (no piece, no board): every switch should read open")
	var faults faultList
	fs.Var(&faults, "sim-fault", "with --sim, a `fault` to rehearse (repeatable): missing:ADDR, stuck:CELL, short:ADDR, slow-bus")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard doctor [--config FILE] [--variant V] [--empty] [--sim [--sim-fault F]...]")
		fmt.Fprintln(fs.Output(), "\nChecks a set, its pieces in the start position (or --empty): which expanders, multiplexers,")
		fmt.Fprintln(fs.Output(), "LED drivers and clock displays answer, what answers that is not configured, whether the bus")
		fmt.Fprintln(fs.Output(), "needs a slower clock, and every switch (stuck, missing piece, short). One line a problem,")
		fmt.Fprintln(fs.Output(), "with what to try; exit 0 only when all is well.")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tridboard doctor: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if len(faults) > 0 && !*useSim {
		fmt.Fprintln(stderr, "tridboard doctor: --sim-fault rehearses faults on the simulated set: add --sim")
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "tridboard doctor:", err)
		return exitFailure
	}
	cfg, sys, w, err := loadWiring(*cfgFile, *variant)
	if err != nil {
		return fail(err)
	}
	o := bringup.DefaultDoctorOpts()
	o.Wiring, o.Cells = w, sys.Cells()
	if !*empty {
		o.Expected = sys.Start().Occupancy()
	}
	if cfg.I2C.SpeedHz > 0 {
		o.Speed = physic.Frequency(cfg.I2C.SpeedHz) * physic.Hertz
	}
	var ledChips []uint16
	if m, _, err := cfg.LEDMapping(sys.Cells()); err == nil && m != nil {
		ledChips = ledAddrs(m)
		for _, a := range ledChips {
			o.Devices[a] = "LED driver (HT16K33)"
		}
	}
	if d := cfg.Clock.Displays; d != nil {
		o.Devices[d.White], o.Devices[d.Black] = "White's clock display", "Black's clock display"
	}
	var bus i2c.Bus
	title := ""
	if *useSim {
		b, err := sim.ForSystem(sys, w)
		if err != nil {
			return fail(err)
		}
		if err := fitLEDs(b, ledChips); err != nil {
			return fail(err)
		}
		if *empty {
			b.Set.SetUp(rules.CellSet{})
		}
		for _, f := range faults {
			if err := simFault(b, f); err != nil {
				fmt.Fprintln(stderr, "tridboard doctor:", err)
				return exitUsage
			}
		}
		bus, title = b.Bus, "the simulated "+sys.Name()+" set"
		o.Now, o.Wait = b.Clock.Now, func(d time.Duration) { b.Clock.Advance(d) }
	} else {
		bc, err := openI2C(cfg.I2C.Bus, func(msg string) { fmt.Fprintln(stderr, "tridboard doctor:", msg) })
		if err != nil {
			return fail(err)
		}
		defer bc.Close()
		bus, title = bc, "I²C bus "+bc.String()
	}
	o.Bus = bus
	if l := hotspotLine(hotspotConf); l != "" {
		fmt.Fprintln(stdout, l)
	}
	fmt.Fprintf(stdout, "checking %s: %d expanders, %d cells of %s\n", title, len(w.Expanders), len(sys.Cells()), sys.Name())
	fmt.Fprintln(stdout, keyLine(cfg.StateDir))
	n := 0
	for _, f := range bringup.Doctor(o) {
		fmt.Fprintln(stdout, f)
		if f.Problem {
			n++
		}
	}
	if n > 0 {
		fmt.Fprintf(stdout, "%d problem(s); docs/hardware.md \"From the box to the first game\" says what to try\n", n)
		return exitFailure
	}
	fmt.Fprintln(stdout, "all is well")
	return exitOK
}

// hotspotConf is where the card image keeps the name and password of the
// set's own Wi-Fi access point, which it opens while it knows no Wi-Fi
// (deploy/image/rootfs/tridboard-hotspot; docs/deploy.md).
var hotspotConf = "/etc/tridboard/hotspot.conf"

// hotspotLine tells how a phone reaches the set through that access point,
// from the file at path; "" when there is none (not the card image, or a
// user who may not read it).
func hotspotLine(path string) string {
	h, err := setup.ReadHotspot(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("info: with no known Wi-Fi the set opens its own: %q, password %s; its pages are then at http://192.168.4.1:8080/ (its QR code at /setup)", h.SSID, h.PSK)
}

// wifiPathUnit is the card image's unit that hands the venue's Wi-Fi,
// spooled by the setup page, to tridboard-wifi (deploy/image/rootfs).
var wifiPathUnit = "/etc/systemd/system/tridboard-wifi.path"

// setupOpts are the setup page's options: the access point's file, and
// the spool under the state directory where the card image's path unit
// is installed (elsewhere nothing would read it, and the page refuses).
func setupOpts(stateDir, token string) setup.Opts {
	o := setup.DefaultOpts()
	o.Hotspot, o.Token = hotspotConf, token
	if _, err := os.Stat(wifiPathUnit); err == nil {
		o.SpoolDir = filepath.Join(stateDir, "wifi")
	}
	return o
}

// ledAddrs lists the HT16K33 addresses of an LED mapping.
func ledAddrs(m *leds.Mapping) []uint16 {
	var out []uint16
	switch m.Driver {
	case "ht16k33":
		out = append(out, m.Addr)
	case "multi":
		for i := range m.Drivers {
			out = append(out, ledAddrs(&m.Drivers[i])...)
		}
	}
	return out
}

// fitLEDs gives the simulated set the HT16K33s at addrs, the configured
// ones, and no others: sim.ForSystem fits the reference build's (one per
// 128 cells from sim.LEDAddress on), which a build with an APA102 strip
// on SPI does not have, and which doctor would then find answering
// unconfigured.
func fitLEDs(b *sim.Board, addrs []uint16) error {
	for i := range b.LEDChips {
		b.Bus.Detach(uint16(sim.LEDAddress + i))
	}
	b.LEDChips, b.LEDs = nil, nil
	for _, a := range addrs {
		h := sim.NewHT16K33(a)
		if err := b.Bus.Attach(a, h); err != nil {
			return fmt.Errorf("sim: LED driver 0x%02x: %w", a, err)
		}
		b.LEDChips = append(b.LEDChips, h)
	}
	if len(b.LEDChips) > 0 {
		b.LEDs = b.LEDChips[0]
	}
	return nil
}

// simFault injects one --sim-fault into the simulated set.
func simFault(b *sim.Board, f string) error {
	kind, arg, _ := strings.Cut(f, ":")
	addr := func() (uint16, error) {
		a, err := strconv.ParseUint(arg, 0, 16)
		if err != nil || a < 0x08 || a > 0x77 {
			return 0, fmt.Errorf("--sim-fault %s: %q is not an I²C address (0x20, say)", f, arg)
		}
		return uint16(a), nil
	}
	switch kind {
	case "missing":
		a, err := addr()
		if err != nil {
			return err
		}
		if b.Expander(a) == nil {
			return fmt.Errorf("--sim-fault %s: no expander at 0x%02x on this set", f, a)
		}
		b.Bus.Detach(a)
	case "stuck":
		return b.Set.Stick(arg)
	case "short":
		a, err := addr()
		if err != nil {
			return err
		}
		x := b.Expander(a)
		if x == nil {
			return fmt.Errorf("--sim-fault %s: no expander at 0x%02x on this set", f, a)
		}
		x.Shorted = 0xFFFF
	case "slow-bus":
		b.Bus.SetMaxSpeed(100 * physic.KiloHertz)
	default:
		return fmt.Errorf("--sim-fault %q: want missing:ADDR, stuck:CELL, short:ADDR or slow-bus", f)
	}
	return nil
}
