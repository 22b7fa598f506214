package sim

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sensors"
)

// Set is the physical ST3D set: which squares hold a piece, which pins hold
// an attack board, which buttons are pressed, and the contact bounce in
// progress. Its cells are st3d.CellNames() followed by the buttons it was
// made with; the switch of a cell reads closed while the cell is occupied
// (or the button pressed), bounce aside. It is safe for concurrent use.
type Set struct {
	mu     sync.Mutex
	clock  *Clock
	names  []string
	index  map[string]rules.Cell
	closed rules.CellSet
	// air holds the pieces of the board in the air (lifted off airFrom).
	air     [4]bool
	airFrom st3d.Pin
	inAir   bool
	bounces []bounce
}

// bounce is a train of edges on one cell: the cell reads inverted between
// edges 0 and 1, 2 and 3, ...
type bounce struct {
	cell  rules.Cell
	edges []time.Time
}

// NewSet returns an empty set (no piece, no board) whose bounce runs on
// clock; buttons are extra cells (full names, with sensors.ButtonPrefix).
func NewSet(clock *Clock, buttons ...string) *Set {
	s := &Set{clock: clock, index: map[string]rules.Cell{}}
	s.names = append(append([]string(nil), st3d.CellNames()...), buttons...)
	for i, n := range s.names {
		s.index[n] = rules.Cell(i)
	}
	return s
}

// StartCells are the closed cells of the ST3D start position.
var StartCells = strings.Fields(`
	z0QL1 a0QL1 z1QL1 a1QL1 d0KL1 e0KL1 d1KL1 e1KL1
	a1W b1W c1W d1W a2W b2W c2W d2W
	a7B b7B c7B d7B a8B b8B c8B d8B
	z8QL6 a8QL6 z9QL6 a9QL6 d8KL6 e8KL6 d9KL6 e9KL6
	QL1 QL6 KL1 KL6`)

// Start puts the set in the ST3D start position (and ends any bounce).
func (s *Set) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = rules.CellSet{}
	s.inAir = false
	s.bounces = nil
	for _, n := range StartCells {
		s.closed.Add(s.index[n])
	}
}

// Cells lists the set's cells: st3d.CellNames(), then the buttons.
func (s *Set) Cells() []string { return s.names }

// Cell finds a cell by name.
func (s *Set) Cell(name string) (rules.Cell, bool) {
	c, ok := s.index[name]
	return c, ok
}

