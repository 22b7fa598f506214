package broker

import (
	"bytes"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/tridboard/tridboard/internal/freeport"
)

// mqttString is an MQTT UTF-8 string: length, then bytes.
func mqttString(s string) []byte { return append([]byte{byte(len(s) >> 8), byte(len(s))}, s...) }

// remaining encodes an MQTT remaining length.
func remaining(n int) []byte {
	var b []byte
	for {
		d := byte(n % 128)
		n /= 128
		if n > 0 {
			d |= 0x80
		}
		b = append(b, d)
		if n == 0 {
			return b
		}
	}
}

// rawPublish connects with a raw socket and sends a retained QoS 0 PUBLISH
// of size bytes, as a hostile client would, without waiting for anything.
func rawPublish(t *testing.T, addr, user, pass, topic string, size int) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := append(mqttString("MQTT"), 4, 0xC2, 0, 30)
	body = append(append(append(body, mqttString("big")...), mqttString(user)...), mqttString(pass)...)
	c.Write(append(append([]byte{0x10}, remaining(len(body))...), body...))
	ack := make([]byte, 4)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(c, ack); err != nil || ack[3] != 0 {
		t.Fatalf("CONNACK %x: %v", ack, err)
	}
	head := append([]byte{0x31}, remaining(2+len(topic)+size)...)
	c.Write(append(head, mqttString(topic)...))
	chunk := bytes.Repeat([]byte{'x'}, 1<<20)
	for sent := 0; sent < size; sent += len(chunk) {
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write(chunk); err != nil {
			return // the broker hung up: what it should do
		}
	}
}

func rssKiB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// TestBrokerRefusesHugePublish: retained publishes of 16 and 64 MB, from the
// daemon's own account on its own topic, are refused at the packet size
// limit before the broker reads them: its RSS and broker.db stay small,
// nothing is retained, and it goes on serving.
func TestBrokerRefusesHugePublish(t *testing.T) {
	addr := freeport.Addr(t)
	store := filepath.Join(t.TempDir(), "broker.db")
	br := startChild(t, Opts{Addr: addr, Username: testUser, Password: testPass, StorePath: store})
	for _, mb := range []int{16, 64} {
		rawPublish(t, addr, testUser, testPass, "tridboard/board/state", mb<<20)
	}
	rss := rssKiB(t, br.cmd.Process.Pid)
	if rss > 64<<10 {
		t.Errorf("broker RSS %d KiB after huge publishes, want under 64 MiB", rss)
	}
	st, err := os.Stat(store)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after retained publishes of 16 and 64 MB: broker RSS %d KiB, broker.db %d bytes", rss, st.Size())
	if st.Size() > 1<<20 {
		t.Errorf("broker.db is %d bytes, want under 1 MiB", st.Size())
	}
	r := mqtttest.Subscriber(t, "tcp://"+addr, testUser, testPass, "tridboard/board/state")
	pub := mqtttest.Publisher(t, "tcp://"+addr, testUser, testPass)
	mqtttest.WaitToken(t, pub.Publish("tridboard/board/state", 1, false, "small"), "publish after the huge ones")
	if got := r.WaitCount(t, "tridboard/board/state", 1); got[0].Payload != "small" {
		t.Fatalf("first state message %.40q, want the small one (nothing retained)", got[0].Payload)
	}
}

