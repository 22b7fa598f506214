package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
)

func evalOpts() HubOpts {
	o := DefaultOpts()
	o.Eval, o.EvalNodes = true, 3000
	return o
}

// drain analyses every position waiting.
func drain(t *testing.T, h *Hub) int {
	t.Helper()
	n := 0
	for h.EvalOnce(context.Background()) {
		if n++; n > 1000 {
			t.Fatal("the analysis never ends")
		}
	}
	return n
}

// Issue 25: the hub evaluates every position of every system for the
// spectators, the newest first: a score from White's view and a best line
// in the system's notation that is legal where it starts.
func TestHubEvalEverySystem(t *testing.T) {
	for _, variant := range []string{"st3d", "millennium", "first-contact", "st3d+V.P6", "st3d+V.A1,V.A2"} {
		h := NewHub(evalOpts())
		f := newFakeSet(t, h, "b1", variant)
		for i := 0; i < 6; i++ {
			f.random()
		}
		if !h.EvalOnce(context.Background()) {
			t.Fatalf("%s: nothing to analyse", variant)
		}
		v := view(t, h, "b1")
		if v.Moves[5].Eval == nil || v.Moves[4].Eval != nil {
			t.Errorf("%s: the newest position was not analysed first", variant)
		}
		if n := drain(t, h); n != 6 {
			t.Errorf("%s: %d more positions analysed, want 6 (the start and 5 moves)", variant, n)
		}
		v = view(t, h, "b1")
		if v.StartEval == nil {
			t.Fatalf("%s: the start position has no evaluation", variant)
		}
		for i := -1; i < len(v.Moves); i++ {
			ev, pos := v.StartEval, f.g.Start()
			if i >= 0 {
				ev = v.Moves[i].Eval
				if i+1 < f.g.Len() {
					_, pos = f.g.Move(i + 1)
				} else {
					pos = f.g.Position()
				}
			}
			if ev == nil || ev.Depth < 1 || len(ev.Best) == 0 {
				t.Fatalf("%s: ply %d: evaluation %+v", variant, i+1, ev)
			}
			if _, _, err := pos.ParseMove(ev.Best[0]); err != nil {
				t.Errorf("%s: ply %d: best move %q: %v", variant, i+1, ev.Best[0], err)
			}
		}
	}
}

// A position where the game is over gets its result, not a search; the
// evaluation is off unless asked for.
func TestHubEvalOverAndOff(t *testing.T) {
	sys := mustSys(t, "st3d")
	p, err := sys.ParsePosition("QL1:w,QL6:b,KL1:w,KL6:b Ke0KL1,qd1W,ka9QL6 w - - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := evaluate(context.Background(), p, 2000, 0)
	if err != nil || ev.Result != "" || ev.CP >= 0 {
		t.Errorf("White in check, a queen down: %+v %v", ev, err)
	}
	mate, err := sys.ParsePosition("QL1:w,QL6:b,KL1:w,KL6:b Ke0KL1,qd1W,rd0KL1,ka9QL6 w - - - 0 1")
	if err != nil || mate.Status().String() != "checkmate" {
		t.Fatalf("no checkmate: %v %v", mate, err)
	}
	if ev, _ := evaluate(context.Background(), mate, 2000, 0); ev.Result != "0-1" {
		t.Errorf("White mated: %+v", ev)
	}
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.random()
	if h.EvalOnce(context.Background()) {
		t.Error("the evaluation runs while off")
	}
}

// Issue 25: with a broadcast delay the evaluation is never ahead of the
// broadcast: a move is analysed only once the hub shows it.
func TestHubEvalNeverAheadOfTheDelay(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	o := evalOpts()
	o.Delay, o.Now = 10*time.Second, func() time.Time { return now }
	h := NewHub(o)
	f := newFakeSet(t, h, "b1", "st3d")
	f.random()
	if h.EvalOnce(context.Background()) {
		t.Fatal("analysed a position the broadcast does not show yet")
	}
	now = now.Add(10 * time.Second)
	h.Release(now)
	if drain(t, h) != 2 {
		t.Errorf("want the start and the move analysed once shown")
	}
	f.random()
	if h.EvalOnce(context.Background()) {
		t.Fatal("analysed the second move before it is shown")
	}
	if v := view(t, h, "b1"); len(v.Moves) != 1 {
		t.Fatalf("%d moves shown", len(v.Moves))
	}
}

// A page that has every move gets the evaluations as they come: the
// update carries the moves whose evaluation came since its version.
func TestHubEvalUpdates(t *testing.T) {
	h := NewHub(evalOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.random()
	f.random()
	v, full, _ := h.since("b1", 0, 0, 0)
	if !full || len(v.Moves) != 2 {
		t.Fatal("first view")
	}
	h.EvalOnce(context.Background())
	v2, full, changed := h.since("b1", v.Epoch, v.Seq, v.Ver)
	if !changed || full || len(v2.Moves) != 1 || v2.Moves[0].Seq != 2 || v2.Moves[0].Eval == nil {
		t.Fatalf("after the last move's evaluation: changed %v full %v %+v", changed, full, v2.Moves)
	}
	h.EvalOnce(context.Background())
	v3, _, _ := h.since("b1", v2.Epoch, v2.Seq, v2.Ver)
	if len(v3.Moves) != 1 || v3.Moves[0].Seq != 1 || v3.Moves[0].Eval == nil {
		t.Fatalf("after the first move's evaluation: %+v", v3.Moves)
	}
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardMoveInProgress, Cells: []string{"b2W"}}))
	if v4, _, _ := h.since("b1", v3.Epoch, v3.Seq, v3.Ver); len(v4.Moves) != 0 {
		t.Errorf("a status change resends %d moves", len(v4.Moves))
	}
}

// The evaluations reach a page's stream as RunEval finds them, while the
// game goes on.
func TestEvalReachesTheStream(t *testing.T) {
	h := NewHub(evalOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	done := make(chan struct{})
	defer close(done)
	go h.RunEval(done)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/boards/b1/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	for i := 0; i < 3; i++ {
		f.random()
	}
	evals := map[int]bool{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(evals) < 3 {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var v BoardView
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			t.Fatal(err)
		}
		for _, m := range v.Moves {
			if m.Eval != nil {
				evals[m.Seq] = true
			}
		}
	}
	if len(evals) < 3 {
		t.Fatalf("the stream brought the evaluations of moves %v, want 1, 2, 3", evals)
	}
}
