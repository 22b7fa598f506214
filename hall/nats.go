package hall

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// Node is one node of the NATS cluster.
type Node struct {
	// Name is its server_name; Host the name or address the other nodes
	// and the sets reach it by (its certificate names it).
	Name, Host string
	// Listen is the address its listeners bind ("0.0.0.0").
	Listen string
	// Ports: NATS clients, the cluster's routes, MQTT, monitoring (on
	// loopback only; 0 none).
	ClientPort, ClusterPort, MQTTPort, HTTPPort int
	// StoreDir is JetStream's directory.
	StoreDir string
}

// DefaultNodes are three nodes hall-1..hall-3 on the usual ports.
func DefaultNodes(hosts ...string) []Node {
	if len(hosts) == 0 {
		hosts = []string{"hall-1", "hall-2", "hall-3"}
	}
	var ns []Node
	for _, h := range hosts {
		ns = append(ns, Node{Name: h, Host: h, Listen: "0.0.0.0", ClientPort: 4222, ClusterPort: 6222, MQTTPort: 1883,
			HTTPPort: 8222, StoreDir: "/var/lib/nats"})
	}
	return ns
}

// RouteUser is the account the nodes' routes log in with.
const RouteUser = "route"

// NATSFiles names the PEM files of a node's TLS, as installed.
type NATSFiles struct {
	CA, Cert, Key string
}

// natsSubject is an MQTT topic filter as a NATS subject: '/' is '.', '+'
// is '*', '#' is '>'.
func natsSubject(topic string) string {
	return strings.NewReplacer("/", ".", "+", "*", "#", ">").Replace(topic)
}

func quote(s string) string { return strconv.Quote(s) }

// NATS returns node i's configuration: the hall's accounts (every user of
// p with its rights, its password bcrypt-hashed from passwords; JetStream
// on, for MQTT), the cluster with a route login (passwords[RouteUser]) and
// TLS verifying the other nodes' certificates, MQTT with every stream on
// all nodes, no anonymous access anywhere.
func NATS(p Plan, nodes []Node, i int, files NATSFiles, passwords map[string]string) ([]byte, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if i < 0 || i >= len(nodes) {
		return nil, fmt.Errorf("hall: node %d of %d", i, len(nodes))
	}
	route, ok := passwords[RouteUser]
	if !ok {
		return nil, fmt.Errorf("hall: no password for the routes (%s)", RouteUser)
	}
	n := nodes[i]
	var c strings.Builder
	fmt.Fprintf(&c, "# tridboard hall, node %s: written by \"tridboard hall\"; docs/hall.md\n", n.Name)
	fmt.Fprintf(&c, "server_name: %s\n", quote(n.Name))
	fmt.Fprintf(&c, "listen: %s\n", quote(net.JoinHostPort(n.Listen, strconv.Itoa(n.ClientPort))))
	if n.HTTPPort > 0 {
		fmt.Fprintf(&c, "http: %s\n", quote(net.JoinHostPort("127.0.0.1", strconv.Itoa(n.HTTPPort))))
	}
	fmt.Fprintf(&c, "max_payload: 262144\n")
	fmt.Fprintf(&c, "jetstream {\n  store_dir: %s\n  max_file_store: 2G\n}\n", quote(n.StoreDir))
	fmt.Fprintf(&c, "accounts {\n  HALL {\n    jetstream: enabled\n    users: [\n")
	rights := p.Rights()
	for _, u := range p.Users() {
		pw, ok := passwords[u]
		if !ok {
			return nil, fmt.Errorf("hall: no password for %s", u)
		}
		h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
		if err != nil {
			return nil, err
		}
		r := rights[u]
		subjects := func(ts []string) string {
			var q []string
			for _, t := range ts {
				q = append(q, quote(natsSubject(t)))
			}
			return "[" + strings.Join(q, ", ") + "]"
		}
		// An empty allow list would allow nothing but reads as "no
		// rule" to NATS: a spectator's publish is denied with ">".
		pub := fmt.Sprintf("{allow: %s}", subjects(r.Publish))
		if len(r.Publish) == 0 {
			pub = `{deny: [">"]}`
		}
		fmt.Fprintf(&c, "      {user: %s, password: %s, permissions: {publish: %s, subscribe: {allow: %s}}}\n",
			quote(u), quote(string(h)), pub, subjects(r.Subscribe))
	}
	fmt.Fprintf(&c, "    ]\n  }\n}\n")
	fmt.Fprintf(&c, "cluster {\n  name: hall\n  listen: %s\n", quote(net.JoinHostPort(n.Listen, strconv.Itoa(n.ClusterPort))))
	fmt.Fprintf(&c, "  authorization {\n    user: %s\n    password: %s\n    timeout: 2\n  }\n", quote(RouteUser), quote(route))
	fmt.Fprintf(&c, "  tls {\n    ca_file: %s\n    cert_file: %s\n    key_file: %s\n    verify: true\n    timeout: 2\n  }\n",
		quote(files.CA), quote(files.Cert), quote(files.Key))
	var routes []string
	for j, o := range nodes {
		if j != i {
			routes = append(routes, quote(fmt.Sprintf("nats-route://%s:%s@%s", RouteUser, route,
				net.JoinHostPort(o.Host, strconv.Itoa(o.ClusterPort)))))
		}
	}
	fmt.Fprintf(&c, "  routes: [%s]\n}\n", strings.Join(routes, ", "))
	fmt.Fprintf(&c, "mqtt {\n  listen: %s\n  stream_replicas: %d\n  ack_wait: \"30s\"\n}\n",
		quote(net.JoinHostPort(n.Listen, strconv.Itoa(n.MQTTPort))), min(len(nodes), 3))
	return []byte(c.String()), nil
}