// TestBrokerLimits: the queue of an away session, the retained messages and
// the number of persistent sessions are bounded.
func TestBrokerLimits(t *testing.T) {
	b, _, logs := rolesBroker(t, func(o *Opts) {
		o.StorePath = filepath.Join(t.TempDir(), "broker.db")
		o.Limits = Limits{MaxQueuedBytes: 1000, MaxRetained: 3, MaxSessions: 2}
	})
	d := &pahoDisplay{id: "away", url: b.URL(), user: dispUser, pass: dispPass, r: mqtttest.NewRecorder()}
	d.connect(t)
	d.disconnect(t)
	pub := mqtttest.Publisher(t, b.URL(), testUser, testPass)
	for i := range 20 {
		mqtttest.WaitToken(t, pub.Publish(moveTopic, 1, false, fmt.Sprintf("%0100d", i)), "publish")
	}
	cl, _ := b.srv.Clients.Get("away")
	// The broker acknowledges a publication before it hands it to the
	// sessions; it reads the publisher's next one only after that: the
	// acknowledgement of one more (on a topic the away session does not
	// follow) says the last one was handled.
	mqtttest.WaitToken(t, pub.Publish("tridboard/other/topic", 1, false, "x"), "publish")
	if n := cl.State.Inflight.Len(); n != 10 {
		var what []string
		for _, m := range cl.State.Inflight.GetAll(false) {
			what = append(what, fmt.Sprintf("%d %s %.8q exp=%d", m.PacketID, m.TopicName, m.Payload, m.Expiry))
		}
		t.Errorf("away session holds %d messages of 100 bytes, want 10 (1000 bytes): %v", n, what)
	}
	if !strings.Contains(logs.String(), `session queue full; dropping its new messages" client=away bytes=1000 limit=1000`) {
		t.Errorf("log:\n%s", logs.String())
	}
	for _, topic := range []string{"a", "b", "c", "d", "e"} {
		mqtttest.WaitToken(t, pub.Publish("tridboard/board/"+topic, 1, true, "r"), "retain")
	}
	n := 0
	for topic := range b.srv.Topics.Retained.GetAll() {
		if strings.HasPrefix(topic, "tridboard/") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d retained messages, want 3", n)
	}
	d2 := &pahoDisplay{id: "second", url: b.URL(), user: dispUser, pass: dispPass, r: mqtttest.NewRecorder()}
	d2.connect(t)
	d3 := &pahoDisplay{id: "third", url: b.URL(), user: dispUser, pass: dispPass, r: mqtttest.NewRecorder()}
	d3.connect(t) // takes the place of "away", away the longest
	if _, kept := b.srv.Clients.Get("away"); kept {
		t.Error(`a third persistent session with MaxSessions 2: "away" still stored, want it expired`)
	}
	o := paho.NewClientOptions().AddBroker(b.URL()).SetClientID("fourth").SetUsername(dispUser).SetPassword(dispPass).
		SetCleanSession(false).SetAutoReconnect(false)
	tok := paho.NewClient(o).Connect()
	if !tok.WaitTimeout(5 * time.Second) {
		t.Fatal("connect timed out")
	}
	if err := tok.Error(); err == nil || err.Error() != "server Unavailable" {
		t.Fatalf("a third persistent session with MaxSessions 2, both connected: %v", err)
	}
	// A clean session is still welcome.
	if _, err := connectAs(t, b.URL(), "clean", dispUser, dispPass); err != nil {
		t.Fatalf("clean session refused: %v", err)
	}
}

// TestBrokerSessionsPerAccount (issue 22, point 7): one account holds at
// most MaxSessionsPerAccount persistent sessions: its next one takes the
// place of its own session away the longest (logged), or is refused when
// all of them are connected; the other accounts keep their places.
func TestBrokerSessionsPerAccount(t *testing.T) {
	b, _, logs := rolesBroker(t, func(o *Opts) {
		o.StorePath = filepath.Join(t.TempDir(), "broker.db")
		o.Limits = Limits{MaxSessions: 4, MaxSessionsPerAccount: 2}
	})
	ctl := &pahoDisplay{id: "controller", url: b.URL(), user: ctlUser, pass: ctlPass, r: mqtttest.NewRecorder()}
	ctl.connect(t)
	ctl.disconnect(t) // away before any display session: the oldest
	var ds []*pahoDisplay
	for _, id := range []string{"d1", "d2", "d3"} {
		d := &pahoDisplay{id: id, url: b.URL(), user: dispUser, pass: dispPass, r: mqtttest.NewRecorder()}
		d.connect(t)
		d.disconnect(t)
		ds = append(ds, d)
	}
	for id, want := range map[string]bool{"controller": true, "d1": false, "d2": true, "d3": true} {
		if _, kept := b.srv.Clients.Get(id); kept != want {
			t.Errorf("session %s stored: %v, want %v", id, kept, want)
		}
	}
	if !strings.Contains(logs.String(), `persistent session expired to make room" client=d1 user=hall`) ||
		!strings.Contains(logs.String(), `why="2 persistent sessions of this account (the limit)"`) {
		t.Errorf("expiry not logged:\n%s", logs)
	}
	ds[1].connect(t)
	ds[2].connect(t)
	o := paho.NewClientOptions().AddBroker(b.URL()).SetClientID("d4").SetUsername(dispUser).SetPassword(dispPass).
		SetCleanSession(false).SetAutoReconnect(false)
	tok := paho.NewClient(o).Connect()
	if !tok.WaitTimeout(5*time.Second) || tok.Error() == nil || tok.Error().Error() != "server Unavailable" {
		t.Fatalf("a third session of the display account, two connected: %v, want server Unavailable", tok.Error())
	}
	if !strings.Contains(logs.String(), "2 persistent sessions of this account are connected (the limit)") {
		t.Errorf("refusal not logged:\n%s", logs)
	}
	c2 := &pahoDisplay{id: "controller-2", url: b.URL(), user: ctlUser, pass: ctlPass, r: mqtttest.NewRecorder()}
	c2.connect(t) // the display account could not take every place
	if _, kept := b.srv.Clients.Get("controller"); !kept {
		t.Error("the controller's first session expired, want kept (3 of 4 places used)")
	}
}

