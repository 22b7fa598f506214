package web

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLookAtPages writes screenshots of the pages to $TRIDBOARD_SHOTS (a
// directory), for a person to look at; it is off without it.
func TestLookAtPages(t *testing.T) {
	dir := os.Getenv("TRIDBOARD_SHOTS")
	if dir == "" {
		t.Skip("set TRIDBOARD_SHOTS to a directory to take screenshots of the pages")
	}
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "hall-1", "st3d")
	f.tags = map[string]string{"White": "Kirk", "Black": "Spock", "Event": "Federation Open", "Round": "3"}
	for i := 0; i < 12; i++ {
		f.random()
	}
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/boards/hall-1")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "moves", `document.querySelectorAll('#moves .move[data-ply]').length == 12`)
	waitJS(t, ctx, "3D", `document.body.classList.contains('has3d') && document.querySelectorAll('#flat .piece').length > 20`)
	t.Log(evalJS[[]string](t, ctx, "window.__errors"))
	b, _ := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	os.WriteFile(dir+"/board.png", b, 0o644)
}
