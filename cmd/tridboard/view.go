package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/web"
)

func init() {
	register("view", "serve the web displays of every set publishing on a broker", runView)
}

func runView(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	broker := fs.String("broker", "", "the broker's `URL` (tcp://, ssl://, ws://, wss://)")
	addr := fs.String("http", "127.0.0.1:8080", "the HTTP listen `address` (a LAN address shows it to the hall)")
	prefix := fs.String("prefix", "tridboard", "the topic `prefix` of the sets")
	user := fs.String("username", "", "the broker's user `name`")
	pass := fs.String("password", "", "the broker's `password`")
	delay := fs.Float64("delay", 0, "broadcast delay in `seconds`: moves are shown this late, on the pages and the feeds")
	eval := fs.Bool("eval", true, "show the engine's evaluation of each position (bar, best line, graph), never ahead of --delay")
	token := fs.String("token", "", "the sets' command `token`; the pages' game actions need it (off without it)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tridboard view --broker URL [--http ADDR] [--prefix P] [--username U --password P] [--delay S] [--eval=false] [--token T]")
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
	if *broker == "" {
		fmt.Fprintln(stderr, "tridboard view: --broker is required")
		return exitUsage
	}
	if *delay < 0 || *delay > 24*3600 {
		fmt.Fprintf(stderr, "tridboard view: --delay %g: want 0 to 86400 seconds\n", *delay)
		return exitUsage
	}
	ho := web.DefaultOpts()
	ho.Delay = time.Duration(*delay * float64(time.Second))
	ho.Eval = *eval
	hub := web.NewHub(ho)
	v, err := newViewer(viewerOpts{Broker: *broker, Prefix: *prefix, Username: *user, Password: *pass, Token: *token}, hub, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "tridboard view:", err)
		return exitFailure
	}
	defer v.Close()
	so := web.DefaultServerOpts()
	so.Commander, so.Token = v, *token
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

// viewerOpts configure a viewer.
type viewerOpts struct {
	Broker, Prefix, Username, Password string
	// Token is put into the commands the pages send, as the sets want it.
	Token string
	// ClientID defaults to tridboard-view-<pid>-<time>.
	ClientID string
}

// viewer feeds a hub from the topics of every set under a prefix, and
// passes the pages' commands on as <prefix>/<board>/set/<name>, waiting
// for the reply on response/<name>. It implements web.Commander.
type viewer struct {
	o      viewerOpts
	hub    *web.Hub
	cli    paho.Client
	log    io.Writer
	mu     sync.Mutex
	waits  map[string]chan mqtt.Response
	next   int
	logged map[string]time.Time
}

func newViewer(o viewerOpts, hub *web.Hub, log io.Writer) (*viewer, error) {
	if _, err := mqtt.NewTopics(o.Prefix, "x"); err != nil {
		return nil, err
	}
	if o.ClientID == "" {
		o.ClientID = fmt.Sprintf("tridboard-view-%d-%d", os.Getpid(), time.Now().UnixNano()%1e6)
	}
	v := &viewer{o: o, hub: hub, log: log, waits: map[string]chan mqtt.Response{}, logged: map[string]time.Time{}}
	po := paho.NewClientOptions().AddBroker(o.Broker).SetClientID(o.ClientID).
		SetUsername(o.Username).SetPassword(o.Password).SetCleanSession(true).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(time.Second).
		SetMaxReconnectInterval(10 * time.Second).SetOrderMatters(true)
	po.SetOnConnectHandler(func(c paho.Client) {
		p := o.Prefix + "/+/"
		filters := map[string]byte{}
		for _, s := range []string{mqtt.TopicState, mqtt.TopicMove, mqtt.TopicEvent, mqtt.TopicAvailability, mqtt.TopicResponse + "/+"} {
			filters[p+s] = 1
		}
		tok := c.SubscribeMultiple(filters, v.message)
		if tok.WaitTimeout(10*time.Second) && tok.Error() != nil {
			v.warn("subscribe", fmt.Sprintf("tridboard view: subscribing on %s: %v", o.Broker, tok.Error()))
		}
	})
	po.SetConnectionLostHandler(func(_ paho.Client, err error) {
		v.warn("lost", fmt.Sprintf("tridboard view: connection to %s lost: %v (reconnecting)", o.Broker, err))
	})
	v.cli = paho.NewClient(po)
	tok := v.cli.Connect() // retries in the background
	go func() {
		if !tok.WaitTimeout(5 * time.Second) {
			v.warn("connect", fmt.Sprintf("tridboard view: broker %s not reachable yet: retrying", o.Broker))
		}
	}()
	return v, nil
}

