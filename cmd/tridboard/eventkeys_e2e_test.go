package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/event"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/tournament"
	"github.com/tridboard/tridboard/trust"
)

// An event run with --enrolled-only on Mosquitto, as at a festival: the
// desk sees the key a real set announces, a mistyped fingerprint enrols
// nothing, the right one enrols it; the round's game is the one the set
// answered the event with; then the set's own key signs lies (a set whose
// software was tampered with): a checkmate the position does not show, a
// flag the clock does not show, a game the event did not assign. None is
// believed, each logged and counted; the players' real result is.
func TestEventDeskEnrolsAndDisbelievesASet(t *testing.T) {
	broker := mosquittotest.Start(t)
	setDir := t.TempDir()
	set := startSet(t, "hall-2", setDir, broker.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := set.d.client.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	elog := &syncBuf{}
	log := slog.New(slog.NewTextHandler(elog, nil))
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker = broker.URL
	ring, err := eventTrust(&fo, dir, false, log) // --enrolled-only
	if err != nil {
		t.Fatal(err)
	}
	link, attach, err := event.DialMQTT(fo, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	players, _ := tournament.ReadPlayers(strings.NewReader("Kirk,2210\nSpock,2350\n"), "players.txt")
	eo := event.DefaultOpts()
	eo.Dir, eo.Log, eo.Keys = dir, log, ring
	r, err := event.Create(eo, event.Config{Name: "Keys", System: tournament.Swiss, Rounds: 1,
		Boards: []string{"hall-2"}, TimeControl: "300", Variant: "st3d"}, players, link)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	attach(r)
	srv := httptest.NewServer(event.Handler(r, "arbiter"))
	defer srv.Close()

	setKey, err := trust.LoadOrCreate(setDir) // what the set's page shows
	if err != nil {
		t.Fatal(err)
	}
	fp := setKey.Public().Fingerprint()
	waitUntil(t, "the desk sees the set's announced key", func() bool {
		return strings.Contains(httpGet(t, srv.URL+"/api/event/keys"), `"announced_fingerprint":"`+fp+`","status":"announced"`)
	})
	other, _ := trust.NewKey()
	if _, err := r.EnrollKey("hall-2", "", other.Public().Fingerprint(), "mistyped"); err == nil || !strings.Contains(err.Error(), "is not its key's") {
		t.Fatalf("a wrong fingerprint: %v", err)
	}
	if _, ok := ring.Key("hall-2"); ok {
		t.Fatal("a wrong fingerprint enrolled the set")
	}
	httpPost(t, srv.URL+"/api/event/sets/hall-2/key", "arbiter", `{"fingerprint":"`+fp+`","reason":"read on its page"}`)
	if got, ok := ring.Key("hall-2"); !ok || !got.Equal(setKey.Public()) {
		t.Fatalf("the keyring holds %v for hall-2", got)
	}
	refused := elog.count("trust: refused a message") // its retained state, before it was enrolled

	spy := hallBroker{url: broker.URL}.client(t, "observer", "observer")
	var mu sync.Mutex
	var last []byte
	spy.Subscribe("tridboard/hall-2/state", 1, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		defer mu.Unlock()
		last = append([]byte(nil), m.Payload()...)
	}).WaitTimeout(5 * time.Second)
	httpPost(t, srv.URL+"/api/event/rounds/1/pair", "arbiter", "")
	httpPost(t, srv.URL+"/api/event/rounds/1/start", "arbiter", "")
	waitUntil(t, "the event takes the set's game", func() bool { return r.Snapshot().Paired[0].Games[0].GameID != "" })
	g := r.Snapshot().Paired[0].Games[0]
	var body map[string]any
	waitUntil(t, "the set's state of the round's game, believed", func() bool {
		mu.Lock()
		defer mu.Unlock()
		s, err := trust.Open(last)
		if err != nil || json.Unmarshal(s.Body, &body) != nil {
			return false
		}
		return body["game"] == g.GameID && r.Snapshot().Sets[0].Online
	})
	if n := elog.count("trust: refused a message"); n != refused {
		t.Errorf("%d of the enrolled set's messages were refused", n-refused)
	}
	for i, lie := range []struct {
		name string
		edit func(map[string]any)
	}{
		{"a checkmate the position does not show", func(b map[string]any) { b["result"], b["termination"] = "0-1", "checkmate" }},
		{"a flag the clock does not show", func(b map[string]any) { b["result"], b["termination"] = "0-1", "time" }},
		{"a result with no reason", func(b map[string]any) { b["result"], b["termination"] = "1-0", "" }},
		{"another game with the round's tags", func(b map[string]any) {
			b["game"], b["result"], b["termination"] = "not-the-events", "1-0", "resignation"
		}},
	} {
		forged := map[string]any{}
		for k, v := range body {
			forged[k] = v
		}
		lie.edit(forged)
		plain, _ := json.Marshal(forged)
		signed, err := setKey.Seal("hall-2", "state", plain)
		if err != nil {
			t.Fatal(err)
		}
		if tok := spy.Publish("tridboard/hall-2/state", 1, true, signed); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("%s: %v", lie.name, tok.Error())
		}
		if i < 3 {
			waitUntil(t, "the event disbelieves "+lie.name, func() bool { return r.Snapshot().Sets[0].Disbelieved == i+1 })
		} else {
			waitUntil(t, "the event sees "+lie.name, func() bool { return r.Snapshot().Sets[0].Game == "not-the-events" })
		}
		if got := r.Snapshot().Paired[0].Games[0]; got.Result.Over() || got.GameID != g.GameID {
			t.Fatalf("after %s the event holds %s (%s), game %s", lie.name, got.Result, got.Reason, got.GameID)
		}
	}
	if n := elog.count("event: a set's state not believed"); n != 3 {
		t.Errorf("%d states logged as not believed, want 3", n)
	}
	// The players' real result: White resigns on the set (a state signed
	// after the lies: the set's counters are below them, so the set is
	// restarted to start above, as a set does after its key was used).
	set.stop()
	startSet(t, "hall-2", setDir, broker.URL)
	sendCommands(t, broker.URL)("hall-2", "resign", `{"side":"white"}`)
	waitUntil(t, "the real result", func() bool { return r.Snapshot().Paired[0].Games[0].Result.Over() })
	if got := r.Snapshot().Paired[0].Games[0]; string(got.Result) != "0-1" || got.GameID != g.GameID {
		t.Errorf("the event holds %s (%s) of game %s, want 0-1 of %s", got.Result, got.Reason, got.GameID, g.GameID)
	}
}
