package sensors

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/rules"
	"periph.io/x/conn/v3/i2c"
)

// State is the debounced state of a cell.
type State uint8

const (
	Open State = iota
	Closed
	Unknown
)

func (s State) String() string {
	switch s {
	case Open:
		return "open"
	case Closed:
		return "closed"
	}
	return "unknown"
}

// Snapshot is the debounced state of every cell at one scan.
type Snapshot struct {
	// Time is the time of the scan.
	Time time.Time
	// AsOf is the time the debounced state stands for: Time, or, when a
	// change read before Time is still in its debounce window, when that
	// change will have stood the window (a late scan reads a change late,
	// and must not stretch the state before it: see Scanner.Readings).
	AsOf time.Time
	// Closed and Unknown are sets over Opts.Cells; a cell in neither is
	// open.
	Closed, Unknown rules.CellSet
	// Buttons has bit i set while button i of Scanner.Buttons() is pressed
	// (a button whose expander fails reads released).
	Buttons uint64
}

// Event is one cell (or button) changing state.
type Event struct {
	// Time is when the change was first read plus the debounce window:
	// the scan that found it due, had every scan come on time (a failed
	// expander's cells go Unknown at the scan's time).
	Time time.Time
	// Gap is how long before its first reading the change may have
	// happened: the time since the reading before (a scan's period on
	// time; more after a scan that came late).
	Gap time.Duration
	// Cell is the cell's index in Opts.Cells, or rules.NoCell for a button.
	Cell rules.Cell
	// Button is the button's index in Scanner.Buttons(), or -1 for a cell.
	Button int
	// Name is the cell's name, or the button's (with ButtonPrefix).
	Name     string
	From, To State
}

func (e Event) String() string {
	return fmt.Sprintf("%s %s -> %s", e.Name, e.From, e.To)
}

// Stats counts a Scanner's work.
type Stats struct {
	// Scans is the number of scans; Changes those that changed a cell.
	Scans, Changes uint64
	// Skipped is the number of scan periods Run missed because a scan (or
	// the system) was late; they are skipped, not made up.
	Skipped uint64
}

// Health is the state of one expander.
type Health struct {
	// Expander names it ("0x21", "0x20 (mux 0x70 channel 3)").
	Expander string
	// OK is true while its last transaction succeeded.
	OK bool
	// Reads counts its good scans, Failures its failed attempts
	// (transactions or configuration), Consecutive the failures since the
	// last good scan.
	Reads, Failures uint64
	Consecutive     int
	// Configs counts its configurations (1 after a clean start), Resets the
	// times a periodic check found its configuration lost.
	Configs, Resets uint64
	// LastErr is the last error met (kept after recovery), or nil.
	LastErr error
	// Retry is when it is tried again, while failing.
	Retry time.Time
}

// Scanner scans the switches of a Wiring. Scan and Events belong to one
// goroutine (Run's, or the caller's); Snapshot, Health and Stats may be
// called from any.
type Scanner struct {
	opts    Opts
	cells   []string
	buttons []string
	exps    []*expander
	muxes   []*mux
	window  int64

	mu     sync.Mutex
	snap   Snapshot
	stats  Stats
	events []Event
	verify int       // next expander to check
	epoch  time.Time // first scan
	// prev is the state before the last scan; order sorts its events by
	// time (Readings).
	prev  Snapshot
	order []int
}

