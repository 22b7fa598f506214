package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/event"
	"github.com/tridboard/tridboard/hall"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/tournament"
	"github.com/tridboard/tridboard/trust"
	"github.com/tridboard/tridboard/web"
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

// hallBroker is a broker for the attacks: its URL, the sets' prefix and
// who logs in as whom ("" everyone anonymous).
type hallBroker struct {
	url, prefix string
	login       func(account string) (user, pass string)
	// spectator, when set, is a read-only account that tries to forge a
	// state too (a secure hall's broker drops it).
	spectator string
}

func (h hallBroker) client(t *testing.T, account, id string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(h.url).SetClientID(id)
	if h.login != nil {
		u, p := h.login(account)
		o.SetUsername(u).SetPassword(p)
	}
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("%s: %v", account, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c
}

// Issue 34: a hostile client on the hall's broker (anonymous Mosquitto, as
// docs/hall.md's hall was) tries what a spectator with mosquitto_pub
// would, in a game between two sets with a clock and against a set that
// takes only signed commands: a forged state with one more move and a
// forged clock, the same signed by a key of its own, a replayed old state,
// a forged result, a forged remote record (a draw offer), an oversized
// state, a command with the stolen token, one signed by its own key, and
// the runner's signed command replayed. Nothing changes on either set,
// each refusal is logged, and the real game goes on to its end with every
// move on both sets.
func TestForgedMessagesChangeNothing(t *testing.T) {
	t.Parallel()
	broker := mosquittotest.Start(t)
	playForgeries(t, hallBroker{url: broker.URL, prefix: "tridboard"})
}

// Issue 34: the same on the secure hall "tridboard hall" writes, run by
// Mosquitto, the attacker holding the passwords of the accounts it needs
// (the other set's to forge its state, White's set's to read its commands,
// the runner's to send commands): the signatures still refuse all of it. A
// spectator's forged state never reaches anyone (the broker drops it).
func TestForgedMessagesSecureHall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	addr := freeport.Addr(t)
	host, port, _ := net.SplitHostPort(addr)
	p := hall.DefaultPlan()
	p.Sets = []string{"enterprise", "klingon"}
	pw, err := hall.Write(dir, p, hall.WriteOpts{Mosquitto: hall.MosquittoOpts{Listen: port + " " + host,
		Dir: filepath.Join(dir, "mosquitto")}})
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := os.ReadFile(filepath.Join(dir, "mosquitto", "tridboard.conf"))
	broker := mosquittotest.StartConf(t, string(conf), addr)
	users := map[string]string{"white": "set-enterprise", "black": "set-klingon", "runner": "event",
		"observer": "set-enterprise", "forger": "set-klingon", "commander": "event", "spectator": "spectator"}
	playForgeries(t, hallBroker{url: broker.URL, prefix: p.Prefix, spectator: "spectator",
		login: func(account string) (string, string) { u := users[account]; return u, pw[u] }})
}

