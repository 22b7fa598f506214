package main

import (
	"bufio"
	"bytes"
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
	sentMu sync.RWMutex
	sent   map[string]time.Time // board/game/seq -> when the set enqueued it
	mu     sync.Mutex
	seen   []*viewer1
}

// viewer1 is one spectator's view of every board (the wall), or of one
// (board: its page's stream): the last game and seq of each.
type viewer1 struct {
	board string
	mu    sync.Mutex
	last  map[string]string // board -> "game/seq"
	seq   map[string]int
	lat   []time.Duration // enqueue to seen, of the moves seen
	// back counts the summaries a stream sent older than one it had sent
	// before; dropped those older than the spectator had from another view.
	back, dropped int
	// streams counts the event streams it opened (more than one: it moved
	// to another view).
	streams int
}

func newViewLoad() *viewLoad { return &viewLoad{sent: map[string]time.Time{}} }

// sentMove records when a set enqueued a move.
func (v *viewLoad) sentMove(board, game string, seq int, at time.Time) {
	v.sentMu.Lock()
	v.sent[board+"/"+game+"/"+strconv.Itoa(seq)] = at
	v.sentMu.Unlock()
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
					me.mu.Lock()
					if game, seq, ok := strings.Cut(me.last[me.board], "/"); ok {
						url += "?game=" + game + "&after=" + seq
					}
					me.mu.Unlock()
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

// follow reads one event stream until it ends. A summary older than the
// one the spectator has is dropped, as the page drops it, and counted: as
// a step back when this stream had sent a newer one (the view went back),
// else as dropped (another view, behind the one before).
func (v *viewLoad) follow(ctx context.Context, client *http.Client, url string, me *viewer1) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return
	}
	me.mu.Lock()
	me.streams++
	me.mu.Unlock()
	resp, err := client.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	mine := map[string]string{} // board -> the newest "game/seq" this stream sent
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull { // a line longer than the buffer: not a summary's start
				_, err = r.ReadSlice('\n')
			}
			continue
		}
		if err != nil {
			return
		}
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue
		}
		id, game, seq, ok := summaryKey(data)
		if !ok {
			continue
		}
		at := time.Now()
		key := game + "/" + strconv.Itoa(seq)
		me.mu.Lock()
		prevGame, _, _ := strings.Cut(me.last[id], "/")
		switch {
		case prevGame == game && seq < me.seq[id] || web.OlderGame(game, prevGame):
			if g, sq, _ := strings.Cut(mine[id], "/"); g == game && atoi(sq) > seq || web.OlderGame(game, g) {
				me.back++ // this stream itself went back
			} else {
				me.dropped++
			}
		case me.last[id] != key:
			v.sentMu.RLock()
			t, ok := v.sent[id+"/"+key]
			v.sentMu.RUnlock()
			if ok && len(me.lat) < 10_000 {
				me.lat = append(me.lat, at.Sub(t))
			}
			me.last[id], me.seq[id] = key, seq
		}
		me.mu.Unlock()
		if g, sq, _ := strings.Cut(mine[id], "/"); g != game && !web.OlderGame(game, g) || g == game && seq > atoi(sq) || mine[id] == "" {
			mine[id] = key
		}
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// summaryKey reads the board id, game and seq of a summary or a board's
// view: their first "id", "game" and "seq" fields, which come before any
// nested object (web.Summary's and web.BoardView's field order), without
// decoding the rest; anything else is decoded as JSON.
func summaryKey(data []byte) (id, game string, seq int, ok bool) {
	str := func(name string) (string, bool) {
		_, rest, ok := bytes.Cut(data, []byte(`"`+name+`":"`))
		if !ok {
			return "", false
		}
		v, _, ok := bytes.Cut(rest, []byte(`"`))
		return string(v), ok && !bytes.ContainsRune(v, '\\')
	}
	id, ok1 := str("id")
	game, ok2 := str("game")
	_, rest, ok3 := bytes.Cut(data, []byte(`"seq":`))
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if ok1 && ok2 && ok3 && n > 0 && id != "" {
		seq, _ = strconv.Atoi(string(rest[:n]))
		return id, game, seq, true
	}
	var s struct {
		ID   string `json:"id"`
		Game string `json:"game"`
		Seq  int    `json:"seq"`
	}
	if json.Unmarshal(data, &s) != nil || s.ID == "" {
		return "", "", 0, false
	}
	return s.ID, s.Game, s.Seq, true
}

// report counts the spectators that see every set's last move (final:
// board -> "game/seq") and the board/spectator pairs behind.
func (v *viewLoad) report(final map[string]string, r *loadReport) {
	v.mu.Lock()
	defer v.mu.Unlock()
	r.Viewers = len(v.seen)
	var lat, stayed []time.Duration
	for _, me := range v.seen {
		me.mu.Lock()
		r.Reordered += me.back
		r.Dropped += me.dropped
		lat = append(lat, me.lat...)
		if me.streams <= 1 {
			r.Stayed++
			stayed = append(stayed, me.lat...)
		}
		whole := true
		for b, want := range final {
			if me.board != "" && b != me.board {
				continue
			}
			if me.last[b] != want {
				whole = false
				r.Behind++
				if !slices.Contains(r.BehindBoards, b) {
					r.BehindBoards = append(r.BehindBoards, b)
				}
			}
		}
		me.mu.Unlock()
		if whole {
			r.Whole++
		}
	}
	slices.Sort(r.BehindBoards)
	if n := len(lat); n > 0 {
		slices.Sort(lat)
		r.VP50, r.VP99, r.VMax = lat[n/2], lat[min(n-1, n*99/100)], lat[n-1]
	}
	if n := len(stayed); n > 0 {
		slices.Sort(stayed)
		r.StayedP99 = stayed[min(n-1, n*99/100)]
	}
}

// caughtUp reports whether every spectator sees every set's last move.
func (v *viewLoad) caughtUp(final map[string]string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, me := range v.seen {
		me.mu.Lock()
		for b, want := range final {
			if (me.board == "" || b == me.board) && me.last[b] != want {
				me.mu.Unlock()
				return false
			}
		}
		me.mu.Unlock()
	}
	return true
}
