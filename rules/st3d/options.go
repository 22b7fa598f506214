package st3d

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/tridboard/tridboard/rules"
)

// Meder's variant options (docs/rules.md), played on top of the tournament
// rules. A game names its options; the plain System stays exactly the
// tournament rules, and NewSystem makes a System whose positions carry the
// options. The move generator looks at one field (optState.flags) once per
// node: it is zero for tournament positions, which therefore take the
// tournament path unchanged.

// Setup is the setup option of a game (docs/rules.md, "Setups").
type Setup uint8

// Setups.
const (
	SetupTournament Setup = iota // the ordinary ST3D setup
	SetupTrylch                  // V.P1: bishops and knights exchanged
	SetupSmith                   // V.P2: king and queen to the centre, no castling
	SetupWurmser                 // V.P3: a custom setup (a position string)
	SetupCustom                  // V.P4: a custom setup (a position string)
	Setup960                     // V.P5: 3D Chess960 by number
	SetupFree                    // V.P6: free placement
)

var setupNames = [...]string{"", "V.P1", "V.P2", "V.P3", "V.P4", "V.P5", "V.P6"}

// RandomNumber as Options.Number asks NewSystem to draw a V.P5 setup.
const RandomNumber = -1

// Unlimited as Options.MaxBoards: the rules do not limit the number of
// boards (V.A3); only the twelve pins do.
const Unlimited = 0

// Options are the variant options of a game. The zero value is the
// tournament rules.
type Options struct {
	Peters         bool // V.A1: occupied boards forward or sideways, empty ones backward or sideways
	Rotate         bool // V.A2: a board holding one piece may be turned
	TwoSquares     bool // V.A2.1: boards move exactly two ranks, never sideways (V1)
	BoardPromotion bool // V.A3: promotion to an attack board on a1, d1, a8, d8
	Neutral        bool // V.A4: neutral boards on KL3 and QL4
	Dayson         bool // V.A5: own boards only, one main board up or down
	// MaxBoards limits V.A3's promotions to a board to what a physical set
	// has: an =A promotion is offered only while fewer boards stand than
	// MaxBoards. The rules set no limit (Unlimited, the default): perft,
	// moves and replay play the rules, and a daemon sets the number of its
	// set's boards from its configuration (V.A3:N in the options string).
	MaxBoards int
	Setup     Setup
	// Number is the V.P5 setup, 0..959, or RandomNumber.
	Number int
}

// Behaviour switches kept in every position (optState.flags).
const (
	optA1 uint16 = 1 << iota
	optA2
	optA21
	optA3
	optA4
	optA5
	opt960   // V.P5, V.P6: castling by V.P5.3, rights by rook home (V6)
	optPlace // V.P6: the placement phase
)

// optState is what a position keeps of its options. All zero under the
// tournament rules.
type optState struct {
	flags  uint16
	setup  Setup
	boards uint8 // V.A3 maximum of a physical set, or Unlimited
	number int16 // V.P5 number
	// neutral marks the pins whose board is neutral and not yet claimed (V.A4).
	neutral uint16
	// rook is the home square of the rook of each 960 castling right (bit
	// index as castleWK..castleBQ); meaningful while the right is held.
	rook [4]Square
}

func (o Options) flags() uint16 {
	var f uint16
	for _, b := range []struct {
		on  bool
		bit uint16
	}{{o.Peters, optA1}, {o.Rotate, optA2}, {o.TwoSquares, optA21}, {o.BoardPromotion, optA3},
		{o.Neutral, optA4}, {o.Dayson, optA5}, {o.Setup == Setup960 || o.Setup == SetupFree, opt960},
		{o.Setup == SetupFree, optPlace}} {
		if b.on {
			f |= b.bit
		}
	}
	return f
}

func (o Options) state() optState {
	s := optState{flags: o.flags(), setup: o.Setup}
	if o.BoardPromotion {
		s.boards = uint8(o.MaxBoards)
	}
	if o.Setup == Setup960 {
		s.number = int16(o.Number)
	}
	return s
}

// options rebuilds the options a position is played under.
func (s optState) options() Options {
	o := Options{
		Peters: s.flags&optA1 != 0, Rotate: s.flags&optA2 != 0, TwoSquares: s.flags&optA21 != 0,
		BoardPromotion: s.flags&optA3 != 0, Neutral: s.flags&optA4 != 0, Dayson: s.flags&optA5 != 0,
		Setup: s.setup,
	}
	if o.BoardPromotion {
		o.MaxBoards = int(s.boards)
	}
	if o.Setup == Setup960 {
		o.Number = int(s.number)
	}
	return o
}