// TestBrokerRetainedReserve (issue 22, point 6): junk retained messages
// filling the retained budget do not keep the daemon's own state,
// availability and discovery configs from being retained; across a restart
// too.
func TestBrokerRetainedReserve(t *testing.T) {
	store := filepath.Join(t.TempDir(), "broker.db")
	b, _, logs := rolesBroker(t, func(o *Opts) {
		o.StorePath = store
		o.Limits = Limits{MaxRetained: 3, MaxRetainedBytes: 3000}
	})
	pub := mqtttest.Publisher(t, b.URL(), testUser, testPass)
	for i := range 6 {
		mqtttest.WaitToken(t, pub.Publish(fmt.Sprintf("tridboard/board/junk%d", i), 1, true, strings.Repeat("j", 900)), "junk")
	}
	own := []string{"tridboard/board/state", "tridboard/board/availability", "homeassistant/sensor/tridboard_board/board/config"}
	for _, topic := range own {
		mqtttest.WaitToken(t, pub.Publish(topic, 1, true, strings.Repeat("s", 2000)), "own")
	}
	mqtttest.WaitToken(t, pub.Subscribe("tridboard/board/barrier", 0, nil), "barrier")
	kept := b.srv.Topics.Retained.GetAll()
	junk := 0
	for topic := range kept {
		if strings.Contains(topic, "junk") {
			junk++
		}
	}
	if junk != 3 {
		t.Errorf("%d junk messages retained, want 3 (the budget)", junk)
	}
	for _, topic := range own {
		if _, ok := kept[topic]; !ok {
			t.Errorf("%s not retained with the budget full of junk", topic)
		}
	}
	if !strings.Contains(logs.String(), "retained messages full") {
		t.Errorf("junk beyond the budget not logged:\n%s", logs)
	}
	// Another board's discovery configs are not the daemon's own.
	mqtttest.WaitToken(t, pub.Publish("homeassistant/sensor/tridboard_other/board/config", 1, true, "x"), "other")
	mqtttest.WaitToken(t, pub.Subscribe("tridboard/board/barrier", 0, nil), "barrier")
	if _, ok := b.srv.Topics.Retained.GetAll()["homeassistant/sensor/tridboard_other/board/config"]; ok {
		t.Error("another board's discovery config retained beyond the budget")
	}
	b.Close()
	b2, err := Start(Opts{Addr: "127.0.0.1:0", StorePath: store, Logger: mqtttest.Quiet, Prefix: "tridboard", BoardID: "board"})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	r := mqtttest.Subscriber(t, b2.URL(), "", "", "tridboard/board/state")
	if got := r.WaitCount(t, "tridboard/board/state", 1); got[0].Payload != strings.Repeat("s", 2000) {
		t.Errorf("after a restart the state is %.20q, want the daemon's", got[0].Payload)
	}
}

