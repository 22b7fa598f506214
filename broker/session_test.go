package broker

import (
	"bufio"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/tridboard/tridboard/internal/freeport"
)

const moveTopic, probeTopic = "tridboard/board/move", "tridboard/board/probe"

// display is a client following the moves with the recipe of docs/mqtt.md:
// a fixed client id, clean session off, QoS 1. Each connection subscribes
// again, as mosquitto_sub -c does.
type display interface {
	connect(t *testing.T)
	disconnect(t *testing.T)
	rec() *mqtttest.Recorder
}

type pahoDisplay struct {
	id, url, user, pass string
	r                   *mqtttest.Recorder
	cli                 paho.Client
}

func (d *pahoDisplay) rec() *mqtttest.Recorder { return d.r }

func (d *pahoDisplay) connect(t *testing.T) {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(d.url).SetClientID(d.id).SetUsername(d.user).SetPassword(d.pass).
		SetCleanSession(false).SetAutoReconnect(false).SetOrderMatters(true).
		SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) {
			d.r.Add(mqtttest.Rec{Topic: m.Topic(), Payload: string(m.Payload()), Retained: m.Retained()})
		})
	d.cli = paho.NewClient(o)
	mqtttest.WaitToken(t, d.cli.Connect(), "display connect")
	mqtttest.WaitToken(t, d.cli.SubscribeMultiple(map[string]byte{moveTopic: 1, probeTopic: 0}, nil), "display subscribe")
}

func (d *pahoDisplay) disconnect(*testing.T) { d.cli.Disconnect(100) }

// mosqDisplay is mosquitto_sub -c -i ID -q 1.
type mosqDisplay struct {
	id, addr, user, pass string
	r                    *mqtttest.Recorder
	cmd                  *exec.Cmd
	done                 chan struct{}
}

func (d *mosqDisplay) rec() *mqtttest.Recorder { return d.r }

func (d *mosqDisplay) connect(t *testing.T) {
	t.Helper()
	host, port, _ := net.SplitHostPort(d.addr)
	args := []string{"-h", host, "-p", port, "-c", "-i", d.id, "-q", "1", "-t", moveTopic, "-t", probeTopic, "-v"}
	if d.user != "" {
		args = append(args, "-u", d.user, "-P", d.pass)
	}
	d.cmd = exec.Command("mosquitto_sub", args...)
	out, err := d.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	d.cmd.Stderr = &stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatalf("mosquitto_sub (apt-get install mosquitto-clients): %v", err)
	}
	d.done = make(chan struct{})
	cmd := d.cmd
	go func() {
		defer close(d.done)
		s := bufio.NewScanner(out)
		for s.Scan() {
			topic, payload, _ := strings.Cut(s.Text(), " ")
			d.r.Add(mqtttest.Rec{Topic: topic, Payload: payload, Retained: false})
		}
		cmd.Wait() // stderr is complete once it returns
		if msg := stderr.String(); msg != "" {
			d.r.Add(mqtttest.Rec{Topic: "stderr", Payload: msg, Retained: false})
		}
	}()
	done := d.done
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
}

func (d *mosqDisplay) disconnect(t *testing.T) {
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(10 * time.Second):
		t.Fatal("mosquitto_sub did not stop")
	}
	if e := d.r.On("stderr"); len(e) > 0 {
		t.Fatalf("mosquitto_sub: %s", e[0].Payload)
	}
}

