package web

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// The wall's fan-out. Each change of a board is encoded once, as the SSE
// frame of its summary, and appended to a ring (feed) that every wall
// stream reads with a cursor of its own: a stream's work per change is a
// copy of shared bytes, never a scan of the boards nor an encoding of its
// own. The changes go out at most once per tick (HubOpts.Tick): the first
// change after a quiet tick at once, the others together at the tick's
// end, each board once with its latest summary. A stream that falls a
// whole ring behind (a slow spectator) skips to the latest summary of
// every board instead of queueing without bound.

// feed is the ring of the wall's frames.
type feed struct {
	mu   sync.RWMutex
	ring []frame
	head uint64            // the seq the next frame gets (from 1)
	last map[string]uint64 // board -> the seq of its latest frame
	wake chan struct{}     // closed when frames are appended
	// batch is the latest append's frames, one after the other, from the
	// seq batchFrom to before batchTo: what every stream that was at
	// batchFrom writes, the same bytes for all (no stream copies them).
	batch              []byte
	batchFrom, batchTo uint64
}

// frame is one board's summary as a wall stream writes it.
type frame struct {
	board string
	data  []byte
	next  uint64 // the seq of the board's next frame; 0 none yet
}

func newFeed(size int) *feed {
	return &feed{ring: make([]frame, size), head: 1, last: map[string]uint64{}, wake: make(chan struct{})}
}

// append adds frames (at most one per board) and wakes the streams.
func (f *feed) append(frames []frame) {
	if len(frames) == 0 {
		return
	}
	size := 0
	for _, fr := range frames {
		size += len(fr.data)
	}
	batch := make([]byte, 0, size)
	for _, fr := range frames {
		batch = append(batch, fr.data...)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batch, f.batchFrom, f.batchTo = batch, f.head, f.head+uint64(len(frames))
	n := uint64(len(f.ring))
	for _, fr := range frames {
		if p, ok := f.last[fr.board]; ok && f.head-p <= n {
			f.ring[p%n].next = f.head
		}
		f.last[fr.board] = f.head
		f.ring[f.head%n] = fr
		f.head++
	}
	close(f.wake)
	f.wake = make(chan struct{})
}

// cursor is where a stream starting now reads from, and the channel
// closed at the next append.
func (f *feed) cursor() (uint64, <-chan struct{}) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.head, f.wake
}

// read appends to out the frames from cur on, without those a later frame
// of the same board replaces, and returns the cursor after them and the
// channel closed at the next append. ok is false when cur fell out of the
// ring: the stream must start again from a snapshot.
func (f *feed) read(cur uint64, out [][]byte) (_ [][]byte, next uint64, wake <-chan struct{}, ok bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n := uint64(len(f.ring))
	if f.head-cur > n {
		return out, f.head, f.wake, false
	}
	for s := cur; s < f.head; s++ {
		fr := &f.ring[s%n]
		if fr.next != 0 && fr.next < f.head {
			continue // a later summary of the board follows
		}
		out = append(out, fr.data)
	}
	return out, f.head, f.wake, true
}

// next returns what a stream at cur writes next, in one write: the latest
// append's bytes, shared by every stream that was at its start (the
// common case: no copy, no scan), else the latest frame of each board
// changed since cur, in the order they came, in *buf (the stream's own,
// kept for its next batch unless it grew big). It returns
// the cursor after them and the channel closed at the next append; ok is
// false when cur fell out of the ring (the stream starts again from a
// snapshot).
func (f *feed) next(cur uint64, buf *[]byte) (data []byte, next uint64, wake <-chan struct{}, ok bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if cur == f.batchFrom && f.head == f.batchTo && cur < f.head {
		return f.batch, f.head, f.wake, true
	}
	n := uint64(len(f.ring))
	if f.head-cur > n {
		return nil, f.head, f.wake, false
	}
	data = (*buf)[:0]
	for s := cur; s < f.head; s++ {
		if fr := &f.ring[s%n]; fr.next == 0 || fr.next >= f.head {
			data = append(data, fr.data...) // else a later summary of the board follows
		}
	}
	if *buf = data; cap(data) > 64<<10 {
		*buf = nil // a big batch's: not kept
	}
	return data, f.head, f.wake, true
}

