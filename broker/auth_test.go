package broker

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"github.com/tridboard/tridboard/mqtt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"golang.org/x/crypto/argon2"
)

const (
	ctlUser, ctlPass   = "referee", "ctl-secret"
	dispUser, dispPass = "hall", "display-secret"
)

// logBuf is a slog handler's output, safe for concurrent writes.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// rolesBroker starts an embedded broker with a daemon, a controller and a
// display account, and records every message it routes.
func rolesBroker(t *testing.T, edit func(*Opts)) (*Broker, *mqtttest.Recorder, *logBuf) {
	t.Helper()
	r := mqtttest.NewRecorder()
	logs := &logBuf{}
	o := Opts{Addr: "127.0.0.1:0", Username: testUser, Password: testPass, DaemonClientID: "tridboard-board",
		Prefix: "tridboard", BoardID: "board", Discovery: "homeassistant", BcryptCost: 4, LoginBackoff: time.Millisecond, LoginBackoffMax: 10 * time.Millisecond,
		Accounts: []Account{{Username: ctlUser, Role: RoleController, Password: ctlPass},
			{Username: dispUser, Role: RoleDisplay, Password: dispPass}},
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})),
		onServe: func(s *mochi.Server) error {
			return s.Subscribe("#", 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
				r.Add(mqtttest.Rec{Topic: pk.TopicName, Payload: string(pk.Payload), Retained: pk.FixedHeader.Retain})
			})
		}}
	if edit != nil {
		edit(&o)
	}
	b, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, r, logs
}

func connectAs(t *testing.T, url, id, user, pass string) (paho.Client, error) {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(url).SetClientID(id).SetUsername(user).SetPassword(pass).
		SetAutoReconnect(false).SetConnectTimeout(5 * time.Second).SetProtocolVersion(mqtt.ProtocolVersion)
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		t.Fatal("connect timed out")
	}
	if tok.Error() == nil {
		t.Cleanup(func() { c.Disconnect(0) })
	}
	return c, tok.Error()
}

// TestBrokerRoles: a display subscribes to the board and publishes
// nothing; a controller publishes commands only, never retained; only the
// daemon's account keeps retained messages, and only on its own topics.
func TestBrokerRoles(t *testing.T) {
	b, r, _ := rolesBroker(t, nil)
	const base = "tridboard/board/"
	pubs := []struct {
		user, pass, topic string
		retain            bool
		delivered         bool
		retained          bool
	}{
		{dispUser, dispPass, base + "state", true, false, false},
		{dispUser, dispPass, base + "move", false, false, false},
		{dispUser, dispPass, base + "set/resync", false, false, false},
		{ctlUser, ctlPass, base + "set/resync", false, true, false},
		{ctlUser, ctlPass, base + "set/new_game", true, true, false},
		{ctlUser, ctlPass, base + "move", false, false, false},
		{ctlUser, ctlPass, base + "availability", true, false, false},
		{ctlUser, ctlPass, "elsewhere/x", false, false, false},
		{testUser, testPass, base + "state", true, true, true},
		{testUser, testPass, "homeassistant/sensor/x/config", true, true, true},
		{testUser, testPass, "elsewhere/y", true, true, false},
	}
	for i, p := range pubs {
		t.Run(fmt.Sprintf("%s publishes %s retain=%v", p.user, p.topic, p.retain), func(t *testing.T) {
			c, err := connectAs(t, b.URL(), fmt.Sprintf("c%d", i), p.user, p.pass)
			if err != nil {
				t.Fatal(err)
			}
			payload := fmt.Sprintf("p%d", i)
			mqtttest.WaitToken(t, c.Publish(p.topic, 0, p.retain, payload), "publish")
			// The broker reads a client's packets in order: once this SUBACK
			// is back, the publication has been routed.
			mqtttest.WaitToken(t, c.Subscribe(base+"barrier", 0, nil), "barrier")
			got := false
			for _, m := range r.On(p.topic) {
				got = got || m.Payload == payload
			}
			if got != p.delivered {
				t.Errorf("delivered %v, want %v", got, p.delivered)
			}
			_, kept := b.srv.Topics.Retained.GetAll()[p.topic]
			if kept != p.retained {
				t.Errorf("retained %v, want %v", kept, p.retained)
			}
		})
	}
	subs := []struct {
		user, pass, filter string
		granted            bool
	}{
		{dispUser, dispPass, base + "#", true},
		{dispUser, dispPass, base + "move", true},
		{dispUser, dispPass, "homeassistant/#", true},
		{dispUser, dispPass, "#", false},
		{dispUser, dispPass, "tridboard/#", false},
		{dispUser, dispPass, "tridboard/other/#", false},
		{ctlUser, ctlPass, base + "response/#", true},
		{ctlUser, ctlPass, "$SYS/#", false},
		{testUser, testPass, "#", true},
	}
	for i, s := range subs {
		t.Run(fmt.Sprintf("%s subscribes %s", s.user, s.filter), func(t *testing.T) {
			c, err := connectAs(t, b.URL(), fmt.Sprintf("s%d", i), s.user, s.pass)
			if err != nil {
				t.Fatal(err)
			}
			tok := c.Subscribe(s.filter, 1, nil)
			mqtttest.WaitToken(t, tok, "subscribe")
			code := tok.(*paho.SubscribeToken).Result()[s.filter]
			if granted := code == 1; granted != s.granted {
				t.Errorf("SUBACK code %#x, want granted=%v", code, s.granted)
			}
		})
	}
}

