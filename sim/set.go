package sim

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/sensors"
)

// Set is a physical set of a game system: which squares hold a piece, which
// sockets (ST3D pins, First Contact platform positions) hold a board or
// platform, which buttons are pressed, and the contact bounce in progress.
// Its cells are the system's cells (rules.System.Cells()) followed by the
// buttons it was made with; the switch of a cell reads closed while the cell
// is occupied (or the button pressed), bounce aside. It is safe for
// concurrent use.
//
// Which squares a board carries is the system's geometry's (rules/systems:
// Geo.Socket): a square on a socket ("z2QL3" on the pin "QL3", "a2QL3u" on
// the position "QL3u") stands on the board or platform of that socket, and
// can hold a piece only while the socket is closed. A board carries its squares in the order of the
// cell list (z0 a0 z1 a1: rank by rank, as the rules list them): moved to
// another socket, square i lands on square i there (the translation of D14);
// turned half round, on square 3-i (V.A2: z0 <-> a1, a0 <-> z1).
type Set struct {
	mu     sync.Mutex
	clock  *TimeSource
	sys    rules.System
	names  []string
	index  map[string]rules.Cell
	start  rules.CellSet
	closed rules.CellSet
	// socketOf is the socket whose board carries each cell, or NoCell;
	// carried lists each socket's squares (nil for other cells).
	socketOf []rules.Cell
	carried  [][]rules.Cell
	// air holds the pieces of the board in the air (lifted off airFrom).
	air     []bool
	airFrom rules.Cell
	inAir   bool
	bounces []bounce
	// stuck cells read closed whatever stands on them (a reed switch
	// stuck shut, a wire shorted to ground).
	stuck rules.CellSet
	// watchers are told of each change of a button (the expanders' chips
	// latch a press between two reads: MCP23017's interrupt-on-change).
	watchers []func()
}

// bounce is a train of edges on one cell: the cell reads inverted between
// edges 0 and 1, 2 and 3, ...
type bounce struct {
	cell  rules.Cell
	edges []time.Time
}

// NewSet returns an empty set of the default system (rules/systems: ST3D;
// no piece, no board) whose bounce runs on clock; buttons are extra cells
// (full names, with sensors.ButtonPrefix). Start puts it in the start
// position.
func NewSet(clock *TimeSource, buttons ...string) *Set {
	return NewSetFor(systems.Default(), clock, buttons...)
}

// NewSetFor returns an empty set of the system sys (no piece, no board),
// whose bounce runs on clock; buttons are extra cells (full names, with
// sensors.ButtonPrefix). Start puts it in sys's start position.
func NewSetFor(sys rules.System, clock *TimeSource, buttons ...string) *Set {
	s := &Set{clock: clock, sys: sys, index: map[string]rules.Cell{}, airFrom: rules.NoCell}
	cells := sys.Cells()
	s.names = append(append([]string(nil), cells...), buttons...)
	for i, n := range s.names {
		s.index[n] = rules.Cell(i)
	}
	s.socketOf = make([]rules.Cell, len(s.names))
	s.carried = make([][]rules.Cell, len(s.names))
	for i := range s.socketOf {
		s.socketOf[i] = rules.NoCell
	}
	if geo, err := systems.GeometryOf(sys); err == nil {
		for i, g := range geo.Cells {
			if sock, ok := s.index[g.Socket]; ok && g.Socket != "" && int(sock) < len(cells) {
				s.socketOf[i] = sock
				s.carried[sock] = append(s.carried[sock], rules.Cell(i))
			}
		}
	}
	s.start = sys.Start().Occupancy()
	return s
}

// StartCells are the closed cells of the ST3D start position.
var StartCells = strings.Fields(`
	z0QL1 a0QL1 z1QL1 a1QL1 d0KL1 e0KL1 d1KL1 e1KL1
	a1W b1W c1W d1W a2W b2W c2W d2W
	a7B b7B c7B d7B a8B b8B c8B d8B
	z8QL6 a8QL6 z9QL6 a9QL6 d8KL6 e8KL6 d9KL6 e9KL6
	QL1 QL6 KL1 KL6`)

