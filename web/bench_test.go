package web

import (
	"context"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func percentile(d []float64, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// BenchmarkPublishToPage measures the time from the hub receiving a move
// (as the daemon or view hands it over) to the board page having drawn it
// in the flat view (the page's own clock, same machine): p50 and p99, in
// ms. MQTT's share is measured by BenchmarkLoadtest (cmd/tridboard).
func BenchmarkPublishToPage(b *testing.B) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(b, h, "b1", "st3d")
	url, _ := serve(b, New(h, DefaultServerOpts()).Handler(), "")
	ctx := browser(b)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/boards/b1?flat=1")); err != nil {
		b.Fatal(err)
	}
	waitJS(b, ctx, "the board", `document.querySelectorAll('#flat .piece').length == 32`)
	var lat []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if f.g.Len() >= 200 || len(f.g.Position().LegalMoves(nil)) == 0 {
			b.StopTimer()
			f = newFakeSet(b, h, "b1", "st3d")
			f.game += "-" + strconv.Itoa(i)
			h.State("b1", f.state(f.stateBoard()))
			b.StartTimer()
		}
		t0 := float64(time.Now().UnixNano()) / 1e6
		f.random()
		seq := strconv.Itoa(f.seq)
		waitJS(b, ctx, "move "+seq, `window.tridboard.game == '`+f.game+`' && !!window.tridboard.shown[`+seq+`]`)
		at := evalJS[float64](b, ctx, `window.tridboard.shown[`+seq+`]`)
		lat = append(lat, at-t0)
	}
	b.ReportMetric(percentile(lat, 0.5), "p50-ms")
	b.ReportMetric(percentile(lat, 0.99), "p99-ms")
}

// BenchmarkWall100Boards runs the wall with 100 boards, one of them moving
// every 10 ms (each board once a second) for 5 s per iteration, and reports
// the browser's frame times (requestAnimationFrame deltas collected in the
// page) and the server's CPU (this process: hub, SSE, the feeding).
// Run with -benchtime=1x.
func BenchmarkWall100Boards(b *testing.B) {
	// idle is the baseline on this machine: the same wall, nothing moving.
	b.Run("idle", func(b *testing.B) { wallBench(b, false) })
	b.Run("moving", func(b *testing.B) { wallBench(b, true) })
}

func wallBench(b *testing.B, moving bool) {
	h := NewHub(DefaultOpts())
	var sets []*fakeSet
	for i := 0; i < 100; i++ {
		f := newFakeSet(b, h, "hall-"+strconv.Itoa(100+i), "st3d")
		f.tags = map[string]string{"White": "White " + strconv.Itoa(i), "Black": "Black " + strconv.Itoa(i)}
		sets = append(sets, f)
	}
	url, _ := serve(b, New(h, DefaultServerOpts()).Handler(), "")
	ctx := browser(b)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?measure=1")); err != nil {
		b.Fatal(err)
	}
	waitJS(b, ctx, "100 boards", `document.querySelectorAll('.card canvas.mini-board').length == 100`)
	var frames, work []float64
	var cpu, wall time.Duration
	moves := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		evalJS[bool](b, ctx, `window.tridboardWall.frames = []; window.tridboardWall.work = []; true`)
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		start := time.Now()
		tick := time.NewTicker(10 * time.Millisecond)
		for k := 0; time.Since(start) < 5*time.Second; k++ {
			<-tick.C
			f := sets[k%len(sets)]
			if moving && f.g.Len() < 250 && f.random() { // a game over stays on the wall
				moves++
			}
		}
		tick.Stop()
		wall += time.Since(start)
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu += time.Duration(ru1.Utime.Nano()-ru0.Utime.Nano()) + time.Duration(ru1.Stime.Nano()-ru0.Stime.Nano())
		frames = append(frames, evalJS[[]float64](b, ctx, `window.tridboardWall.frames`)...)
		work = append(work, evalJS[[]float64](b, ctx, `window.tridboardWall.work`)...)
	}
	b.ReportMetric(percentile(frames, 0.5), "frame-p50-ms")
	b.ReportMetric(percentile(frames, 0.99), "frame-p99-ms")
	b.ReportMetric(slices.Max(frames), "frame-max-ms")
	b.ReportMetric(float64(len(frames))/wall.Seconds(), "fps")
	if len(work) > 0 {
		b.ReportMetric(percentile(work, 0.5), "apply-p50-ms")
		b.ReportMetric(percentile(work, 0.99), "apply-p99-ms")
	}
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "server-cpu-%")
	b.ReportMetric(float64(moves)/wall.Seconds(), "moves/s")
}

// BenchmarkEval is the spectators' evaluation of a position (HubOpts.Eval
// at its default budget) after a few moves of each system.
func BenchmarkEval(b *testing.B) {
	for _, variant := range []string{"st3d", "millennium", "first-contact"} {
		b.Run(variant, func(b *testing.B) {
			f := newFakeSet(b, nil, "b1", variant)
			for i := 0; i < 8; i++ {
				f.random()
			}
			p := f.g.Position()
			for b.Loop() {
				if _, err := evaluate(context.Background(), p, DefaultOpts().EvalNodes, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
