package setup

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/web/webtest"
)

// Learning the wiring on a phone (390x844), as a builder does: the token
// typed, Start; the lit cell large, where it is and what to do, the count
// and the bar; a finding as it comes; then the result, saved; the page
// says the set restarts, and that it is back once it answers again.
func TestWiringPageOnAPhone(t *testing.T) {
	steps := make(chan struct{})
	var saved []any
	learn := Learn{
		Run: func(ctx context.Context, p *Progress) (Result, error) {
			step := func() error {
				select {
				case <-steps:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			p.Begin(4)
			p.Lit("QL1", "the pin of attack board QL1", "learn", true)
			if err := step(); err != nil {
				return Result{}, err
			}
			p.Lit("a1W", "a1 White", "learn", false)
			p.Found(Finding{true, "a1W closes expander 0x20 GPA0 (bit 0), as QL1 did: two cells share a switch input"})
			if err := step(); err != nil {
				return Result{}, err
			}
			p.Lit("QL1", "the pin of attack board QL1", "check", true)
			p.Lit("", "", "", false)
			return Result{Wiring: "learned", Text: "sensors:\n  preset: \"\"\n  wiring:\n", Learned: 1, Problems: 1}, nil
		},
		Save: func(r Result) (string, error) {
			saved = append(saved, r.Wiring)
			return "saved: the set restarts with the new wiring (a few seconds)", nil
		},
	}
	o := Opts{Token: "tok-1", Wiring: NewWiring(learn)}
	url, stop := webtest.Serve(t, Handler(o), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Navigate(url+"/setup/wiring")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the start button", `!document.getElementById('intro').hidden && document.getElementById('progress').hidden`)
	// Without the token: refused, said.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the refusal", `document.getElementById('msg').className === 'error' && document.getElementById('msg').textContent.includes('command token')`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#token"), "tok-1"), chromedp.Click(chromedp.CSS("#start"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the first cell", `document.getElementById('cell').textContent === 'QL1' && document.getElementById('intro').hidden`)
	if got := webtest.Eval[string](t, ctx, `document.getElementById('todo').textContent`); got != "Put the board on this pin: it stays." {
		t.Errorf("at QL1 the page says %q", got)
	}
	steps <- struct{}{}
	webtest.WaitJS(t, ctx, "the second cell and the finding", `document.getElementById('cell').textContent === 'a1W' && document.querySelectorAll('#findings li.problem').length === 1`)
	type view struct {
		Where, Todo, Count, Pass string
		CellPx, TextPx           float64
		Bar                      float64
		ScrollW, Bottom          float64
	}
	v := webtest.Eval[view](t, ctx, `(() => { const $ = (id) => document.getElementById(id);
		return {Where: $('where').textContent, Todo: $('todo').textContent, Count: $('count').textContent, Pass: $('pass').textContent,
			CellPx: parseFloat(getComputedStyle($('cell')).fontSize), TextPx: parseFloat(getComputedStyle($('todo')).fontSize),
			Bar: $('bar').value / $('bar').max, ScrollW: document.documentElement.scrollWidth,
			Bottom: $('cancel').getBoundingClientRect().bottom} })()`)
	t.Logf("at a1W on a 390x844 phone: %+v", v)
	if v.Where != "a1 White" || v.Todo != "Put a piece here, then take it off." || v.Count != "2 of 4 done" || v.Pass != "Learning" || v.Bar != 0.5 {
		t.Errorf("progress shown: %+v", v)
	}
	if v.CellPx < 40 || v.TextPx < 16 || v.ScrollW > 390 || v.Bottom > 844 {
		t.Errorf("on the phone: cell %.0f px, text %.0f px, page %.0f px wide, cancel button down to %.0f px: want a cell of 40 px or more, text of 16, no sideways scroll, the cancel button on the first screen", v.CellPx, v.TextPx, v.ScrollW, v.Bottom)
	}
	steps <- struct{}{}
	webtest.WaitJS(t, ctx, "the result", `!document.getElementById('result').hidden && document.getElementById('progress').hidden`)
	if got := webtest.Eval[string](t, ctx, `document.getElementById('summary').textContent`); got != "1 square learned, 1 problem found (see above): fix and learn again, or save what was learned." {
		t.Errorf("summary %q", got)
	}
	if got := webtest.Eval[string](t, ctx, `document.getElementById('wiring').textContent`); got != "sensors:\n  preset: \"\"\n  wiring:\n" {
		t.Errorf("wiring shown %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#save"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the save said", `document.getElementById('msg').className === 'ok' && document.getElementById('msg').textContent.startsWith('saved: the set restarts')`)
	if len(saved) != 1 || saved[0] != "learned" {
		t.Fatalf("saved %v", saved)
	}
	// The set restarts: its pages go away, then answer again, idle.
	addr := url[len("http://"):]
	stop()
	webtest.WaitJS(t, ctx, "the restart said", `document.getElementById('msg').textContent === 'The set restarts with the new wiring…'`)
	webtest.Serve(t, Handler(Opts{Token: "tok-1", Wiring: NewWiring(learn)}), addr)
	webtest.WaitJS(t, ctx, "the set back", `document.getElementById('msg').textContent === 'The set is back, with the wiring learned.' && !document.getElementById('intro').hidden`)
}
