package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
)

// sseEvent is one event of a stream.
type sseEvent struct {
	id, name, data string
}

// streamEvents opens an SSE stream and sends its events on the channel,
// a comment as an event named "comment", until stop is called or the test
// ends; the channel closes with the stream.
func streamEvents(t *testing.T, url string, header map[string]string) (events <-chan sseEvent, h http.Header, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan sseEvent)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		send := func(ev sseEvent) bool {
			select {
			case out <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		}
		var ev sseEvent
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			switch line := sc.Text(); {
			case line == "":
				if (ev.name != "" || ev.data != "") && !send(ev) {
					return
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, ": "):
				if !send(sseEvent{name: "comment", data: line[2:]}) {
					return
				}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			}
		}
	}()
	return out, resp.Header, cancel
}

// readEvents reads n events (comments count) from an SSE stream, within
// 5 s, and closes it.
func readEvents(t *testing.T, url string, header map[string]string, n int) ([]sseEvent, http.Header) {
	t.Helper()
	evs, h, stop := streamEvents(t, url, header)
	defer stop()
	var out []sseEvent
	deadline := time.After(5 * time.Second)
	for len(out) < n {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatalf("%s: the stream ended after %d events of %d", url, len(out), n)
			}
			out = append(out, ev)
		case <-deadline:
			t.Fatalf("%s: %d events of %d in 5 s", url, len(out), n)
		}
	}
	return out, h
}

