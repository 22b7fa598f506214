// Package natstest runs a real NATS cluster for tests: three nats-server
// nodes in this process, built from the nats-server module, clustered over
// loopback routes, each with JetStream (file storage in a temporary
// directory) and an MQTT listener, so that a hall's sets and displays can be
// tested against the broker a hall would run, a node killed and brought
// back included, or frozen as its clients see it (StartFreezable).
package natstest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/nats-io/nats-server/v2/server"

	"github.com/tridboard/tridboard/internal/freeport"
)

// Cluster is three nodes, or fewer while one is down.
type Cluster struct {
	t     testing.TB
	nodes []*node
}

type node struct {
	name            string
	opts            *server.Options
	srv             *server.Server
	log             *logTail
	mqttURL         string // the node's MQTT listener, or its proxy's (StartFreezable)
	proxy           *proxy
	mqttPort, cport int
}

// readyWithin is how long a node may take to listen: generous, for a
// machine running every package's tests at once.
const readyWithin = 60 * time.Second

// Start starts a cluster of n nodes (3 for a quorum that survives one
// loss) and waits until it is ready (WaitReady); it stops when t ends.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	return start(t, n, false)
}

func start(t testing.TB, n int, freezable bool) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	dir := t.TempDir()
	var routes []string
	for i := 0; i < n; i++ {
		nd := &node{name: fmt.Sprintf("hall-%d", i+1), mqttPort: freeport.Loopback(t), cport: freeport.Loopback(t)}
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", nd.cport))
		c.nodes = append(c.nodes, nd)
	}
	for i, nd := range c.nodes {
		nd.opts = &server.Options{
			ServerName: nd.name,
			Host:       "127.0.0.1",
			Port:       freeport.Loopback(t),
			NoSigs:     true,
			JetStream:  true,
			StoreDir:   filepath.Join(dir, nd.name),
			Cluster:    server.ClusterOpts{Name: "hall", Host: "127.0.0.1", Port: nd.cport},
			Routes:     server.RoutesFromStr(strings.Join(append(append([]string(nil), routes[:i]...), routes[i+1:]...), ",")),
			MQTT:       server.MQTTOpts{Host: "127.0.0.1", Port: nd.mqttPort, StreamReplicas: min(n, 3)},
		}
		nd.mqttURL = fmt.Sprintf("tcp://127.0.0.1:%d", nd.mqttPort)
		if freezable {
			nd.proxy = newProxy(t, fmt.Sprintf("127.0.0.1:%d", nd.mqttPort))
			nd.mqttURL = "tcp://" + nd.proxy.addr()
		}
	}
	for i := range c.nodes {
		c.start(i)
	}
	t.Cleanup(c.Stop)
	c.WaitReady()
	return c
}

func (c *Cluster) start(i int) {
	c.t.Helper()
	nd := c.nodes[i]
	opts := *nd.opts
	s, err := server.NewServer(&opts)
	if err != nil {
		c.t.Fatalf("natstest: %s: %v", nd.name, err)
	}
	nd.log = &logTail{echo: os.Getenv("NATSTEST_LOG") != "", name: nd.name}
	s.SetLogger(nd.log, false, false)
	nd.srv = s // Stop shuts it down, ready or not
	go s.Start()
	if !s.ReadyForConnections(readyWithin) {
		missing := []string{}
		if s.Addr() == nil {
			missing = append(missing, "clients")
		}
		if s.ClusterAddr() == nil {
			missing = append(missing, "routes")
		}
		c.t.Fatalf("natstest: %s not listening within %s (%s); what it logged last:\n%s",
			nd.name, readyWithin, strings.Join(missing, ", "), nd.log.String())
	}
}

// logTail keeps a node's last log lines, shown when the node fails to
// start; with NATSTEST_LOG set it prints every line as well. A fatal line
// is kept like the others: the node fails and the test says why.
type logTail struct {
	name  string
	echo  bool
	mu    sync.Mutex
	lines []string
}

