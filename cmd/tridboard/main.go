// Command tridboard is the controller of a sensorised Star Trek 3D chess set:
// it scans the reed switches, recognizes moves, lights LEDs and publishes the
// game over MQTT. Run "tridboard help" for its subcommands.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// Exit statuses of every subcommand.
const (
	exitOK      = 0
	exitFailure = 1 // runtime failure
	exitUsage   = 2 // bad usage
	// exitConfig is a bad configuration, which the systemd unit does not
	// retry (RestartPreventExitStatus=2): the same status as bad usage.
	exitConfig = 2
)

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

// register adds a subcommand; each subcommand's file calls it from init.
func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	if _, dup := commands[name]; dup {
		panic("tridboard: command registered twice: " + name)
	}
	commands[name] = command{name, summary, run}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tridboard <command> [flags] [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'tridboard <command> --help' for a command's flags.")
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "--help", "-help":
		usage(stdout)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tridboard: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}