// Validate checks the options as docs/rules.md combines them.
func (o Options) Validate() error {
	if o.Peters && o.Dayson {
		return errors.New("V.A1 and V.A5 cannot be combined: both replace the direction rule (V3)")
	}
	if o.MaxBoards != 0 && !o.BoardPromotion {
		return errors.New("a board count (V.A3:N) belongs to V.A3")
	}
	if o.MaxBoards != 0 && (o.MaxBoards < 4 || o.MaxBoards > NumPins) {
		return fmt.Errorf("V.A3:%d: a set has 4 to %d boards", o.MaxBoards, NumPins)
	}
	if o.Setup > SetupFree {
		return fmt.Errorf("unknown setup %d", o.Setup)
	}
	if o.Setup == Setup960 && (o.Number < RandomNumber || o.Number > 959) {
		return fmt.Errorf("V.P5:%d: the setups are numbered 0-959", o.Number)
	}
	if o.Setup != Setup960 && o.Number != 0 {
		return errors.New("a setup number belongs to V.P5")
	}
	return nil
}

// String lists the options in ParseOptions' form and canonical order:
// "V.A1,V.A2,V.A3:8,V.P5:409"; "" for the tournament rules.
func (o Options) String() string {
	var out []string
	add := func(on bool, s string) {
		if on {
			out = append(out, s)
		}
	}
	add(o.Peters, "V.A1")
	add(o.Rotate, "V.A2")
	add(o.TwoSquares, "V.A2.1")
	if o.BoardPromotion {
		if o.MaxBoards != Unlimited {
			out = append(out, "V.A3:"+strconv.Itoa(o.MaxBoards))
		} else {
			out = append(out, "V.A3")
		}
	}
	add(o.Neutral, "V.A4")
	add(o.Dayson, "V.A5")
	switch o.Setup {
	case SetupTournament:
	case Setup960:
		if o.Number == RandomNumber {
			out = append(out, "V.P5:random")
		} else {
			out = append(out, "V.P5:"+strconv.Itoa(o.Number))
		}
	default:
		if int(o.Setup) < len(setupNames) {
			out = append(out, setupNames[o.Setup])
		}
	}
	return strings.Join(out, ",")
}

// ParseOptions reads a comma-separated list of variant options: V.A1,
// V.A2, V.A2.1, V.A3 (V.A3:N for a set with N boards), V.A4, V.A5, and one
// setup of V.P1, V.P2, V.P3, V.P4 (custom setups: the game starts from a
// position string), V.P5:N (3D Chess960 number N, 0-959; V.P5 or
// V.P5:random draws one) and V.P6. "" is the tournament rules. The "V."
// may be left out; letters may be in either case. Refused, with the
// reason: V.A2.2 and V.M1 (not offered), V.A1 with V.A5 (V3), two setups,
// an option named twice.
func ParseOptions(s string) (Options, error) {
	var o Options
	if strings.TrimSpace(s) == "" {
		return o, nil
	}
	seen := map[string]bool{}
	for _, raw := range strings.Split(s, ",") {
		tok := strings.ToUpper(strings.TrimSpace(raw))
		if !strings.HasPrefix(tok, "V.") {
			tok = "V." + tok
		}
		name, arg, hasArg := strings.Cut(tok, ":")
		if seen[name] {
			return Options{}, fmt.Errorf("option %s named twice", name)
		}
		seen[name] = true
		noArg := func() error {
			if hasArg {
				return fmt.Errorf("option %s takes no argument", name)
			}
			return nil
		}
		setup := func(st Setup) error {
			if o.Setup != SetupTournament {
				return fmt.Errorf("%s: a game has one setup, and %s is already chosen", name, setupNames[o.Setup])
			}
			o.Setup = st
			return nil
		}
		var err error
		switch name {
		case "V.A1":
			o.Peters, err = true, noArg()
		case "V.A2":
			o.Rotate, err = true, noArg()
		case "V.A2.1":
			o.TwoSquares, err = true, noArg()
		case "V.A2.2":
			err = errors.New("V.A2.2 (upside-down boards) is not offered: the source says it has no effect under the tournament rules")
		case "V.A3":
			o.BoardPromotion = true
			if hasArg {
				n, e := strconv.Atoi(arg)
				if e != nil || n < 4 || n > NumPins {
					err = fmt.Errorf("V.A3:%s: want the number of boards of the set, 4 to %d", arg, NumPins)
				}
				o.MaxBoards = n
			}
		case "V.A4":
			o.Neutral, err = true, noArg()
		case "V.A5":
			o.Dayson, err = true, noArg()
		case "V.M1":
			err = errors.New("V.M1 (real 3D movement) is not offered: the source gives no rules for it")
		case "V.P1", "V.P2", "V.P3", "V.P4", "V.P6":
			if err = noArg(); err == nil {
				err = setup(Setup(strings.Index("123456", name[3:]) + 1))
			}
		case "V.P5":
			if err = setup(Setup960); err != nil {
				break
			}
			o.Number = RandomNumber
			if hasArg && arg != "RANDOM" {
				n, e := strconv.Atoi(arg)
				if e != nil || n < 0 || n > 959 || strconv.Itoa(n) != arg {
					err = fmt.Errorf("V.P5:%s: want a setup number 0-959 or random", arg)
				}
				o.Number = n
			}
		default:
			err = fmt.Errorf("unknown option %q (want V.A1, V.A2, V.A2.1, V.A3, V.A4, V.A5, V.P1 ... V.P6)", strings.TrimSpace(raw))
		}
		if err != nil {
			return Options{}, fmt.Errorf("st3d options: %w", err)
		}
	}
	if err := o.Validate(); err != nil {
		return Options{}, fmt.Errorf("st3d options: %w", err)
	}
	return o, nil
}

