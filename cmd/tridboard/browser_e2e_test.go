package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/web/webtest"
)

// A game played by hand on the simulated set appears move by move on the
// daemon's own board page, in a real browser: the pieces on their squares,
// the move list, the last move marked.
func TestBoardPageFollowsTheSet(t *testing.T) {
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