// warn logs, at most once a minute per kind.
func (v *viewer) warn(kind, msg string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if t, ok := v.logged[kind]; ok && time.Since(t) < time.Minute {
		return
	}
	v.logged[kind] = time.Now()
	fmt.Fprintln(v.log, msg)
}

// message dispatches a message of <prefix>/<board>/<kind>.
func (v *viewer) message(_ paho.Client, m paho.Message) {
	rest, ok := strings.CutPrefix(m.Topic(), v.o.Prefix+"/")
	if !ok {
		return
	}
	board, kind, _ := strings.Cut(rest, "/")
	bad := func(err error) {
		v.warn("payload "+kind, fmt.Sprintf("tridboard view: %s: %v (ignored)", m.Topic(), err))
	}
	switch {
	case kind == mqtt.TopicState:
		decodeTo(m.Payload(), bad, func(s mqtt.State) { v.hub.State(board, s) })
	case kind == mqtt.TopicMove:
		decodeTo(m.Payload(), bad, func(mv mqtt.Move) { v.hub.Move(board, mv) })
	case kind == mqtt.TopicEvent:
		decodeTo(m.Payload(), bad, func(e mqtt.Event) { v.hub.Event(board, e) })
	case kind == mqtt.TopicAvailability:
		v.hub.Availability(board, string(m.Payload()) == mqtt.Online)
	case strings.HasPrefix(kind, mqtt.TopicResponse+"/"):
		var r mqtt.Response
		if json.Unmarshal(m.Payload(), &r) != nil {
			return
		}
		var tr string
		if json.Unmarshal(r.Transaction, &tr) != nil {
			return
		}
		v.mu.Lock()
		ch := v.waits[tr]
		delete(v.waits, tr)
		v.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
}

// decodeTo decodes a JSON payload and hands it to f, or the error to bad.
func decodeTo[T any](payload []byte, bad func(error), f func(T)) {
	var v T
	if err := json.Unmarshal(payload, &v); err != nil {
		bad(err)
		return
	}
	f(v)
}

// Command publishes a command on <prefix>/<board>/set/<name> with a
// transaction of its own and waits for the reply.
func (v *viewer) Command(ctx context.Context, board, name string, payload []byte) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(payload, &fields); err != nil || fields == nil {
		return nil, errors.New("malformed payload: want a JSON object")
	}
	v.mu.Lock()
	v.next++
	tr := "view-" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(v.next)
	ch := make(chan mqtt.Response, 1)
	v.waits[tr] = ch
	v.mu.Unlock()
	defer func() {
		v.mu.Lock()
		delete(v.waits, tr)
		v.mu.Unlock()
	}()
	fields["transaction"], _ = json.Marshal(tr)
	if v.o.Token != "" {
		fields["token"], _ = json.Marshal(v.o.Token)
	}
	b, _ := json.Marshal(fields)
	topics, err := mqtt.NewTopics(v.o.Prefix, board)
	if err != nil {
		return nil, err
	}
	tok := v.cli.Publish(topics.Set(name), 1, false, b)
	select {
	case <-tok.Done():
		if tok.Error() != nil {
			return nil, fmt.Errorf("publishing on %s: %w", topics.Set(name), tok.Error())
		}
	case <-ctx.Done():
		return nil, fmt.Errorf("publishing on %s: %w", topics.Set(name), ctx.Err())
	}
	select {
	case r := <-ch:
		if r.Status != mqtt.StatusOK {
			return nil, errors.New(r.Reason)
		}
		return json.Marshal(r.Data)
	case <-ctx.Done():
		return nil, fmt.Errorf("no reply on %s: %w", topics.Response(name), ctx.Err())
	}
}

// Close disconnects from the broker.
func (v *viewer) Close() { v.cli.Disconnect(250) }
