package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/web"
)

func embeddedBroker(t *testing.T) string {
	t.Helper()
	bo := broker.DefaultOpts()
	// A hall's broker: any board's retained state is kept (with a BoardID
	// only that board's would be, as on a set's own embedded broker).
	bo.Addr, bo.BoardID = "127.0.0.1:0", ""
	b, err := broker.Start(bo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b.URL()
}

func pollUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// view builds the displays from MQTT alone: a set publishing as the daemon
// does (mqtt.Client: retained state with tags, moves through the outbox)
// appears in the viewer's hub, its pages serve it, and a page's command
// goes to the set's set/<name> topic and its reply comes back.
func TestViewFollowsSetsOnBroker(t *testing.T) {
	url := embeddedBroker(t)
	o := mqtt.DefaultOpts()
	o.Broker, o.BoardID, o.StateDir, o.Discovery, o.CommandToken = url, "hall-7", t.TempDir(), "", "s3cret"
	var got []protocol.Command
	set, err := mqtt.New(o, protocol.HandlerFunc(func(_ context.Context, c protocol.Command) (any, error) {
		got = append(got, c)
		if _, ok := c.(protocol.TakeBack); ok {
			return map[string]string{"move": "b2W-b4N"}, nil
		}
		return nil, errors.New("no draw to accept")
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close(context.Background())

	hub := web.NewHub(web.DefaultOpts())
	var log syncBuffer
	v, err := newViewer(viewerOpts{Broker: url, Prefix: "tridboard", Token: "s3cret"}, hub, &log)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()

	g := rules.NewGame(st3d.System.Start())
	game := "20260101-100000-1"
	for i, s := range []string{"b2W-b4N", "b7B-b5N", "Nd1W-c3W"} {
		before := g.Position()
		m, _, err := before.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
		if err := set.Enqueue(protocol.Move{Seq: i + 1, Game: game, Move: s, SAN: before.Short(m), Position: g.Position().String(), Time: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	p := g.Position()
	set.PublishState(protocol.State{Game: game, Variant: "st3d", Position: p.String(), Turn: p.Turn(), Board: protocol.Board{Status: protocol.BoardInSync},
		LastMove: &protocol.LastMove{Seq: 3, Move: "Nd1W-c3W"}, Moves: g.Long(), MoveNumber: 2, Result: "*", Time: time.Now(),
		Tags: map[string]string{"White": "Kirk", "Black": "Spock"}})
	pollUntil(t, "the three moves in the hub", func() bool {
		bv, ok := hub.View("hall-7")
		if ok && testing.Verbose() {
			t.Logf("hub: %d moves, online %v, tags %v", len(bv.Moves), bv.Online, bv.Tags)
		}
		return ok && len(bv.Moves) == 3 && bv.Online && bv.Tags["White"] == "Kirk"
	})

	so := web.DefaultServerOpts()
	so.Commander, so.Token = v, "s3cret"
	srv := httptest.NewServer(web.New(hub, so).Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/boards/hall-7/game.pgn")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `[White "Kirk"]`) || !strings.Contains(string(b), "2. Nc3W *") {
		t.Fatalf("game.pgn:\n%s", b)
	}
	post := func(name, body string) (int, string) {
		req, _ := http.NewRequest("POST", srv.URL+"/boards/hall-7/command/"+name, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	if code, body := post("take_back", `{}`); code != 200 || body != `{"status":"ok","data":{"move":"b2W-b4N"}}` {
		t.Fatalf("take_back: %d %s", code, body)
	}
	if code, body := post("draw", `{"action":"accept","side":"black"}`); code != 409 || !strings.Contains(body, "no draw to accept") {
		t.Fatalf("draw: %d %s", code, body)
	}
	if len(got) != 2 {
		t.Fatalf("the set got %v", got)
	}
	// A hostile publisher: logged, ignored.
	evil := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID("evil"))
	if tok := evil.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("evil publisher: %v", tok.Error())
	}
	evil.Publish("tridboard/evil/state", 1, false, []byte("{garbage")).Wait()
	evil.Disconnect(0)
	pollUntil(t, "the warning", func() bool { return strings.Contains(log.String(), "tridboard/evil/state: invalid character") })
	if _, ok := hub.View("evil"); ok {
		t.Error("a garbage state made a board")
	}
}

// syncBuffer is a bytes.Buffer safe for the viewer's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// view refuses what it cannot use.
func TestViewBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{}, "--broker is required"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--delay", "-1"}, "--delay -1"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--prefix", "a/+/b"}, "wildcard"},
		{[]string{"--broker", "tcp://127.0.0.1:1", "--http", "bad:addr:1"}, "bad:addr:1"},
	} {
		var out, errb bytes.Buffer
		code := dispatch(append([]string{"view"}, tc.args...), &out, &errb)
		if code == exitOK || !strings.Contains(errb.String(), tc.err) {
			t.Errorf("view %v: %d %q, want an error with %q", tc.args, code, errb.String(), tc.err)
		}
	}
}