// optSystem is ST3D under a set of options.
type optSystem struct {
	*rules.SystemOf[Position, *Position]
	o     Options
	start Position
}

var systemCache sync.Map // Options -> *optSystem

// NewSystem returns the rules with the options o. Without options it is
// System itself (the tournament rules). A random V.P5 number is drawn
// here, so the System's name says which setup its start position has.
func NewSystem(o Options) (rules.System, error) {
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("st3d options: %w", err)
	}
	if o.Setup == Setup960 && o.Number == RandomNumber {
		o.Number = rand.IntN(960)
	}
	if o == (Options{}) {
		return System, nil
	}
	return optSystemOf(o)
}

func optSystemOf(o Options) (*optSystem, error) {
	if s, ok := systemCache.Load(o); ok {
		return s.(*optSystem), nil
	}
	st, err := startString(o)
	if err != nil {
		return nil, err
	}
	sys := &optSystem{o: o}
	sys.SystemOf = rules.NewSystem("st3d+"+o.String(), CellNames,
		func() Position { return sys.start },
		func(s string) (Position, error) { return ParseWith(s, o) })
	if sys.start, err = ParseWith(st, o); err != nil {
		return nil, fmt.Errorf("st3d options %s: start position: %w", o, err)
	}
	s, _ := systemCache.LoadOrStore(o, sys)
	return s.(*optSystem), nil
}

// Options returns the options of the system.
func (s *optSystem) Options() Options { return s.o }

// StartWith returns the start position under the options o (a V.P5 number
// must be given, not RandomNumber). V.P3 and V.P4 are custom setups: their
// start here is the ordinary one, and a game starts from a position string.
func StartWith(o Options) (Position, error) {
	if o.Setup == Setup960 && o.Number == RandomNumber {
		return Position{}, errors.New("st3d: StartWith needs a V.P5 number; NewSystem draws one")
	}
	if err := o.Validate(); err != nil {
		return Position{}, fmt.Errorf("st3d options: %w", err)
	}
	if o == (Options{}) {
		return startPos, nil
	}
	s, err := optSystemOf(o)
	if err != nil {
		return Position{}, err
	}
	return s.start, nil
}

// ParseWith reads a position string of a game under the options o: boards
// may be neutral (`KL3:n`, V.A4), and in V.P5 and V.P6 games the castling
// field names the rooks' home squares (V6).
func ParseWith(s string, o Options) (Position, error) {
	if err := o.Validate(); err != nil {
		return Position{}, fmt.Errorf("st3d options: %w", err)
	}
	if o.Setup == Setup960 && o.Number == RandomNumber {
		o.Number = 0 // the number names the start only
	}
	var p Position
	p.opt = o.state()
	if err := p.parse(s); err != nil {
		return Position{}, fmt.Errorf("st3d: position string: %w", err)
	}
	return p, nil
}

// Options returns the options the position is played under.
func (p *Position) Options() Options { return p.opt.options() }

// startString writes the start position of the options o.
func startString(o Options) (string, error) {
	boards := "QL1:w,QL6:b,KL1:w,KL6:b"
	if o.Neutral {
		boards = "QL1:w,QL4:n,QL6:b,KL1:w,KL3:n,KL6:b"
	}
	const pawns = "Pz1QL1,Pa1QL1,Pa2W,Pb2W,Pc2W,Pd2W,Pd1KL1,Pe1KL1,pz8QL6,pa8QL6,pa7B,pb7B,pc7B,pd7B,pd8KL6,pe8KL6"
	const ds = "a2W,b2W,c2W,d2W,a7B,b7B,c7B,d7B,z1QL1,a1QL1,z8QL6,a8QL6,d1KL1,e1KL1,d8KL6,e8KL6"
	var rank string
	castling := "KQkq"
	switch o.Setup {
	case SetupTournament, SetupWurmser, SetupCustom:
		rank = "RQNBBNKR"
	case SetupTrylch:
		rank = "RQBNNBKR"
	case SetupSmith:
		rank, castling = "RBNQKNBR", "-"
	case Setup960:
		rank = Chess960(o.Number)
	case SetupFree:
		return boards + " " + pawns + " w - - " + ds + " 0 1", nil
	}
	var pieces []string
	for i, c := range rank {
		pieces = append(pieces, string(c)+virtualRank[rules.White][i].String(),
			strings.ToLower(string(c))+virtualRank[rules.Black][i].String())
	}
	return boards + " " + strings.Join(pieces, ",") + "," + pawns + " w " + castling + " - " + ds + " 0 1", nil
}
