package web

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The wall's log: a reader gets each board's latest frame of the changes
// since its cursor, in the order they came; a reader a whole ring behind
// is told to start again from a snapshot.
func TestFeedRead(t *testing.T) {
	f := newFeed(4)
	fr := func(board, data string) frame { return frame{board: board, data: []byte(data)} }
	start, wake := f.cursor()
	f.append([]frame{fr("a", "a1"), fr("b", "b1")})
	select {
	case <-wake:
	default:
		t.Fatal("an append did not wake the readers")
	}
	f.append([]frame{fr("a", "a2")})
	for _, tc := range []struct {
		from uint64
		want []string
	}{
		{start, []string{"b1", "a2"}}, // a1 replaced by a2
		{start + 1, []string{"b1", "a2"}},
		{start + 2, []string{"a2"}},
		{start + 3, nil},
	} {
		out, next, _, ok := f.read(tc.from, nil)
		var got []string
		for _, d := range out {
			got = append(got, string(d))
		}
		if !ok || next != start+3 || !slices.Equal(got, tc.want) {
			t.Errorf("read from %d: %q, next %d, ok %v; want %q, %d, true", tc.from, got, next, ok, tc.want, start+3)
		}
	}
	f.append([]frame{fr("c", "c1"), fr("d", "d1")}) // the ring of 4 holds from start+1 on
	if _, next, _, ok := f.read(start, nil); ok || next != start+5 {
		t.Errorf("read from %d, fallen out of the ring: ok %v, next %d; want false, %d", start, ok, next, start+5)
	}
	if out, _, _, ok := f.read(start+1, nil); !ok || len(out) != 4 {
		t.Errorf("read from %d: %d frames, ok %v; want 4, true", start+1, len(out), ok)
	}
}

// A stream at the start of the latest append writes its bytes, the same
// slice as every other such stream's; a stream further behind gets the
// latest frame of each board in a buffer of its own.
func TestFeedNext(t *testing.T) {
	f := newFeed(8)
	fr := func(board, data string) frame { return frame{board: board, data: []byte(data)} }
	start, _ := f.cursor()
	f.append([]frame{fr("a", "a1;"), fr("b", "b1;")})
	mid, _ := f.cursor()
	f.append([]frame{fr("a", "a2;"), fr("c", "c1;")})
	var buf1, buf2 []byte
	d1, next1, _, ok1 := f.next(mid, &buf1)
	d2, _, _, _ := f.next(mid, &buf2)
	if !ok1 || string(d1) != "a2;c1;" || next1 != start+4 || &d1[0] != &d2[0] || buf1 != nil {
		t.Errorf("at the latest append: %q, next %d, ok %v, shared %v, own buffer %q; want \"a2;c1;\", %d, true, shared, none",
			d1, next1, ok1, &d1[0] == &d2[0], buf1, start+4)
	}
	d3, next3, _, ok3 := f.next(start, &buf1)
	if !ok3 || string(d3) != "b1;a2;c1;" || next3 != start+4 || string(buf1) != "b1;a2;c1;" {
		t.Errorf("behind: %q, next %d, ok %v, buffer %q; want \"b1;a2;c1;\" (a1 replaced), %d, true, in its buffer", d3, next3, ok3, buf1, start+4)
	}
	if d, next, _, ok := f.next(next3, &buf1); !ok || len(d) != 0 || next != next3 {
		t.Errorf("caught up: %q, next %d, ok %v; want nothing, %d, true", d, next, ok, next3)
	}
	for i := range 8 {
		f.append([]frame{fr("x", strconv.Itoa(i))})
	}
	if _, _, _, ok := f.next(start, &buf1); ok {
		t.Error("a stream a whole ring behind was not told to start again")
	}
}

// wallEvent reads the next "board" event of a wall stream (the "now" ones
// skipped) within 10 s.
func wallEvent(t *testing.T, evs <-chan sseEvent) (Summary, string) {
	t.Helper()
	for {
		ev := next(t, evs)
		if ev.name != "board" {
			continue
		}
		var s Summary
		if err := json.Unmarshal([]byte(ev.data), &s); err != nil {
			t.Fatal(err)
		}
		return s, ev.data
	}
}

