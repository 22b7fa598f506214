package sensors

import (
	"fmt"
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
	Time time.Time
	// Closed and Unknown are sets over Opts.Cells; a cell in neither is
	// open.
	Closed, Unknown rules.CellSet
	// Buttons has bit i set while button i of Scanner.Buttons() is pressed
	// (a button whose expander fails reads released).
	Buttons uint64
}

// Event is one cell (or button) changing state.
type Event struct {
	Time time.Time
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
		for _, c := range e.Cells {
			slot := e.Slot(c)
			x.slot[slot] = int16(index[c.Cell])
			x.used |= 1 << slot
			rows |= 1 << c.Row
		}
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
	s.snap.Time = now
	s.stats.Scans++
	checked := false
	for i, x := range s.exps {
		if x.failing && t < x.nextTry {
			continue
		}
		if !x.needConfig && !checked && s.opts.Verify > 0 && t >= x.nextVerify && i >= s.verify {
			// One check per scan, round-robin.
			checked = true
			s.verify = (i + 1) % len(s.exps)
			x.nextVerify = t + int64(s.opts.Verify)
			ok, err := x.check(s.muxes)
			if err != nil {
				s.fail(x, now, t, err)
				continue
			}
			if !ok {
				s.reset(x, now, t)
				continue
			}
			x.verifiedAt = t
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
		raw, err := x.read(s.muxes)
		if err != nil {
			s.fail(x, now, t, err)
			continue
		}
		x.failing, x.consecutive = false, 0
		x.reads++
		raw &= x.used
		due, latest := s.due(x, raw, t)
		if due != 0 && latest > x.verifiedAt {
			// A reading is about to count that changed after the last
			// check: make sure the chip did not reset in between (its
			// inputs would float).
			ok, err := x.check(s.muxes)
			if err != nil {
				s.fail(x, now, t, err)
				continue
			}
			if !ok {
				s.reset(x, now, t)
				continue
			}
			x.verifiedAt = t
		}
		s.commit(x, raw, due, now)
	}
	if !checked && s.verify != 0 {
		s.verify = 0 // wrap the round-robin when the tail was not due
	}
	if len(s.events) > 0 {
		s.stats.Changes++
		return true
	}
	return false
}

// due feeds one reading of x to its cells' debounce and returns the slots
// whose new state has been stable for the window, and the latest time one
// of them changed.
func (s *Scanner) due(x *expander, raw uint64, t int64) (due uint64, latest int64) {
	changed := raw ^ x.lastRaw
	if x.fresh {
		x.fresh = false
		changed = x.used
	}
	for m := changed; m != 0; m &= m - 1 {
		x.since[bits.TrailingZeros64(m)] = t
	}
	x.lastRaw = raw
	latest = -1 << 63
	for m := (raw ^ x.state | x.unknown) & x.used; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		if t-x.since[b] >= s.window {
			due |= 1 << b
			latest = max(latest, x.since[b])
		}
	}
	return due, latest
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
		s.set(int(x.slot[b]), from, to, now)
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
func (s *Scanner) set(idx int, from, to State, now time.Time) {
	ev := Event{Time: now, From: from, To: to, Cell: rules.NoCell, Button: -1}
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
		s.set(int(x.slot[b]), from, Unknown, now)
	}
	x.unknown = x.used
	x.state = 0
	x.fresh = true
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