func (l *logTail) add(level, format string, v ...any) {
	line := level + " " + fmt.Sprintf(format, v...)
	if l.echo {
		fmt.Fprintf(os.Stderr, "%s: %s\n", l.name, line)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	if len(l.lines) > 40 {
		l.lines = l.lines[len(l.lines)-40:]
	}
}

func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func (l *logTail) Noticef(f string, v ...any) { l.add("[INF]", f, v...) }
func (l *logTail) Warnf(f string, v ...any)   { l.add("[WRN]", f, v...) }
func (l *logTail) Fatalf(f string, v ...any)  { l.add("[FTL]", f, v...) }
func (l *logTail) Errorf(f string, v ...any)  { l.add("[ERR]", f, v...) }
func (l *logTail) Debugf(f string, v ...any)  {}
func (l *logTail) Tracef(f string, v ...any)  {}

// WaitReady waits until the running nodes agree on a JetStream leader and
// every one takes MQTT connections: a node listens before its MQTT
// sessions' streams exist, and until they do it closes the connections it
// accepts.
func (c *Cluster) WaitReady() {
	c.t.Helper()
	deadline := time.Now().Add(readyWithin)
	for ; ; time.Sleep(50 * time.Millisecond) {
		leader := false
		for _, nd := range c.nodes {
			if nd.srv != nil && nd.srv.JetStreamIsLeader() {
				leader = true
			}
		}
		if leader {
			break
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("natstest: no JetStream leader within %s", readyWithin)
		}
	}
	for _, nd := range c.nodes {
		if nd.srv == nil {
			continue
		}
		var err error
		for err = probe(nd.mqttURL); err != nil; err = probe(nd.mqttURL) {
			if time.Now().After(deadline) {
				c.t.Fatalf("natstest: %s takes no MQTT connection within %s: %v; what it logged last:\n%s",
					nd.name, readyWithin, err, nd.log.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// probe connects to an MQTT listener and disconnects.
func probe(url string) error {
	cli := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID("natstest-probe").
		SetCleanSession(true).SetProtocolVersion(4).SetAutoReconnect(false).SetConnectTimeout(5 * time.Second))
	tok := cli.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		return fmt.Errorf("no CONNACK in 10 s")
	}
	if err := tok.Error(); err != nil {
		return err
	}
	cli.Disconnect(0)
	return nil
}

// MQTT returns the MQTT URL of node i (from 0).
func (c *Cluster) MQTT(i int) string { return c.nodes[i].mqttURL }

// Brokers is every node's MQTT URL, separated by commas, as a set's
// mqtt.broker takes them.
func (c *Cluster) Brokers() string {
	var out []string
	for _, nd := range c.nodes {
		out = append(out, nd.mqttURL)
	}
	return strings.Join(out, ",")
}

// Kill stops node i at once, as a machine that dies.
func (c *Cluster) Kill(i int) {
	if s := c.nodes[i].srv; s != nil {
		s.Shutdown()
		s.WaitForShutdown()
		c.nodes[i].srv = nil
	}
}

// Restart brings node i back on its ports and its storage.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	c.start(i)
}

// Stop stops every node.
func (c *Cluster) Stop() {
	for i, nd := range c.nodes {
		c.Kill(i)
		if nd.proxy != nil {
			nd.proxy.close()
		}
	}
}

// Clients returns the MQTT client ids connected to node i now (none when
// it is down): where the sets and the views are, when a test fails.
func (c *Cluster) Clients(i int) []string {
	s := c.nodes[i].srv
	if s == nil {
		return nil
	}
	cz, err := s.Connz(&server.ConnzOptions{Limit: 1 << 20})
	if err != nil {
		return nil
	}
	var out []string
	for _, ci := range cz.Conns {
		if ci.MQTTClient != "" {
			out = append(out, ci.MQTTClient)
		}
	}
	return out
}

// ClientStats describes the MQTT clients on node i whose id holds part:
// the messages the node sent each and its subscriptions (to tell a node
// that delivers nothing from a client that drops what it gets).
func (c *Cluster) ClientStats(i int, part string) []string {
	s := c.nodes[i].srv
	if s == nil {
		return nil
	}
	cz, err := s.Connz(&server.ConnzOptions{Limit: 1 << 20, Subscriptions: true})
	if err != nil {
		return nil
	}
	var out []string
	for _, ci := range cz.Conns {
		if strings.Contains(ci.MQTTClient, part) {
			out = append(out, fmt.Sprintf("%s on %s: %d messages out, %d in, subscriptions %v",
				ci.MQTTClient, c.nodes[i].name, ci.OutMsgs, ci.InMsgs, ci.Subs))
		}
	}
	return out
}

// The streams in which nats-server keeps MQTT: the sessions (read and
// written by every CONNECT), the QoS 1 messages (stored before the PUBACK)
// and the retained messages.
const (
	SessionStream  = "$MQTT_sess"
	MessageStream  = "$MQTT_msgs"
	RetainedStream = "$MQTT_rmsgs"
)

// StreamLeader returns the node (from 0) that leads stream of the MQTT
// clients' account now, or -1 when no running node does (an election
// under way).
func (c *Cluster) StreamLeader(stream string) int {
	for i, nd := range c.nodes {
		if nd.srv != nil && nd.srv.JetStreamIsStreamLeader(server.DEFAULT_GLOBAL_ACCOUNT, stream) {
			return i
		}
	}
	return -1
}

// MetaLeader returns the node (from 0) that leads JetStream's meta group,
// or -1.
func (c *Cluster) MetaLeader() int {
	for i, nd := range c.nodes {
		if nd.srv != nil && nd.srv.JetStreamIsLeader() {
			return i
		}
	}
	return -1
}
