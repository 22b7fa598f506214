package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/trust"
	"github.com/tridboard/tridboard/web"
)

func init() {
	register("view", "serve the web displays of every set publishing on a broker", runView)
}

func runView(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	broker := fs.String("broker", "", "the broker's `URL` (tcp://, ssl://, ws://, wss://), or a cluster's nodes separated by commas")
	addr := fs.String("http", "127.0.0.1:8080", "the HTTP listen `address` (a LAN address shows it to the hall)")
	prefix := fs.String("prefix", "tridboard", "the topic `prefix` of the sets")
	user := fs.String("username", "", "the broker's user `name`")
	pass := fs.String("password", "", "the broker's `password`")
	delay := fs.Float64("delay", 0, "broadcast delay in `seconds`: moves are shown this late, on the pages and the feeds")
	eval := fs.Bool("eval", true, "show the engine's evaluation of each position (bar, best line, graph), never ahead of --delay")
	token := fs.String("token", "", "the sets' command `token`; the pages' game actions need it (off without it)")
	qos := fs.Uint("qos", 1, "the subscriptions' `QoS`: 1, or 0 on a clustered broker (docs/hall.md)")
	keys := fs.String("keys", "", "show only what the sets signed with the keys in this `file` (an event's keys.json: docs/hall.md)")
	signed := fs.Bool("signed", false, "show only signed payloads, trusting each set's key at its first signed state")
	tick := fs.Duration("wall-tick", web.DefaultOpts().Tick, "the wall's batch: changes within it go to the spectators together (longer: less CPU a spectator, later moves; docs/hall.md)")
	streams := fs.Int("streams", 8192, "the most live page streams the view serves at once (each about 35 KB; -1: no bound)")
	perAddr := fs.Int("streams-per-address", 256, "the most live page streams from one client `address` (a hall's phones behind one NAT share one; -1: no bound)")
	peers := fs.String("peers", "", "the base `URLs` of the other views of the hall, comma-separated: the pages move to one when this view fails (docs/hall.md)")
	discover := fs.Bool("discover", false, "list the sets that announce themselves on the network (mDNS/DNS-SD _tridboard._tcp: name, page, rules, version) and exit")
	iface := fs.String("interface", "", "with --discover: the network `interface` to ask on (default: the machine's default)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard view --discover [--interface NAME]")
		fmt.Fprintln(fs.Output(), "       tridboard view --broker URL [--http ADDR] [--prefix P] [--username U --password P] [--delay S] [--eval=false] [--token T] [--peers URLS] [--wall-tick D] [--streams N] [--streams-per-address N]")
		fmt.Fprintln(fs.Output(), "\nServes the wall (/), each board (/boards/<id>), its record (/boards/<id>/game.pgn) and JSON")
		fmt.Fprintln(fs.Output(), "(/api/boards) for every set publishing on the broker, from MQTT alone. Ctrl-C stops it.")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tridboard view: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *discover {
		return runDiscover(*iface, stdout, stderr)
	}
	if *broker == "" {
		fmt.Fprintln(stderr, "tridboard view: --broker is required")
		return exitUsage
	}
	if *delay < 0 || *delay > 24*3600 {
		fmt.Fprintf(stderr, "tridboard view: --delay %g: want 0 to 86400 seconds\n", *delay)
		return exitUsage
	}
	peerURLs, err := parsePeers(*peers)
	if err != nil {
		fmt.Fprintln(stderr, "tridboard view:", err)
		return exitUsage
	}
	if *tick < 10*time.Millisecond || *tick > 10*time.Second {
		fmt.Fprintf(stderr, "tridboard view: --wall-tick %v: want 10ms to 10s\n", *tick)
		return exitUsage
	}
	ho := web.DefaultOpts()
	ho.Tick = *tick
	ho.Delay = time.Duration(*delay * float64(time.Second))
	ho.Eval = *eval
	hub := web.NewHub(ho)
	if *qos > 1 {
		fmt.Fprintf(stderr, "tridboard view: --qos %d: want 0 or 1\n", *qos)
		return exitUsage
	}
	vo := viewerOpts{Broker: *broker, Prefix: *prefix, Username: *user, Password: *pass, Token: *token, QoS: byte(*qos)}
	if *keys != "" || *signed {
		ring, err := trust.OpenRing(*keys)
		if err != nil {
			fmt.Fprintln(stderr, "tridboard view:", err)
			return exitUsage
		}
		ring.FirstUse = *keys == ""
		co := trust.DefaultCheckerOpts(ring)
		co.Log = slog.New(slog.NewTextHandler(stderr, nil))
		vo.Checker, vo.StandbyChecker = trust.NewChecker(co), trust.NewChecker(co)
	}
	v, err := newViewer(vo, hub, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "tridboard view:", err)
		return exitFailure
	}
	defer v.Close()
	so := web.DefaultServerOpts()
	so.Commander, so.Token, so.Peers = v, *token, peerURLs
	// A view is a hall's server, not a set's Pi: its streams are bounded
	// for a hall's crowd (docs/web.md, "Limits").
	so.Limits = web.DefaultLimits()
	so.Limits.Streams, so.Limits.StreamsPerAddress = *streams, *perAddr
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "tridboard view:", err)
		return exitFailure
	}
	srv := web.New(hub, so).HTTPServer()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if ho.Delay > 0 {
		go hub.Run(ctx.Done(), 100*time.Millisecond)
	}
	if ho.Eval {
		go hub.RunEval(ctx.Done())
	}
	go srv.Serve(ln)
	fmt.Fprintf(stdout, "tridboard view: http://%s/ shows the sets on %s (prefix %s)\n", ln.Addr(), *broker, *prefix)
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return exitOK
}

