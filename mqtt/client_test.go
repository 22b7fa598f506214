package mqtt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tridboard/tridboard/internal/mqtttest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/sim"
)

// daemon is a Handler recording the commands it gets.
type daemon struct {
	mu  sync.Mutex
	got []protocol.Command
}

func (d *daemon) Command(_ context.Context, c protocol.Command) (any, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got = append(d.got, c)
	switch c := c.(type) {
	case protocol.NewGame:
		return map[string]string{"game": "g2", "variant": c.Variant}, nil
	case protocol.TakeBack:
		return nil, errors.New("no move to take back")
	}
	return nil, nil
}

func (d *daemon) commands() []protocol.Command {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]protocol.Command(nil), d.got...)
}

var brokers = []struct {
	name  string
	start func(t testing.TB) *testBroker
}{
	{"embedded", func(t testing.TB) *testBroker { return embedded(t, false) }},
	{"mosquitto", func(t testing.TB) *testBroker {
		return mosquitto(t, mosqOpts{users: map[string]string{testUser: testPass}})
	}},
}

var testState = protocol.State{V: protocol.Version,
	Game: "g1", Variant: "st3d", Position: "pos-g1-1", Turn: rules.Black,
	Board:      protocol.Board{Status: protocol.BoardMismatch, Cells: []string{"b2W", "z2QL3"}},
	LastMove:   &protocol.LastMove{Seq: 1, Move: "e1W-e2W", SAN: "e2"},
	MoveNumber: 1, Result: protocol.ResultOngoing,
	Time: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
}

const testStateJSON = `{"v":1,"game":"g1","variant":"st3d","position":"pos-g1-1","board":{"status":"mismatch","cells":["b2W","z2QL3"]},"last_move":{"seq":1,"move":"e1W-e2W","san":"e2"},"move_number":1,"check":false,"result":"*","ts":"2025-01-02T03:04:05Z","turn":"black"}`

