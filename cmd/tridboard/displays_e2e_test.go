package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/web"
	"github.com/tridboard/tridboard/web/webtest"
)

// relay polls a file of the broadcast feed as a relay does: with the ETag
// it had (If-None-Match), keeping the new one.
type relay struct {
	t    *testing.T
	etag map[string]string
}

func (r *relay) poll(base, path string) (int, []byte) {
	r.t.Helper()
	req, _ := http.NewRequest("GET", base+"broadcast/"+path, nil)
	if e := r.etag[path]; e != "" {
		req.Header.Set("If-None-Match", e)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == 200 {
		r.etag[path] = resp.Header.Get("ETag")
	}
	return resp.StatusCode, b
}

// Issue 39, a session as a hall runs it: a set on the clock publishing on
// the hall's Mosquitto, its players named by a new game posted with the
// command token, an overlay in a browser, and a relay polling the
// LiveChess layout with If-None-Match beside a hostile client. Each move
// made by hand comes to the relay once, as "SAN CLOCK+SPENT", and a poll
// between moves gets 304; the set restarts in the middle: the feed's
// files are the same (the relay's ETags still answer 304) and the game
// goes on; the overlay shows the names and the clocks throughout.
func TestDisplaysSessionWithRelay(t *testing.T) {
	t.Parallel()
	broker := mosquittotest.Start(t)
	p := startSetWith(t, "hall-1", t.TempDir(), broker.URL, func(c *config.Config) {
		c.MQTT.CommandToken = "s3cret"
		c.Clock.Default = clock.MustParse("300+2")
	})
	base := p.d.webURL
	body := `{"variant":"st3d","white":"Kirk, James T.","black":"Spock","event":"Federation Open","round":"1","time_control":"300+2","white_title":"GM"}`
	req, _ := http.NewRequest("POST", base+"boards/hall-1/command/new_game", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("new_game: %d", resp.StatusCode)
	}
	p.waitInSync()

	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(base+"boards/hall-1?overlay=1")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the overlay's names", `document.getElementById('white-name').textContent === 'Kirk, James T.' && document.getElementById('black-name').textContent === 'Spock'`)

	r := &relay{t: t, etag: map[string]string{}}
	var tour web.LCCTournament
	if code, b := r.poll(base, "tournament.json"); code != 200 || json.Unmarshal(b, &tour) != nil || tour.Name != "Federation Open" || len(tour.Rounds) != 1 || tour.Rounds[0].Count != 1 {
		t.Fatalf("tournament.json: %d %s", code, b)
	}
	var round web.LCCRound
	if code, b := r.poll(base, "round-1/index.json"); code != 200 || json.Unmarshal(b, &round) != nil || len(round.Pairings) != 1 ||
		*round.Pairings[0].White.LName != "Kirk" || *round.Pairings[0].White.FName != "James T." || *round.Pairings[0].White.Title != "GM" {
		t.Fatalf("round-1/index.json: %d %s", code, b)
	}
	r.poll(base, "round-1/game-1.json")

	// A hostile client beside the relay: odd paths and headers get a
	// clear answer and change nothing.
	hostile := func() {
		for _, h := range []struct{ path, header, value string }{
			{"round-1/game-99999999999999999999.json", "", ""},
			{"round-0/index.json", "", ""},
			{"round-1/game-1.json", "If-None-Match", strings.Repeat(`"x", `, 500)},
			{"round-1/game-1.json", "If-Modified-Since", "yesterday"},
			{"../../etc/passwd", "", ""},
			{"round-1/game-1.json/..", "", ""},
		} {
			req, _ := http.NewRequest("GET", base+"broadcast/"+h.path, nil)
			if h.header != "" {
				req.Header.Set(h.header, h.value)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("hostile %s: %v", h.path, err)
			}
			resp.Body.Close()
			if resp.StatusCode >= 500 {
				t.Errorf("hostile %s %s: %d", h.path, h.header, resp.StatusCode)
			}
		}
	}
	moveRE := regexp.MustCompile(`^\S+ \d+(\+\d+)?$`)
	play := func(ctx context.Context, moves ...string) {
		for _, long := range moves {
			n := len(p.moves())
			p.handSynced(long)
			p.waitMoves(n + 1)
			hostile()
			san := p.d.tb.Snapshot().Moves[n].SAN
			var g web.LCCGame
			code, b := r.poll(base, "round-1/game-1.json")
			if code != 200 || json.Unmarshal(b, &g) != nil || len(g.Moves) != n+1 || !strings.HasPrefix(g.Moves[n], san+" ") || !moveRE.MatchString(g.Moves[n]) {
				t.Fatalf("after %s (%s) the relay got %d %s", long, san, code, b)
			}
			if code, b := r.poll(base, "round-1/game-1.json"); code != http.StatusNotModified || len(b) != 0 {
				t.Errorf("polling again after %s: %d %q, want 304", long, code, b)
			}
			webtest.WaitJS(t, ctx, "the overlay's last move", fmt.Sprintf(`document.getElementById('lastmove').textContent.endsWith(%q) && /\d:\d\d/.test(document.getElementById('white-clock').textContent)`, san))
		}
	}
	play(ctx, "b2W-b3W", "b7B-b6B")
	p.stop()
	p.start()
	base = p.d.webURL
	p.waitInSync()
	for _, path := range []string{"tournament.json", "round-1/index.json", "round-1/game-1.json"} {
		if code, b := r.poll(base, path); code != http.StatusNotModified {
			t.Errorf("%s after the restart: %d %s, want 304 (the same file)", path, code, b)
		}
	}
	ctx = webtest.Browser(t) // a tab's time is limited: a new one, as a new page after the restart
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(base+"boards/hall-1?overlay=1")); err != nil {
		t.Fatal(err)
	}
	play(ctx, "d1W-c3N", "d8B-c6B")
	webtest.WaitJS(t, ctx, "the overlay after the restart", `document.getElementById('white-name').textContent === 'Kirk, James T.'`)
	if code, b := r.poll(base, "round-1/game-1.pgn"); code != 200 || !strings.Contains(string(b), `[White "Kirk, James T."]`) || !strings.Contains(string(b), "[%clk") {
		t.Errorf("round-1/game-1.pgn: %d %s", code, b)
	}
}
