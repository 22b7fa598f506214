package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/web"
)

// viewLoad is a load test's spectators: each reads a view's wall event
// stream (/events, the board summaries a page draws) as a browser would,
// moving to the next view when its stream ends, and the moves it sees are
// checked against the moves the sets sent: a summary older than one seen
// (a lower seq of the game, or a game before) is counted and dropped.
type viewLoad struct {
	mu   sync.Mutex
	sent map[string]time.Time // board/game/seq -> when the set enqueued it
	seen []*viewer1
	lat  []time.Duration
	back int // moves seen going backwards
}

// viewer1 is one spectator's view of every board (the wall), or of one
// (board: its page's stream): the last game and seq of each.
type viewer1 struct {
	board string
	last  map[string]string // board -> "game/seq"
	seq   map[string]int
}

func newViewLoad() *viewLoad { return &viewLoad{sent: map[string]time.Time{}} }

// sentMove records when a set enqueued a move.
func (v *viewLoad) sentMove(board, game string, seq int, at time.Time) {
	v.mu.Lock()
	v.sent[board+"/"+game+"/"+strconv.Itoa(seq)] = at
	v.mu.Unlock()
}

// start runs n spectators spread over the views until ctx ends: the wall's
// when boards is nil, else each of one of the boards (in turn), resuming
// after the last move it saw as the board's page does.
func (v *viewLoad) start(ctx context.Context, views []string, n int, boards []string, wg *sync.WaitGroup) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n, DisableCompression: true}}
	for i := 0; i < n; i++ {
		me := &viewer1{last: map[string]string{}, seq: map[string]int{}}
		if len(boards) > 0 {
			me.board = boards[i%len(boards)]
		}
		v.mu.Lock()
		v.seen = append(v.seen, me)
		v.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := i; ctx.Err() == nil; k++ {
				url := strings.TrimSuffix(views[k%len(views)], "/") + "/events"
				if me.board != "" {
					url = strings.TrimSuffix(views[k%len(views)], "/") + "/boards/" + me.board + "/events"
					v.mu.Lock()
					if game, seq, ok := strings.Cut(me.last[me.board], "/"); ok {
						url += "?game=" + game + "&after=" + seq
					}
					v.mu.Unlock()
				}
				v.follow(ctx, client, url, me)
				select { // the stream ended (a view stopped): the next view, as the page does
				case <-ctx.Done():
				case <-time.After(200 * time.Millisecond):
				}
			}
		}()
	}
}

// follow reads one event stream until it ends.
func (v *viewLoad) follow(ctx context.Context, client *http.Client, url string, me *viewer1) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return
	}
	resp, err := client.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var s struct {
			ID   string `json:"id"`
			Game string `json:"game"`
			Seq  int    `json:"seq"`
		}
		if json.Unmarshal([]byte(data), &s) != nil || s.ID == "" {
			continue
		}
		at := time.Now()
		v.mu.Lock()
		key := s.Game + "/" + strconv.Itoa(s.Seq)
		prevGame, _, _ := strings.Cut(me.last[s.ID], "/")
		switch {
		case prevGame == s.Game && s.Seq < me.seq[s.ID] || web.OlderGame(s.Game, prevGame):
			v.back++ // dropped, as the page drops it
		case me.last[s.ID] != key:
			if t, ok := v.sent[s.ID+"/"+key]; ok && len(v.lat) < 1_000_000 {
				v.lat = append(v.lat, at.Sub(t))
			}
			me.last[s.ID], me.seq[s.ID] = key, s.Seq
		}
		v.mu.Unlock()
	}
}

// report counts the spectators that see every set's last move (final:
// board -> "game/seq") and the board/spectator pairs behind.
func (v *viewLoad) report(final map[string]string, r *loadReport) {
	v.mu.Lock()
	defer v.mu.Unlock()
	r.Viewers, r.Reordered = len(v.seen), v.back
	for _, me := range v.seen {
		whole := true
		for b, want := range final {
			if me.board != "" && b != me.board {
				continue
			}
			if me.last[b] != want {
				whole = false
				r.Behind++
			}
		}
		if whole {
			r.Whole++
		}
	}
	if n := len(v.lat); n > 0 {
		l := slices.Clone(v.lat)
		slices.Sort(l)
		r.VP50, r.VP99, r.VMax = l[n/2], l[min(n-1, n*99/100)], l[n-1]
	}
}

// caughtUp reports whether every spectator sees every set's last move.
func (v *viewLoad) caughtUp(final map[string]string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, me := range v.seen {
		for b, want := range final {
			if (me.board == "" || b == me.board) && me.last[b] != want {
				return false
			}
		}
	}
	return true
}
