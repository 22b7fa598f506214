package main

import (
	"fmt"
	"io"

	"github.com/tridboard/tridboard/config"
)

func init() {
	register("config", "check a configuration file: config check FILE", runConfig)
}

func runConfig(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("config", "check FILE", "Checks a configuration file: syntax, keys, values, the wiring and the LED\nmapping. Prints what it describes, or every problem with its line.", stdout, stderr)
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 2 || fs.Arg(0) != "check" {
		fmt.Fprintln(stderr, "usage: tridboard config check FILE")
		return exitUsage
	}
	path := fs.Arg(1)
	c, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailure
	}
	// The system whose cells the wiring names (a Millennium or First
	// Contact set's file checks against that system's cells).
	sys, w, err := scanWiring(c, "")
	if err != nil {
		fmt.Fprintf(stderr, "config %s: %v\n", path, err)
		return exitFailure
	}
	cells := sys.Cells()
	m, _, err := c.LEDMapping(cells)
	if err != nil {
		fmt.Fprintf(stderr, "config %s: %v\n", path, err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "%s: ok\n", path)
	fmt.Fprintf(stdout, "  board %s, state in %s, log level %s\n", c.BoardID, c.StateDir, c.LogLevel)
	fmt.Fprintf(stdout, "  sensors: %d expanders, %d cells, %d buttons, scan every %v, debounce %v\n",
		len(w.Expanders), len(cells), len(w.Buttons()), c.Sensors.Period.D(), c.Sensors.Debounce.D())
	if m == nil {
		fmt.Fprintln(stdout, "  LEDs: none")
	} else {
		fmt.Fprintf(stdout, "  LEDs: %s, %d cells mapped, hints %v\n", m.Device(), len(m.Cells), c.LEDs.Hints)
	}
	if c.MQTT.Broker != "" {
		fmt.Fprintf(stdout, "  MQTT: broker %s\n", c.MQTT.Broker)
	} else {
		fmt.Fprintf(stdout, "  MQTT: embedded broker on %s\n", c.MQTT.Listen)
	}
	return exitOK
}
