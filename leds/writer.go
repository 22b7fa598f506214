package leds

import (
	"sync"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// WriterOpts are the options of a Writer.
type WriterOpts struct {
	// Style says how signals look; nil means MonoStyle.
	Style *Style
	// RetryMin and RetryMax bound the backoff between tries of a failing
	// driver: it starts at RetryMin and doubles up to RetryMax.
	RetryMin, RetryMax time.Duration
	// Refresh rewrites the frame shown when nothing was written for that
	// long, so that an LED driver that lost its state comes back; 0
	// never does.
	Refresh time.Duration
	// OnError, if set, is called from the writer's goroutine with each
	// failure of the driver. It must not block.
	OnError func(err error)
	// Now is the writer's clock: the blink patterns, the refresh, the
	// backoff and the times of Stats follow it; nil means time.Now.
	Now func() time.Time
	// NewTimer makes a timer on that clock: a channel that receives once d
	// has passed, and a function that stops it; nil means time.NewTimer.
	// sim.TimeSource has both, for tests in simulated time.
	NewTimer func(d time.Duration) (<-chan time.Time, func() bool)
}

// DefaultWriterOpts returns the defaults: MonoStyle, retries after 50 ms,
// then up to every 5 s, a refresh every 10 s, the real clock.
func DefaultWriterOpts() WriterOpts {
	return WriterOpts{Style: &MonoStyle, RetryMin: 50 * time.Millisecond, RetryMax: 5 * time.Second, Refresh: 10 * time.Second,
		Now: time.Now, NewTimer: realTimer}
}

// realTimer is time.NewTimer as a WriterOpts.NewTimer.
func realTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// Stats counts what a Writer did.
type Stats struct {
	// Writes is the number of frames written.
	Writes uint64
	// Unchanged is the number of frames composed but not written because
	// the LEDs already showed them.
	Unchanged uint64
	// Errors is the number of failed writes; Failing is true while the
	// last write failed.
	Errors  uint64
	Failing bool
	// LastError is the last failure and LastErrorAt its time.
	LastError   error
	LastErrorAt time.Time
	// Latency is the time from the last Show (or ShowFrame) that changed
	// the view to the end of
	// the first write that showed it; MaxLatency the largest so far.
	Latency, MaxLatency time.Duration
}

// Writer shows views on a driver from its own goroutine: Show never blocks
// and the latest view wins. It writes only frames that changed, recomposes
// the frame while something blinks, and retries a failing driver with
// backoff.
type Writer struct {
	d     Driver
	l     *Layout
	o     WriterOpts
	wake  chan struct{}
	sync  chan chan struct{} // Sync's requests
	quit  chan struct{}
	done  chan struct{}
	close sync.Once
	err   error

	mu       sync.Mutex
	view     View
	frame    Frame // shown instead of view when useFrame
	useFrame bool
	shownAt  time.Time // when the view or frame last changed: the patterns' start
	changed  uint64    // counts the changes of view or frame
	stats    Stats
}

// NewWriter starts a writer that shows views on d with the LED indexes of
// l. It shows nothing until the first Show or ShowFrame.
func NewWriter(d Driver, l *Layout, o *WriterOpts) *Writer {
	def := DefaultWriterOpts()
	if o == nil {
		o = &def
	}
	w := &Writer{
		d:    d,
		l:    l,
		o:    *o,
		wake: make(chan struct{}, 1),
		sync: make(chan chan struct{}),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	if w.o.Style == nil {
		w.o.Style = &MonoStyle
	}
	if w.o.RetryMin <= 0 {
		w.o.RetryMin = def.RetryMin
	}
	if w.o.Now == nil {
		w.o.Now = time.Now
	}
	if w.o.NewTimer == nil {
		w.o.NewTimer = realTimer
	}
	if w.o.RetryMax < w.o.RetryMin {
		w.o.RetryMax = w.o.RetryMin
	}
	go w.run()
	return w
}

// Show hands v to the writer, which shows it as soon as it can. It does not
// block; a view not shown yet is replaced.
func (w *Writer) Show(v *View) {
	w.mu.Lock()
	if w.useFrame || w.view != *v {
		w.view = *v
		w.useFrame = false
		w.shownAt = w.o.Now()
		w.changed++
	}
	w.mu.Unlock()
	w.poke()
}

// Lit returns the cells the view being shown lights, in any phase of its
// blinking: what a person sees over a few seconds. A frame shown with
// ShowFrame lights no cell of a view: Lit is empty then.
func (w *Writer) Lit() rules.CellSet {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out rules.CellSet
	if w.useFrame {
		return out
	}
	s := w.o.Style
	for sig, cells := range w.view.layers(s.FixHidesTargets) {
		if look := s.Looks[sig]; look.Color.Lit() && look.Pattern != 0 {
			out = out.Union(cells)
		}
	}
	return out
}

// ShowFrame hands the writer a frame to show as it is (a lamp test, a
// display of its own), until the next Show or ShowFrame.
func (w *Writer) ShowFrame(f *Frame) {
	w.mu.Lock()
	w.frame = *f
	w.useFrame = true
	w.shownAt = w.o.Now()
	w.changed++
	w.mu.Unlock()
	w.poke()
}

func (w *Writer) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Sync returns once the writer has handled everything handed to it before
// the call: the last Show or ShowFrame written (or tried, when the driver
// fails), and every timer of its clock that was due (a blink slot, a
// refresh, a retry). It returns at once when the writer is closed. On a
// simulated clock this makes the writer's frames exact in tests.
func (w *Writer) Sync() {
	ch := make(chan struct{})
	select {
	case w.sync <- ch:
		select {
		case <-ch:
		case <-w.done:
		}
	case <-w.done:
	}
}

// Stats returns what the writer did so far.
func (w *Writer) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// Close stops the writer and turns the LEDs off (Driver.Halt), returning
// the error of Halt.
func (w *Writer) Close() error {
	w.close.Do(func() {
		close(w.quit)
		<-w.done
		w.err = w.d.Halt()
	})
	return w.err
}

func (w *Writer) run() {
	defer close(w.done)
	var (
		cur, last Frame
		layers    [NumSignals]rules.CellSet
		valid     bool // last is on the LEDs
		writtenAt time.Time
		measured  uint64 // the change whose latency was measured last
		backoff   time.Duration
		retryAt   time.Time
		held      []chan struct{} // Sync calls to answer once idle
	)
	s := w.o.Style
	for {
		w.mu.Lock()
		gen, at, useFrame := w.changed, w.shownAt, w.useFrame
		blinking := false
		if useFrame {
			cur = w.frame
			cur.N = w.l.n
			clear(cur.LED[cur.N:])
		} else if gen > 0 {
			layers = w.view.layers(s.FixHidesTargets)
		}
		w.mu.Unlock()
		now := w.o.Now()
		if !useFrame && gen > 0 {
			paint(&cur, &layers, w.l, s, now.Sub(at))
			blinking = s.blinks(&layers)
		}
		var next time.Time
		switch {
		case gen == 0:
			// Nothing to show yet.
		case valid && cur == last && (w.o.Refresh <= 0 || now.Sub(writtenAt) < w.o.Refresh):
			w.mu.Lock()
			w.stats.Unchanged++
			w.mu.Unlock()
		case now.Before(retryAt):
			next = retryAt
		default:
			err := w.d.Write(&cur)
			end := w.o.Now()
			w.mu.Lock()
			if err != nil {
				valid = false
				w.stats.Errors++
				w.stats.Failing = true
				w.stats.LastError = err
				w.stats.LastErrorAt = end
				if backoff == 0 {
					backoff = w.o.RetryMin
				} else if backoff *= 2; backoff > w.o.RetryMax {
					backoff = w.o.RetryMax
				}
				retryAt = end.Add(backoff)
				next = retryAt
			} else {
				last, valid, writtenAt = cur, true, end
				backoff, retryAt = 0, time.Time{}
				w.stats.Writes++
				w.stats.Failing = false
				if gen != measured {
					w.stats.Latency = end.Sub(at)
					w.stats.MaxLatency = max(w.stats.MaxLatency, w.stats.Latency)
					measured = gen
				}
			}
			w.mu.Unlock()
			if err != nil && w.o.OnError != nil {
				w.o.OnError(err)
			}
		}
		if blinking {
			// Wake at the next slot boundary of the patterns.
			next = earliest(next, at.Add((w.o.Now().Sub(at)/Slot+1)*Slot))
		}
		if valid && w.o.Refresh > 0 {
			next = earliest(next, writtenAt.Add(w.o.Refresh))
		}
		var (
			fire <-chan time.Time
			stop func() bool
		)
		if !next.IsZero() {
			fire, stop = w.o.NewTimer(next.Sub(w.o.Now()))
		}
		ok := w.wait(fire, &held)
		if stop != nil {
			stop()
		}
		if !ok {
			return
		}
	}
}

// wait blocks until a Show, a ShowFrame or the timer fire, answering the
// Sync calls meanwhile once nothing is left to do. It returns false when
// the writer closes.
func (w *Writer) wait(fire <-chan time.Time, held *[]chan struct{}) bool {
	for {
		if len(*held) > 0 {
			select {
			case <-w.wake:
				return true
			case <-fire:
				return true
			default:
				for _, ch := range *held {
					close(ch)
				}
				*held = (*held)[:0]
			}
		}
		select {
		case <-w.wake:
			return true
		case <-fire:
			return true
		case ch := <-w.sync:
			*held = append(*held, ch)
		case <-w.quit:
			return false
		}
	}
}

// earliest is the earlier of a and b, a zero time meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}
