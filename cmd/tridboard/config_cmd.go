package main

import (
	"fmt"
	"io"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/rules/systems"
)

func init() {
	register("config", "check a configuration file: config check FILE", runConfig)
}

const configUsage = "usage: tridboard config check FILE"

func runConfig(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("config", "check FILE",
		"Checks a configuration file as run does: syntax, keys, values, the MQTT\n"+
			"addresses and accounts, the wiring and the LED mapping. Prints what it\n"+
			"describes, or every problem, each with its key and line.", stdout, stderr)
	if len(args) > 0 && args[0] == "check" {
		args = args[1:]
	} else if len(args) > 0 && args[0][0] != '-' {
		fmt.Fprintf(stderr, "tridboard config: unknown action %q\n%s\n", args[0], configUsage)
		return exitUsage
	} else if done, code := parseFlags(fs, args, stdout); done {
		return code
	} else {
		fmt.Fprintln(stderr, configUsage)
		return exitUsage
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, configUsage)
		return exitUsage
	}
	path := fs.Arg(0)
	c, err := config.Read(path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailure
	}
	// The cells of the game system a new game plays (variant, options), as
	// run checks the wiring against them.
	sys, err := systems.Lookup(c.Variant, c.Options)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailure
	}
	cells := sys.Cells()
	if err := c.Validate(cells); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailure
	}
	w, _ := c.Wiring(cells)
	m, _, _ := c.LEDMapping(cells)
	fmt.Fprintf(stdout, "%s: ok\n", path)
	fmt.Fprintf(stdout, "  board %s, state in %s, log level %s\n", c.BoardID, c.StateDir, c.LogLevel)
	fmt.Fprintf(stdout, "  sensors: %d expanders, %d cells, %d buttons, scan every %v, debounce %v\n",
		len(w.Expanders), len(cells), len(w.Buttons()), c.Sensors.Period, c.Sensors.Debounce)
	if m == nil {
		fmt.Fprintln(stdout, "  LEDs: none")
	} else {
		fmt.Fprintf(stdout, "  LEDs: %s, %d cells mapped, hints %v\n", m.Device(), len(m.Cells), c.LEDs.ShowTargets)
	}
	if c.MQTT.Broker != "" {
		fmt.Fprintf(stdout, "  MQTT: broker %s\n", c.MQTT.Broker)
	} else {
		tls := ""
		if c.MQTT.TLS.CertFile != "" {
			tls = " (TLS)"
		}
		fmt.Fprintf(stdout, "  MQTT: embedded broker on %s%s, %d accounts besides the daemon's\n", c.MQTT.Listen, tls, len(c.MQTT.Accounts))
	}
	return exitOK
}