func TestRoundTrip(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			tb := bk.start(t)
			d := &daemon{}
			c := newClient(t, testOpts(tb, t.TempDir()), d)
			waitConnected(t, c)
			base := "tridboard/board/"

			c.PublishState(testState)
			c.PublishEvent(protocol.Event{Type: protocol.EventIllegal, Game: "g1", Cells: []string{"c3W"}, Detail: "no legal move explains it", Time: testState.Time})
			if err := c.Enqueue(mqtttest.Move("g1", 1)); err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(mqtttest.Move("g1", 1))
			if got := tb.rec.WaitCount(t, base+"move", 1); got[0].Payload != string(want) {
				t.Errorf("move %s, want %s", got[0].Payload, want)
			}
			if got := tb.rec.WaitCount(t, base+"event", 1); got[0].Payload != `{"type":"illegal","game":"g1","cells":["c3W"],"detail":"no legal move explains it","ts":"2025-01-02T03:04:05Z"}` {
				t.Errorf("event %s", got[0].Payload)
			}
			if got := tb.rec.WaitCount(t, base+"state", 1); got[0].Payload != testStateJSON {
				t.Errorf("state %s\n want %s", got[0].Payload, testStateJSON)
			}
			var back protocol.State
			if err := json.Unmarshal([]byte(testStateJSON), &back); err != nil || !reflect.DeepEqual(back, testState) {
				t.Errorf("state does not read back: %v\n%+v", err, back)
			}

			// A display arriving late gets the retained state and availability
			// only, then what is published after it came: the next event is
			// the first message that is not retained.
			late := lateSubscriber(t, tb, base+"#")
			c.PublishEvent(protocol.Event{Type: protocol.EventIllegal, Game: "g1", Detail: "after the late display came", Time: testState.Time})
			late.WaitCount(t, base+"event", 1)
			gotLate := late.All()
			if n := len(gotLate); n == 0 || gotLate[n-1].Topic != base+"event" || gotLate[n-1].Retained {
				t.Fatalf("late subscriber got %+v\n want the retained messages, then the new event", gotLate)
			}
			gotLate = gotLate[:len(gotLate)-1]
			sort.Slice(gotLate, func(i, j int) bool { return gotLate[i].Topic < gotLate[j].Topic })
			wantLate := []mqtttest.Rec{{Topic: base + "availability", Payload: Online, Retained: true}, {Topic: base + "state", Payload: testStateJSON, Retained: true}}
			if !reflect.DeepEqual(gotLate, wantLate) {
				t.Errorf("late subscriber got %+v before the new event\n want %+v", gotLate, wantLate)
			}

			// Home Assistant discovery.
			ha := mqtttest.Subscriber(t, tb.url, tb.user, tb.pass, "homeassistant/#")
			ha.WaitFor(t, "homeassistant/button/tridboard_board/resync/config", "resync button", func(m []mqtttest.Rec) bool { return len(m) == 1 })
			for len(ha.On("homeassistant/sensor/tridboard_board/result/config")) == 0 || len(ha.On("homeassistant/sensor/tridboard_board/turn/config")) == 0 {
				ha.WaitCount(t, "homeassistant/sensor/tridboard_board/result/config", 1)
				ha.WaitCount(t, "homeassistant/sensor/tridboard_board/turn/config", 1)
				ha.WaitCount(t, "homeassistant/sensor/tridboard_board/move_number/config", 1)
				ha.WaitCount(t, "homeassistant/sensor/tridboard_board/last_move/config", 1)
			}
			const wantBoard = `{"name":"Board","unique_id":"tridboard_board_board","icon":"mdi:checkerboard","state_topic":"tridboard/board/state","value_template":"{{ value_json.board.status }}","json_attributes_topic":"tridboard/board/state","availability_topic":"tridboard/board/availability","payload_available":"online","payload_not_available":"offline","device":{"identifiers":["tridboard_board"],"name":"tridboard board","manufacturer":"tridboard","model":"Star Trek 3D chess set","sw_version":"test"}}`
			if got := ha.WaitCount(t, "homeassistant/sensor/tridboard_board/board/config", 1); got[0].Payload != wantBoard || !got[0].Retained {
				t.Errorf("discovery %s retained=%v\n want %s", got[0].Payload, got[0].Retained, wantBoard)
			}
			if n := len(ha.All()); n != 6 {
				t.Errorf("%d discovery configs, want 6", n)
			}

			// Commands.
			pub := mqtttest.Publisher(t, tb.url, tb.user, tb.pass)
			cmds := []struct {
				cmd, payload string
				retain       bool
				reply        string
			}{
				{protocol.CmdNewGame, `{"transaction":"t1","variant":"st3d"}`, false, `{"transaction":"t1","status":"ok","data":{"game":"g2","variant":"st3d"}}`},
				{protocol.CmdTakeBack, `{"transaction":2}`, false, `{"transaction":2,"status":"error","reason":"no move to take back"}`},
				{protocol.CmdResync, `{"transaction":"t3"`, false, `{"status":"error","reason":"malformed payload: want a JSON object"}`},
				{"castle", `{"transaction":"t4"}`, false, `{"transaction":"t4","status":"error","reason":"unknown command \"castle\""}`},
				{protocol.CmdResign, `{"transaction":"t5","side":"blue"}`, false, `{"transaction":"t5","status":"error","reason":"resign: side \"blue\": want \"white\" or \"black\""}`},
				// A retained command reaches the subscribed client as a live one (MQTT
				// clears the flag for existing subscriptions): it runs once.
				{protocol.CmdResign, `{"transaction":"t6","side":"black"}`, true, `{"transaction":"t6","status":"ok"}`},
				{protocol.CmdDraw, `{"transaction":"t7","action":"offer","side":"white"}`, false, `{"transaction":"t7","status":"ok"}`},
			}
			for i, cm := range cmds {
				mqtttest.WaitToken(t, pub.Publish(base+"set/"+cm.cmd, 1, cm.retain, cm.payload), "publish command")
				got := tb.rec.WaitFor(t, base+"response/"+cm.cmd, "reply "+cm.payload, func(m []mqtttest.Rec) bool {
					n := 0
					for _, c := range cmds[:i+1] {
						if c.cmd == cm.cmd {
							n++
						}
					}
					return len(m) >= n
				})
				if last := got[len(got)-1]; last.Payload != cm.reply {
					t.Errorf("set/%s %s: reply %s\n want %s", cm.cmd, cm.payload, last.Payload, cm.reply)
				}
				if cm.retain {
					// A client connecting later gets it with the retain flag:
					// it must not run again at every connection.
					before := len(tb.rec.On(base + "response/" + cm.cmd))
					d2 := &daemon{}
					o2 := testOpts(tb, t.TempDir())
					o2.ClientID = "second"
					c2 := newClient(t, o2, d2)
					waitConnected(t, c2)
					got := tb.rec.WaitCount(t, base+"response/"+cm.cmd, before+1)
					if want := `{"status":"error","reason":"retained command ignored: publish commands without the retain flag"}`; got[before].Payload != want {
						t.Errorf("retained set/%s at connection: reply %s\n want %s", cm.cmd, got[before].Payload, want)
					}
					c2.Close(context.Background())
					if got := d2.commands(); len(got) != 0 {
						t.Errorf("retained command ran at connection: %#v", got)
					}
					mqtttest.WaitToken(t, pub.Publish(base+"set/"+cm.cmd, 1, true, ""), "clear retained")
				}
			}
			wantCmds := []protocol.Command{protocol.NewGame{Variant: "st3d"}, protocol.TakeBack{}, protocol.Resign{Side: rules.Black}, protocol.Draw{Action: protocol.DrawOffer, Side: rules.White}}
			if got := d.commands(); !reflect.DeepEqual(got, wantCmds) {
				t.Errorf("handler got %#v\n want %#v", got, wantCmds)
			}

			// Shutdown: final state, then offline.
			final := testState
			final.Result, final.Reason = protocol.ResultWhiteWins, "resignation"
			c.PublishState(final)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := c.Close(ctx); err != nil {
				t.Fatal(err)
			}
			av := tb.rec.WaitFor(t, base+"availability", "offline", func(m []mqtttest.Rec) bool { return len(m) > 0 && m[len(m)-1].Payload == Offline })
			if av[0].Payload != Online {
				t.Errorf("availability %q first, want online", av[0].Payload)
			}
			after := mqtttest.Subscriber(t, tb.url, tb.user, tb.pass, base+"#")
			st := after.WaitCount(t, base+"state", 1)
			if !strings.Contains(st[0].Payload, `"result":"1-0","termination":"resignation"`) {
				t.Errorf("final state %s", st[0].Payload)
			}
			if got := after.WaitCount(t, base+"availability", 1); got[0].Payload != Offline || !got[0].Retained {
				t.Errorf("availability after close: %+v", got[0])
			}
		})
	}
}

