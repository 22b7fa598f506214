package mosquittotest_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/mosquittotest"
)

// connect connects a client to url, or returns the error.
func connect(t *testing.T, url, user, pass string) (paho.Client, error) {
	t.Helper()
	c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID(t.Name() + time.Now().Format("150405.000000000")).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false).SetConnectTimeout(5 * time.Second))
	tok := c.Connect()
	if !tok.WaitTimeout(10 * time.Second) {
		t.Fatalf("connect %s: timed out", url)
	}
	if tok.Error() != nil {
		return nil, tok.Error()
	}
	t.Cleanup(func() { c.Disconnect(0) })
	return c, nil
}

func wait(t *testing.T, tok paho.Token, what string) {
	t.Helper()
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("%s: %v", what, tok.Error())
	}
}

// retained returns the message retained on topic, as a new subscriber
// receives it.
func retained(t *testing.T, url, topic string) string {
	t.Helper()
	c, err := connect(t, url, "", "")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	wait(t, c.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) {
		if m.Retained() {
			select {
			case got <- string(m.Payload()):
			default:
			}
		}
	}), "subscribe")
	select {
	case p := <-got:
		return p
	case <-time.After(10 * time.Second):
		t.Fatalf("no retained message on %s", topic)
		return ""
	}
}

// With persistence (the default), a restart keeps the retained messages,
// on the same address.
func TestRestartKeepsRetained(t *testing.T) {
	b := mosquittotest.Start(t)
	url := b.URL
	pub, err := connect(t, b.URL, "", "")
	if err != nil {
		t.Fatal(err)
	}
	wait(t, pub.Publish("mt/state", 1, true, "kept"), "publish")
	b.Restart(t)
	if b.URL != url {
		t.Fatalf("URL after a restart %s, want %s", b.URL, url)
	}
	if got := retained(t, b.URL, "mt/state"); got != "kept" {
		t.Fatalf("retained after a restart %q, want %q", got, "kept")
	}
}

// With users, an anonymous client and a wrong password are refused, the
// right one logs in; a websockets listener is served beside the TCP one.
func TestUsersAndWebSockets(t *testing.T) {
	o := mosquittotest.DefaultOpts()
	o.Users = map[string]string{"board": "pa55word", "viewer": "s3cret"}
	o.WebSockets = true
	o.Config = []string{"max_queued_messages 100000"}
	b := mosquittotest.StartWith(t, o)
	if !strings.HasPrefix(b.WSURL, "ws://127.0.0.1:") {
		t.Fatalf("WSURL %q", b.WSURL)
	}
	for _, tc := range []struct {
		url, user, pass string
		ok              bool
	}{
		{b.URL, "", "", false},
		{b.URL, "board", "wrong", false},
		{b.URL, "board", "pa55word", true},
		{b.URL, "viewer", "s3cret", true},
		{b.WSURL, "", "", false},
		{b.WSURL, "viewer", "s3cret", true},
	} {
		_, err := connect(t, tc.url, tc.user, tc.pass)
		if (err == nil) != tc.ok {
			t.Errorf("%s as %q/%q: err %v, want ok %v", tc.url, tc.user, tc.pass, err, tc.ok)
		}
	}
}

// fatalTB records the first Fatal of a start that fails.
type fatalTB struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (f *fatalTB) Fatal(args ...any) { f.fail("%s", fmt.Sprint(args...)) }

func (f *fatalTB) Fatalf(format string, args ...any) { f.fail(format, args...) }

func (f *fatalTB) fail(format string, args ...any) {
	f.mu.Lock()
	if f.msg == "" {
		f.msg = fmt.Sprintf(format, args...)
	}
	f.mu.Unlock()
	runtime.Goexit()
}

// A broker that cannot start fails the test as soon as Mosquitto exits
// (not at the readiness deadline), with the config and Mosquitto's own
// words.
func TestBadConfigFailsAtOnce(t *testing.T) {
	o := mosquittotest.DefaultOpts()
	o.Config = []string{"no_such_option 1"}
	o.Ready = time.Minute
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() { defer close(done); mosquittotest.StartWith(f, o) }()
	<-done
	for _, want := range []string{"mosquitto exited before it listened", "no_such_option 1", "stderr:"} {
		if !strings.Contains(f.msg, want) {
			t.Errorf("failure %q lacks %q", f.msg, want)
		}
	}
}