// TestBrokerStoreDiskFull: when the store cannot be written (a full disk)
// the broker logs it once and goes on: displays get their messages live and
// while away.
func TestBrokerStoreDiskFull(t *testing.T) {
	var full atomic.Bool // read by the broker's goroutines
	full.Store(true)
	b, _, logs := rolesBroker(t, func(o *Opts) {
		o.StorePath = filepath.Join(t.TempDir(), "broker.db")
		o.store = func(h *storeHook) {
			h.failWrites = func() error {
				if full.Load() {
					return syscall.ENOSPC
				}
				return nil
			}
		}
	})
	d := &pahoDisplay{id: "full", url: b.URL(), user: dispUser, pass: dispPass, r: mqtttest.NewRecorder()}
	d.connect(t)
	pub := mqtttest.Publisher(t, b.URL(), testUser, testPass)
	mqtttest.WaitToken(t, pub.Publish(moveTopic, 1, false, `{"seq":1}`), "publish")
	d.r.WaitCount(t, moveTopic, 1)
	d.disconnect(t)
	mqtttest.WaitToken(t, pub.Publish(moveTopic, 1, false, `{"seq":2}`), "publish")
	d.connect(t)
	// The move kept for the display while it was away comes; seq 1 may
	// come again before it, when the display's acknowledgement of it had
	// not reached the broker as it left (MQTT's at least once).
	d.r.WaitFor(t, moveTopic, "seq 2 after the away time", func(got []mqtttest.Rec) bool {
		for _, m := range got {
			if m.Payload == `{"seq":2}` {
				return true
			}
		}
		return false
	})
	for _, m := range d.r.On(moveTopic) {
		if m.Payload != `{"seq":1}` && m.Payload != `{"seq":2}` {
			t.Fatalf("after the away time: %s", m.Payload)
		}
	}
	if n := strings.Count(logs.String(), "store write failed"); n != 1 {
		t.Errorf("%d store failures logged, want 1:\n%s", n, logs.String())
	}
	full.Store(false)
	d.disconnect(t)
}

// TestBrokerStoreDamaged: a broker.db that bbolt cannot open is moved aside
// and the broker starts with an empty store instead of failing (a crash
// loop at every start).
func TestBrokerStoreDamaged(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "broker.db")
	os.WriteFile(store, bytes.Repeat([]byte("not bbolt"), 1000), 0o600)
	b, _, logs := rolesBroker(t, func(o *Opts) { o.StorePath = store })
	d := &pahoDisplay{id: "d", url: b.URL(), user: dispUser, pass: dispPass, r: mqtttest.NewRecorder()}
	d.connect(t)
	d.disconnect(t)
	aside, _ := filepath.Glob(store + ".corrupt-*")
	if len(aside) != 1 || !strings.Contains(logs.String(), "store damaged; moved aside") {
		t.Fatalf("copies aside %v; log:\n%s", aside, logs.String())
	}
}

// Beyond its limits the embedded broker refuses loudly: a connection over
// MaxConnectionsPerAddress gets a CONNACK "server unavailable" (not a
// bare reset), a retained message over MaxRetained is delivered but not
// kept; each is logged as an error saying what a hall needs instead, and
// counted (Broker.Refused).
func TestBrokerRefusesLoudly(t *testing.T) {
	b, _, logs := rolesBroker(t, func(o *Opts) {
		o.Limits = Limits{MaxConnectionsPerAddress: 2, MaxRetained: 3}
	})
	for i := range 2 {
		if _, err := connectAs(t, b.URL(), fmt.Sprintf("display-%d", i), dispUser, dispPass); err != nil {
			t.Fatalf("connection %d of 2: %v", i+1, err)
		}
	}
	_, err := connectAs(t, b.URL(), "display-3", dispUser, dispPass)
	if err == nil || err.Error() != "server Unavailable" {
		t.Fatalf("a third connection from one address with MaxConnectionsPerAddress 2: %v, want server unavailable", err)
	}
	if c, r := b.Refused(); c != 1 || r != 0 {
		t.Errorf("refused %d connections, %d retained; want 1, 0", c, r)
	}
	// A set's client says what the refusal means.
	o := testOpts(&testBroker{url: b.URL(), user: testUser, pass: testPass}, t.TempDir())
	cli := newClient(t, o, nil)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := cli.Stats().LastError; err != nil && strings.Contains(err.Error(), "a hall needs Mosquitto or a NATS cluster") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a set's client refused by a full broker: last error %v", cli.Stats().LastError)
		}
	}
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "a hall needs Mosquitto or a NATS cluster (docs/hall.md)") {
		t.Errorf("log:\n%s", logs.String())
	}
	b2, _, logs2 := rolesBroker(t, func(o *Opts) { o.Limits = Limits{MaxRetained: 3} })
	pub := mqtttest.Publisher(t, b2.URL(), testUser, testPass)
	for _, topic := range []string{"a", "b", "c", "d"} {
		mqtttest.WaitToken(t, pub.Publish("tridboard/board/"+topic, 1, true, "r"), "retain")
	}
	if c, r := b2.Refused(); c != 0 || r != 1 {
		t.Errorf("refused %d connections, %d retained; want 0, 1", c, r)
	}
	if !strings.Contains(logs2.String(), "retain flag cleared: the embedded broker serves one set") {
		t.Errorf("log:\n%s", logs2.String())
	}
}