func TestBrokerRestart(t *testing.T) {
	const n = 30
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			tb := bk.start(t)
			c := newClient(t, testOpts(tb, t.TempDir()), nil)
			waitConnected(t, c)
			for s := 1; s <= 10; s++ {
				if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
					t.Fatal(err)
				}
			}
			tb.stop(t) // in the middle of publishing
			for s := 11; s <= 20; s++ {
				if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
					t.Fatal(err)
				}
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				st := c.Stats()
				if !st.Connected && st.PendingMoves > 0 && st.LastError != nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("broker down: stats %+v: want disconnected, moves pending and an error", st)
				}
			}
			tb.start(t)
			waitConnected(t, c)
			for s := 21; s <= n; s++ {
				if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
					t.Fatal(err)
				}
			}
			got := tb.rec.WaitSeq(t, n)
			dups := mqtttest.CheckMoves(t, got, "g1", n)
			t.Logf("%d moves, %d duplicates", n, dups)
			waitDrained(t, c)
		})
	}
}

func TestDaemonRestart(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			tb := bk.start(t)
			dir := t.TempDir()
			// The outage is a proxy refusing the client, so that the recorder
			// stays connected and counts exactly what the client published.
			p := newProxy(t, strings.TrimPrefix(tb.url, "tcp://"))
			o := testOpts(tb, dir)
			o.Broker = "tcp://" + p.addr()
			ctx := context.Background()

			// 1..5 published, 6..10 enqueued while the broker is down, then the
			// daemon stops: they stay in the outbox.
			c := newClient(t, o, nil)
			waitConnected(t, c)
			for s := 1; s <= 5; s++ {
				c.Enqueue(mqtttest.Move("g1", s))
			}
			tb.rec.WaitCount(t, "tridboard/board/move", 5)
			waitDrained(t, c) // else 5 may be sent again, rightly, for want of its PUBACK
			p.pause()
			for s := 6; s <= 10; s++ {
				if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
					t.Fatal(err)
				}
			}
			short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			c.Close(short)
			cancel()
			p.resume()

			// Restart: the daemon re-enqueues its journal (1..10) as it does at
			// every start; the outbox publishes 6..10 once.
			c = newClient(t, o, nil)
			for s := 1; s <= 10; s++ {
				if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
					t.Fatal(err)
				}
			}
			got := tb.rec.WaitSeq(t, 10)
			if dups := mqtttest.CheckMoves(t, got, "g1", 10); dups != 0 {
				t.Errorf("%d duplicates after a clean restart, want 0", dups)
			}
			if err := c.Close(ctx); err != nil {
				t.Fatal(err)
			}

			// A crash between the journal write and the publication: 11 and 12
			// are in the outbox (fsync'd) but the process died without closing.
			ob, err := OpenOutbox(dir)
			if err != nil {
				t.Fatal(err)
			}
			ob.Enqueue(mqtttest.Move("g1", 11))
			ob.Enqueue(mqtttest.Move("g1", 12))
			ob.f.Close() // no Close: as if the process died
			c = newClient(t, o, nil)
			for s := 1; s <= 13; s++ { // journal replay, with 13 never enqueued before
				if err := c.Enqueue(mqtttest.Move("g1", s)); err != nil {
					t.Fatal(err)
				}
			}
			got = tb.rec.WaitSeq(t, 13)
			if dups := mqtttest.CheckMoves(t, got, "g1", 13); dups != 0 {
				t.Errorf("%d duplicates after a crash, want 0", dups)
			}
		})
	}
}