// TestDaemonClientIDKept: a display connecting with the daemon's client id
// is refused; the daemon stays connected and publishes no "offline". A
// persistent session belongs to the account that made it.
func TestDaemonClientIDKept(t *testing.T) {
	b, r, logs := rolesBroker(t, nil)
	tb := &testBroker{url: b.URL(), user: testUser, pass: testPass}
	o := testOpts(tb, t.TempDir())
	o.ClientID = "tridboard-board"
	c := newClient(t, o, nil)
	waitConnected(t, c)
	r.WaitFor(t, "tridboard/board/availability", "online", func(m []mqtttest.Rec) bool { return len(m) == 1 })
	if _, err := connectAs(t, b.URL(), "tridboard-board", dispUser, dispPass); err == nil || err.Error() != "identifier rejected" {
		t.Fatalf("display with the daemon's id: %v, want identifier rejected", err)
	}
	// The daemon is still connected: its next state gets through, and no
	// offline came before it.
	c.PublishState(testState)
	r.WaitCount(t, "tridboard/board/state", 1)
	if got := r.On("tridboard/board/availability"); len(got) != 1 || got[0].Payload != mqtt.Online {
		t.Fatalf("availability after the attempt: %+v, want online only", got)
	}
	if !c.Stats().Connected {
		t.Fatal("the daemon was disconnected")
	}
	if !strings.Contains(logs.String(), `why="the daemon's client id is kept for the daemon's account" user=hall client=tridboard-board remote=127.0.0.1:`) {
		t.Errorf("log:\n%s", logs.String())
	}

	// A display's persistent session cannot be taken by the controller.
	d := &pahoDisplay{id: "hall-1", url: b.URL(), user: dispUser, pass: dispPass, r: mqtttest.NewRecorder()}
	d.connect(t)
	d.disconnect(t)
	if _, err := connectAs(t, b.URL(), "hall-1", ctlUser, ctlPass); err == nil || err.Error() != "identifier rejected" {
		t.Fatalf("controller with a display's session id: %v, want identifier rejected", err)
	}
	d.connect(t)
	d.disconnect(t)
}

