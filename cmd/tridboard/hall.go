package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tridboard/tridboard/hall"
)

func init() {
	register("hall", "write a secure hall's broker configuration: Mosquitto, or a NATS cluster", runHall)
}

func runHall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hall", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p := hall.DefaultPlan()
	out := fs.String("out", "", "`directory` to write the files into (required)")
	sets := fs.String("sets", "", "the hall's board ids, comma-separated (required)")
	fs.StringVar(&p.Prefix, "prefix", p.Prefix, "the sets' topic `prefix` (mqtt.prefix)")
	fs.StringVar(&p.Event, "event", p.Event, "the event runner's `account` (\"\": none)")
	spect := fs.String("spectators", strings.Join(p.Spectators, ","), "read-only `accounts`, comma-separated (views, displays)")
	fs.StringVar(&p.Discovery, "discovery", p.Discovery, "the sets' Home Assistant discovery `prefix` (\"\": none)")
	nodes := fs.String("nats", "", "the NATS cluster's node `hosts`, comma-separated (hall-1,hall-2,hall-3); none: Mosquitto only")
	mo := hall.DefaultMosquittoOpts()
	fs.StringVar(&mo.Listen, "listen", mo.Listen, "Mosquitto's `listener` (\"1883\", \"8883 192.168.1.2\")")
	fs.StringVar(&mo.Dir, "mosquitto-dir", mo.Dir, "where Mosquitto's passwd and acl are installed")
	natsDir := fs.String("nats-dir", "/etc/nats", "where each NATS node's certificates are installed")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard hall --out DIR --sets ID,ID,... [--prefix P] [--nats HOST,HOST,HOST]")
		fmt.Fprintln(fs.Output(), "\nWrites a hall's broker configuration, closed to strangers: an account per set (writing only its")
		fmt.Fprintln(fs.Output(), "own topics), read-only spectators, the event runner's rights, no anonymous access: for Mosquitto")
		fmt.Fprintln(fs.Output(), "(mosquitto/) and, with --nats, for a NATS cluster (nats/: routes with a password and TLS).")
		fmt.Fprintln(fs.Output(), "Passwords are in secrets/<account>.pw and are kept when written again. docs/hall.md.")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 || *out == "" || *sets == "" {
		fs.Usage()
		return exitUsage
	}
	split := func(s string) []string {
		var v []string
		for _, f := range strings.Split(s, ",") {
			if f = strings.TrimSpace(f); f != "" {
				v = append(v, f)
			}
		}
		return v
	}
	p.Sets, p.Spectators = split(*sets), split(*spect)
	wo := hall.WriteOpts{Mosquitto: mo, NATSDir: *natsDir}
	if hosts := split(*nodes); len(hosts) > 0 {
		wo.Nodes = hall.DefaultNodes(hosts...)
	}
	if err := p.Check(); err != nil {
		fmt.Fprintln(stderr, "tridboard hall:", err)
		return exitUsage
	}
	if _, err := hall.Write(*out, p, wo); err != nil {
		fmt.Fprintln(stderr, "tridboard hall:", err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "wrote %s:\n", *out)
	fmt.Fprintf(stdout, "  mosquitto/tridboard.conf -> /etc/mosquitto/conf.d/; passwd, acl -> %s/\n", mo.Dir)
	if len(wo.Nodes) > 0 {
		fmt.Fprintf(stdout, "  nats/<node>.conf -> /etc/nats/hall.conf on each node; nats/ca.pem, <node>.pem, <node>-key.pem -> %s/ (keep ca-key.pem off the nodes)\n", *natsDir)
	}
	fmt.Fprintf(stdout, "  secrets/<account>.pw: each account's password; a set logs in as %s with TRIDBOARD_MQTT_PASSWORD\n", hall.SetUser("<board id>"))
	return exitOK
}
