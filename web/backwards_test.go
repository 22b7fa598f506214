package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
)

// The hub never steps a board back: an older state (a retained one
// replayed by another node, after newer moves came), or a state, move or
// event of a game before the board's, is dropped; a take-back, stamped
// after the moves it takes back, is not.
func TestHubNeverBackwards(t *testing.T) {
	for _, tc := range []struct {
		name      string
		then      func(h *Hub, f *fakeSet, old protocol.State, oldGame []protocol.State)
		game      string // "" the game played
		wantPlies int
	}{
		{"an older state of the game", func(h *Hub, f *fakeSet, old protocol.State, _ []protocol.State) {
			h.State("b1", old)
		}, "", 4},
		{"a take-back", func(h *Hub, f *fakeSet, _ protocol.State, _ []protocol.State) {
			f.g.TakeBack()
			f.now = f.now.Add(time.Second)
			h.State("b1", f.state(f.stateBoard()))
		}, "", 3},
		{"the state of the game before", func(h *Hub, _ *fakeSet, _ protocol.State, oldGame []protocol.State) {
			h.State("b1", oldGame[len(oldGame)-1])
		}, "", 4},
		{"a move of the game before", func(h *Hub, _ *fakeSet, _ protocol.State, _ []protocol.State) {
			h.Move("b1", protocol.Move{Seq: 9, Game: "20260101-000000-1", Move: "b2W-b4N", Time: time.Date(2026, 1, 1, 0, 0, 9, 0, time.UTC)})
		}, "", 4},
		{"a new game event of the game before", func(h *Hub, _ *fakeSet, _ protocol.State, _ []protocol.State) {
			h.Event("b1", protocol.Event{Type: protocol.EventNewGame, Game: "20260101-000000-1"})
		}, "", 4},
		{"a new game", func(h *Hub, f *fakeSet, _ protocol.State, _ []protocol.State) {
			h.Event("b1", protocol.Event{Type: protocol.EventNewGame, Game: "20260101-000000-3"})
		}, "20260101-000000-3", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHub(DefaultOpts())
			f := newFakeSet(t, nil, "b1", "st3d")
			f.hub = h
			// The game before: 20260101-000000-1, 5 moves.
			f.game = "20260101-000000-1"
			h.State("b1", f.state(f.stateBoard()))
			var oldGame []protocol.State
			for range 5 {
				f.random()
				oldGame = append(oldGame, f.state(f.stateBoard()))
			}
			g := newFakeSet(t, nil, "b1", "st3d")
			g.hub = h
			g.game, g.now = "20260101-000000-2", f.now.Add(time.Minute)
			h.State("b1", g.state(g.stateBoard()))
			g.random()
			g.random()
			old := g.state(g.stateBoard())
			g.random()
			g.random()
			tc.then(h, g, old, oldGame)
			v, _ := h.View("b1")
			want := tc.game
			if want == "" {
				want = g.game
			}
			if v.Game != want || len(v.Moves) != tc.wantPlies {
				t.Fatalf("game %s with %d plies, want %s with %d", v.Game, len(v.Moves), want, tc.wantPlies)
			}
		})
	}
}

// Game ids order by the time they start with, counted as people count;
// ids without one are not ordered.
func TestOlderGame(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"20250102-030405-123", "20250102-030405-124", true},
		{"20250102-030405-124", "20250102-030405-123", false},
		{"20250102-030405-9", "20250102-030405-10", true},
		{"20250102-030405.120-load-1", "20250102-030406.000-load-1", true},
		{"20250102-030405-123", "20250102-030405-123", false},
		{"g1", "g2", false},
		{"20250102-030405-123", "", false},
	} {
		if got := OlderGame(tc.a, tc.b); got != tc.want {
			t.Errorf("OlderGame(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// A page resuming on this view from another that was further on gets
// nothing until this view has caught up: then the moves after its own.
func TestBoardStreamWaitsForThePagesMoves(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.random()
	f.random()
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	t.Cleanup(srv.Close)
	evs, _, _ := streamEvents(t, srv.URL+"/boards/b1/events?game="+f.game+"&after=3", nil)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		n := len(h.subs["b1"])
		h.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream never subscribed")
		}
	}
	select {
	case ev := <-evs:
		t.Fatalf("a view behind the page sent %+v", ev)
	case <-time.After(200 * time.Millisecond): // a stream that waits sends nothing: not a pace
	}
	f.random() // seq 3: the page's
	f.random()
	var got []int
	for len(got) == 0 || got[len(got)-1] != 4 {
		v := decodeView(t, next(t, evs))
		if v.Full {
			t.Fatalf("a full view (%d moves) to a page that has 3", len(v.Moves))
		}
		for _, m := range v.Moves {
			got = append(got, m.Seq)
		}
	}
	if !slices.Equal(got, []int{4}) && !slices.Equal(got, []int{4, 4}) {
		t.Fatalf("moves sent %v, want 4 only", got)
	}
}

// /api/peers lists the other views, for the pages to try.
func TestAPIPeers(t *testing.T) {
	o := DefaultServerOpts()
	o.Peers = []string{"http://127.0.0.1:8081", "http://127.0.0.1:8082"}
	srv := httptest.NewServer(New(NewHub(DefaultOpts()), o).Handler())
	defer srv.Close()
	for _, tc := range []struct {
		srv  *httptest.Server
		want []string
	}{{srv, o.Peers}} {
		resp, err := http.Get(tc.srv.URL + "/api/peers")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if !slices.Equal(got, tc.want) {
			t.Errorf("peers %v, want %v", got, tc.want)
		}
	}
}

// A state given again as it was (the retained states sent again with a new
// subscription, after a reconnection) changes nothing: the pages get no new
// summary. One that differs in anything is applied.
func TestHubSameStateAgainChangesNothing(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.random()
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	h.State("b1", s)
	v, _ := h.View("b1")
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	if w, _ := h.View("b1"); w.Ver != v.Ver || w.Seq != 1 {
		t.Errorf("the same state again: ver %d -> %d, seq %d; want the same ver, seq 1", v.Ver, w.Ver, w.Seq)
	}
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardMoveInProgress, Cells: []string{"b2W"}}))
	if w, _ := h.View("b1"); w.Ver == v.Ver || w.Board != protocol.BoardMoveInProgress {
		t.Errorf("a state that differs: ver %d, board %q; want a new ver, %q", w.Ver, w.Board, protocol.BoardMoveInProgress)
	}
}