func TestWrongCredentials(t *testing.T) {
	emb := embedded(t, false)
	mos := mosquitto(t, mosqOpts{users: map[string]string{testUser: testPass}})
	tests := []struct {
		name       string
		tb         *testBroker
		user, pass string
		want       string
	}{
		{"embedded wrong password", emb, testUser, "guess", "connect: not Authorized"},
		{"embedded no credentials", emb, "", "", "connect: not Authorized"},
		{"mosquitto wrong password", mos, testUser, "guess", "connect: not Authorized"},
		{"mosquitto unknown user", mos, "mallory", testPass, "connect: not Authorized"},
		{"mosquitto no credentials", mos, "", "", "connect: not Authorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := sim.NewTimeSource(time.Time{})
			o := testOpts(tt.tb, t.TempDir())
			o.Username, o.Password = tt.user, tt.pass
			o.Now, o.NewTimer = clk.Now, clk.NewTimer
			c := newClient(t, o, nil)
			if err := c.Enqueue(mqtttest.Move("g1", 1)); err != nil {
				t.Fatal(err)
			}
			// Refused, the client tries again after RetryMin (20 ms), then
			// twice as long each time up to RetryMax (200 ms), in simulated
			// time; it never connects, and the move stays in its outbox.
			want := "mqtt: broker " + tt.tb.url + ": " + tt.want
			for i, backoff := range []time.Duration{20, 40, 80, 160, 200, 200} {
				backoff *= time.Millisecond
				waitTimers(t, clk, fmt.Sprintf("the wait after refusal %d", i+1), clk.Now().Add(backoff))
				if st := c.Stats(); st.Connected || st.PendingMoves != 1 || st.MovesAcked != 0 || st.LastError == nil || st.LastError.Error() != want {
					t.Fatalf("after refusal %d: stats %+v, want not connected, the move pending and %s", i+1, st, want)
				}
				clk.Advance(backoff)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := c.WaitConnected(ctx); err == nil || err.Error() != want {
				t.Fatalf("WaitConnected: %v, want %s", err, want)
			}
			if got := tt.tb.rec.On("tridboard/board/move"); len(got) != 0 {
				t.Fatalf("a refused client published %d moves", len(got))
			}
		})
	}
}

// waitTimers waits until the only timers of clk are at want: what the code
// under test waits for once it is idle.
func waitTimers(t testing.TB, clk *sim.TimeSource, what string, want ...time.Time) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !slices.Equal(clk.Timers(), want); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s: timers at %v, want %v", what, clk.Timers(), want)
		}
	}
}

// lateSubscriber subscribes to filter on a new connection, then subscribes
// once more: a broker handles a connection's packets in order, so once the
// second subscription is acknowledged, every retained message of the first
// was sent, and whatever is published next comes after them.
func lateSubscriber(t testing.TB, tb *testBroker, filter string) *mqtttest.Recorder {
	t.Helper()
	r := mqtttest.NewRecorder()
	cli := paho.NewClient(paho.NewClientOptions().AddBroker(tb.url).SetClientID("late-display").
		SetUsername(tb.user).SetPassword(tb.pass).SetAutoReconnect(false))
	mqtttest.WaitToken(t, cli.Connect(), "late subscriber connect")
	t.Cleanup(func() { cli.Disconnect(0) })
	mqtttest.WaitToken(t, cli.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) {
		r.Add(mqtttest.Rec{Topic: m.Topic(), Payload: string(m.Payload()), Retained: m.Retained()})
	}), "subscribe "+filter)
	barrier := strings.TrimSuffix(filter, "#") + "late-barrier" // no message has this topic
	mqtttest.WaitToken(t, cli.Subscribe(barrier, 1, nil), "subscribe "+barrier)
	return r
}

