package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/web/webtest"
)

// A game played by hand on the simulated set appears move by move on the
// daemon's own board page, in a real browser: the pieces on their squares,
// the move list, the last move marked.
func TestBoardPageFollowsTheSet(t *testing.T) {
	t.Parallel()
	p := startSet(t, "hall1", t.TempDir(), "")
	if p.d.webURL == "" {
		t.Fatal("the daemon serves no web displays")
	}
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(p.d.webURL+"boards/hall1")); err != nil {
		t.Fatal(err)
	}
	p.waitInSync()
	for i, long := range []string{"b2W-b3W", "b7B-b6B", "d1W-c3N"} {
		p.handSynced(long)
		p.waitMoves(i + 1)
		m := p.d.tb.Snapshot().Moves[i]
		to := long[len(long)-3:]
		webtest.WaitJS(t, ctx, fmt.Sprintf("move %d %s on the page", i+1, m.SAN), fmt.Sprintf(
			`document.querySelectorAll('#moves .move').length === %d && `+
				`document.querySelector('#moves .move[data-seq="%d"]').textContent === %q && `+
				`!!document.querySelector('#flat [data-cell="%s"] .piece') && `+
				`!document.querySelector('#flat [data-cell="%s"] .piece')`,
			i+1, m.Seq, m.SAN, to, long[:3]))
	}
}

// In a game on the clock, a move set down waits for its player's press
// (issue 29): the board page says so ("press your clock", from the state's
// board.awaiting_press), and shows the move once the press completes it.
func TestBoardPageAsksForTheClockPress(t *testing.T) {
	t.Parallel()
	d, _, _ := startInProcess(t, func(c *config.Config) { c.Clock.Default = clock.MustParse("300+2") })
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(d.webURL+"boards/unit")); err != nil {
		t.Fatal(err)
	}
	startClock(t, d)
	if err := d.board.Set.Move("b2W", "b3W"); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the page asks for the press", `document.getElementById('status').textContent === 'press your clock'`)
	if m := d.tb.Snapshot().Moves; len(m) != 0 {
		t.Fatalf("moves %v before the press", m)
	}
	tapButton(t, d, "clock_white")
	webtest.WaitJS(t, ctx, "the move on the page after the press",
		`document.querySelectorAll('#moves .move').length === 1 && document.getElementById('status').textContent !== 'press your clock'`)
}
