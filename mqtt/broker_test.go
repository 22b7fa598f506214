package mqtt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/tridboard/tridboard/internal/freeport"
)

func TestStartBrokerRefuses(t *testing.T) {
	tests := []struct {
		name string
		opts BrokerOpts
		want string
	}{
		{"all interfaces without credentials", BrokerOpts{Addr: ":0"}, `mqtt: embedded broker: listener ":0" is reachable beyond loopback: set a username and password`},
		{"IPv4 any without credentials", BrokerOpts{Addr: "0.0.0.0:1883"}, `mqtt: embedded broker: listener "0.0.0.0:1883" is reachable beyond loopback: set a username and password`},
		{"IPv6 any without credentials", BrokerOpts{Addr: "[::]:1883"}, `mqtt: embedded broker: listener "[::]:1883" is reachable beyond loopback: set a username and password`},
		{"LAN address without credentials", BrokerOpts{Addr: "192.168.1.20:1883"}, `mqtt: embedded broker: listener "192.168.1.20:1883" is reachable beyond loopback: set a username and password`},
		{"host name without credentials", BrokerOpts{Addr: "chess.local:1883"}, `mqtt: embedded broker: listener "chess.local:1883" is reachable beyond loopback: set a username and password`},
		{"websocket beyond loopback", BrokerOpts{Addr: "127.0.0.1:0", WSAddr: "0.0.0.0:8080"}, `mqtt: embedded broker: listener "0.0.0.0:8080" is reachable beyond loopback: set a username and password`},
		{"password without user", BrokerOpts{Addr: "0.0.0.0:0", Password: "x"}, `mqtt: embedded broker: set both a username and a password, or neither`},
		{"no address", BrokerOpts{}, `mqtt: embedded broker: no TCP address`},
		{"bad address", BrokerOpts{Addr: "1883"}, `mqtt: embedded broker: listener "1883": address 1883: missing port in address`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Logger = quiet
			b, err := StartBroker(tt.opts)
			if err == nil {
				b.Close()
				t.Fatalf("StartBroker(%+v) started", tt.opts)
			}
			if err.Error() != tt.want {
				t.Fatalf("error %q\n want %q", err, tt.want)
			}
		})
	}
}

