package bringup

import (
	"context"
	"fmt"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/tridboard/tridboard/leds"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
)

// LearnOpts is what Learn needs.
type LearnOpts struct {
	Bus i2c.Bus
	// Expanders are the set's expanders (address, multiplexer port, mode);
	// their cells are what Learn finds, so any given are ignored.
	Expanders []sensors.Expander
	// Cells are the cells to learn, in the order they are lit.
	Cells []string
	// Stays reports whether what is put on a cell stays there (a board on
	// its pin): the cells after it are learned with it in place. Nil: none.
	Stays func(cell string) bool
	// Show lights cell's LED and tells the builder what to do; pass is
	// "learn" or "check"; cell "" puts the LEDs out.
	Show func(cell, pass string)
	// Settle is how long a reading must hold to count; Timeout how long a
	// cell is waited for before it is skipped.
	Settle, Timeout time.Duration
	// Now and Wait are the clock.
	Now  func() time.Time
	Wait func(time.Duration)
	// Found, if set, is told each finding as it is made (a page shows
	// them as they come); Learn returns them all the same.
	Found func(Finding)
	// Ctx, if set, cancels: Learn stops at its next reading and returns
	// its error (context.Canceled), the LEDs put out.
	Ctx context.Context
}

// DefaultLearnOpts waits 300 ms for a reading to settle and a minute for
// each cell, on the wall clock.
func DefaultLearnOpts() LearnOpts {
	return LearnOpts{Settle: 300 * time.Millisecond, Timeout: time.Minute, Now: time.Now, Wait: time.Sleep,
		Stays: func(string) bool { return false }}
}

// slot is one switch position of an expander: a bit in Direct mode, a
// row*8+col in Matrix mode.
type slot struct{ exp, n int }

// learner holds a scanner over every slot of every expander, each slot a
// cell of its own ("@e:n"), so that what closed is read without a wiring.
type learner struct {
	o     LearnOpts
	t0    time.Time // when learning began
	exps  []sensors.Expander
	sc    *sensors.Scanner
	so    sensors.Opts // the scanner's options
	slots []slot
}

func newLearner(o LearnOpts) (*learner, error) {
	l := &learner{o: o}
	var names []string
	for i, e := range o.Expanders {
		x := sensors.Expander{Address: e.Address, Mux: e.Mux, Mode: e.Mode}
		n := 16
		if e.Mode == sensors.Matrix {
			n = 64
		}
		for s := 0; s < n; s++ {
			name := fmt.Sprintf("@%d:%d", i, s)
			w := sensors.Wire{Cell: name, Bit: s}
			if e.Mode == sensors.Matrix {
				w = sensors.Wire{Cell: name, Row: s / 8, Col: s % 8}
			}
			x.Cells = append(x.Cells, w)
			names = append(names, name)
			l.slots = append(l.slots, slot{i, s})
		}
		l.exps = append(l.exps, x)
	}
	if len(names) > 256 {
		return nil, fmt.Errorf("bringup: %d switch positions on %d expanders: at most 256 can be learned at once", len(names), len(o.Expanders))
	}
	so := sensors.DefaultOpts()
	so.Cells = names
	sc, err := sensors.New(o.Bus, &sensors.Wiring{Expanders: l.exps}, &so)
	if err != nil {
		return nil, fmt.Errorf("bringup: %w", err)
	}
	l.sc, l.so = sc, so
	return l, nil
}

// read scans for one period and returns the closed slots, and whether
// every slot is known yet (the first readings settle); an expander that
// still cannot be read after that is an error.
func (l *learner) read() (rules.CellSet, bool, error) {
	if l.o.Ctx != nil && l.o.Ctx.Err() != nil {
		return rules.CellSet{}, false, fmt.Errorf("bringup: learning stopped: %w", l.o.Ctx.Err())
	}
	l.o.Wait(l.so.Period)
	l.sc.Scan(l.o.Now())
	s := l.sc.Snapshot()
	if !s.Unknown.Empty() {
		if l.o.Now().Sub(l.t0) > l.so.Debounce*4+l.so.RetryMax {
			first := s.Unknown.Cells(nil)[0]
			return s.Closed, false, fmt.Errorf("bringup: expander %s cannot be read (tridboard doctor tells why)", l.exps[l.slots[first].exp].Name())
		}
		return s.Closed, false, nil
	}
	return s.Closed, true, nil
}