// New returns a Scanner for the wiring w on bus (nil opts: DefaultOpts).
// The wiring must be valid for opts.Cells. New does no I/O: the first Scan
// configures the expanders; until their readings have been stable for the
// debounce window, the cells are Unknown.
func New(bus i2c.Bus, w *Wiring, opts *Opts) (*Scanner, error) {
	o := DefaultOpts()
	if opts != nil {
		o = *opts
		// The scanner keeps the cell list: a copy, so that the caller's
		// slice (a system's own list, say) can change without it.
		o.Cells = slices.Clone(o.Cells)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := w.Validate(o.Cells); err != nil {
		return nil, err
	}
	s := &Scanner{opts: o, cells: o.Cells, buttons: w.Buttons(), window: int64(o.Debounce)}
	index := make(map[string]int, len(o.Cells))
	for i, c := range o.Cells {
		index[c] = i
	}
	for i, b := range s.buttons {
		index[b] = len(o.Cells) + i
	}
	muxes := map[uint16]*mux{}
	for i := range w.Expanders {
		e := &w.Expanders[i]
		x := newExpander(bus, e, muxes)
		var rows uint8
		var buttons uint64
		for _, c := range e.Cells {
			slot := e.Slot(c)
			x.slot[slot] = int16(index[c.Cell])
			x.used |= 1 << slot
			rows |= 1 << c.Row
			if index[c.Cell] >= len(o.Cells) {
				buttons |= 1 << slot
			}
		}
		x.latchButtons(buttons)
		for r := 0; r < 8 && x.matrix; r++ {
			if rows&(1<<r) != 0 {
				x.rows = append(x.rows, uint8(r))
			}
		}
		x.unknown = x.used
		s.exps = append(s.exps, x)
		for _, c := range e.Cells {
			if idx := index[c.Cell]; idx < len(o.Cells) {
				s.snap.Unknown.Add(rules.Cell(idx))
			}
		}
	}
	for _, m := range muxes {
		s.muxes = append(s.muxes, m)
	}
	s.events = make([]Event, 0, len(o.Cells)+len(s.buttons))
	return s, nil
}

// Cells is the scanner's copy of Opts.Cells; the caller must not change it.
func (s *Scanner) Cells() []string { return s.cells }

// Buttons lists the wired buttons (with ButtonPrefix); bit i of
// Snapshot.Buttons is Buttons()[i].
func (s *Scanner) Buttons() []string { return s.buttons }

// Snapshot is the state after the last scan.
func (s *Scanner) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

// Events are the changes of the last Scan, in expander and slot order. The
// slice is reused by the next Scan.
func (s *Scanner) Events() []Event { return s.events }

// Readings calls fn with each debounced reading of the cells and buttons
// the last Scan went through, in time order, each stamped with the time it
// stands for: after each set of changes of the same Event.Time, the cells
// and buttons as they then stood, at that time; last, the cells as they
// stand, at Snapshot.AsOf; gap is the longest Event.Gap of the changes
// the reading adds. On time, a scan has one reading, at its own
// time. A late scan (the loop did not get the CPU) finds changes that
// became due while it waited: fed in their order and at their times, a
// consumer that times how long a reading stood (a recognizer's settle
// window) or orders a button press among the cells' changes sees what it
// would have seen on time, not a reading stretched by the delay. Call it
// on Scan's goroutine, after Scan.
func (s *Scanner) Readings(fn func(at time.Time, closed, unknown rules.CellSet, buttons uint64, gap time.Duration)) {
	closed, unknown, buttons := s.prev.Closed, s.prev.Unknown, s.prev.Buttons
	var gap time.Duration // the longest Gap of the changes since the last call
	s.order = s.order[:0]
	for i := range s.events {
		s.order = append(s.order, i)
	}
	// Insertion sort by time, stable: a scan has few changes.
	for i := 1; i < len(s.order); i++ {
		for j := i; j > 0 && s.events[s.order[j]].Time.Before(s.events[s.order[j-1]].Time); j-- {
			s.order[j], s.order[j-1] = s.order[j-1], s.order[j]
		}
	}
	for i, k := range s.order {
		e := &s.events[k]
		if e.Cell != rules.NoCell {
			closed.Set(e.Cell, e.To == Closed)
			unknown.Set(e.Cell, e.To == Unknown)
		} else if e.To == Closed {
			buttons |= 1 << e.Button
		} else {
			buttons &^= 1 << e.Button
		}
		gap = max(gap, e.Gap)
		if (i+1 == len(s.order) || !s.events[s.order[i+1]].Time.Equal(e.Time)) && e.Time.Before(s.snap.AsOf) {
			fn(e.Time, closed, unknown, buttons, gap)
			gap = 0
		}
	}
	fn(s.snap.AsOf, s.snap.Closed, s.snap.Unknown, s.snap.Buttons, gap)
}

// Stats returns the scan counters.
func (s *Scanner) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Health appends the health of each expander, in wiring order, to buf.
func (s *Scanner) Health(buf []Health) []Health {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.exps {
		h := Health{
			Expander: x.name, OK: !x.failing && x.configs > 0,
			Reads: x.reads, Failures: x.failures, Consecutive: x.consecutive,
			Configs: x.configs, Resets: x.resets, LastErr: x.lastErr,
		}
		if x.failing {
			h.Retry = s.epoch.Add(time.Duration(x.nextTry))
		}
		buf = append(buf, h)
	}
	return buf
}

// Scan reads every expander that is due once, debounces, and reports
// whether any cell changed state (the changes are in Events). now is the
// time of the scan: the caller's clock, real or simulated.
func (s *Scanner) Scan(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stats.Scans == 0 {
		s.epoch = now
	}
	// Times are kept as nanoseconds since the first scan, so that a real
	// clock's monotonic reading is used and wall-clock jumps do not count.
	t := int64(now.Sub(s.epoch))
	s.events = s.events[:0]
	s.prev = s.snap
	s.snap.Time = now
	last := t // the last reading's time
	s.stats.Scans++
	checked := false
	asOf := int64(math.MaxInt64)
	for i, x := range s.exps {
		if x.failing && t < x.nextTry {
			continue
		}
		if !x.needConfig && !checked && s.opts.Verify > 0 && t >= x.nextVerify && i >= s.verify {
			// One check per scan, round-robin.
			checked = true
			s.verify = (i + 1) % len(s.exps)
			x.nextVerify = t + int64(s.opts.Verify)
			if !s.confirm(x, now, t) {
				continue
			}
		}
		if x.needConfig {
			if err := x.configure(s.muxes); err != nil {
				s.fail(x, now, t, err)
				continue
			}
			x.needConfig = false
			x.configs++
			x.verifiedAt = t
			x.nextVerify = t + int64(s.opts.Verify)
		}
		raw, latched, err := x.read(s.muxes)
		if err != nil {
			s.fail(x, now, t, err)
			continue
		}
		if s.opts.Now != nil {
			// Stamped with when it was read, not when the scan began.
			if at := s.opts.Now(); at.After(now) {
				now, t = at, int64(at.Sub(s.epoch))
				last = max(last, t)
			}
		}
		x.failing, x.consecutive = false, 0
		x.reads++
		raw &= x.used
		// A button pressed since the last read, perhaps let go already
		// (a tap shorter than the time between two scans: a busy machine),
		// reads pressed from this read until the debounce has taken the
		// press, as if it were still held: seen once, never lost. Its
		// release is then read as it comes.
		x.latched |= latched &^ x.state
		raw |= x.latched
		due, latest, pending := s.due(x, raw, t)
		asOf = min(asOf, pending)
		if due != 0 && latest > x.verifiedAt {
			// A reading is about to count that changed after the last
			// check: make sure the chip did not reset in between (its
			// inputs would float).
			if !s.confirm(x, now, t) {
				continue
			}
		}
		s.commit(x, raw, due, now)
		x.latched &^= x.state // taken
	}
	if !checked && s.verify != 0 {
		s.verify = 0 // wrap the round-robin when the tail was not due
	}
	s.snap.AsOf = s.epoch.Add(time.Duration(min(asOf, last)))
	if len(s.events) > 0 {
		s.stats.Changes++
		return true
	}
	return false
}

// due feeds one reading of x to its cells' debounce and returns the slots
// whose new state has been stable for the window, the latest time one of
// them changed, and the earliest time a change still in its window will
// have stood it (math.MaxInt64 for none).
func (s *Scanner) due(x *expander, raw uint64, t int64) (due uint64, latest, pending int64) {
	changed := raw ^ x.lastRaw
	// A change first read by a scan that came late happened somewhere in
	// the gap since the last reading: it is credited half of what the gap
	// exceeds the period by, at most half the window, so that it still has
	// to be read unchanged for half the window (contact bounce lasts a
	// millisecond or two) but a late scan does not lose a piece that stood
	// a few times the window (issue 21: a 150 ms placement read by two late
	// scans 25 ms apart). On time, nothing is credited.
	credit := min(max(t-x.readAt-int64(s.opts.Period), 0)/2, s.window/2)
	first, gap := t-credit, t-x.readAt
	if x.fresh {
		x.fresh = false
		changed, first, gap = x.used, t, 0
	} else if undone := changed & (x.lastRaw ^ x.state) &^ x.unknown; undone != 0 {
		// A change still in its window that this reading undoes, after a
		// gap: credited half the gap as well, it may have stood the
		// window (a piece set down for 150 ms between two late scans is
		// read once). Then it counts, at its time, before it is undone.
		var pulse uint64
		for m := undone; m != 0; m &= m - 1 {
			if b := bits.TrailingZeros64(m); x.readAt-x.since[b]+credit >= s.window {
				pulse |= 1 << b
			}
		}
		s.commit(x, x.lastRaw, pulse, s.epoch.Add(time.Duration(t)))
	}
	for m := changed; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		x.since[b], x.gap[b] = first, gap
	}
	x.lastRaw, x.readAt = raw, t
	latest, pending = -1<<63, math.MaxInt64
	for m := (raw ^ x.state | x.unknown) & x.used; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		if t-x.since[b] >= s.window {
			due |= 1 << b
			latest = max(latest, x.since[b])
		} else {
			pending = min(pending, x.since[b]+s.window)
		}
	}
	return due, latest, pending
}