// TestPersistentDisplayMissesNoMove is the recipe of docs/mqtt.md: a display
// with a persistent session is away while moves are played, the broker (the
// daemon) restarts, gracefully or by SIGKILL, more moves are played, and the
// display comes back: it gets every move, once, in order. With paho and with
// mosquitto_sub, against the embedded broker and against mosquitto.
func TestPersistentDisplayMissesNoMove(t *testing.T) {
	for _, restart := range []string{"none", "graceful", "SIGKILL"} {
		for _, kind := range []string{"paho", "mosquitto_sub"} {
			t.Run("embedded/"+kind+"/restart "+restart, func(t *testing.T) {
				addr := freeport.Addr(t)
				o := displayBrokerOpts(t, addr)
				br := startChild(t, o)
				tb := &testBroker{url: "tcp://" + addr, user: testUser, pass: testPass}
				recipe(t, tb, kind, displayUser, displayPass,
					func(client string, n int) { br.waitQueued(t, client, n) },
					func() {
						switch restart {
						case "graceful":
							br.stop()
						case "SIGKILL":
							br.kill()
						default:
							return
						}
						br = startChild(t, o)
					})
			})
		}
	}
	for _, kind := range []string{"paho", "mosquitto_sub"} {
		t.Run("mosquitto/"+kind+"/restart graceful", func(t *testing.T) {
			tb := mosquitto(t, mosqOpts{users: map[string]string{testUser: testPass}})
			recipe(t, tb, kind, testUser, testPass, nil, func() { tb.stop(t); tb.start(t) })
		})
	}
}

// recipe plays the recipe against tb; queued(client, n) (when not nil)
// waits until the broker holds n messages for client; restart restarts
// the broker.
func recipe(t *testing.T, tb *testBroker, kind, user, pass string, queued func(string, int), restart func()) {
	id := "hall-display-" + strings.ReplaceAll(kind, "_", "-")
	var d display
	if kind == "paho" {
		d = &pahoDisplay{id: id, url: tb.url, user: user, pass: pass, r: mqtttest.NewRecorder()}
	} else {
		d = &mosqDisplay{id: id, addr: strings.TrimPrefix(tb.url, "tcp://"), user: user, pass: pass, r: mqtttest.NewRecorder()}
	}
	o := testOpts(tb, t.TempDir())
	o.ClientID = "tridboard-board"
	c := newClient(t, o, nil)
	waitConnected(t, c)
	play := func(from, to int) {
		t.Helper()
		for s := from; s <= to; s++ {
			if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
				t.Fatal(err)
			}
		}
		for deadline := time.Now().Add(15 * time.Second); c.Stats().PendingMoves > 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("moves %d..%d not acknowledged by the broker: %+v", from, to, c.Stats())
			}
		}
	}
	connectSubscribed(t, tb, d)
	play(1, 3)
	d.rec().WaitSeq(t, 3)
	d.disconnect(t)
	play(4, 8)
	if queued != nil {
		queued(id, 5)
	}
	restart()
	play(9, 10)
	if queued != nil {
		queued(id, 7)
	}
	d.connect(t)
	d.rec().WaitSeq(t, 10)
	play(11, 11) // a late duplicate of 4..10 would come before 11
	got := d.rec().WaitSeq(t, 11)
	if dups := mqtttest.CheckMoves(t, got, "g1", 11); dups != 0 {
		t.Fatalf("%d duplicates, want every move once", dups)
	}
	d.disconnect(t)
}

// connectSubscribed connects d for the first time and waits for its
// subscription (a first connection has no session to queue moves in yet).
func connectSubscribed(t *testing.T, tb *testBroker, d display) {
	t.Helper()
	d.connect(t)
	probe := mqtttest.Publisher(t, tb.url, tb.user, tb.pass)
	for deadline := time.Now().Add(10 * time.Second); len(d.rec().On(probeTopic)) == 0; time.Sleep(10 * time.Millisecond) {
		probe.Publish(probeTopic, 0, false, "probe")
		if time.Now().After(deadline) {
			t.Fatal("the display never subscribed")
		}
	}
	probe.Disconnect(0)
}

// displayUser and displayPass are the display account of displayBrokerOpts.
const displayUser, displayPass = "hall", "display-secret"

// displayBrokerOpts is an embedded broker on addr with the daemon's and a
// display's account and a store, as a hall's set runs it.
func displayBrokerOpts(t *testing.T, addr string) Opts {
	return Opts{Addr: addr, Username: testUser, Password: testPass, DaemonClientID: "tridboard-board",
		Prefix: "tridboard", BoardID: "board",
		Accounts:  []Account{{Username: displayUser, Role: RoleDisplay, Password: displayPass}},
		StorePath: filepath.Join(t.TempDir(), "broker.db")}
}
