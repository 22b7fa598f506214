package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tridboard/tridboard/event"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/tournament"
	"github.com/tridboard/tridboard/trust"
	"github.com/tridboard/tridboard/web"
)

func init() {
	register("event", "run a tournament from the sets: pairings, rounds, results, standings, records", runEvent)
}

// eventArgs are event's flags.
type eventArgs struct {
	broker, http, stateDir, players, boards, system, tc, variant, options, name, site, token, prefix, user, pass string
	tables, siteDir, exTC                                                                                        string
	rounds                                                                                                       int
}

func runEvent(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("event", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a eventArgs
	fs.StringVar(&a.broker, "broker", "", "the hall's broker `URL` (tcp://, ssl://, ws://, wss://)")
	fs.StringVar(&a.http, "http", "127.0.0.1:8090", "the HTTP listen `address` of the API and the arbiter's page")
	fs.StringVar(&a.stateDir, "state-dir", "", "the `dir` of the event's journal (resumed when it holds one)")
	fs.StringVar(&a.players, "players", "", "the players `file`: Name[,rating[,title[,fide-id]]] a line, or TRF-16 (none: the desk registers them)")
	fs.StringVar(&a.boards, "boards", "", "the sets' board `ids`, comma-separated: board 1 first")
	fs.StringVar(&a.tables, "tables", "", "boards without sensors (`names`, comma-separated): their results entered by the arbiter")
	fs.StringVar(&a.siteDir, "site-dir", "", "keep the results site (HTML, PGN, TRF) in `dir`, rewritten after each round")
	fs.StringVar(&a.exTC, "exhibition-time-control", "", "the exhibition games' time `control` (default: --time-control)")
	fs.StringVar(&a.system, "system", "swiss", "`round-robin` or swiss")
	fs.IntVar(&a.rounds, "rounds", 0, "the number of `rounds` (a round robin: one cycle when 0; a Swiss: 5 when 0)")
	fs.StringVar(&a.tc, "time-control", "", "the games' time `control` (PGN's TimeControl: 180+2); empty: each set's default")
	fs.StringVar(&a.variant, "variant", systems.Default().Name(), "the games' `system`: "+systemNames())
	fs.StringVar(&a.options, "options", "", "the variant `options` (V.A1,V.A2)")
	fs.StringVar(&a.name, "name", "tridboard event", "the event's `name` (its PGN Event tag)")
	fs.StringVar(&a.site, "site", "", "the event's `site` (its PGN Site tag)")
	fs.StringVar(&a.token, "token", os.Getenv("TRIDBOARD_EVENT_TOKEN"), "the arbiter's `token` for the API's changes (or TRIDBOARD_EVENT_TOKEN)")
	fs.StringVar(&a.prefix, "prefix", "tridboard", "the sets' topic `prefix`")
	fs.StringVar(&a.user, "username", "", "the broker's user `name`")
	fs.StringVar(&a.pass, "password", "", "the broker's `password`")
	enrolledOnly := fs.Bool("enrolled-only", false, "take states only from sets whose key is enrolled in the event's keys.json (default: trust a set's key at its first signed state)")
	setToken := fs.String("set-token", os.Getenv("TRIDBOARD_MQTT_COMMAND_TOKEN"), "the sets' command `token`, if they have one")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard event --broker URL --state-dir DIR [--players FILE] --boards b1,b2,... [--tables T1,T2,...]")
		fmt.Fprintln(fs.Output(), "                      [--http ADDR] [--system round-robin|swiss] [--rounds N] [--time-control TC] [--variant V]")
		fmt.Fprintln(fs.Output(), "                      [--options L] [--name NAME] [--site SITE] [--token T] [--site-dir DIR]")
		fmt.Fprintln(fs.Output(), "\nRuns an event on the sets: the arbiter's page at http://ADDR/event/, the desk at /event/desk,")
		fmt.Fprintln(fs.Output(), "the hall's screen at /event/hall, printable pages at /event/print/..., the API at /api/event,")
		fmt.Fprintln(fs.Output(), "the records at /event/round-N/games.pgn, round-N/index.json, /event/tournament.trf. A state dir")
		fmt.Fprintln(fs.Output(), "that holds an event resumes it (--players and the event's settings are then not needed).")
		fmt.Fprintln(fs.Output())
		fs.PrintDefaults()
	}
	if done, code := parseFlags(fs, args, stdout); done {
		return code
	}
	fail := func(code int, format string, v ...any) int {
		fmt.Fprintf(stderr, "tridboard event: "+format+"\n", v...)
		return code
	}
	if fs.NArg() > 0 {
		return fail(exitUsage, "unexpected argument %q", fs.Arg(0))
	}
	if a.broker == "" || a.stateDir == "" {
		return fail(exitUsage, "--broker and --state-dir are required (see --help)")
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Prefix, fo.Username, fo.Password, fo.Token = a.broker, a.prefix, a.user, a.pass, *setToken
	fo.Warn = func(msg string) { fmt.Fprintln(stderr, "tridboard event:", msg) }
	if err := os.MkdirAll(a.stateDir, 0o750); err != nil {
		return fail(exitFailure, "%v", err)
	}
	ring, err := eventTrust(&fo, a.stateDir, !*enrolledOnly, log)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	fmt.Fprintf(stdout, "tridboard event: signing key %s (fingerprint %s): give it to each set with \"tridboard key allow event KEY\"\n",
		fo.Signer.Public(), fo.Signer.Public().Fingerprint())
	link, attach, err := event.DialMQTT(fo, 10*time.Second)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	defer link.Close()
	eo := event.DefaultOpts()
	eo.Dir, eo.Log, eo.SiteDir, eo.Keys = a.stateDir, log, a.siteDir, ring
	r, err := event.Open(eo, link)
	if err != nil && !errors.Is(err, event.ErrNoEvent) {
		return fail(exitFailure, "%v", err)
	}
	if err != nil && (a.players != "" || a.boards != "") {
		r, err = createEvent(eo, a, link)
	}
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	defer r.Close()
	attach(r)
	ln, err := net.Listen("tcp", a.http)
	if err != nil {
		return fail(exitFailure, "HTTP %s: %v (choose another with --http)", a.http, errors.Unwrap(err))
	}
	lim := web.DefaultLimits()
	lim.Log = log
	srv := &http.Server{Handler: web.Guard(event.Handler(r, a.token), lim), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go srv.Serve(ln)
	if a.token == "" {
		fmt.Fprintln(stderr, "tridboard event: no --token: the API and the page show the event but take no changes")
	}
	fmt.Fprintf(stdout, "tridboard event: %q on %s: the arbiter's page is http://%s/event/\n", r.Snapshot().Name, a.broker, ln.Addr())
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return exitOK
}

// createEvent starts a new event from the flags.
func createEvent(eo event.Opts, a eventArgs, link event.Link) (*event.Runner, error) {
	if a.boards == "" {
		return nil, errors.New("--boards is required for a new event: the sets' board ids, board 1 first")
	}
	var ps []tournament.Player
	if a.players != "" {
		f, err := os.Open(a.players)
		if err != nil {
			return nil, fmt.Errorf("--players: %w", err)
		}
		defer f.Close()
		if ps, err = tournament.ReadPlayers(f, a.players); err != nil {
			return nil, err
		}
	}
	cfg := event.Config{Name: a.name, Site: a.site, System: tournament.System(a.system), Rounds: a.rounds,
		Boards: strings.Split(a.boards, ","), TimeControl: a.tc, Variant: a.variant, Options: a.options, ExhibitionTC: a.exTC}
	if a.tables != "" {
		cfg.Tables = strings.Split(a.tables, ",")
	}
	if cfg.System == tournament.Swiss && cfg.Rounds == 0 {
		cfg.Rounds = tournament.DefaultOpts().Rounds
	}
	return event.Create(eo, cfg, ps, link)
}

// eventTrust makes fo check the sets' states against the event's keyring
// in dir (trusting a set's key at its first signed state with firstUse)
// and sign the runner's commands with its key; it returns the keyring, for
// the desk to enrol the sets in.
func eventTrust(fo *mqtt.FollowerOpts, dir string, firstUse bool, log *slog.Logger) (*trust.Ring, error) {
	ring, err := event.OpenKeyring(dir, firstUse)
	if err != nil {
		return nil, err
	}
	co := trust.DefaultCheckerOpts(ring)
	co.Log = log
	fo.Checker = trust.NewChecker(co)
	fo.Signer, err = event.RunnerKey(dir)
	return ring, err
}
