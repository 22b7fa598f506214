package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/freeport"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/web/webtest"
)

// Issue 37, the set's name and rules chosen on the setup page, as a club
// does it during a game: `run --sim` named hall-1 by its file plays three
// moves; a wrong token changes nothing; the page, with the token, renames
// it club-7 and chooses st3d with Peters' rule (V.A1). The daemon comes
// back in place (the same process) under the new name: the game in
// progress goes on, its next moves on tridboard/club-7/move with the next
// seqs of the same game; the next game is st3d+V.A1; setup.yaml holds
// the choice, and the configuration file is untouched. Then the command
// token: the page at the set hands it out, and makes a new one, which the
// set obeys after its restart, the old one refused.
func TestSetupPageRenamesTheSetMidGame(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	listen, web := freeport.Addr(t), freeport.Addr(t)
	cfgFile := filepath.Join(t.TempDir(), "tridboard.yaml")
	const file = "board_id: hall-1\nmqtt:\n  command_token: tok-e2e\n"
	os.WriteFile(cfgFile, []byte(file), 0o600)

	var mu sync.Mutex
	var got []string // topic seq move game
	var avail string // hall-1's availability, last heard
	opts := paho.NewClientOptions().AddBroker("tcp://" + listen).SetClientID("e2e-club").SetCleanSession(false).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(100 * time.Millisecond).SetMaxReconnectInterval(200 * time.Millisecond)
	opts.SetOnConnectHandler(func(c paho.Client) {
		// The embedded broker lets a guest read the set's own topics only:
		// the old name's, then the new one's (once it runs under it).
		c.Subscribe("tridboard/hall-1/availability", 1, func(_ paho.Client, msg paho.Message) {
			mu.Lock()
			avail = string(msg.Payload())
			mu.Unlock()
		})
		for _, topic := range []string{"tridboard/hall-1/move", "tridboard/club-7/move"} {
			c.Subscribe(topic, 1, func(_ paho.Client, msg paho.Message) {
				var m protocol.Move
				if err := json.Unmarshal(msg.Payload(), &m); err != nil {
					t.Errorf("bad move %q", msg.Payload())
					return
				}
				mu.Lock()
				got = append(got, strings.Join([]string{msg.Topic(), itoa(m.Seq), m.Move, m.Game}, " "))
				mu.Unlock()
			})
		}
	})
	d := startDaemon(t, state, listen, "--board-id=", "--config", cfgFile, "--http", web)
	sub := paho.NewClient(opts)
	sub.Connect()
	t.Cleanup(func() { sub.Disconnect(100) })
	base := "http://" + web + "/"
	call := func(method, path, token, body string) (int, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	waitMoves := func(n int) []string {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			distinct := map[string]bool{}
			var out []string
			for _, l := range got {
				if !distinct[l] {
					distinct[l] = true
					out = append(out, l)
				}
			}
			mu.Unlock()
			if len(out) >= n {
				return out
			}
			time.Sleep(50 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("%d moves published, want %d: %q", len(got), n, got)
		return nil
	}

	first, second := sets.ST3DDemo[:3], sets.ST3DDemo[3:6]
	pos := d.play(t, st3d.Start(), first)
	for _, l := range first {
		d.waitMoveLine(t, l)
	}
	before := waitMoves(3)
	game := strings.Fields(before[0])[3]

	type current struct {
		Current struct {
			BoardID    string `json:"board_id"`
			Variant    string `json:"variant"`
			Options    string `json:"options"`
			Game       string `json:"game_variant"`
			Moves      int    `json:"game_moves"`
			InProgress bool   `json:"game_in_progress"`
		}
	}
	read := func() (current, bool) {
		st, body := call("GET", "setup/set", "", "")
		var c current
		return c, st == 200 && json.Unmarshal([]byte(body), &c) == nil
	}
	if c, ok := read(); !ok || c.Current.BoardID != "hall-1" || c.Current.Variant != "st3d" || !c.Current.InProgress || c.Current.Moves != 3 {
		t.Fatalf("the page shows %+v", c)
	}
	const choice = `{"board_id":"club-7","variant":"st3d","options":"V.A1"}`
	if st, body := call("POST", "setup/set", "tok-wrong", choice); st != 401 {
		t.Fatalf("a wrong token: %d %s", st, body)
	}
	if _, err := os.Stat(filepath.Join(state, "setup.yaml")); err == nil {
		t.Fatal("setup.yaml written on a wrong token")
	}
	// A page open on the set: its event stream gets the set's last
	// state (offline) and ends, so that the page reconnects to the set
	// restarted (a stream left open would hold the old set's page).
	streamEnd := make(chan string, 1)
	res, err := http.Get(base + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	go func() {
		b, _ := io.ReadAll(res.Body)
		streamEnd <- string(b)
	}()
	t0 := time.Now()
	st, body := call("POST", "setup/set", "tok-e2e", choice)
	if st != 200 || !strings.Contains(body, "restarts as club-7") || !strings.Contains(body, "the game in progress goes on (st3d)") {
		t.Fatalf("the page's save: %d %s", st, body)
	}
	var c current
	for deadline := time.Now().Add(60 * time.Second); ; {
		var ok bool
		if c, ok = read(); ok && c.Current.BoardID == "club-7" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the set did not come back as club-7 within 60 s: %+v", c)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("back as club-7 %v after the save", time.Since(t0).Round(time.Millisecond))
	select {
	case events := <-streamEnd:
		if !strings.Contains(events, `"online":false`) {
			t.Errorf("the page's stream ended without the set going offline:\n%.300s", events)
		}
	case <-time.After(30 * time.Second):
		t.Error("the page's event stream stays open across the restart")
	}
	// The old name's availability: offline.
	for deadline := time.Now().Add(30 * time.Second); ; {
		mu.Lock()
		a := avail
		mu.Unlock()
		if a == "offline" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("hall-1's availability %q, want offline", a)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if c.Current.Variant != "st3d" || c.Current.Options != "V.A1" || c.Current.Game != "st3d" || c.Current.Moves != 3 || !c.Current.InProgress {
		t.Errorf("after the restart the page shows %+v", c.Current)
	}
	if d.cmd.ProcessState != nil {
		t.Fatal("the daemon exited")
	}
	// The game goes on, under the new name.
	d.play(t, pos, second)
	for _, l := range second {
		d.waitMoveLine(t, l)
	}
	all := waitMoves(6)
	for i, l := range all {
		board := "hall-1"
		if i >= 3 {
			board = "club-7"
		}
		if want := strings.Join([]string{"tridboard/" + board + "/move", itoa(i + 1), sets.ST3DDemo[i], game}, " "); l != want {
			t.Errorf("move %d: %q, want %q", i+1, l, want)
		}
	}
	// The next game, from the set's new-game button (a game named by
	// nothing else): the rules chosen.
	io.WriteString(d.stdin, "tap new_game 1500\n")
	for deadline := time.Now().Add(30 * time.Second); ; {
		st, body := call("GET", "api/boards/club-7", "", "")
		var v struct{ Game, Variant string }
		if st == 200 && json.Unmarshal([]byte(body), &v) == nil && v.Game != game && v.Game != "" {
			if v.Variant != "st3d+V.A1" {
				t.Errorf("the next game is %s, want st3d+V.A1", v.Variant)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new game on the board's page: %d %s", st, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if b, _ := os.ReadFile(filepath.Join(state, "setup.yaml")); !strings.Contains(string(b), "board_id: club-7\nvariant: st3d\noptions: V.A1\n") {
		t.Errorf("setup.yaml:\n%s", b)
	}
	if b, _ := os.ReadFile(cfgFile); string(b) != file {
		t.Errorf("the configuration file changed:\n%s", b)
	}

	// The command token: handed to a visitor at the set (loopback, as its
	// screen), and made anew: the old one then refused, the new one obeyed.
	st, body = call("GET", "setup/token", "", "")
	var tok struct{ Token string }
	if json.Unmarshal([]byte(body), &tok); st != 200 || tok.Token != "tok-e2e" {
		t.Fatalf("the token at the set: %d %s", st, body)
	}
	st, body = call("POST", "setup/token", "tok-e2e", "{}")
	if json.Unmarshal([]byte(body), &tok); st != 200 || len(tok.Token) != 26 {
		t.Fatalf("a new token: %d %s", st, body)
	}
	newGame := `{"variant":"st3d"}`
	for deadline := time.Now().Add(60 * time.Second); ; {
		if st, _ := call("POST", "boards/club-7/command/new_game", tok.Token, newGame); st == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new token is not obeyed within 60 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if st, body := call("POST", "boards/club-7/command/new_game", "tok-e2e", newGame); st != 401 {
		t.Errorf("the old token after the new one: %d %s", st, body)
	}
	if s, _ := os.ReadFile(filepath.Join(state, "setup.yaml")); !strings.Contains(string(s), "command_token: "+tok.Token+"\n") || !strings.Contains(string(s), "board_id: club-7\n") {
		t.Errorf("setup.yaml:\n%s", s)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Issue 37, the first visitor as a person on a phone, on the set's own
// screen's address (loopback, open as the access point is): the page of
// `run --sim` hands over the command token, shows the set's name; the
// person names it club-9, chooses Millennium (the simulated set is the
// rules' own) and saves; the page waits and says the set is back under
// the new name, which the set's pages then carry.
func TestFirstVisitorNamesTheSetOnAPhone(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	listen, web := freeport.Addr(t), freeport.Addr(t)
	cfgFile := filepath.Join(t.TempDir(), "tridboard.yaml")
	os.WriteFile(cfgFile, []byte("board_id: tridboard\nmqtt:\n  command_token: tok-first\n"), 0o600)
	startDaemon(t, state, listen, "--board-id=", "--config", cfgFile, "--http", web)
	base := "http://" + web + "/"
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Navigate(base+"setup")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the token handed over and the name shown",
		`document.getElementById('token').value === 'tok-first' && document.getElementById('name').value === 'tridboard'`)
	webtest.Eval[string](t, ctx, `document.getElementById('name').value = ''`)
	if err := chromedp.Do(ctx, chromedp.SendKeys("#name", "club-9")); err != nil {
		t.Fatal(err)
	}
	webtest.Eval[bool](t, ctx, `(() => { const s = document.getElementById('variant'); s.value = 'millennium'; return s.dispatchEvent(new Event('change')) })()`)
	if err := chromedp.Do(ctx, chromedp.Click("#setform button")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the set back under its new name", `document.getElementById('setresult').textContent === 'Saved: the set is back as club-9.'`)
	if errs := webtest.Eval[[]string](t, ctx, "window.__errors"); len(errs) > 0 {
		t.Errorf("errors in the page: %q", errs)
	}
	res, err := http.Get(base + "api/boards/club-9")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("/api/boards/club-9: %d", res.StatusCode)
	}
	if s, err := config.ReadSetup(state); err != nil || s.BoardID != "club-9" || s.Variant != "millennium" {
		t.Errorf("setup.yaml %+v, %v", s, err)
	}
}