// TestAccountsRefused: bad accounts are refused with what and which.
func TestAccountsRefused(t *testing.T) {
	tests := []struct {
		name string
		acc  []Account
		want string
	}{
		{"no username", []Account{{Role: RoleDisplay, Password: "x"}}, `mqtt: embedded broker: account 1 (""): no username`},
		{"twice", []Account{{Username: "a", Role: RoleDisplay, Password: "x"}, {Username: "a", Role: RoleDisplay, Password: "y"}}, `mqtt: embedded broker: account 2 ("a"): username given twice`},
		{"bad role", []Account{{Username: "a", Role: "admin", Password: "x"}}, `mqtt: embedded broker: account 1 ("a"): role "admin": want daemon, controller or display`},
		{"no password", []Account{{Username: "a", Role: RoleDisplay}}, `mqtt: embedded broker: account 1 ("a"): give a password or a password hash`},
		{"both", []Account{{Username: "a", Role: RoleDisplay, Password: "x", Hash: "$2a$04$x"}}, `mqtt: embedded broker: account 1 ("a"): give a password or a password hash`},
		{"bad hash", []Account{{Username: "a", Role: RoleDisplay, Hash: "md5:abc"}}, `mqtt: embedded broker: account 1 ("a"): not a bcrypt ($2a$, $2b$, $2y$) or argon2id ($argon2id$) hash`},
		{"short bcrypt", []Account{{Username: "a", Role: RoleDisplay, Hash: "$2a$04$x"}}, `mqtt: embedded broker: account 1 ("a"): bcrypt hash: crypto/bcrypt: hashedSecret too short to be a bcrypted password`},
		{"argon2 params", []Account{{Username: "a", Role: RoleDisplay, Hash: "$argon2id$v=19$m=0,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"}}, `mqtt: embedded broker: account 1 ("a"): argon2id hash: parameters "m=0,t=1,p=1": want m=<KiB up to 4194304>,t=<passes>,p=<threads>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Start(Opts{Addr: "127.0.0.1:0", Accounts: tt.acc, Logger: mqtttest.Quiet, BcryptCost: 4})
			if err == nil {
				b.Close()
				t.Fatal("started")
			}
			if err.Error() != tt.want {
				t.Fatalf("error %q\n want %q", err, tt.want)
			}
		})
	}
}

// TestAccountHashes: an account given as a bcrypt or argon2id hash logs in
// with its password and not with another.
func TestAccountHashes(t *testing.T) {
	bc, err := HashPassword("pw-bcrypt")
	if err != nil {
		t.Fatal(err)
	}
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte("pw-argon"), salt, 1, 8*1024, 1, 32)
	ar := fmt.Sprintf("$argon2id$v=19$m=8192,t=1,p=1$%s$%s", base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
	if err := CheckHash(ar); err != nil {
		t.Fatal(err)
	}
	b, _, _ := rolesBroker(t, func(o *Opts) {
		o.Accounts = []Account{{Username: "b", Role: RoleDisplay, Hash: bc}, {Username: "a", Role: RoleDisplay, Hash: ar}}
	})
	for i, c := range []struct {
		user, pass string
		ok         bool
	}{{"b", "pw-bcrypt", true}, {"b", "pw-argon", false}, {"a", "pw-argon", true}, {"a", "pw-bcrypt", false}, {"nobody", "pw-argon", false}} {
		_, err := connectAs(t, b.URL(), fmt.Sprint("h", i), c.user, c.pass)
		if (err == nil) != c.ok {
			t.Errorf("%s/%s: %v, want ok=%v", c.user, c.pass, err, c.ok)
		}
	}
}

// TestLoginBackoffBroker: the embedded broker slows wrong passwords from
// one address, logs each with user and address, and lets a client from
// another address in meanwhile.
func TestLoginBackoffBroker(t *testing.T) {
	b, _, logs := rolesBroker(t, func(o *Opts) { o.LoginBackoff, o.LoginBackoffMax = 500*time.Millisecond, 10*time.Second })
	if _, err := connectAs(t, b.URL(), "m1", "mallory", "guess"); err == nil {
		t.Fatal("unknown user let in")
	}
	second := make(chan error, 1)
	go func() {
		c := paho.NewClient(paho.NewClientOptions().AddBroker(b.URL()).SetClientID("m2").SetUsername(dispUser).
			SetPassword("guess").SetAutoReconnect(false).SetConnectTimeout(10 * time.Second))
		tok := c.Connect()
		tok.WaitTimeout(15 * time.Second)
		second <- tok.Error()
	}()
	// From 127.0.0.2 meanwhile: not slowed.
	o := paho.NewClientOptions().AddBroker(b.URL()).SetClientID("other").SetUsername(dispUser).SetPassword(dispPass).
		SetAutoReconnect(false).SetDialer(&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}})
	other := paho.NewClient(o)
	mqtttest.WaitToken(t, other.Connect(), "login from another address")
	defer other.Disconnect(0)
	select {
	case err := <-second:
		t.Fatalf("the second wrong login returned (%v) before another address's login: not slowed", err)
	default:
	}
	select {
	case err := <-second:
		if err == nil {
			t.Fatal("wrong password let in")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the second wrong login never returned")
	}
	for _, want := range []string{`why="unknown user" user=mallory client=m1 remote=127.0.0.1:`, `why="wrong password" user=hall client=m2 remote=127.0.0.1:`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, logs.String())
		}
	}
}

// TestLoopbackAnonymousIsController (issue 23): without any login on
// loopback, a client that gives none (or a made-up one) is a controller:
// it follows the board and sends commands, but cannot write the daemon's
// state, move, event or availability, retained or not, nor take the
// daemon's client id. The daemon's own client logs in with LocalLogin.
func TestLoopbackAnonymousIsController(t *testing.T) {
	r := mqtttest.NewRecorder()
	b, err := Start(Opts{Addr: "127.0.0.1:0", Prefix: "tridboard", BoardID: "board", Discovery: "homeassistant",
		DaemonClientID: "tridboard-board", Logger: mqtttest.Quiet,
		onServe: func(s *mochi.Server) error {
			return s.Subscribe("#", 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
				r.Add(mqtttest.Rec{Topic: pk.TopicName, Payload: string(pk.Payload), Retained: pk.FixedHeader.Retain})
			})
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	user, pass := b.LocalLogin()
	if user == "" || len(pass) < 16 {
		t.Fatalf("LocalLogin() = %q, %q: want a username and a long random password", user, pass)
	}
	daemon, err := connectAs(t, b.URL(), "tridboard-board", user, pass)
	if err != nil {
		t.Fatal(err)
	}
	mqtttest.WaitToken(t, daemon.Publish("tridboard/board/state", 1, true, "the daemon's"), "daemon state")
	const base = "tridboard/board/"
	for i, who := range []struct{ user, pass string }{{"", ""}, {"mallory", "x"}, {user, ""}} {
		c, err := connectAs(t, b.URL(), fmt.Sprintf("local-%d", i), who.user, who.pass)
		if who.user == user {
			if err == nil {
				t.Errorf("the daemon's local username without its password was let in")
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", who.user, err)
		}
		for _, topic := range []string{"state", "move", "event", "availability"} {
			mqtttest.WaitToken(t, c.Publish(base+topic, 0, true, "forged"), "publish")
		}
		mqtttest.WaitToken(t, c.Publish(base+"set/resync", 0, false, "{}"), "command")
		mqtttest.WaitToken(t, c.Subscribe(base+"barrier", 0, nil), "barrier") // the publications were routed
		for _, topic := range []string{"state", "move", "event", "availability"} {
			for _, m := range r.On(base + topic) {
				if m.Payload == "forged" {
					t.Errorf("%q wrote %s", who.user, topic)
				}
			}
		}
		if len(r.On(base+"set/resync")) != i+1 {
			t.Errorf("%q: command not delivered", who.user)
		}
		tok := c.Subscribe(base+"#", 1, nil)
		mqtttest.WaitToken(t, tok, "subscribe")
		if code := tok.(*paho.SubscribeToken).Result()[base+"#"]; code != 1 {
			t.Errorf("%q: subscribe to the board refused (%#x)", who.user, code)
		}
	}
	if m := b.srv.Topics.Retained.GetAll()[base+"state"]; string(m.Payload) != "the daemon's" {
		t.Errorf("retained state %q, want the daemon's", m.Payload)
	}
	if _, err := connectAs(t, b.URL(), "tridboard-board", "", ""); err == nil {
		t.Error("an anonymous client took the daemon's client id")
	}
}
