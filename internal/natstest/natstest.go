// Package natstest runs a real NATS cluster for tests: three nats-server
// nodes in this process, built from the nats-server module, clustered over
// loopback routes, each with JetStream (file storage in a temporary
// directory) and an MQTT listener, so that a hall's sets and displays can be
// tested against the broker a hall would run, a node killed and brought
// back included.
package natstest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
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
	mqttURL, nats   string
	mqttPort, cport int
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Start starts a cluster of n nodes (3 for a quorum that survives one
// loss) and waits until JetStream has a leader; it stops when t ends.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	dir := t.TempDir()
	var routes []string
	for i := 0; i < n; i++ {
		nd := &node{name: fmt.Sprintf("hall-%d", i+1), mqttPort: freePort(t), cport: freePort(t)}
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", nd.cport))
		c.nodes = append(c.nodes, nd)
	}
	for i, nd := range c.nodes {
		nd.opts = &server.Options{
			ServerName: nd.name,
			Host:       "127.0.0.1",
			Port:       freePort(t),
			NoLog:      os.Getenv("NATSTEST_LOG") == "",
			NoSigs:     true,
			JetStream:  true,
			StoreDir:   filepath.Join(dir, nd.name),
			Cluster:    server.ClusterOpts{Name: "hall", Host: "127.0.0.1", Port: nd.cport},
			Routes:     server.RoutesFromStr(strings.Join(append(append([]string(nil), routes[:i]...), routes[i+1:]...), ",")),
			MQTT:       server.MQTTOpts{Host: "127.0.0.1", Port: nd.mqttPort, StreamReplicas: min(n, 3)},
		}
		nd.mqttURL = fmt.Sprintf("tcp://127.0.0.1:%d", nd.mqttPort)
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
	if !opts.NoLog {
		s.ConfigureLogger()
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		c.t.Fatalf("natstest: %s not ready", nd.name)
	}
	nd.srv = s
}

// WaitReady waits until the running nodes agree on a JetStream leader and
// every one takes MQTT connections.
func (c *Cluster) WaitReady() {
	c.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		leader := false
		for _, nd := range c.nodes {
			if nd.srv != nil && nd.srv.JetStreamIsLeader() {
				leader = true
			}
		}
		if leader {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatal("natstest: no JetStream leader within 60 s")
		}
	}
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
	for i := range c.nodes {
		c.Kill(i)
	}
}
