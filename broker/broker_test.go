package broker

import (
	"github.com/tridboard/tridboard/internal/mqtttest"
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
		opts Opts
		want string
	}{
		{"all interfaces without credentials", Opts{Addr: ":0"}, `mqtt: embedded broker: listener ":0" is reachable beyond loopback: set a username and password`},
		{"IPv4 any without credentials", Opts{Addr: "0.0.0.0:1883"}, `mqtt: embedded broker: listener "0.0.0.0:1883" is reachable beyond loopback: set a username and password`},
		{"IPv6 any without credentials", Opts{Addr: "[::]:1883"}, `mqtt: embedded broker: listener "[::]:1883" is reachable beyond loopback: set a username and password`},
		{"LAN address without credentials", Opts{Addr: "192.168.1.20:1883"}, `mqtt: embedded broker: listener "192.168.1.20:1883" is reachable beyond loopback: set a username and password`},
		{"host name without credentials", Opts{Addr: "chess.local:1883"}, `mqtt: embedded broker: listener "chess.local:1883" is reachable beyond loopback: set a username and password`},
		{"websocket beyond loopback", Opts{Addr: "127.0.0.1:0", WSAddr: "0.0.0.0:8080"}, `mqtt: embedded broker: listener "0.0.0.0:8080" is reachable beyond loopback: set a username and password`},
		{"password without user", Opts{Addr: "0.0.0.0:0", Password: "x"}, `mqtt: embedded broker: set both a username and a password, or neither`},
		{"no address", Opts{}, `mqtt: embedded broker: no TCP address`},
		{"bad address", Opts{Addr: "1883"}, `mqtt: embedded broker: listener "1883": address 1883: missing port in address`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Logger = mqtttest.Quiet
			b, err := Start(tt.opts)
			if err == nil {
				b.Close()
				t.Fatalf("Start(%+v) started", tt.opts)
			}
			if err.Error() != tt.want {
				t.Fatalf("error %q\n want %q", err, tt.want)
			}
		})
	}
}

func TestStartBrokerListens(t *testing.T) {
	busy := freeport.Addr(t)
	first, err := Start(Opts{Addr: busy, Logger: mqtttest.Quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	tests := []struct {
		name    string
		opts    Opts
		wantErr string
	}{
		{"loopback without credentials", Opts{Addr: "127.0.0.1:0"}, ""},
		{"localhost without credentials", Opts{Addr: "localhost:0"}, ""},
		{"any with credentials", Opts{Addr: "0.0.0.0:0", WSAddr: "0.0.0.0:0", Username: "u", Password: "p"}, ""},
		{"TCP port busy", Opts{Addr: busy}, "mqtt: embedded broker: listen tcp " + busy + ": listen tcp " + busy + ": bind: address already in use"},
		{"websocket port busy", Opts{Addr: "127.0.0.1:0", WSAddr: busy}, "mqtt: embedded broker: listen websocket " + busy + ": listen tcp " + busy + ": bind: address already in use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Logger = mqtttest.Quiet
			b, err := Start(tt.opts)
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

// TestBrokerStoreKeepsSessions: with StorePath, a display's persistent
// session survives a restart of the broker, and a QoS 1 message published
// while the display is away reaches it when it comes back.
func TestBrokerStoreKeepsSessions(t *testing.T) {
	store := filepath.Join(t.TempDir(), "broker.db")
	start := func(addr string) *Broker {
		b, err := Start(Opts{Addr: addr, StorePath: store, Prefix: "tridboard", BoardID: "board", Logger: mqtttest.Quiet})
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
