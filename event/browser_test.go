package event

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/tournament"
	"github.com/tridboard/tridboard/web/webtest"
)

// The arbiter runs a round from the page, as at the hall's desk: the token
// asked once, the round paired and started, a no-show forfeited with a
// reason, and the standings following.
func TestBrowserArbiterPage(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{down: map[string]bool{"s2": true}})
	url, _ := webtest.Serve(t, Handler(r, "tok"), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(url+"/event/")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the event's name", `document.querySelector("#title").textContent === "Test"`)
	// The page asks for the token once (prompt), then for reasons.
	webtest.Eval[bool](t, ctx, `(window.asked = [], window.prompt = (q) => { asked.push(q); return q.startsWith("The event") ? "tok" : "Kirk did not come"; }, true)`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#pair"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "round 1 paired", `document.querySelectorAll("#games tbody tr").length === 2`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the offline set reported", `document.querySelector("#msg").textContent.includes("board 2 (s2): no reply")`)
	webtest.WaitJS(t, ctx, "result menus", `document.querySelectorAll("#games select").length === 2`)
	webtest.Eval[bool](t, ctx, `(() => { const s = document.querySelectorAll("#games select")[1]; s.value = "+-"; s.dispatchEvent(new Event("change")); return true; })()`)
	webtest.WaitJS(t, ctx, "the forfeit shown", `document.querySelectorAll("#games tbody tr")[1].textContent.includes("+- (Kirk did not come)")`)
	webtest.WaitJS(t, ctx, "the standings", `document.querySelector("#standings tbody tr td:nth-child(3)").textContent === "1"`)
	if n := webtest.Eval[int](t, ctx, `asked.filter(q => q.startsWith("The event")).length`); n != 1 {
		t.Errorf("the token was asked %d times, want once", n)
	}
	g, _ := r.t.Game(1, 2)
	if g.Reason != "Kirk did not come" {
		t.Errorf("board 2: %+v", g)
	}
	webtest.Shot(t, ctx, "arbiter")

	// The hall's screen pages by itself: the round's pairings, then the
	// standings, leader first.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1600, 900), chromedp.Navigate(url+"/event/hall")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the hall's pairings", `document.querySelector("#what").textContent === "Round 1 of 2"`)
	if got := webtest.Eval[string](t, ctx, `document.querySelector("#table tbody").textContent`); got != "1Spock–Uhuras12Sulu+-Kirks2" {
		t.Errorf("the hall's pairings read %q", got)
	}
	// The round's clocks: a set's last reading, its running side counted
	// down from the reading's time.
	r.mu.Lock()
	r.sets["s1"].Clock = &clock.Snapshot{Control: "300", WhiteMS: 300000, BlackMS: 295000, Running: "white", Paused: true}
	r.mu.Unlock()
	webtest.Eval[bool](t, ctx, `(at = 0, refresh(), true)`)
	webtest.WaitJS(t, ctx, "the round's clocks", `document.querySelector("td[data-clock-of=s1]").textContent === "5:00 · 4:55"`)
	r.mu.Lock()
	r.sets["s1"].Clock = &clock.Snapshot{Control: "300", WhiteMS: 300000, BlackMS: 295000, Running: "black", At: clock.Stamp{Time: time.Now().Add(-65 * time.Second)}}
	r.mu.Unlock()
	webtest.Eval[bool](t, ctx, `(at = 0, refresh(), true)`)
	webtest.WaitJS(t, ctx, "black's clock running", `/^5:00 · 3:[45]\d$/.test(document.querySelector("td[data-clock-of=s1]").textContent)`)
	webtest.Eval[bool](t, ctx, `(next(), true)`)
	webtest.WaitJS(t, ctx, "the hall's standings", `document.querySelector("#what").textContent === "Standings" && document.querySelector("#table tbody tr td:nth-child(2)").textContent === "Sulu"`)
	// Large type that fits: a row is at least a 14th of the screen.
	if h := webtest.Eval[float64](t, ctx, `document.querySelector("#table tbody tr").getBoundingClientRect().height`); h < 900.0/14-1 {
		t.Errorf("a standings row is %.0f px high at 1600x900", h)
	}
}

// The organiser at the desk, as on day 1: registers two players through
// the form (the token asked once), checks one in, gives the other a
// half-point bye, starts an exhibition game at a free set; then two
// players start one at another set from its walk-up page on a phone.
func TestBrowserDesk(t *testing.T) {
	link := &fakeLink{}
	r, _ := deskEvent(t, link)
	r.Online("s1", true)
	r.Online("s2", true)
	url, _ := webtest.Serve(t, Handler(r, "tok"), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1600, 900), chromedp.Navigate(url+"/event/desk")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the desk", `document.querySelector("#title").textContent === "Fest: desk"`)
	webtest.Eval[bool](t, ctx, `(window.asked = 0, window.prompt = (q) => { asked++; return "tok"; }, true)`)
	for _, p := range [][4]string{{"Ann Lee", "F001", "1200", "newcomer"}, {"Bob Roy", "F002", "", ""}} {
		if err := chromedp.Do(ctx,
			chromedp.SendKeys(chromedp.CSS(`#reg input[name=name]`), p[0]),
			chromedp.SendKeys(chromedp.CSS(`#reg input[name=festival_id]`), p[1]),
			chromedp.SendKeys(chromedp.CSS(`#reg input[name=rating]`), p[2]),
			chromedp.SendKeys(chromedp.CSS(`#reg input[name=category]`), p[3]),
			chromedp.Click(chromedp.CSS(`#reg button`))); err != nil {
			t.Fatal(err)
		}
		webtest.WaitJS(t, ctx, p[0]+" registered", `[...document.querySelectorAll("#players tbody tr")].some(tr => tr.textContent.includes("`+p[0]+`"))`)
		webtest.WaitJS(t, ctx, "the form emptied", `document.querySelector("#reg input[name=name]").value === ""`)
	}
	webtest.Eval[bool](t, ctx, `(document.querySelector("#msg").textContent = "", true)`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`input[aria-label="check in Ann Lee"]`))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "Ann checked in", `document.querySelector('input[aria-label="check in Ann Lee"]').checked && document.querySelector("#msg").textContent === "Done."`)
	webtest.Eval[bool](t, ctx, `(document.querySelector("#msg").textContent = "", true)`)
	webtest.Eval[bool](t, ctx, `(() => { const s = document.querySelector('select[aria-label="bye for Bob Roy"]'); s.value = "half"; s.dispatchEvent(new Event("change")); return true; })()`)
	webtest.WaitJS(t, ctx, "Bob's bye", `document.querySelector('select[aria-label="bye for Bob Roy"]').value === "half" && document.querySelector("#msg").textContent === "Done."`)
	if v := r.Desk(); !v.Players[0].CheckedIn || v.Players[1].Bye != string(tournament.HalfBye) || v.Players[0].Category != "newcomer" || v.Players[0].Rating != 1200 {
		t.Errorf("the desk has %+v", v.Players)
	}
	// An exhibition game at s1, Ann against the engine.
	webtest.WaitJS(t, ctx, "the free sets", `document.querySelector("#free").textContent === "s1, s2"`)
	webtest.Eval[bool](t, ctx, `(document.querySelector("#msg").textContent = "", true)`)
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#ex input[name=white]`), "F001"),
		chromedp.SetValue(chromedp.CSS(`#ex select[name=engine]`), "3"),
		chromedp.Click(chromedp.CSS(`#ex button`))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the game started", `document.querySelector("#msg").textContent !== ""`)
	if m := webtest.Eval[string](t, ctx, `document.querySelector("#msg").textContent`); m != "Done." {
		t.Errorf("starting the exhibition game: %s", m)
	}
	if got := fmt.Sprint(link.sent); got != "[s1 new_game Ann Lee/Engine (level 3) r<nil> b<nil>]" {
		t.Errorf("sent %s", got)
	}
	if n := webtest.Eval[int](t, ctx, `asked`); n != 1 {
		t.Errorf("the token was asked %d times", n)
	}
	if h := webtest.Eval[float64](t, ctx, `parseFloat(getComputedStyle(document.body).fontSize)`); h < 17 {
		t.Errorf("the desk's type is %.0f px", h)
	}
	webtest.Shot(t, ctx, "desk")

	// The hall's screen on an exhibition day: the game in progress and the
	// free set.
	r.Observe("s1", protocol.State{Game: "x1", Result: "*", Tags: map[string]string{"Event": "Fest exhibition", "White": "Ann Lee", "Black": "Engine (level 3)"}})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(url+"/event/hall")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the exhibition screen", `document.querySelector("#what").textContent === "Exhibition"`)
	if got := webtest.Eval[string](t, ctx, `[...document.querySelectorAll("#table tbody tr")].map(tr => tr.textContent).join("|")`); got != "s1Ann LeeEngine (level 3)0|s2free: sit down and play" {
		t.Errorf("the exhibition screen reads %q", got)
	}

	// The walk-up page on a phone: a wrong ID is refused with its reason,
	// then the game starts.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(url+"/event/play/s2")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the walk-up page", `document.querySelector("#title").textContent === "Play at s2"`)
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name=white]`), "F002"),
		chromedp.SendKeys(chromedp.CSS(`input[name=black]`), "F009"),
		chromedp.Click(chromedp.CSS(`button`))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the refusal", `document.querySelector("#msg").textContent.includes("register at the desk")`)
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`input[name=black]`), "F001"), chromedp.Click(chromedp.CSS(`button`))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the start", `document.querySelector("#msg").textContent.startsWith("Bob Roy – Ann Lee: the game has started")`)
	if w := webtest.Eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the walk-up page is %d px wide on a 390 px phone", w)
	}
}

// The arbiter pairs round 1 by hand on the page and swaps a board's
// colours, each with its reason journaled.
func TestBrowserArbiterByHand(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{})
	url, _ := webtest.Serve(t, Handler(r, "tok"), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1600, 900), chromedp.Navigate(url+"/event/")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the event's name", `document.querySelector("#title").textContent === "Test"`)
	webtest.Eval[bool](t, ctx, `(window.prompt = (q) => q.startsWith("Round 1 by hand") ? "2-3, 4-1" :
		q.startsWith("Why by hand") ? "the desk's draw" : q.startsWith("Why swap") ? "Sulu asked" : "tok", true)`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#byhand"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "round 1 by hand", `document.querySelectorAll("#games tbody tr").length === 2 && document.querySelector("#games tbody tr").textContent.startsWith("1SpockUhura")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#games tbody tr:nth-child(2) button"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "board 2 swapped", `document.querySelectorAll("#games tbody tr")[1].textContent.startsWith("2KirkSulu")`)
	g1, _ := r.t.Game(1, 1)
	g2, _ := r.t.Game(1, 2)
	if g1.White != 2 || g1.Black != 3 || g2.White != 1 || g2.Black != 4 {
		t.Errorf("round 1: %+v %+v", g1, g2)
	}
}

// After a damaged journal the arbiter's page says what was cut.
func TestBrowserJournalDamage(t *testing.T) {
	r, dir := newEvent(t, &fakeLink{})
	r.PairNext()
	r.Swap(1, 1, "drawn again")
	r.StartRound(1)
	r.Close()
	name := filepath.Join(dir, journalName)
	data, _ := os.ReadFile(name)
	os.WriteFile(name, bytes.Replace(data, []byte("drawn again"), []byte("drawn agaiN"), 1), 0o644)
	r2, err := Open(testOpts(t, dir), &fakeLink{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	url, _ := webtest.Serve(t, Handler(r2, "tok"), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1600, 900), chromedp.Navigate(url+"/event/")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the damage reported", `document.querySelector("#journal").textContent.startsWith("The journal was damaged: record 3 (a swap decision, round 1, board 1) was cut out")`)
}