func (l *learner) where(c rules.Cell) string {
	s := l.slots[c]
	e := l.exps[s.exp]
	if e.Mode == sensors.Matrix {
		return fmt.Sprintf("expander %s row %d col %d", e.Name(), s.n/8, s.n%8)
	}
	port := "GPA"
	if s.n >= 8 {
		port = "GPB"
	}
	return fmt.Sprintf("expander %s %s%d (bit %d)", e.Name(), port, s.n%8, s.n)
}

// waitFor reads until ok holds of the closed slots for Settle, or Timeout
// passes; it returns the last reading and whether ok held.
func (l *learner) waitFor(ok func(closed rules.CellSet) bool) (rules.CellSet, bool, error) {
	start := l.o.Now()
	since := start
	var last rules.CellSet
	for l.o.Now().Sub(start) < l.o.Timeout {
		closed, known, err := l.read()
		if err != nil {
			return closed, false, err
		}
		if !known || closed != last {
			last, since = closed, l.o.Now()
		}
		if ok(closed) && l.o.Now().Sub(since) >= l.o.Settle {
			return closed, true, nil
		}
	}
	return last, false, nil
}

// Learn lights each cell in turn and records the switch that closes when
// the builder puts a piece (or a board) there, then checks every cell
// learned in a second pass. It returns the wiring learned and its findings:
// a cell nothing closed for, two switches closing at once, two cells on one
// switch, a cell that reads wrong when checked. The set must start empty.
func Learn(o LearnOpts) (*sensors.Wiring, []Finding, error) {
	if o.Stays == nil {
		o.Stays = func(string) bool { return false }
	}
	l, err := newLearner(o)
	if err != nil {
		return nil, nil, err
	}
	l.t0 = o.Now()
	var out []Finding
	bad := func(format string, a ...any) {
		f := Finding{true, fmt.Sprintf(format, a...)}
		out = append(out, f)
		if o.Found != nil {
			o.Found(f)
		}
	}
	if o.Ctx != nil {
		defer func() {
			if o.Ctx.Err() != nil {
				o.Show("", "")
			}
		}()
	}
	// The set empty: the baseline. A builder who started learning with
	// pieces on the set (from the setup page) has Timeout to take them off.
	base, settled, err := l.waitFor(func(c rules.CellSet) bool { return c.Empty() })
	if err != nil {
		return nil, nil, err
	}
	if !settled || !base.Empty() {
		var names []string
		for _, c := range base.Cells(nil) {
			names = append(names, l.where(c))
		}
		return nil, nil, fmt.Errorf("bringup: the set is not empty: %v read closed; take every piece and board off first", names)
	}
	learned := map[string]rules.Cell{}
	owner := map[rules.Cell]string{}
	for _, cell := range o.Cells {
		o.Show(cell, "learn")
		closed, ok, err := l.waitFor(func(c rules.CellSet) bool { return c.Minus(base).Len() == 1 })
		if err != nil {
			return nil, nil, err
		}
		added := closed.Minus(base)
		if !ok {
			if added.Len() > 1 {
				var ws []string
				for _, c := range added.Cells(nil) {
					ws = append(ws, l.where(c))
				}
				bad("%s: %d switches closed at once (%v): a solder bridge between them, or more than one piece down; skipped", cell, added.Len(), ws)
			} else {
				bad("%s: no switch closed within %s: its switch is not wired, or the magnet does not reach it; skipped", cell, o.Timeout)
			}
			// Wait for the set to be as before, then go on.
			if _, _, err := l.waitFor(func(c rules.CellSet) bool { return c == base }); err != nil {
				return nil, nil, err
			}
			continue
		}
		s := added.Cells(nil)[0]
		if prev, dup := owner[s]; dup {
			bad("%s closes %s, as %s did: two cells share a switch input (a wire to the wrong pin, or a bridge); %s is left unwired", cell, l.where(s), prev, cell)
		} else {
			owner[s], learned[cell] = cell, s
		}
		if o.Stays(cell) {
			base.Add(s)
			continue
		}
		if _, _, err := l.waitFor(func(c rules.CellSet) bool { return c == base }); err != nil {
			return nil, nil, err
		}
	}
	// The check: every cell again, its switch alone must close.
	for _, cell := range o.Cells {
		s, ok := learned[cell]
		if !ok {
			continue
		}
		o.Show(cell, "check")
		if o.Stays(cell) {
			if closed, _, _ := l.read(); !closed.Has(s) {
				bad("check %s: %s is open though what stands there stays", cell, l.where(s))
			}
			continue
		}
		check := base
		check.Remove(s)
		closed, ok, err := l.waitFor(func(c rules.CellSet) bool { return c.Minus(check).Len() == 1 && c.Has(s) })
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			bad("check %s: want %s alone to close, read %d switches closed", cell, l.where(s), closed.Minus(check).Len())
		}
		if _, _, err := l.waitFor(func(c rules.CellSet) bool { return c == base }); err != nil {
			return nil, nil, err
		}
	}
	o.Show("", "")
	w := &sensors.Wiring{}
	for i, e := range l.exps {
		x := sensors.Expander{Address: e.Address, Mux: e.Mux, Mode: e.Mode}
		for _, cell := range o.Cells {
			s, ok := learned[cell]
			if !ok || l.slots[s].exp != i {
				continue
			}
			n := l.slots[s].n
			if e.Mode == sensors.Matrix {
				x.Cells = append(x.Cells, sensors.Wire{Cell: cell, Row: n / 8, Col: n % 8})
			} else {
				x.Cells = append(x.Cells, sensors.Wire{Cell: cell, Bit: n})
			}
		}
		if len(x.Cells) > 0 {
			w.Expanders = append(w.Expanders, x)
		}
	}
	if len(out) == 0 {
		out = append(out, Finding{false, fmt.Sprintf("%d cells learned and checked", len(learned))})
	}
	return w, out, nil
}