// System is the game system whose set this is.
func (s *Set) System() rules.System { return s.sys }

// Start puts the set in its system's start position (and ends any bounce;
// a board in the air is put away).
func (s *Set) Start() { s.SetUp(s.start) }

// SetUp puts the set in the position whose occupancy is cells (as a
// position's Occupancy() gives it), buttons released, no bounce, no board
// in the air.
func (s *Set) SetUp(cells rules.CellSet) {
	defer s.changed() // the buttons are released
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = rules.CellSet{}
	for _, c := range cells.Cells(nil) {
		if int(c) < len(s.sys.Cells()) {
			s.closed.Add(c)
		}
	}
	s.inAir, s.airFrom = false, rules.NoCell
	s.bounces = nil
}

// Cells lists the set's cells: the system's cells, then the buttons.
func (s *Set) Cells() []string { return s.names }

// Cell finds a cell by name.
func (s *Set) Cell(name string) (rules.Cell, bool) {
	c, ok := s.index[name]
	return c, ok
}

// IsSocket reports whether the cell called name is a socket: a pin or
// platform position that a board or platform stands on.
func (s *Set) IsSocket(name string) bool {
	c, ok := s.index[name]
	return ok && s.carried[c] != nil
}

// InAir is the socket the board in the air was lifted off, and whether one
// is in the air.
func (s *Set) InAir() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.inAir {
		return "", false
	}
	return s.names[s.airFrom], true
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
	c, ok := s.index[name]
	if !ok || int(c) >= len(s.sys.Cells()) || s.carried[c] != nil {
		return 0, fmt.Errorf("sim: %s %s: not a square", op, name)
	}
	if sock := s.socketOf[c]; sock != rules.NoCell && !s.closed.Has(sock) {
		return 0, fmt.Errorf("sim: %s %s: no board on %s", op, name, s.names[sock])
	}
	return c, nil
}

