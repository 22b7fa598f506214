package hall

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/tridboard/tridboard/internal/freeport"
)

// quietLog drops a node's log.
type quietLog struct{}

func (quietLog) Noticef(string, ...any) {}
func (quietLog) Warnf(string, ...any)   {}
func (quietLog) Fatalf(string, ...any)  {}
func (quietLog) Errorf(string, ...any)  {}
func (quietLog) Debugf(string, ...any)  {}
func (quietLog) Tracef(string, ...any)  {}

// Issue 34: the generated NATS cluster, three nodes started from the
// files, lets no stranger in: no anonymous or wrong login on MQTT, each
// account only what its role may (the same checks as Mosquitto's), and no
// server joins the cluster without the hall's certificate and the routes'
// password.
func TestNATSHall(t *testing.T) {
	dir := t.TempDir()
	var nodes []Node
	for i := range 3 {
		nodes = append(nodes, Node{Name: fmt.Sprintf("hall-%d", i+1), Host: "127.0.0.1", Listen: "127.0.0.1",
			ClientPort: freeport.Loopback(t), ClusterPort: freeport.Loopback(t), MQTTPort: freeport.Loopback(t),
			StoreDir: filepath.Join(dir, fmt.Sprintf("js-%d", i+1))})
	}
	p := DefaultPlan()
	p.Sets = []string{"enterprise", "klingon"}
	pw, err := Write(dir, p, WriteOpts{Mosquitto: DefaultMosquittoOpts(), Nodes: nodes, NATSDir: filepath.Join(dir, "nats")})
	if err != nil {
		t.Fatal(err)
	}
	var srvs []*server.Server
	for _, n := range nodes {
		o, err := server.ProcessConfigFile(filepath.Join(dir, "nats", n.Name+".conf"))
		if err != nil {
			t.Fatalf("%s: the generated configuration: %v", n.Name, err)
		}
		o.NoSigs = true
		s, err := server.NewServer(o)
		if err != nil {
			t.Fatalf("%s: %v", n.Name, err)
		}
		s.SetLogger(quietLog{}, false, false)
		go s.Start()
		t.Cleanup(s.Shutdown)
		srvs = append(srvs, s)
	}
	for i, s := range srvs {
		if !s.ReadyForConnections(60 * time.Second) {
			t.Fatalf("%s not ready", nodes[i].Name)
		}
	}
	url := fmt.Sprintf("tcp://127.0.0.1:%d", nodes[0].MQTTPort)
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		c, err := hallClient(url, "spectator", pw["spectator"], "probe")
		if err == nil {
			c.Disconnect(0)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster takes no MQTT login: %v", err)
		}
	}
	for i, s := range srvs {
		if s.NumRoutes() == 0 {
			t.Errorf("%s has no route: the nodes did not cluster with their credentials", nodes[i].Name)
		}
	}
	checkHall(t, url, pw)

	// NATS's own port: no anonymous client; an account may not touch
	// JetStream's API (purge the retained messages, the sessions).
	natsSay := func(connect, then string) string {
		t.Helper()
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", nodes[0].ClientPort), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		r := bufio.NewReader(c)
		r.ReadString('\n') // INFO
		fmt.Fprintf(c, "CONNECT %s\r\n%sPING\r\n", connect, then)
		var got strings.Builder
		for {
			line, err := r.ReadString('\n')
			got.WriteString(line)
			if err != nil || strings.HasPrefix(line, "PONG") || strings.Contains(line, "Authorization Violation") {
				return got.String()
			}
		}
	}
	if got := natsSay(`{"verbose":false}`, ""); !strings.Contains(got, "Authorization Violation") {
		t.Errorf("an anonymous NATS client: %q, want refused", got)
	}
	for _, u := range []string{"spectator", "set-enterprise", "event"} {
		got := natsSay(fmt.Sprintf(`{"verbose":false,"user":%q,"pass":%q}`, u, pw[u]), "PUB $JS.API.STREAM.PURGE.$MQTT_rmsgs 0\r\n\r\n")
		if !strings.Contains(got, "Permissions Violation for Publish") {
			t.Errorf("%s purging the retained messages: %q, want a permissions violation", u, got)
		}
	}

	// The cluster's door: a fourth server tries to join node 1's routes.
	// With a node's certificate and the routes' password it joins (the
	// control: the check can fail); without either it is refused, and it
	// says so in its log.
	nd := filepath.Join(dir, "nats")
	other, _ := NewCA(time.Now())
	oc, ok, _ := other.Issue("127.0.0.1", time.Now())
	os.WriteFile(filepath.Join(dir, "other.pem"), oc, 0o600)
	os.WriteFile(filepath.Join(dir, "other-key.pem"), ok, 0o600)
	os.WriteFile(filepath.Join(dir, "other-ca.pem"), other.PEM(), 0o600)
	hallTLS := &server.TLSConfigOpts{CertFile: filepath.Join(nd, "hall-2.pem"), KeyFile: filepath.Join(nd, "hall-2-key.pem"),
		CaFile: filepath.Join(nd, "ca.pem"), Verify: true}
	foreignTLS := &server.TLSConfigOpts{CertFile: filepath.Join(dir, "other.pem"), KeyFile: filepath.Join(dir, "other-key.pem"),
		CaFile: filepath.Join(dir, "other-ca.pem"), Verify: true}
	withPW := fmt.Sprintf("nats-route://%s:%s@127.0.0.1:%d", RouteUser, pw[RouteUser], nodes[0].ClusterPort)
	noPW := fmt.Sprintf("nats-route://127.0.0.1:%d", nodes[0].ClusterPort)
	for _, tc := range []struct {
		name  string
		tls   *server.TLSConfigOpts
		route string
		joins bool
	}{
		{"a node's certificate and the password", hallTLS, withPW, true},
		{"no TLS, no password", nil, noPW, false},
		{"no TLS, the password", nil, withPW, false},
		{"another CA's certificate, the password", foreignTLS, withPW, false},
		{"a node's certificate, no password", hallTLS, noPW, false},
		{"a node's certificate, a wrong password", hallTLS, strings.Replace(withPW, pw[RouteUser], "guess", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &server.Options{ServerName: "rogue", Host: "127.0.0.1", Port: freeport.Loopback(t), NoSigs: true,
				Cluster: server.ClusterOpts{Name: "hall", Host: "127.0.0.1", Port: freeport.Loopback(t)},
				Routes:  server.RoutesFromStr(tc.route)}
			if tc.tls != nil {
				tcfg, err := server.GenTLSConfig(tc.tls)
				if err != nil {
					t.Fatal(err)
				}
				tcfg.RootCAs = tcfg.ClientCAs // a route is client and server (as NATS's configuration does)
				o.Cluster.TLSConfig, o.Cluster.TLSTimeout = tcfg, 2
			}
			log := &errLog{}
			s, err := server.NewServer(o)
			if err != nil {
				t.Fatal(err)
			}
			s.SetLogger(log, true, false)
			go s.Start()
			defer s.Shutdown()
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if tc.joins && s.NumRoutes() > 0 {
					return
				}
				if !tc.joins && log.errors() > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("neither joined nor refused in 30 s (joins %v)", tc.joins)
				}
			}
			if s.NumRoutes() != 0 {
				t.Errorf("joined the cluster: %d routes", s.NumRoutes())
			}
		})
	}
}

// errLog counts a server's errors and its routes closed.
type errLog struct {
	quietLog
	mu sync.Mutex
	n  int
}

func (l *errLog) Errorf(string, ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
}

func (l *errLog) Debugf(f string, v ...any) {
	if strings.Contains(fmt.Sprintf(f, v...), "closed") {
		l.Errorf(f)
	}
}

func (l *errLog) Noticef(f string, v ...any) { l.Debugf(f, v...) }

func (l *errLog) errors() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}