// Every wall stream gets a change as the same bytes (encoded once, with
// the time it went out), each board once per tick: a burst of moves on a
// board within a tick reaches the streams as its last position only.
func TestWallStreamsShareOneEncoding(t *testing.T) {
	o := DefaultOpts()
	o.Tick = time.Hour // the first change goes out at once, the others at the hour's end
	h := NewHub(o)
	f := newFakeSet(t, h, "b1", "st3d")
	g := newFakeSet(t, h, "b2", "st3d")
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	t.Cleanup(srv.Close) // after the streams' own cleanups have closed them
	a, _, _ := streamEvents(t, srv.URL+"/events", nil)
	b, _, _ := streamEvents(t, srv.URL+"/events", nil)
	for _, evs := range []<-chan sseEvent{a, b} {
		for _, want := range []string{"b1", "b2"} {
			if s, _ := wallEvent(t, evs); s.ID != want {
				t.Fatalf("snapshot: %s, want %s", s.ID, want)
			}
		}
		if ev := next(t, evs); ev.name != "now" {
			t.Fatalf("after the snapshot %+v, want the server's time", ev)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); wallStreams(h) < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the streams never joined")
		}
	}
	f.play("b2W-b4N")
	sa, da := wallEvent(t, a)
	_, db := wallEvent(t, b)
	if sa.ID != "b1" || sa.Seq != 1 || da != db {
		t.Fatalf("the first change: %s seq %d; the two streams' bytes:\n%s\n%s", sa.ID, sa.Seq, da, db)
	}
	// Within the tick: nothing goes out until it ends.
	f.play("b7B-b5N")
	g.play("b2W-b4N")
	f.play("c2W-c4W")
	h.mu.Lock()
	h.publish(h.opts.Now()) // the tick's end
	h.mu.Unlock()
	for _, evs := range []<-chan sseEvent{a, b} {
		var got []string
		for range 2 {
			s, _ := wallEvent(t, evs)
			got = append(got, s.ID+"@"+strconv.Itoa(s.Seq))
		}
		if want := []string{"b1@3", "b2@1"}; !slices.Equal(got, want) {
			t.Fatalf("after the tick: %v, want %v", got, want)
		}
	}
}

// A stream that falls a whole log behind (a spectator too slow for the
// hall) gets every board's latest summary again, never a queue of what it
// missed.
func TestWallStreamBehindSkipsToLatest(t *testing.T) {
	o := DefaultOpts()
	o.WallLog, o.Tick = 4, time.Nanosecond
	h := NewHub(o)
	var sets []*fakeSet
	for i := range 3 {
		sets = append(sets, newFakeSet(t, h, "b"+strconv.Itoa(i+1), "st3d"))
	}
	leave := h.joinWall()
	defer leave()
	_, cur, _ := h.wallSnapshot()
	for range 3 {
		for _, f := range sets {
			f.random()
		}
	}
	if _, _, _, ok := h.wall.read(cur, nil); ok {
		t.Fatal("18 changes on a log of 4: the stream is not told it fell behind")
	}
	snap, _, _ := h.wallSnapshot()
	for i, d := range strings.SplitAfter(strings.TrimSuffix(string(snap), "\n\n"), "\n\n") {
		var s Summary
		json.Unmarshal([]byte(d[len("event: board\ndata: "):]), &s)
		if want := "b" + strconv.Itoa(i+1); s.ID != want || s.Seq != 3 {
			t.Errorf("snapshot %d: %s seq %d, want %s seq 3", i, s.ID, s.Seq, want)
		}
	}
}

// The streams of one board at the same point get a change as the same
// bytes, encoded once.
func TestBoardStreamsShareOneEncoding(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b4N")
	_, e, s, v, _ := h.sinceFrame("b1", 0, 0, 0)
	f.play("b7B-b5N")
	a, _, _, _, changed := h.sinceFrame("b1", e, s, v)
	b, _, seq, _, _ := h.sinceFrame("b1", e, s, v)
	if !changed || seq != 2 || &a[0] != &b[0] {
		t.Fatalf("two streams at move 1, after move 2: changed %v, seq %d, the same bytes: %v", changed, seq, &a[0] == &b[0])
	}
	var bv BoardView
	json.Unmarshal(a[len("id: 2\nevent: view\ndata: "):], &bv)
	if bv.Full || len(bv.Moves) != 1 || bv.Moves[0].Seq != 2 {
		t.Fatalf("the frame: full %v, %d moves", bv.Full, len(bv.Moves))
	}
}

// Wall streams starting while no board changes write the same snapshot
// bytes; a change makes a new one, with the board's new summary.
func TestWallSnapshotShared(t *testing.T) {
	h := NewHub(DefaultOpts())
	newFakeSet(t, h, "a1", "st3d")
	b := newFakeSet(t, h, "a2", "st3d")
	s1, _, _ := h.wallSnapshot()
	s2, _, _ := h.wallSnapshot()
	if &s1[0] != &s2[0] {
		t.Error("two streams starting with no change between: two snapshots")
	}
	b.random()
	s3, _, _ := h.wallSnapshot()
	if &s3[0] == &s1[0] || !strings.Contains(string(s3), `"id":"a2"`) || !strings.Contains(string(s3), `"seq":1`) ||
		strings.Count(string(s3), "event: board\n") != 2 {
		t.Errorf("after a2's move: %q, want a new snapshot of both boards with a2 at seq 1", s3)
	}
}