// socket resolves a socket name.
func (s *Set) socket(op, name string) (rules.Cell, error) {
	c, ok := s.index[name]
	if !ok || s.carried[c] == nil {
		return 0, fmt.Errorf("sim: %s %s: not a pin", op, name)
	}
	return c, nil
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

// Place puts a piece on an empty square (one from off the set, or the one
// in the hand: the set does not tell them apart).
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

// LiftBoard lifts the board (or platform) off a socket with its pieces: the
// socket's presence switch and its squares read open while it is in the
// air. One board can be in the air at a time.
func (s *Set) LiftBoard(pin string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.socket("lift board", pin)
	if err != nil {
		return err
	}
	if s.inAir {
		return fmt.Errorf("sim: lift board %s: the board of %s is still in the air", pin, s.names[s.airFrom])
	}
	if !s.closed.Has(p) {
		return fmt.Errorf("sim: lift board %s: no board there", pin)
	}
	s.inAir, s.airFrom = true, p
	s.closed.Remove(p)
	s.air = s.air[:0]
	for _, sq := range s.carried[p] {
		s.air = append(s.air, s.closed.Has(sq))
		s.closed.Remove(sq)
	}
	return nil
}

// PlaceBoard puts the board in the air on a socket; its pieces ride along,
// square for square in cell-list order (z2QL3 -> z4QL5).
func (s *Set) PlaceBoard(pin string) error { return s.placeBoard("place board", pin, false) }

// PlaceBoardTurned puts the board in the air on a socket turned half round
// (V.A2): each piece lands on the diagonally opposite square (z0QL1 <->
// a1QL1, a0QL1 <-> z1QL1).
func (s *Set) PlaceBoardTurned(pin string) error {
	return s.placeBoard("place board turned", pin, true)
}

func (s *Set) placeBoard(op, pin string, turned bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.socket(op, pin)
	if err != nil {
		return err
	}
	if !s.inAir {
		return fmt.Errorf("sim: %s %s: no board in the air", op, pin)
	}
	if s.closed.Has(p) {
		return fmt.Errorf("sim: %s %s: pin taken", op, pin)
	}
	sq := s.carried[p]
	if len(sq) != len(s.air) {
		return fmt.Errorf("sim: %s %s: the board of %s has %d squares, the pin %d", op, pin, s.names[s.airFrom], len(s.air), len(sq))
	}
	s.inAir = false
	s.closed.Add(p)
	for i, c := range sq {
		j := i
		if turned {
			j = len(sq) - 1 - i
		}
		s.closed.Set(c, s.air[j])
	}
	return nil
}

// PlaceSpare puts a spare empty board (or platform) from off the set on a
// free socket: V.A3's promotion to a board, First Contact's platform
// placements.
func (s *Set) PlaceSpare(pin string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.socket("place spare board", pin)
	if err != nil {
		return err
	}
	if s.closed.Has(p) {
		return fmt.Errorf("sim: place spare board %s: pin taken", pin)
	}
	s.closed.Add(p)
	for _, c := range s.carried[p] {
		s.closed.Remove(c)
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
	c, ok := s.index[name]
	if !ok || !strings.HasPrefix(name, sensors.ButtonPrefix) {
		s.mu.Unlock()
		return fmt.Errorf("sim: no button %q", name)
	}
	s.closed.Set(c, down)
	s.mu.Unlock()
	s.changed()
	return nil
}

// changed tells the watchers that the switches changed; call it without
// s.mu held (a watcher reads the pins).
func (s *Set) changed() {
	s.mu.Lock()
	ws := s.watchers
	s.mu.Unlock()
	for _, f := range ws {
		f()
	}
}

// SetCell forces the switch of any cell closed or open, whatever stands
// there (a stuck or shorted switch, or a position built by hand).
func (s *Set) SetCell(name string, closed bool) error {
	s.mu.Lock()
	c, ok := s.index[name]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("sim: no cell %q", name)
	}
	s.closed.Set(c, closed)
	s.mu.Unlock()
	s.changed()
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
	wires  []pinWire    // direct
	rows   [8][]pinWire // matrix, by row
}

type pinWire struct {
	cell rules.Cell
	bit  uint8 // direct: pin; matrix: 8+col
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
			if w.Row >= 0 && w.Row < 8 {
				p.rows[w.Row] = append(p.rows[w.Row], pinWire{cell: c, bit: uint8(8 + w.Col)})
			}
		} else {
			p.wires = append(p.wires, pinWire{cell: c, bit: uint8(w.Bit)})
		}
	}
	return p
}

// Stick makes the switch of the cell called name read closed from now on,
// whatever stands on it: a reed switch stuck shut, for rehearsing faults.
func (s *Set) Stick(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.index[name]
	if !ok {
		return fmt.Errorf("sim: stick %s: no such cell", name)
	}
	s.stuck.Add(c)
	return nil
}

// watch has changed called after each change of the set's buttons (the
// chip's interrupt-on-change samples its pins then).
func (p *expanderPins) watch(changed func()) {
	p.set.mu.Lock()
	p.set.watchers = append(p.set.watchers, changed)
	p.set.mu.Unlock()
}

// PulledLow implements Pins.
func (p *expanderPins) PulledLow(drivenLow uint16) uint16 {
	s := p.set
	s.mu.Lock()
	r := s.closed
	if len(s.bounces) > 0 {
		r = s.readingLocked(s.clock.Now())
	}
	r = r.Union(s.stuck)
	s.mu.Unlock()
	var out uint16
	if !p.matrix {
		for _, w := range p.wires {
			if r.Has(w.cell) {
				out |= 1 << w.bit
			}
		}
		return out
	}
	for row := range p.rows {
		if drivenLow&(1<<row) == 0 {
			continue
		}
		for _, w := range p.rows[row] {
			if r.Has(w.cell) {
				out |= 1 << w.bit
			}
		}
	}
	return out
}