// TestLastWill cuts the network under the client: the broker publishes its
// will, "offline", and the client comes back "online" and goes on.
func TestLastWill(t *testing.T) {
	for _, bk := range brokers {
		t.Run(bk.name, func(t *testing.T) {
			tb := bk.start(t)
			p := newProxy(t, strings.TrimPrefix(tb.url, "tcp://"))
			o := testOpts(tb, t.TempDir())
			o.Broker = "tcp://" + p.addr()
			c := newClient(t, o, nil)
			waitConnected(t, c)
			c.Enqueue(mqtttest.Move("g1", 1))
			tb.rec.WaitCount(t, "tridboard/board/move", 1)
			p.cut()
			av := tb.rec.WaitFor(t, "tridboard/board/availability", "online, offline, online", func(m []mqtttest.Rec) bool { return len(m) >= 3 })
			var got []string
			for _, m := range av {
				got = append(got, m.Payload)
			}
			if want := []string{Online, Offline, Online}; !reflect.DeepEqual(got[:3], want) {
				t.Fatalf("availability %q, want %q", got, want)
			}
			c.Enqueue(mqtttest.Move("g1", 2))
			got2 := tb.rec.WaitSeq(t, 2)
			mqtttest.CheckMoves(t, got2, "g1", 2)
		})
	}
}

func TestWebsocket(t *testing.T) {
	for _, bk := range []struct {
		name  string
		start func(t testing.TB) *testBroker
	}{
		{"embedded", func(t testing.TB) *testBroker { return embedded(t, true) }},
		{"mosquitto", func(t testing.TB) *testBroker {
			return mosquitto(t, mosqOpts{users: map[string]string{testUser: testPass}, ws: true})
		}},
	} {
		t.Run(bk.name, func(t *testing.T) {
			tb := bk.start(t)
			display := mqtttest.Subscriber(t, tb.wsURL, tb.user, tb.pass, "tridboard/board/#")
			o := testOpts(tb, t.TempDir())
			o.Broker = tb.wsURL
			c := newClient(t, o, nil)
			waitConnected(t, c)
			c.PublishState(testState)
			c.Enqueue(mqtttest.Move("g1", 1))
			mqtttest.CheckMoves(t, display.WaitCount(t, "tridboard/board/move", 1), "g1", 1)
			if got := display.WaitCount(t, "tridboard/board/state", 1); got[0].Payload != testStateJSON {
				t.Errorf("state over websocket %s", got[0].Payload)
			}
		})
	}
}

func TestTLS(t *testing.T) {
	files := mqtttest.MakeTLS(t)
	tb := mosquitto(t, mosqOpts{users: map[string]string{testUser: testPass}, tls: files})
	o := testOpts(tb, t.TempDir())
	o.CAFile, o.CertFile, o.KeyFile = files.CA, files.ClientCert, files.ClientKey
	c := newClient(t, o, nil)
	waitConnected(t, c)
	c.Enqueue(mqtttest.Move("g1", 1))
	mqtttest.CheckMoves(t, tb.rec.WaitCount(t, "tridboard/board/move", 1), "g1", 1)

	// Without a client certificate, mosquitto (require_certificate) refuses.
	o = testOpts(tb, t.TempDir())
	o.CAFile = files.CA
	o.ClientID = "no-cert"
	nc := newClient(t, o, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := nc.WaitConnected(ctx)
	if prefix := "mqtt: broker " + tb.url + ": connect: "; err == nil || !strings.HasPrefix(err.Error(), prefix) {
		t.Fatalf("without a client certificate: %v, want prefix %q", err, prefix)
	}
}

// waitDrained waits until the broker acknowledged every move.
func waitDrained(t testing.TB, c *Client) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for st := c.Stats(); st.PendingMoves != 0; st = c.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v: want nothing pending", st)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