// playForgeries plays the attacks on h.
func playForgeries(t *testing.T, h hallBroker) {
	pre := h.prefix
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
	setCfg := func(account string) func(*config.Config) {
		return func(c *config.Config) {
			c.MQTT.Prefix = pre
			if account == "white" {
				c.MQTT.CommandToken = token
			}
			if h.login != nil {
				c.MQTT.Username, c.MQTT.Password = h.login(account)
			}
		}
	}
	white := newSet(t, "enterprise", wdir, h.url, setCfg("white"))
	white.logTo = wlog
	white.start()
	t.Cleanup(white.stop)
	black := startSetWith(t, "klingon", t.TempDir(), h.url, setCfg("black"))

	// The runner's signed commands, and a hostile client's raw ones.
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Commands, fo.Signer, fo.Prefix = h.url, true, runner, pre
	if h.login != nil {
		fo.Username, fo.Password = h.login("runner")
	}
	var sentMu sync.Mutex
	var sent [][]byte // what the runner's commands looked like on the wire
	spy := h.client(t, "observer", "observer")
	retained := map[string][]byte{}
	spy.SubscribeMultiple(map[string]byte{pre + "/klingon/state": 0, pre + "/enterprise/set/#": 0}, func(_ paho.Client, m paho.Message) {
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
	ctl := h.client(t, "commander", "commander")
	for _, p := range []*inproc{white, black} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := p.d.client.WaitConnected(ctx); err != nil {
			t.Fatalf("set %s: MQTT: %v", p.cfg.BoardID, err)
		}
		cancel()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	// White's set is given Black's key with its game (the pairing);
	// Black's set pins White's at the first signed state.
	if _, err := f.Command(ctx, "enterprise", "new_game", map[string]any{"variant": "st3d", "time_control": "300",
		"opponent": map[string]any{"set": "klingon", "side": "black", "key": black.d.trust.key.Public().String()}}); err != nil {
		t.Fatalf("the runner's signed new_game: %v", err)
	}
	if _, e := white.d.trust.peerRing.Entries(); e["klingon"].How != "enrolled" || !e["klingon"].Key.Equal(black.d.trust.key.Public()) {
		t.Fatalf("White's set holds %+v for klingon, want its key enrolled", e["klingon"])
	}
	cancel()
	bt, _ := mqtt.NewTopics(pre, "klingon")
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
			b = retained[pre+"/"+board+"/state"]
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
		{"a forged state: one more move, White 1 s, Black 9,999 s (unsigned)", pre + "/klingon/state", forge(oneMoreAndClock, nil), "why=unsigned"},
		{"the same, signed by the forger's key", pre + "/klingon/state", forge(oneMoreAndClock, attacker), `why="unknown key"`},
		{"a replayed old state (genuine, signed)", pre + "/klingon/state", old, "why=replay"},
		{"a forged result: White resigned", pre + "/klingon/state", forge(resigned, attacker), `why="unknown key"`},
		{"a forged record: Black offers a draw", pre + "/klingon/remote", rec(attacker), `why="unknown key"`},
	}
	if h.login == nil {
		// A secure hall's broker takes nothing over 256 KiB
		// (message_size_limit): there the set never sees it.
		attacks = append(attacks, struct {
			name, topic string
			payload     []byte
			log         string
		}{"an oversized state", pre + "/klingon/state", append(bytes.Repeat([]byte(" "), 300<<10), genuine...), `why="too large"`})
	}
	// A spectators' view that shows only what the sets signed (view
	// --signed), the page the hall watches.
	hub := web.NewHub(web.DefaultOpts())
	vo := viewerOpts{Broker: h.url, Prefix: pre, ClientID: "view"}
	if h.login != nil {
		vo.Username, vo.Password = h.login("spectator")
	}
	vring, _ := trust.OpenRing("")
	vring.FirstUse = true
	vco := trust.DefaultCheckerOpts(vring)
	vco.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	vo.Checker = trust.NewChecker(vco)
	v, err := newViewer(vo, hub, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	waitUntil(t, "the view shows klingon's 3 moves", func() bool { s, ok := hub.Summary("klingon"); return ok && s.Plies == 3 })
	before := white.d.tb.Snapshot()
	forger := h.client(t, "forger", "forger")
	if h.spectator != "" {
		// The broker drops it (it may end the spectator's connection: see
		// package hall's tests); the retained state stays the set's.
		h.client(t, "spectator", "spectator").Publish(pre+"/klingon/state", 1, true, forge(oneMoreAndClock, nil)).WaitTimeout(5 * time.Second)
		got := make(chan []byte, 1)
		h.client(t, "observer", "observer-2").Subscribe(pre+"/klingon/state", 1, func(_ paho.Client, m paho.Message) {
			select {
			case got <- m.Payload():
			default:
			}
		})
		select {
		case b := <-got:
			if s, err := trust.Open(b); err != nil || s.Verify(black.d.trust.key.Public(), "klingon", "state") != nil {
				t.Fatalf("the spectator's forged state was retained: %s", b)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no retained state of klingon")
		}
	}
	for _, a := range attacks {
		n := wlog.count(a.log)
		if tok := forger.Publish(a.topic, 1, true, a.payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("%s: publish: %v", a.name, tok.Error())
		}
		waitUntil(t, "White's set logs the refusal of "+a.name, func() bool { return wlog.count(a.log) > n })
	}
	// Commands: the token read off the broker, an unsigned one, one signed
	// by a key White's set was not given, and the runner's own replayed.
	wt, _ := mqtt.NewTopics(pre, "enterprise")
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
	if sum, _ := hub.Summary("klingon"); sum.Plies != 3 || sum.Result != "*" || sum.Clock == nil || sum.Clock.WhiteMS == 1000 {
		t.Errorf("the view shows klingon with %d moves, result %s, clock %+v", sum.Plies, sum.Result, sum.Clock)
	}
	if n := vo.Checker.Refused(); n < int64(len(attacks)-1) {
		t.Errorf("the view refused %d payloads, want at least %d", n, len(attacks)-1)
	}
	if _, e := black.d.trust.peerRing.Entries(); e["enterprise"].How != "first use" || !e["enterprise"].Key.Equal(white.d.trust.key.Public()) {
		t.Errorf("Black's set holds %+v for enterprise, want White's key pinned", e["enterprise"])
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

// Issue 34: the event believes only its sets. A hostile client on the
// broker publishes, for the set of board 1 in the round being played, a
// state with a result and no move (unsigned, then signed by its own key),
// the set's genuine state from before the round (replayed), and a 1 MB
// state; then the players' real result comes. The event records the real
// result only, each forgery is refused, logged and counted, and the
// round's PGN is the set's.
func TestEventRefusesForgedStates(t *testing.T) {
	broker := mosquittotest.Start(t)
	set := startSet(t, "hall-1", t.TempDir(), broker.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := set.d.client.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	spy := hallBroker{url: broker.URL}.client(t, "observer", "observer")
	var mu sync.Mutex
	var states [][]byte
	spy.Subscribe("tridboard/hall-1/state", 1, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		defer mu.Unlock()
		states = append(states, append([]byte(nil), m.Payload()...))
	}).WaitTimeout(5 * time.Second)
	waitUntil(t, "the set's state before the event", func() bool { mu.Lock(); defer mu.Unlock(); return len(states) > 0 })
	mu.Lock()
	before := states[len(states)-1]
	mu.Unlock()

	dir := t.TempDir()
	elog := &syncBuf{}
	log := slog.New(slog.NewTextHandler(elog, nil))
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker = broker.URL
	if _, err := eventTrust(&fo, dir, true, log); err != nil {
		t.Fatal(err)
	}
	link, attach, err := event.DialMQTT(fo, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	players, _ := tournament.ReadPlayers(strings.NewReader("Kirk,2210\nSpock,2350\n"), "players.txt")
	eo := event.DefaultOpts()
	eo.Dir, eo.Log = dir, log
	r, err := event.Create(eo, event.Config{Name: "Forgery open", System: tournament.Swiss, Rounds: 1,
		Boards: []string{"hall-1"}, TimeControl: "300", Variant: "st3d"}, players, link)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	attach(r)
	srv := httptest.NewServer(event.Handler(r, "arbiter"))
	defer srv.Close()
	for _, path := range []string{"rounds/1/pair", "rounds/1/start"} {
		req, _ := http.NewRequest("POST", srv.URL+"/api/event/"+path, nil)
		req.Header.Set("Authorization", "Bearer arbiter")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("POST %s: %v %v", path, resp.Status, err)
		}
		resp.Body.Close()
	}
	waitUntil(t, "the event binds the set's game", func() bool { return r.Snapshot().Paired[0].Games[0].GameID != "" })
	g := r.Snapshot().Paired[0].Games[0]
	var genuine []byte
	waitUntil(t, "the set's state of the round's game", func() bool {
		mu.Lock()
		defer mu.Unlock()
		genuine = states[len(states)-1]
		return bytes.Contains(genuine, []byte(g.GameID))
	})
	s, err := trust.Open(genuine)
	if err != nil {
		t.Fatalf("the set's state is not signed: %v", err)
	}
	var forged map[string]any
	json.Unmarshal(s.Body, &forged)
	forged["result"], forged["termination"] = "0-1", "resignation"
	plain, _ := json.Marshal(forged)
	attacker, _ := trust.NewKey()
	signed, _ := attacker.Seal("hall-1", "state", plain)
	huge := append(bytes.Repeat([]byte(" "), 1<<20), plain...)
	for _, a := range []struct {
		name    string
		payload []byte
		reason  string
	}{
		{"a result, unsigned", plain, "unsigned"},
		{"a result, signed by another key", signed, "unknown key"},
		{"the set's state from before the round, replayed", before, "replay"},
		{"a 1 MB state", huge, "too large"},
	} {
		n := link.Refused()[a.reason]
		if tok := spy.Publish("tridboard/hall-1/state", 1, true, a.payload); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("%s: %v", a.name, tok.Error())
		}
		waitUntil(t, "the event refuses "+a.name, func() bool { return link.Refused()[a.reason] > n })
		if got := r.Snapshot().Paired[0].Games[0]; got.Result.Over() || got.GameID != g.GameID {
			t.Fatalf("after %s the event holds %s (%s), game %s", a.name, got.Result, got.Reason, got.GameID)
		}
	}
	if n := elog.count("trust: refused a message"); n != 4 {
		t.Errorf("%d refusals logged, want 4", n)
	}
	// The players' real result: White resigns on the set.
	sendCommands(t, broker.URL)("hall-1", "resign", `{"side":"white"}`)
	waitUntil(t, "the real result", func() bool { return r.Snapshot().Paired[0].Games[0].Result.Over() })
	if got := r.Snapshot().Paired[0].Games[0]; string(got.Result) != "0-1" || got.GameID != g.GameID {
		t.Errorf("the event holds %s (%s) of game %s, want 0-1 of %s", got.Result, got.Reason, got.GameID, g.GameID)
	}
}