func decodeView(t *testing.T, e sseEvent) *BoardView {
	t.Helper()
	var v BoardView
	if e.name != "view" {
		t.Fatalf("event %q, want view", e.name)
	}
	if err := json.Unmarshal([]byte(e.data), &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func testServer(t *testing.T, o Opts) (*Hub, *fakeSet, string) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.tags = map[string]string{"White": "Kirk", "Black": "Spock", "Event": "Federation Open", "Round": "3"}
	for _, m := range []string{"b2W-b4N", "b7B-b5N", "Nd1W-c3W"} {
		f.play(m)
	}
	srv := httptest.NewServer(New(h, o).Handler())
	t.Cleanup(srv.Close)
	return h, f, srv.URL
}

// The board's stream: a late joiner gets the whole game in its first
// event; a reconnection with Last-Event-ID (the seq) or ?game&after gets
// only the moves it missed; another game, or a seq the server does not
// know, gets the whole game; the stream works behind nginx (no buffering)
// and sends heartbeats.
func TestBoardEventsResume(t *testing.T) {
	o := DefaultServerOpts()
	o.Heartbeat = 20 * time.Millisecond
	_, f, url := testServer(t, o)
	for _, tc := range []struct {
		name   string
		query  string
		header map[string]string
		full   bool
		seqs   []int
	}{
		{"late joiner", "", nil, true, []int{1, 2, 3}},
		{"Last-Event-ID", "", map[string]string{"Last-Event-ID": "1"}, false, []int{2, 3}},
		{"up to date", "?game=" + f.game + "&after=3", nil, false, nil},
		{"query", "?game=" + f.game + "&after=2", nil, false, []int{3}},
		{"another game", "?game=other&after=2", nil, true, []int{1, 2, 3}},
		{"seq ahead", "", map[string]string{"Last-Event-ID": "9"}, true, []int{1, 2, 3}},
	} {
		evs, hdr := readEvents(t, url+"/boards/b1/events"+tc.query, tc.header, 2)
		if hdr.Get("Content-Type") != "text/event-stream" || hdr.Get("X-Accel-Buffering") != "no" || hdr.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: headers %v", tc.name, hdr)
		}
		v := decodeView(t, evs[0])
		var seqs []int
		for _, m := range v.Moves {
			seqs = append(seqs, m.Seq)
		}
		if v.Full != tc.full || !equalInts(seqs, tc.seqs) || evs[0].id != "3" || v.Seq != 3 {
			t.Errorf("%s: full %v seqs %v id %q, want %v %v 3", tc.name, v.Full, seqs, evs[0].id, tc.full, tc.seqs)
		}
		if evs[1].name != "comment" || evs[1].data != "heartbeat" {
			t.Errorf("%s: second event %+v, want a heartbeat", tc.name, evs[1])
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A move while connected arrives as its own event, with its seq as id.
func TestBoardEventsLive(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	url := srv.URL + "/boards/b1/events?game=" + f.game + "&after=0"
	evs, _, stop := streamEvents(t, url, nil)
	defer stop()
	next := func(what string) sseEvent {
		t.Helper()
		for deadline := time.After(10 * time.Second); ; {
			select {
			case ev, ok := <-evs:
				if !ok {
					t.Fatalf("%s: the stream ended before %s", url, what)
				}
				if ev.name == "view" {
					return ev
				}
			case <-deadline:
				t.Fatalf("%s: no %s in 10 s", url, what)
			}
		}
	}
	// Connected: the game as it stands, no move yet.
	if v := decodeView(t, next("first view")); len(v.Moves) != 0 {
		t.Fatalf("first view has moves %+v", v.Moves)
	}
	f.play("b2W-b4N")
	ev := next("event for the move")
	if last := decodeView(t, ev); ev.id != "1" || len(last.Moves) != 1 || last.Moves[0].Long != "b2W-b4N" {
		t.Fatalf("the move's event %+v, want id 1 with b2W-b4N", ev)
	}
}

// /boards/<id>/game.pgn is the export format: the tags, the moves in Meder
// notation numbered, the result.
func TestRecordFeed(t *testing.T) {
	_, f, url := testServer(t, DefaultServerOpts())
	resp, err := http.Get(url + "/boards/b1/game.pgn")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `[Event "Federation Open"]
[Site "?"]
[Date "????.??.??"]
[Round "3"]
[White "Kirk"]
[Black "Spock"]
[Result "*"]
[Variant "st3d"]

1. ` + f.sent[0].SAN + ` ` + f.sent[1].SAN + ` 2. ` + f.sent[2].SAN + ` *
`
	if string(b) != want || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-chess-pgn") {
		t.Fatalf("game.pgn (%s):\n%s\nwant:\n%s", resp.Header.Get("Content-Type"), b, want)
	}
	if resp, _ := http.Get(url + "/boards/nope/game.pgn"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown board: %s", resp.Status)
	}
}

// /api/boards lists every board; /api/boards/<id> has the whole game.
func TestJSONFeed(t *testing.T) {
	_, f, url := testServer(t, DefaultServerOpts())
	var list []Summary
	getJSON(t, url+"/api/boards", &list)
	if len(list) != 1 || list[0].ID != "b1" || list[0].Last == nil || list[0].Last.Short != f.sent[2].SAN || list[0].Tags["White"] != "Kirk" {
		t.Fatalf("boards %+v", list)
	}
	var v BoardView
	getJSON(t, url+"/api/boards/b1", &v)
	if len(v.Moves) != 3 || v.Moves[2].Num != "2." || v.Turn != "black" || !v.Full {
		t.Fatalf("board %+v", v)
	}
	var l Layout
	getJSON(t, url+"/api/layouts/st3d", &l)
	if len(l.Cells) != 108 || len(l.Panels) != 3 {
		t.Fatalf("layout: %d cells %d panels", len(l.Cells), len(l.Panels))
	}
	for _, u := range []string{"/api/boards/nope", "/api/layouts/chess", "/boards/a%2Fb"} {
		resp, _ := http.Get(url + u)
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %s", u, resp.Status)
		}
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

type fakeCommander struct {
	got []string
	err error
}

func (c *fakeCommander) Command(_ context.Context, board, name string, payload []byte) ([]byte, error) {
	c.got = append(c.got, board+" "+name+" "+string(payload))
	return []byte(`{"game":"g2"}`), c.err
}

// Actions that change a game need the command token; pages stay read-only
// without one; bad payloads never reach the commander.
func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		name, token, auth, cmd, body string
		err                          error
		status                       int
		got                          string
	}{
		{"no token configured", "", "Bearer x", "take_back", `{}`, nil, 403, ""},
		{"no auth", "s3cret", "", "take_back", `{}`, nil, 401, ""},
		{"wrong token", "s3cret", "Bearer nope", "take_back", `{}`, nil, 401, ""},
		{"take back", "s3cret", "Bearer s3cret", "take_back", ``, nil, 200, `b1 take_back {"token":"s3cret"}`},
		{"resign", "s3cret", "Bearer s3cret", "resign", `{"side":"black"}`, nil, 200, `b1 resign {"side":"black","token":"s3cret"}`},
		{"bad side", "s3cret", "Bearer s3cret", "resign", `{"side":"blue"}`, nil, 400, ""},
		{"unknown", "s3cret", "Bearer s3cret", "castle", `{}`, nil, 400, ""},
		{"not json", "s3cret", "Bearer s3cret", "draw", `[1]`, nil, 400, ""},
		{"refused", "s3cret", "Bearer s3cret", "draw", `{"action":"offer","side":"white"}`, errors.New("no game"), 409, `b1 draw {"action":"offer","side":"white","token":"s3cret"}`},
	} {
		c := &fakeCommander{err: tc.err}
		o := DefaultServerOpts()
		o.Commander, o.Token = c, tc.token
		_, _, url := testServer(t, o)
		req, _ := http.NewRequest("POST", url+"/boards/b1/command/"+tc.cmd, strings.NewReader(tc.body))
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got := strings.Join(c.got, "|")
		if resp.StatusCode != tc.status || got != tc.got {
			t.Errorf("%s: %s %s, commander got %q, want %d %q", tc.name, resp.Status, b, got, tc.status, tc.got)
		}
	}
	// GET never changes anything.
	_, _, url := testServer(t, DefaultServerOpts())
	if resp, _ := http.Get(url + "/boards/b1/command/take_back"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET command: %s", resp.Status)
	}
}

// The broadcast delay applies to the feeds: the record shows a move only
// once the delay has passed.
func TestDelayedFeed(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	o := DefaultOpts()
	o.Delay, o.Now = time.Minute, func() time.Time { return now }
	h := NewHub(o)
	f := newFakeSet(t, h, "b1", "st3d")
	h.Release(now.Add(time.Minute))
	now = now.Add(2 * time.Minute)
	f.play("b2W-b4N")
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	pgn := func() string {
		resp, err := http.Get(srv.URL + "/boards/b1/game.pgn")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	h.Release(now.Add(59 * time.Second))
	if got := pgn(); !strings.HasSuffix(got, "\n\n*\n") {
		t.Fatalf("before the delay:\n%s", got)
	}
	h.Release(now.Add(time.Minute))
	if got := pgn(); !strings.HasSuffix(got, "\n\n1. "+f.sent[0].SAN+" *\n") {
		t.Fatalf("after the delay:\n%s", got)
	}
}

// HandlerCommander runs a page's command on the daemon's MQTT handler, with
// the payload read as MQTT reads it and the token checked.
func TestHandlerCommander(t *testing.T) {
	var got []protocol.Command
	c := HandlerCommander(protocol.HandlerFunc(func(_ context.Context, cmd protocol.Command) (any, error) {
		got = append(got, cmd)
		if _, ok := cmd.(protocol.Resign); ok {
			return nil, errors.New("the game is over")
		}
		return map[string]int{"seq": 4}, nil
	}), "s3cret")
	for _, tc := range []struct {
		name, payload, data, err string
	}{
		{"take_back", `{"token":"s3cret"}`, `{"seq":4}`, ""},
		{"take_back", `{"token":"nope"}`, "", "unauthorised: missing or wrong token"},
		{"resign", `{"side":"white","token":"s3cret"}`, "", "the game is over"},
		{"resign", `{"side":"blue","token":"s3cret"}`, "", `resign: side "blue": want "white" or "black"`},
	} {
		data, err := c.Command(context.Background(), "b1", tc.name, []byte(tc.payload))
		if string(data) != tc.data || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("%s %s: %s, %v; want %s, %s", tc.name, tc.payload, data, err, tc.data, tc.err)
		}
	}
	if len(got) != 2 {
		t.Errorf("the handler got %v, want take_back and resign", got)
	}
}

// Issue 25: an unknown board's page answers 404 and says so; a known
// board's page is 200.
func TestUnknownBoardPage(t *testing.T) {
	h := NewHub(DefaultOpts())
	newFakeSet(t, h, "b1", "st3d")
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	for _, tc := range []struct {
		id     string
		status int
		says   bool
	}{{"nope", http.StatusNotFound, true}, {"b1", http.StatusOK, false}} {
		resp, err := http.Get(srv.URL + "/boards/" + tc.id)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("/boards/%s: %d, want %d", tc.id, resp.StatusCode, tc.status)
		}
		says := strings.Contains(string(b), `<div id="notfound" class="notfound" >No board &ldquo;<span id="missing-id">`+tc.id+`</span>`)
		if says != tc.says {
			t.Errorf("/boards/%s: says it is unknown: %v, want %v", tc.id, says, tc.says)
		}
	}
}

