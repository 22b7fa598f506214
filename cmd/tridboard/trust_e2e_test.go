package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/trust"
)

// syncBuf is a log both the daemon and the test use.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) count(sub string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.b.String(), sub)
}

// Issue 34: a hostile client on the hall's broker (anonymous Mosquitto, as
// docs/hall.md's hall was) tries what a spectator with mosquitto_pub
// would, in a game between two sets with a clock and against a set that
// takes only signed commands: a forged state with one more move and a
// forged clock, the same signed by a key of its own, a replayed old state,
// a forged result, a forged remote record (a draw offer), a forged
// command, a command with the stolen token, and a replayed signed command.
// Nothing changes on either set, each refusal is logged, and the real game
// goes on to its end with every move on both sets.
func TestForgedMessagesChangeNothing(t *testing.T) {
	broker := mosquittotest.Start(t)
	runner, err := trust.NewKey() // the event runner's key: allowed to command White's set
	if err != nil {
		t.Fatal(err)
	}
	wdir := t.TempDir()
	senders, _ := trust.OpenRing(filepath.Join(wdir, commandKeysFile))
	if err := senders.Enroll("event", runner.Public()); err != nil {
		t.Fatal(err)
	}
	const token = "hall-token" // and the token, which a spectator reads off the broker
	wlog := &syncBuf{}
	white := newSet(t, "enterprise", wdir, broker.URL, func(c *config.Config) { c.MQTT.CommandToken = token })
	white.logTo = wlog
	white.start()
	t.Cleanup(white.stop)
	black := startSet(t, "klingon", t.TempDir(), broker.URL)

	// The runner's signed commands, and a hostile client's raw ones.
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Commands, fo.Signer = broker.URL, true, runner
	var sentMu sync.Mutex
	var sent [][]byte // what the runner's commands looked like on the wire
	spy := paho.NewClient(paho.NewClientOptions().AddBroker(broker.URL).SetClientID("spectator"))
	if tok := spy.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer spy.Disconnect(50)
	retained := map[string][]byte{}
	spy.Subscribe("tridboard/#", 0, func(_ paho.Client, m paho.Message) {
		sentMu.Lock()
		defer sentMu.Unlock()
		if strings.Contains(m.Topic(), "/set/") {
			sent = append(sent, append([]byte(nil), m.Payload()...))
		}
		retained[m.Topic()] = append([]byte(nil), m.Payload()...)
	}).WaitTimeout(5 * time.Second)
	f, err := mqtt.Follow(fo, mqtt.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	waitUntil(t, "the runner is connected", f.Connected)
	ctl := paho.NewClient(paho.NewClientOptions().AddBroker(broker.URL).SetClientID("controller"))
	if tok := ctl.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer ctl.Disconnect(50)
	for _, p := range []*inproc{white, black} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := p.d.client.WaitConnected(ctx); err != nil {
			t.Fatalf("set %s: MQTT: %v", p.cfg.BoardID, err)
		}
		cancel()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	if _, err := f.Command(ctx, "enterprise", "new_game", map[string]any{"variant": "st3d", "time_control": "300",
		"opponent": map[string]any{"set": "klingon", "side": "black"}}); err != nil {
		t.Fatalf("the runner's signed new_game: %v", err)
	}
	cancel()
	bt, _ := mqtt.NewTopics("tridboard", "klingon")
	if r := sendCommand(t, ctl, bt, "new_game", `{"variant":"st3d","time_control":"300","opponent":{"set":"enterprise","side":"white"}}`); r["status"] != "ok" {
		t.Fatalf("new_game on klingon: %v", r)
	}
	for _, p := range []*inproc{white, black} {
		standSet(p.d.board, p.d.tb.Snapshot().Expected)
		p.waitInSync()
	}
	game := []string{"b2W-b3W", "b7B-b6B", "c2W-c3W", "c7B-c6B", "d1W-c3N", "d7B-d6B"}
	play := func(i int) {
		t.Helper()
		mover, other := white, black
		if i%2 == 1 {
			mover, other = black, white
		}
		mover.handSynced(game[i])
		other.waitMoves(i + 1)
		other.handSynced(game[i])
	}
	play(0)
	play(1)
	stateOf := func(board string, moves int) []byte {
		t.Helper()
		var b []byte
		waitUntil(t, board+"'s retained state with "+string(rune('0'+moves))+" moves", func() bool {
			sentMu.Lock()
			defer sentMu.Unlock()
			b = retained["tridboard/"+board+"/state"]
			var s struct{ Moves []string }
			return json.Unmarshal(b, &s) == nil && len(s.Moves) == moves
		})
		return b
	}
	old := stateOf("klingon", 2) // genuine, signed: to be replayed later
	play(2)
	genuine := stateOf("klingon", 3)

	attacker, _ := trust.NewKey()
	body := func(payload []byte) map[string]any {
		s, err := trust.Open(payload)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(s.Body, &m)
		return m
	}
	forge := func(edit func(m map[string]any), key *trust.Key) []byte {
		m := body(genuine)
		edit(m)
		b, _ := json.Marshal(m)
		if key != nil {
			b, _ = key.Seal("klingon", "state", b)
		}
		return b
	}
	oneMoreAndClock := func(m map[string]any) {
		m["moves"] = append(m["moves"].([]any), "c7B-c6B")
		m["clock"] = map[string]any{"control": "300", "white_ms": 1000, "black_ms": 9_999_000, "running": "white",
			"at": time.Now().UTC().Format("2006-01-02T15:04:05.000Z")}
		m["turn"] = "white"
	}
	resigned := func(m map[string]any) { m["result"], m["termination"] = "0-1", "resignation" }
	rec := func(key *trust.Key) []byte {
		b, _ := json.Marshal(map[string]any{"game": body(genuine)["game"], "peer": "enterprise", "side": "black",
			"peer_game": white.d.tb.Snapshot().Game, "draw_offer": 3, "draw_declined": -1})
		b, _ = key.Seal("klingon", "remote", b)
		return b
	}
	attacks := []struct {
		name, topic string
		payload     []byte
		log         string
	}{
		{"a forged state: one more move, White 1 s, Black 9,999 s (unsigned)", "tridboard/klingon/state", forge(oneMoreAndClock, nil), "why=unsigned"},
		{"the same, signed by the forger's key", "tridboard/klingon/state", forge(oneMoreAndClock, attacker), `why="unknown key"`},
		{"a replayed old state (genuine, signed)", "tridboard/klingon/state", old, "why=replay"},
		{"a forged result: White resigned", "tridboard/klingon/state", forge(resigned, attacker), `why="unknown key"`},
		{"a forged record: Black offers a draw", "tridboard/klingon/remote", rec(attacker), `why="unknown key"`},
		{"an oversized state", "tridboard/klingon/state", append(bytes.Repeat([]byte(" "), 300<<10), genuine...), `why="too large"`},
	}
	before := white.d.tb.Snapshot()
	for _, a := range attacks {
		n := wlog.count(a.log)
		if tok := spy.Publish(a.topic, 1, true, a.payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("%s: publish: %v", a.name, tok.Error())
		}
		waitUntil(t, "White's set logs the refusal of "+a.name, func() bool { return wlog.count(a.log) > n })
	}
	// Commands: the token read off the broker, an unsigned one, one signed
	// by a key White's set was not given, and the runner's own replayed.
	wt, _ := mqtt.NewTopics("tridboard", "enterprise")
	if r := sendCommand(t, ctl, wt, "resign", `{"side":"white","token":"`+token+`"}`); r["status"] != "error" ||
		!strings.Contains(r["reason"].(string), "unauthorised: unsigned command") {
		t.Errorf("a command with the stolen token: %v", r)
	}
	forged, _ := attacker.Seal("enterprise", mqtt.CommandKind("resign"), []byte(`{"side":"white","ts":"`+time.Now().UTC().Format(time.RFC3339Nano)+`"}`))
	if r := sendCommand(t, ctl, wt, "resign", string(forged)); r["status"] != "error" || !strings.Contains(r["reason"].(string), "may not command this set") {
		t.Errorf("a command signed by the forger: %v", r)
	}
	sentMu.Lock()
	replay := sent[0] // the runner's new_game, read off the broker
	sentMu.Unlock()
	if r := sendCommand(t, ctl, wt, "new_game", string(replay)); r["status"] != "error" || !strings.Contains(r["reason"].(string), "replayed") {
		t.Errorf("the runner's new_game replayed: %v", r)
	}
	if got := wlog.count("mqtt: command refused"); got != 3 {
		t.Errorf("%d command refusals logged, want 3", got)
	}
	after := white.d.tb.Snapshot()
	if after.Game != before.Game || len(after.Moves) != 3 || after.Result != rules.NoResult || after.Clock.WhiteMS == 1000 {
		t.Fatalf("White's set changed: game %s (was %s), %d moves, result %s, White's clock %d ms",
			after.Game, before.Game, len(after.Moves), after.Result, after.Clock.WhiteMS)
	}
	if got := black.d.tb.Snapshot(); len(got.Moves) != 3 || got.Result != rules.NoResult {
		t.Fatalf("Black's set changed: %d moves, result %s", len(got.Moves), got.Result)
	}
	if n := white.d.trust.peers.Refused(); n != int64(len(attacks)) {
		t.Errorf("White's set counted %d refusals, want %d", n, len(attacks))
	}
	// The real game goes on to its end: nothing lost.
	play(3)
	play(4)
	play(5)
	w, b := strings.Join(white.moves(), " "), strings.Join(black.moves(), " ")
	if w != strings.Join(game, " ") || b != w {
		t.Errorf("journals:\nwhite %s\nblack %s\nwant  %s", w, b, strings.Join(game, " "))
	}
	if white.d.tb.Snapshot().HasDrawOffer {
		t.Error("the forged draw offer stands on White's set")
	}
}