// commit sets the due slots of x to their reading.
func (s *Scanner) commit(x *expander, raw, due uint64, now time.Time) {
	for m := due; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		bit := uint64(1) << b
		from := Open
		if x.unknown&bit != 0 {
			from = Unknown
		} else if x.state&bit != 0 {
			from = Closed
		}
		to := Open
		if raw&bit != 0 {
			to = Closed
		}
		x.unknown &^= bit
		x.state = x.state&^bit | raw&bit
		// Stamped with when it was read (and stood the window), not when
		// this scan came to it.
		at := s.epoch.Add(time.Duration(x.since[b] + s.window))
		if at.After(now) {
			at = now
		}
		s.set(int(x.slot[b]), from, to, at, time.Duration(x.gap[b]))
	}
}

// reset handles a chip found with its configuration lost: its cells become
// Unknown and it is configured again at once; its readings count again
// after a full debounce window.
func (s *Scanner) reset(x *expander, now time.Time, t int64) {
	x.resets++
	s.lose(x, now)
	x.needConfig = true
	if err := x.configure(s.muxes); err != nil {
		s.fail(x, now, t, err)
		return
	}
	x.needConfig = false
	x.configs++
	x.verifiedAt = t
	x.nextVerify = t + int64(s.opts.Verify)
}

