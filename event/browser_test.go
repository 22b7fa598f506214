package event

import (
	"testing"

	"github.com/chromedp/chromedp"

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
	webtest.Eval[bool](t, ctx, `(next(), true)`)
	webtest.WaitJS(t, ctx, "the hall's standings", `document.querySelector("#what").textContent === "Standings" && document.querySelector("#table tbody tr td:nth-child(2)").textContent === "Sulu"`)
	// Large type that fits: a row is at least a 14th of the screen.
	if h := webtest.Eval[float64](t, ctx, `document.querySelector("#table tbody tr").getBoundingClientRect().height`); h < 900.0/14-1 {
		t.Errorf("a standings row is %.0f px high at 1600x900", h)
	}
}
