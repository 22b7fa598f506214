// Command brokerfit embeds one MQTT broker in a tiny Go program, so that its
// memory and idle CPU can be measured on its own, natively or as armv6 and
// arm64 under qemu-user (docs/mqtt.md, "The embedded broker: decision"):
//
//	brokerfit -broker mochi -state DIR -listen 127.0.0.1:1883
//	brokerfit -broker nats  -state DIR -listen 127.0.0.1:1883
//
// mochi is today's embedded broker (broker.Start, with its store in
// DIR/broker.db); nats is nats-server embedded as the set's broker would
// be: an MQTT 3.1.1 listener and an MQTT-over-websocket one, JetStream on
// DIR, and a user per role (daemon, controller, display, spectator) with
// the permissions of docs/mqtt.md. It runs until SIGINT or SIGTERM.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/tridboard/tridboard/broker"
)

func main() {
	kind := flag.String("broker", "nats", "the broker to embed: nats or mochi")
	state := flag.String("state", "", "the state `directory` (JetStream's store, or mochi's broker.db)")
	listen := flag.String("listen", "127.0.0.1:1883", "the MQTT listener's `address`")
	ws := flag.String("websocket", "", "the MQTT-over-websocket listener's `address`, or none")
	flag.BoolVar(&syncAlways, "sync-always", true, "nats: JetStream syncs every write to disk (sync_interval: always); false: every 2 minutes, nats-server's default")
	flag.Parse()
	if *state == "" {
		fmt.Fprintln(os.Stderr, "brokerfit: -state DIR is required")
		os.Exit(2)
	}
	var stop func()
	var err error
	switch *kind {
	case "nats":
		stop, err = startNATS(*state, *listen, *ws)
	case "mochi":
		stop, err = startMochi(*state, *listen, *ws)
	default:
		err = fmt.Errorf("-broker %q: want nats or mochi", *kind)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "brokerfit:", err)
		os.Exit(1)
	}
	fmt.Println("ready", os.Getpid())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	stop()
}

// The logins of the measured broker, one per role.
const (
	prefix = "tridboard.board" // the MQTT topics tridboard/board/#
	disco  = "homeassistant"
)

// syncAlways is JetStream's sync_interval: always, the setting a set that
// may lose its power at any moment would run.
var syncAlways bool

func startNATS(state, listen, ws string) (func(), error) {
	host, port, err := hostPort(listen)
	if err != nil {
		return nil, err
	}
	read := &server.SubjectPermission{Allow: []string{prefix, prefix + ".>", disco, disco + ".>"}}
	none := &server.SubjectPermission{Deny: []string{">"}}
	users := []*server.User{
		{Username: "daemon", Password: "daemon-secret"},
		{Username: "controller", Password: "controller-secret", Permissions: &server.Permissions{
			Publish: &server.SubjectPermission{Allow: []string{prefix + ".set.>"}}, Subscribe: read}},
		{Username: "display", Password: "display-secret", Permissions: &server.Permissions{Publish: none, Subscribe: read}},
		{Username: "spectator", Password: "spectator-secret", Permissions: &server.Permissions{Publish: none,
			Subscribe: &server.SubjectPermission{Allow: []string{prefix + ".state", prefix + ".move", prefix + ".availability"}}}},
	}
	o := &server.Options{
		ServerName: "tridboard", Host: "127.0.0.1", DontListen: true, NoSigs: true,
		JetStream: true, StoreDir: filepath.Join(state, "jetstream"), SyncAlways: syncAlways,
		// A set's broker keeps little: its game's state and the queues of
		// a few away displays.
		JetStreamMaxMemory: 16 << 20, JetStreamMaxStore: 256 << 20,
		MaxPayload: 256 << 10, MaxConn: 256,
		Users: users,
		MQTT:  server.MQTTOpts{Host: host, Port: port, AuthTimeout: 5, MaxAckPending: 1000},
	}
	if ws != "" {
		wh, wp, err := hostPort(ws)
		if err != nil {
			return nil, err
		}
		o.Websocket = server.WebsocketOpts{Host: wh, Port: wp, NoTLS: true, AuthTimeout: 5}
	}
	s, err := server.NewServer(o)
	if err != nil {
		return nil, fmt.Errorf("nats-server: %w", err)
	}
	s.ConfigureLogger()
	go s.Start()
	if !s.ReadyForConnections(60 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("nats-server: not ready within 60 s")
	}
	return func() { s.Shutdown(); s.WaitForShutdown() }, nil
}

func startMochi(state, listen, ws string) (func(), error) {
	o := broker.DefaultOpts()
	o.Addr, o.WSAddr = listen, ws
	o.StorePath = filepath.Join(state, "broker.db")
	o.Username, o.Password = "daemon", "daemon-secret"
	o.Accounts = []broker.Account{
		{Username: "controller", Role: broker.RoleController, Password: "controller-secret"},
		{Username: "display", Role: broker.RoleDisplay, Password: "display-secret"},
	}
	o.CommandRate = 10
	o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b, err := broker.Start(o)
	if err != nil {
		return nil, err
	}
	return func() { b.Close() }, nil
}

func hostPort(addr string) (string, int, error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("address %q: %w", addr, err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, fmt.Errorf("address %q: port: %w", addr, err)
	}
	return h, n, nil
}