// parsePeers reads --peers: http(s) URLs with a host, comma-separated.
func parsePeers(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSuffix(strings.TrimSpace(p), "/")
		if u, err := url.Parse(p); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
			return nil, fmt.Errorf("--peers: %q: want a view's base URL such as http://hall-2:8080", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// viewerOpts configure a viewer.
type viewerOpts struct {
	// Broker is the broker's URL, or a cluster's nodes separated by commas.
	Broker, Prefix, Username, Password string
	// Token is put into the commands the pages send, as the sets want it.
	Token string
	// ClientID defaults to tridboard-view-<pid>-<n>.
	ClientID string
	// QoS is the subscriptions' QoS: 1 (the default) or 0, which a
	// clustered broker serves without a stored consumer (docs/hall.md).
	QoS byte
	// Checker, when set, lets only what the sets signed reach the pages;
	// StandbyChecker does for the follower of the next node (a checker of
	// its own, which sees each state once).
	Checker, StandbyChecker *trust.Checker
}

// viewer feeds a hub from the topics of every set under a prefix (one
// mqtt.Follower), and passes the pages' commands on as
// <prefix>/<board>/set/<name>, waiting for the reply on response/<name>.
// It implements web.Commander.
type viewer struct {
	f, standby *mqtt.Follower
}

func newViewer(o viewerOpts, hub *web.Hub, log io.Writer) (*viewer, error) {
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Prefix, fo.Username, fo.Password, fo.Token, fo.Commands = o.Broker, o.Prefix, o.Username, o.Password, o.Token, true
	fo.ClientID, fo.Name, fo.QoS, fo.Checker = o.ClientID, "view", o.QoS, o.Checker
	fo.InOrder = true // a view on a cluster node lists its own node first
	fo.Warn = func(msg string) { fmt.Fprintln(log, "tridboard view:", msg) }
	f, err := mqtt.Follow(fo, mqtt.Handlers{State: hub.State, Move: hub.Move, Event: hub.Event, Availability: hub.Availability})
	if err != nil {
		return nil, err
	}
	v := &viewer{f: f}
	// On a cluster, a second follower takes the states and moves from the
	// next node: when the view's node dies, the moves keep coming while
	// the first finds another node (seconds, on a cluster electing its
	// leaders, which a view at QoS 0 would miss). The hub drops what it
	// has already (a move by its seq, a state given again as it was).
	if nodes, _ := mqtt.ParseBrokers(o.Broker); len(nodes) > 1 {
		so := fo
		so.Broker = strings.Join(append(nodes[1:], nodes[0]), ",")
		so.Name, so.Commands, so.Checker = "view-standby", false, o.StandbyChecker
		if o.ClientID != "" {
			so.ClientID = o.ClientID + "-standby"
		}
		if v.standby, err = mqtt.Follow(so, mqtt.Handlers{State: hub.State, Move: hub.Move}); err != nil {
			f.Close()
			return nil, err
		}
	}
	return v, nil
}

// Command publishes a command on <prefix>/<board>/set/<name> with a
// transaction of its own and waits for the reply.
func (v *viewer) Command(ctx context.Context, board, name string, payload []byte) ([]byte, error) {
	var fields map[string]any
	if err := json.Unmarshal(payload, &fields); err != nil || fields == nil {
		return nil, errors.New("malformed payload: want a JSON object")
	}
	r, err := v.f.Command(ctx, board, name, fields)
	if err != nil {
		if r.Status != "" {
			return nil, errors.New(r.Reason)
		}
		return nil, err
	}
	return json.Marshal(r.Data)
}

// Close disconnects from the broker.
func (v *viewer) Close() {
	v.f.Close()
	if v.standby != nil {
		v.standby.Close()
	}
}
