package main

import (
	"context"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/broker"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/web"
	"github.com/tridboard/tridboard/web/webtest"
)

// BenchmarkPublishToPage measures the whole way of a move to a display: a
// set publishes it as the daemon does (mqtt.Client.Enqueue: outbox fsync,
// QoS 1) to the embedded broker, `view` receives it (paho) and feeds the
// hub, the SSE stream pushes it, and the board page draws it. Latency from
// Enqueue to the page's drawing (the page's clock, same machine): p50, p99.
func BenchmarkPublishToPage(b *testing.B) {
	bo := broker.DefaultOpts()
	bo.Addr = "127.0.0.1:0"
	embedded, err := broker.Start(bo)
	if err != nil {
		b.Fatal(err)
	}
	defer embedded.Close()
	o := mqtt.DefaultOpts()
	o.Broker, o.BoardID, o.StateDir, o.Discovery = embedded.URL(), "b1", b.TempDir(), ""
	set, err := mqtt.New(o, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer set.Close(context.Background())
	hub := web.NewHub(web.DefaultOpts())
	v, err := newViewer(viewerOpts{Broker: embedded.URL(), Prefix: "tridboard"}, hub, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	url, _ := webtest.Serve(b, web.New(hub, web.DefaultServerOpts()).Handler(), "")

	rng := rand.New(rand.NewPCG(1, 2))
	var g *rules.Game
	var game string
	seq, games := 0, 0
	newGame := func() {
		games++
		g, game, seq = rules.NewGame(st3d.System.Start()), "20260101-000000-"+strconv.Itoa(games), 0
		p := g.Position()
		set.PublishState(protocol.State{Game: game, Variant: "st3d", Position: p.String(), Turn: p.Turn(), Board: protocol.Board{Status: protocol.BoardInSync}, Result: "*", Time: time.Now()})
	}
	newGame()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if bv, ok := hub.View("b1"); ok && bv.Game == game {
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("the set's state never reached the hub")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx := webtest.Browser(b)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/boards/b1?flat=1")); err != nil {
		b.Fatal(err)
	}
	webtest.WaitJS(b, ctx, "the board", `document.querySelectorAll('#flat .piece').length == 32`)
	var lat []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if g.Len() >= 200 || len(g.Position().LegalMoves(nil)) == 0 {
			b.StopTimer()
			newGame()
			webtest.WaitJS(b, ctx, "the new game", `window.tridboard.game == '`+game+`'`)
			b.StartTimer()
		}
		p := g.Position()
		moves := p.LegalMoves(nil)
		m := moves[rng.IntN(len(moves))]
		long, short := p.Long(m), p.Short(m)
		next := g.Play(m)
		seq++
		t0 := float64(time.Now().UnixNano()) / 1e6
		if err := set.Enqueue(protocol.Move{Seq: seq, Game: game, Move: long, SAN: short, Position: next.String(), Time: time.Now()}); err != nil {
			b.Fatal(err)
		}
		s := strconv.Itoa(seq)
		webtest.WaitJS(b, ctx, "move "+s, `window.tridboard.game == '`+game+`' && !!window.tridboard.shown[`+s+`]`)
		lat = append(lat, webtest.Eval[float64](b, ctx, `window.tridboard.shown[`+s+`]`)-t0)
	}
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[min(len(lat)-1, len(lat)*99/100)], "p99-ms")
}
