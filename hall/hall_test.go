package hall

import (
	"encoding/base64"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/internal/mosquittotest"
)

// The password file's hashes are Mosquitto's own: the vector is
// mosquitto_passwd 2.0.11's for "secret" with this salt.
func TestMosquittoHash(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("CZ/z9bViotIDHW0u")
	got, err := MosquittoHash("secret", salt)
	if err != nil {
		t.Fatal(err)
	}
	want := "$7$101$CZ/z9bViotIDHW0u$BINFfCiGa5OpiOb1Af1ODDLLSAMM1RwiWJvDIeshPVwAx2lflWkQFyshGUD9o6RUbMLtTl1rjqH1CQBnxUVwqA=="
	if got != want {
		t.Errorf("hash %s, want %s", got, want)
	}
}

func TestPlanCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Plan)
		want string
	}{
		{"fine", func(p *Plan) {}, ""},
		{"no sets", func(p *Plan) { p.Sets = nil }, "no sets"},
		{"a dot in a board id", func(p *Plan) { p.Sets = []string{"hall.1"} }, `"set-hall.1"`},
		{"a wildcard in the prefix", func(p *Plan) { p.Prefix = "hall/#" }, `prefix "hall/#"`},
		{"an account twice", func(p *Plan) { p.Spectators = []string{"event"} }, `"event" named twice`},
	} {
		p := DefaultPlan()
		p.Sets = []string{"enterprise", "klingon"}
		tc.edit(&p)
		err := p.Check()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// hallClient connects user to url; an error when the broker refuses it.
func hallClient(url, user, pass, id string) (paho.Client, error) {
	c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID(id).SetUsername(user).SetPassword(pass).
		SetAutoReconnect(false).SetConnectTimeout(5 * time.Second))
	tok := c.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		return nil, fmt.Errorf("%s: no CONNACK", user)
	}
	return c, tok.Error()
}

// inbox collects what a client receives, by topic.
type inbox struct {
	mu  sync.Mutex
	got map[string][]string
}

func (in *inbox) handler(_ paho.Client, m paho.Message) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.got[m.Topic()] = append(in.got[m.Topic()], string(m.Payload()))
}

func (in *inbox) has(topic, payload string) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, p := range in.got[topic] {
		if p == payload {
			return true
		}
	}
	return false
}

// checkHall plays who may do what on a hall's broker at url: strangers and
// wrong passwords are refused; a set publishes on its own topics, which a
// spectator and the other set read; a spectator and the other set cannot
// publish there; the event runner commands a set, and only it.
func checkHall(t *testing.T, url string, pw map[string]string) {
	t.Helper()
	if c, err := hallClient(url, "", "", "anonymous"); err == nil {
		c.Disconnect(0)
		t.Error("an anonymous client got in")
	}
	if c, err := hallClient(url, "spectator", "guess", "guesser"); err == nil {
		c.Disconnect(0)
		t.Error("a wrong password got in")
	}
	n := 0
	connect := func(user string) paho.Client {
		n++
		c, err := hallClient(url, user, pw[user], fmt.Sprintf("%s-test-%d", user, n))
		if err != nil {
			t.Fatalf("%s: %v", user, err)
		}
		t.Cleanup(func() { c.Disconnect(0) })
		return c
	}
	specIn, kliIn, entIn := &inbox{got: map[string][]string{}}, &inbox{got: map[string][]string{}}, &inbox{got: map[string][]string{}}
	for _, s := range []struct {
		user, filter string
		in           *inbox
	}{{"spectator", "hall/+/state", specIn}, {"set-klingon", "hall/enterprise/state", kliIn}, {"set-enterprise", "hall/enterprise/set/#", entIn}} {
		if tok := connect(s.user).Subscribe(s.filter, 1, s.in.handler); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", s.filter, tok.Error())
		}
	}
	// Each publication comes from a connection of its own: a broker may
	// end the connection of a client that publishes where it may not
	// (Mosquitto 2.0.11 answers a denied QoS 1 publish with a PUBACK that
	// carries a reason code, which an MQTT 3.1.1 client cannot read).
	// Either way the broker has routed or dropped the message before it
	// answers, so a reader that gets a later message would have got it.
	publish := func(user, topic, payload string, allowed bool) {
		t.Helper()
		tok := connect(user).Publish(topic, 1, false, payload)
		if !tok.WaitTimeout(10*time.Second) || allowed && tok.Error() != nil {
			t.Fatalf("%s: publish %s: %v", user, topic, tok.Error())
		}
	}
	publish("spectator", "hall/enterprise/state", "from the spectator", false)
	publish("set-klingon", "hall/enterprise/state", "from klingon", false)
	publish("event", "hall/enterprise/state", "from the event runner", false)
	publish("set-klingon", "hall/enterprise/set/resign", "klingon commands enterprise", false)
	publish("spectator", "hall/enterprise/set/resign", "a spectator commands enterprise", false)
	publish("set-enterprise", "hall/enterprise/state", "genuine", true)
	publish("event", "hall/enterprise/set/new_game", "the runner's command", true)
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor("the spectator to read the set's state", func() bool { return specIn.has("hall/enterprise/state", "genuine") })
	waitFor("the other set to read it", func() bool { return kliIn.has("hall/enterprise/state", "genuine") })
	waitFor("the set to get the runner's command", func() bool { return entIn.has("hall/enterprise/set/new_game", "the runner's command") })
	for _, p := range []string{"from the spectator", "from klingon", "from the event runner"} {
		if specIn.has("hall/enterprise/state", p) || kliIn.has("hall/enterprise/state", p) {
			t.Errorf("a state %q reached a reader", p)
		}
	}
	for _, p := range []string{"klingon commands enterprise", "a spectator commands enterprise"} {
		if entIn.has("hall/enterprise/set/resign", p) {
			t.Errorf("a command %q reached the set", p)
		}
	}
}

// Issue 34: the generated Mosquitto configuration, run by Mosquitto,
// lets no stranger in and each account only what its role may.
func TestMosquittoHall(t *testing.T) {
	dir := t.TempDir()
	addr := freeport.Addr(t)
	host, port, _ := net.SplitHostPort(addr)
	p := DefaultPlan()
	p.Sets = []string{"enterprise", "klingon"}
	o := WriteOpts{Mosquitto: MosquittoOpts{Listen: port + " " + host, Dir: filepath.Join(dir, "mosquitto")}}
	pw, err := Write(dir, p, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"secrets/set-enterprise.pw", "secrets/event.pw"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want mode 0600", f, fi.Mode(), err)
		}
	}
	// Written again, the passwords stay.
	again, err := Write(dir, p, o)
	if err != nil || again["set-klingon"] != pw["set-klingon"] {
		t.Errorf("the passwords changed when written again (%v)", err)
	}
	conf, err := os.ReadFile(filepath.Join(dir, "mosquitto", "tridboard.conf"))
	if err != nil {
		t.Fatal(err)
	}
	b := mosquittotest.StartConf(t, string(conf), addr)
	checkHall(t, b.URL, pw)
}