// wallFrame is board b's summary as a wall stream's frame, encoded once per
// change (h.mu held); now stamps a new encoding.
func (h *Hub) wallFrame(b *board, now time.Time) []byte {
	if b.frame != nil && b.frameVer == b.ver {
		return b.frame
	}
	s := b.summary()
	s.Now = now
	data, err := json.Marshal(s)
	if err != nil {
		data = []byte(`{"id":` + strconv.Quote(b.id) + `,"error":` + strconv.Quote(err.Error()) + `}`)
	}
	fr := make([]byte, 0, len(data)+32)
	fr = append(fr, "event: board\ndata: "...)
	fr = append(fr, data...)
	fr = append(fr, "\n\n"...)
	b.frame, b.frameVer = fr, b.ver
	return fr
}

// changed notes that board b changed for the wall streams (h.mu held): it
// goes out now when the last tick is over, else at its end.
func (h *Hub) changed(b *board) {
	if h.streams == 0 {
		return // no wall stream: a stream starting encodes what it needs
	}
	if !b.dirty {
		b.dirty = true
		h.dirty = append(h.dirty, b)
	}
	if h.publishing {
		return
	}
	now := h.opts.Now()
	if wait := h.lastPublish.Add(h.opts.Tick).Sub(now); wait > 0 {
		h.publishing = true
		go h.publishAfter(wait)
		return
	}
	h.publish(now)
}

// publishAfter publishes the changes after d on the hub's clock.
func (h *Hub) publishAfter(d time.Duration) {
	t, _ := h.opts.NewTimer(d)
	<-t
	h.mu.Lock()
	defer h.mu.Unlock()
	h.publishing = false
	h.publish(h.opts.Now())
}

// publish appends the changed boards' frames to the feed (h.mu held).
func (h *Hub) publish(now time.Time) {
	h.lastPublish = now
	if len(h.dirty) == 0 {
		return
	}
	frames := make([]frame, 0, len(h.dirty))
	for _, b := range h.dirty {
		b.dirty = false
		if h.streams > 0 {
			frames = append(frames, frame{board: b.id, data: h.wallFrame(b, now)})
		}
	}
	clear(h.dirty)
	h.dirty = h.dirty[:0]
	h.wall.append(frames)
}

// wallSnapshot returns every board's summary frame, in the natural order
// of their ids, one after the other, and the feed's cursor after them. The
// bytes are shared (not to be changed): the streams starting while no
// board changes (a crowd arriving, or moving from a view that died) write
// the same slice, in one write each.
func (h *Hub) wallSnapshot() ([]byte, uint64, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.opts.Now()
	ids := h.boardIDs()
	same := h.snap != nil && len(ids) == len(h.snapFrames)
	for i, id := range ids {
		if !same {
			break
		}
		same = &h.wallFrame(h.boards[id], now)[0] == &h.snapFrames[i][0]
	}
	if !same {
		n := 0
		h.snapFrames = h.snapFrames[:0]
		for _, id := range ids {
			fr := h.wallFrame(h.boards[id], now) // encoded above, or now
			h.snapFrames = append(h.snapFrames, fr)
			n += len(fr)
		}
		snap := make([]byte, 0, n)
		for _, fr := range h.snapFrames {
			snap = append(snap, fr...)
		}
		h.snap = snap
	}
	cur, wake := h.wall.cursor()
	return h.snap, cur, wake
}

// joinWall counts a wall stream in (the changes are encoded while one is
// open); the function returned counts it out.
func (h *Hub) joinWall() func() {
	h.mu.Lock()
	h.streams++
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		h.streams--
		h.mu.Unlock()
	}
}