// Closed is the set of occupied cells (bounce aside).
func (s *Set) Closed() rules.CellSet {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Reading is what the switches read now: Closed with the bounce that is in
// progress at the clock's time.
func (s *Set) Reading() rules.CellSet {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readingLocked(s.clock.Now())
}

func (s *Set) readingLocked(now time.Time) rules.CellSet {
	r := s.closed
	keep := s.bounces[:0]
	for _, b := range s.bounces {
		n := 0
		for n < len(b.edges) && !b.edges[n].After(now) {
			n++
		}
		if n%2 == 1 {
			r.Set(b.cell, !r.Has(b.cell))
		}
		if n < len(b.edges) {
			keep = append(keep, b)
		}
	}
	s.bounces = keep
	return r
}

// square resolves a square name and checks that its board stands.
func (s *Set) square(op, name string) (rules.Cell, error) {
	sq, err := st3d.ParseSquare(name)
	if err != nil {
		return 0, fmt.Errorf("sim: %s %s: not a square", op, name)
	}
	if p := sq.Pin(); p >= 0 && !s.closed.Has(st3d.PinCell(p)) {
		return 0, fmt.Errorf("sim: %s %s: no board on %s", op, name, p)
	}
	return st3d.SquareCell(sq), nil
}

// Lift takes the piece off a square.
func (s *Set) Lift(square string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.square("lift", square)
	if err != nil {
		return err
	}
	if !s.closed.Has(c) {
		return fmt.Errorf("sim: lift %s: no piece there", square)
	}
	s.closed.Remove(c)
	return nil
}

// Place puts a piece on an empty square.
func (s *Set) Place(square string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.square("place", square)
	if err != nil {
		return err
	}
	if s.closed.Has(c) {
		return fmt.Errorf("sim: place %s: square occupied", square)
	}
	s.closed.Add(c)
	return nil
}

// Move lifts the piece on from and places it on to.
func (s *Set) Move(from, to string) error {
	if err := s.Lift(from); err != nil {
		return err
	}
	if err := s.Place(to); err != nil {
		_ = s.Place(from)
		return err
	}
	return nil
}

// LiftBoard lifts the attack board off pin with its pieces: the pin's
// presence switch and its four squares read open while it is in the air.
// One board can be in the air at a time.
func (s *Set) LiftBoard(pin string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := st3d.ParsePin(pin)
	if err != nil {
		return fmt.Errorf("sim: lift board %s: not a pin", pin)
	}
	if s.inAir {
		return fmt.Errorf("sim: lift board %s: the board of %s is still in the air", pin, s.airFrom)
	}
	if !s.closed.Has(st3d.PinCell(p)) {
		return fmt.Errorf("sim: lift board %s: no board there", pin)
	}
	s.inAir, s.airFrom = true, p
	s.closed.Remove(st3d.PinCell(p))
	for i, sq := range p.Squares() {
		s.air[i] = s.closed.Has(st3d.SquareCell(sq))
		s.closed.Remove(st3d.SquareCell(sq))
	}
	return nil
}

// PlaceBoard puts the board in the air on pin; its pieces ride along,
// square for square in Pin.Squares() order (z2QL3 -> z4QL5).
func (s *Set) PlaceBoard(pin string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := st3d.ParsePin(pin)
	if err != nil {
		return fmt.Errorf("sim: place board %s: not a pin", pin)
	}
	if !s.inAir {
		return fmt.Errorf("sim: place board %s: no board in the air", pin)
	}
	if s.closed.Has(st3d.PinCell(p)) {
		return fmt.Errorf("sim: place board %s: pin taken", pin)
	}
	s.inAir = false
	s.closed.Add(st3d.PinCell(p))
	for i, sq := range p.Squares() {
		s.closed.Set(st3d.SquareCell(sq), s.air[i])
	}
	return nil
}

// MoveBoard lifts the board on from and places it on to.
func (s *Set) MoveBoard(from, to string) error {
	if err := s.LiftBoard(from); err != nil {
		return err
	}
	if err := s.PlaceBoard(to); err != nil {
		_ = s.PlaceBoard(from)
		return err
	}
	return nil
}

// Press closes a button cell (full name, "button:promote").
func (s *Set) Press(button string) error { return s.button(button, true) }

// Release opens a button cell.
func (s *Set) Release(button string) error { return s.button(button, false) }

func (s *Set) button(name string, down bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.index[name]
	if !ok || !strings.HasPrefix(name, sensors.ButtonPrefix) {
		return fmt.Errorf("sim: no button %q", name)
	}
	s.closed.Set(c, down)
	return nil
}

// SetCell forces the switch of any cell closed or open, whatever stands
// there (a stuck or shorted switch, or a position built by hand).
func (s *Set) SetCell(name string, closed bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.index[name]
	if !ok {
		return fmt.Errorf("sim: no cell %q", name)
	}
	s.closed.Set(c, closed)
	return nil
}

// Bounce starts a bounce train on a cell: from the clock's time, at each
// offset of edges the switch toggles, so it reads the opposite of the cell's
// state between edges[0] and edges[1], edges[2] and edges[3], ... The
// number of edges must be even (the switch ends where the cell is) and the
// offsets increasing. Call it right after Place or Lift for a realistic
// make or break: Place("b2W"); Bounce("b2W", 0, 300*µs, 500*µs, 900*µs).
func (s *Set) Bounce(cell string, edges ...time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.index[cell]
	if !ok {
		return fmt.Errorf("sim: bounce %s: no such cell", cell)
	}
	if len(edges)%2 != 0 {
		return fmt.Errorf("sim: bounce %s: odd number of edges (%d)", cell, len(edges))
	}
	now := s.clock.Now()
	b := bounce{cell: c, edges: make([]time.Time, len(edges))}
	for i, d := range edges {
		if d < 0 || i > 0 && d <= edges[i-1] {
			return fmt.Errorf("sim: bounce %s: edges must be increasing offsets from now", cell)
		}
		b.edges[i] = now.Add(d)
	}
	s.bounces = append(s.bounces, b)
	return nil
}

// expanderPins drives one expander's pins from the set through its wiring.
type expanderPins struct {
	set    *Set
	matrix bool
	wires  []pinWire
}

type pinWire struct {
	cell   rules.Cell
	bit    uint8 // direct: pin; matrix: row
	colPin uint8 // matrix: 8+col
}

// Pins returns the Pins of the expander e of a wiring: a closed cell pulls
// its pin low (Direct) or its column low while its row is driven low
// (Matrix). Wires naming cells the set does not know are left open.
func (s *Set) Pins(e *sensors.Expander) Pins {
	p := &expanderPins{set: s, matrix: e.Mode == sensors.Matrix}
	for _, w := range e.Cells {
		c, ok := s.index[w.Cell]
		if !ok {
			continue
		}
		if p.matrix {
			p.wires = append(p.wires, pinWire{cell: c, bit: uint8(w.Row), colPin: uint8(8 + w.Col)})
		} else {
			p.wires = append(p.wires, pinWire{cell: c, bit: uint8(w.Bit)})
		}
	}
	return p
}

// PulledLow implements Pins.
func (p *expanderPins) PulledLow(drivenLow uint16) uint16 {
	s := p.set
	s.mu.Lock()
	r := s.closed
	if len(s.bounces) > 0 {
		r = s.readingLocked(s.clock.Now())
	}
	s.mu.Unlock()
	var out uint16
	for _, w := range p.wires {
		if !r.Has(w.cell) {
			continue
		}
		if !p.matrix {
			out |= 1 << w.bit
		} else if drivenLow&(1<<w.bit) != 0 {
			out |= 1 << w.colPin
		}
	}
	return out
}
