package main

// The loadtest command: its flags and their checks.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules/systems"
)

func runLoadtest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := loadOpts{Prefix: "tridboard-load"}
	fs.IntVar(&o.Boards, "boards", 10, "simulated `sets` (1-1000)")
	fs.StringVar(&o.Broker, "broker", "", "the broker's `URL`")
	fs.IntVar(&o.Moves, "moves", 20, "moves per set (1-10000)")
	secs := fs.Float64("seconds", 60, "bound of the whole run in `seconds` (1-3600)")
	fs.DurationVar(&o.Interval, "interval", time.Second, "time between two moves of a set")
	fs.StringVar(&o.Prefix, "prefix", o.Prefix, "topic `prefix` of the simulated sets")
	fs.StringVar(&o.Username, "username", "", "the broker's user `name`")
	fs.StringVar(&o.Password, "password", "", "the broker's `password`")
	fs.StringVar(&o.Variant, "variant", systems.Default().Name(), "the rule system the sets play")
	fs.BoolVar(&o.AllowRemote, "allow-remote", false, "allow a broker beyond loopback (a hall's broker before the event)")
	views := fs.String("views", "", "`URLs` of tridboard view processes following the sets (their --prefix must be this one), comma-separated")
	fs.IntVar(&o.Viewers, "viewers", 0, "spectators spread over --views, each reading the wall's event stream (0-10000)")
	fs.IntVar(&o.BoardViewers, "board-viewers", 0, "spectators of single boards spread over the sets and --views, each reading its board page's event stream (0-10000)")
	fs.BoolVar(&o.PerSet, "per-set", false, "a line per set in the report")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard loadtest --boards N --broker URL [--moves M] [--seconds S] [--interval D]")
		fmt.Fprintln(fs.Output(), "\nRuns N simulated sets in this process, each publishing a random legal game as the daemon")
		fmt.Fprintln(fs.Output(), "does (retained state, moves with seq through the outbox), and a subscriber that checks")
		fmt.Fprintln(fs.Output(), "every move arrives once and in order. Exits 1 when a move was lost.")
		fmt.Fprintln(fs.Output(), "\nWhich broker fits (docs/hall.md): a set's embedded broker one set and its displays (64")
		fmt.Fprintln(fs.Output(), "connections from one address, 64 retained messages: beyond, it refuses); Mosquitto a hall of")
		fmt.Fprintln(fs.Output(), "a hundred sets; a NATS cluster several halls and thousands of spectators.")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	o.Duration = time.Duration(*secs * float64(time.Second))
	if *views != "" {
		o.Views = strings.Split(*views, ",")
	}
	o.Drain, o.Log = 10*time.Second, stderr
	if err := o.check(); err != nil {
		fmt.Fprintln(stderr, "tridboard loadtest:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r, err := loadTest(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "tridboard loadtest:", err)
		return exitFailure
	}
	fmt.Fprintln(stdout, r)
	if r.Lost > 0 || r.OutOfOrder > 0 {
		return exitFailure
	}
	return exitOK
}

func (o loadOpts) check() error {
	switch {
	case o.Broker == "":
		return fmt.Errorf("--broker is required")
	case o.Boards < 1 || o.Boards > 1000:
		return fmt.Errorf("--boards %d: want 1 to 1000", o.Boards)
	case o.Moves < 1 || o.Moves > 10000:
		return fmt.Errorf("--moves %d: want 1 to 10000", o.Moves)
	case o.Duration < time.Second || o.Duration > time.Hour:
		return fmt.Errorf("--seconds %v: want 1 to 3600", o.Duration.Seconds())
	case o.Interval < time.Millisecond:
		return fmt.Errorf("--interval %v: want 1ms or more", o.Interval)
	}
	brokers, err := mqtt.ParseBrokers(o.Broker)
	if err != nil {
		return fmt.Errorf("--broker: %v", strings.TrimPrefix(err.Error(), "mqtt: "))
	}
	for _, b := range brokers {
		if u, _ := url.Parse(b); !o.AllowRemote && !isLoopback(u.Hostname()) {
			return fmt.Errorf("--broker %s is beyond loopback: add --allow-remote to load a real broker", b)
		}
	}
	if o.Viewers < 0 || o.Viewers > 10000 {
		return fmt.Errorf("--viewers %d: want 0 to 10000", o.Viewers)
	}
	if o.BoardViewers < 0 || o.BoardViewers > 10000 {
		return fmt.Errorf("--board-viewers %d: want 0 to 10000", o.BoardViewers)
	}
	if o.Viewers+o.BoardViewers > 0 && len(o.Views) == 0 {
		return fmt.Errorf("--viewers needs --views: the tridboard view processes they watch")
	}
	for _, v := range o.Views {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--views: %q: want a URL such as http://127.0.0.1:8080", v)
		}
		if !o.AllowRemote && !isLoopback(u.Hostname()) {
			return fmt.Errorf("--views %s is beyond loopback: add --allow-remote", v)
		}
	}
	if _, err := systems.ByName(o.Variant); err != nil {
		return fmt.Errorf("--variant: %w", err)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