// Sockets are the cells of sys something stands on that carries other
// cells (an ST3D pin and its attack board, a First Contact platform
// position), as its geometry (rules/systems) says.
func Sockets(sys rules.System) map[string]bool {
	out := map[string]bool{}
	if g, err := systems.GeometryOf(sys); err == nil {
		for _, c := range g.Cells {
			if c.Socket != "" {
				out[c.Socket] = true
			}
		}
	}
	return out
}

// LearnOrder is the order the cells of sys are learned in: the system's
// order, but each socket just before the first square it carries, so that
// the board stands on its pin when its squares are lit.
func LearnOrder(sys rules.System) []string {
	cells := sys.Cells()
	g, _ := systems.GeometryOf(sys)
	done := map[string]bool{}
	var out []string
	for i, c := range cells {
		if done[c] {
			continue
		}
		if g != nil {
			if sock := g.Cells[i].Socket; sock != "" && !done[sock] {
				out = append(out, sock)
				done[sock] = true
			}
		}
		out = append(out, c)
		done[c] = true
	}
	return out
}

// Lamp lights one cell at a time on an LED driver: Learn's Show, less the
// words for the builder.
type Lamp struct {
	d      leds.Driver
	l      *leds.Layout
	index  map[string]rules.Cell
	frame  leds.Frame
	Errors int // writes that failed
}

// NewLamp lights cells (the game system's, in order) through d under l.
func NewLamp(d leds.Driver, l *leds.Layout, cells []string) *Lamp {
	m := &Lamp{d: d, l: l, index: map[string]rules.Cell{}}
	for i, c := range cells {
		m.index[c] = rules.Cell(i)
	}
	m.frame.N = d.NumLEDs()
	return m
}

// Light lights cell alone ("" puts every LED out).
func (m *Lamp) Light(cell string) {
	m.frame.Clear()
	if c, ok := m.index[cell]; ok {
		if i := m.l.LED(c); i >= 0 && i < m.frame.N {
			m.frame.LED[i] = leds.Color{R: 255, G: 255, B: 255}
		}
	}
	if err := m.d.Write(&m.frame); err != nil {
		m.Errors++
	}
}