// Issue 25: three.js (687 KB) and the pages' scripts come gzip-compressed
// to a browser that takes it, plain to one that does not; the favicon is
// served.
func TestStaticCompressedAndFavicon(t *testing.T) {
	srv := httptest.NewServer(New(NewHub(DefaultOpts()), DefaultServerOpts()).Handler())
	defer srv.Close()
	get := func(path, enc string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", enc) // set: the transport does not decompress
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	plainResp, plain := get("/static/vendor/three/three.module.min.js", "identity")
	if plainResp.StatusCode != 200 || plainResp.Header.Get("Content-Encoding") != "" || len(plain) < 500000 {
		t.Fatalf("three.js plain: %d %q %d bytes", plainResp.StatusCode, plainResp.Header.Get("Content-Encoding"), len(plain))
	}
	gzResp, gz := get("/static/vendor/three/three.module.min.js", "gzip, deflate, br")
	if gzResp.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(gzResp.Header.Get("Content-Type"), "text/javascript") || len(gz) > len(plain)/3 {
		t.Fatalf("three.js gzip: %q %q %d bytes of %d", gzResp.Header.Get("Content-Encoding"), gzResp.Header.Get("Content-Type"), len(gz), len(plain))
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if un, _ := io.ReadAll(zr); !bytes.Equal(un, plain) {
		t.Errorf("three.js gzip: %d bytes unpacked, not the file", len(un))
	}
	if resp, _ := get("/static/nope.js", "gzip"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/static/nope.js: %d", resp.StatusCode)
	}
	if resp, b := get("/favicon.ico", "identity"); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("favicon: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