// set records a cell's (or button's) new state and its event.
func (s *Scanner) set(idx int, from, to State, now time.Time, gap time.Duration) {
	ev := Event{Time: now, Gap: gap, From: from, To: to, Cell: rules.NoCell, Button: -1}
	if idx < len(s.cells) {
		c := rules.Cell(idx)
		ev.Cell, ev.Name = c, s.cells[idx]
		s.snap.Closed.Set(c, to == Closed)
		s.snap.Unknown.Set(c, to == Unknown)
	} else {
		b := idx - len(s.cells)
		ev.Button, ev.Name = b, s.buttons[b]
		if to == Closed {
			s.snap.Buttons |= 1 << b
		} else {
			s.snap.Buttons &^= 1 << b
		}
	}
	s.events = append(s.events, ev)
}

// lose makes every cell of x Unknown.
func (s *Scanner) lose(x *expander, now time.Time) {
	for m := x.used &^ x.unknown; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		from := Open
		if x.state&(1<<b) != 0 {
			from = Closed
		}
		s.set(int(x.slot[b]), from, Unknown, now, 0)
	}
	x.unknown = x.used
	x.state = 0
	x.latched = 0
	x.fresh = true
}

// confirm checks that x kept its configuration (a chip that reset has
// floating inputs): false, and x failed or reset, when it did not.
func (s *Scanner) confirm(x *expander, now time.Time, t int64) bool {
	ok, err := x.check(s.muxes)
	if err != nil {
		s.fail(x, now, t, err)
		return false
	}
	if !ok {
		s.reset(x, now, t)
		return false
	}
	x.verifiedAt = t
	return true
}

// fail records a failed attempt on x and schedules the retry.
func (s *Scanner) fail(x *expander, now time.Time, t int64, err error) {
	s.lose(x, now)
	x.failing = true
	x.needConfig = true
	x.failures++
	x.consecutive++
	x.lastErr = fmt.Errorf("sensors: expander %s: %w", x.name, err)
	d := s.opts.RetryMin
	for i := 1; i < x.consecutive && d < s.opts.RetryMax; i++ {
		d *= 2
	}
	d = min(d, s.opts.RetryMax)
	x.nextTry = t + int64(d)
}

// String describes the scanner's wiring in one line.
func (s *Scanner) String() string {
	names := make([]string, len(s.exps))
	for i, x := range s.exps {
		names[i] = x.name
	}
	return "sensors: expanders " + strings.Join(names, ", ")
}