func TestStartBrokerListens(t *testing.T) {
	busy := freeport.Addr(t)
	first, err := StartBroker(BrokerOpts{Addr: busy, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	tests := []struct {
		name    string
		opts    BrokerOpts
		wantErr string
	}{
		{"loopback without credentials", BrokerOpts{Addr: "127.0.0.1:0"}, ""},
		{"localhost without credentials", BrokerOpts{Addr: "localhost:0"}, ""},
		{"any with credentials", BrokerOpts{Addr: "0.0.0.0:0", WSAddr: "0.0.0.0:0", Username: "u", Password: "p"}, ""},
		{"TCP port busy", BrokerOpts{Addr: busy}, "mqtt: embedded broker: listen tcp " + busy + ": listen tcp " + busy + ": bind: address already in use"},
		{"websocket port busy", BrokerOpts{Addr: "127.0.0.1:0", WSAddr: busy}, "mqtt: embedded broker: listen websocket " + busy + ": listen tcp " + busy + ": bind: address already in use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Logger = quiet
			b, err := StartBroker(tt.opts)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				b.Close()
			}
			if got != tt.wantErr {
				t.Fatalf("error %q\n want %q", got, tt.wantErr)
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o644)
	tests := []struct {
		name string
		edit func(o *Opts)
		want string
	}{
		{"no broker", func(o *Opts) { o.Broker = "" }, "mqtt: no broker URL"},
		{"bad scheme", func(o *Opts) { o.Broker = "http://example.com:1883" }, `mqtt: broker "http://example.com:1883": scheme "http": want tcp, ssl, ws or wss (or mqtt, mqtts, tls)`},
		{"no host", func(o *Opts) { o.Broker = "tcp://" }, `mqtt: broker "tcp://": no host`},
		{"a bad node in a list", func(o *Opts) { o.Broker = "tcp://a:1883,ws//b" }, `mqtt: broker "ws//b": scheme "": want tcp, ssl, ws or wss (or mqtt, mqtts, tls)`},
		{"an empty entry", func(o *Opts) { o.Broker = "tcp://a:1883,,tcp://b:1883" }, `mqtt: broker list "tcp://a:1883,,tcp://b:1883": an empty entry`},
		{"a node twice", func(o *Opts) { o.Broker = "tcp://a:1883, tcp://a:1883" }, `mqtt: broker "tcp://a:1883": listed twice`},
		{"board with slash", func(o *Opts) { o.BoardID = "a/b" }, `mqtt: board id "a/b": must be one topic level, without '/'`},
		{"board with wildcard", func(o *Opts) { o.BoardID = "a+" }, `mqtt: board id "a+": holds a wildcard or NUL`},
		{"empty prefix", func(o *Opts) { o.Prefix = "" }, `mqtt: topic prefix "": empty`},
		{"prefix with empty level", func(o *Opts) { o.Prefix = "home//chess" }, `mqtt: topic prefix "home//chess": has an empty level`},
		{"system prefix", func(o *Opts) { o.Prefix = "$SYS" }, `mqtt: topic prefix "$SYS": starts with '$', reserved for brokers`},
		{"no state dir", func(o *Opts) { o.StateDir = "" }, "mqtt: outbox: no state directory"},
		{"missing CA", func(o *Opts) { o.CAFile = filepath.Join(dir, "none.pem") }, "mqtt: broker tcp://127.0.0.1:1883: CA file: open " + filepath.Join(dir, "none.pem") + ": no such file or directory"},
		{"CA not PEM", func(o *Opts) { o.CAFile = notPEM }, "mqtt: broker tcp://127.0.0.1:1883: CA file " + notPEM + ": no PEM certificate in it"},
		{"cert without key", func(o *Opts) { o.CertFile = notPEM }, "mqtt: broker tcp://127.0.0.1:1883: client certificate: set both a certificate file and a key file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOpts()
			o.StateDir = t.TempDir()
			o.Logger = quiet
			tt.edit(&o)
			c, err := New(o, nil)
			if err == nil {
				c.Close(t.Context())
				t.Fatal("New succeeded")
			}
			if err.Error() != tt.want {
				t.Fatalf("error %q\n want %q", err, tt.want)
			}
		})
	}
}

// TestBrokerStoreKeepsSessions: with StorePath, a display's persistent
// session survives a restart of the broker, and a QoS 1 message published
// while the display is away reaches it when it comes back.
func TestBrokerStoreKeepsSessions(t *testing.T) {
	store := filepath.Join(t.TempDir(), "broker.db")
	start := func(addr string) *Broker {
		b, err := StartBroker(BrokerOpts{Addr: addr, StorePath: store, Prefix: "tridboard", BoardID: "board", Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := start("127.0.0.1:0")
	addr := strings.TrimPrefix(b.URL(), "tcp://")
	got := make(chan string, 4)
	display := func() paho.Client {
		o := paho.NewClientOptions().AddBroker(b.URL()).SetClientID("display").SetCleanSession(false).
			SetAutoReconnect(false)
		o.SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) })
		c := paho.NewClient(o)
		if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("connect: %v", tok.Error())
		}
		return c
	}
	c := display()
	if tok := c.Subscribe(moveTopic, 1, nil); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	c.Disconnect(100)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	b = start(addr)
	defer b.Close()
	user, pass := b.LocalLogin()
	pub := paho.NewClient(paho.NewClientOptions().AddBroker(b.URL()).SetClientID("daemon").SetUsername(user).SetPassword(pass))
	if tok := pub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	if tok := pub.Publish(moveTopic, 1, false, "seq 7"); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("publish: %v", tok.Error())
	}
	pub.Disconnect(100)
	// mochi sends the PUBACK before it hands the message to the subscribers'
	// sessions: wait until the stored session holds it, as a display coming
	// back a moment later would find it.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if cl, ok := b.srv.Clients.Get("display"); ok && cl.State.Inflight.Len() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the broker never queued the message for the away display")
		}
	}
	c = display()
	defer c.Disconnect(100)
	select {
	case m := <-got:
		if m != "seq 7" {
			t.Fatalf("got %q", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the message published while the display was away never arrived")
	}
}
