package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Bonus is what a period gives per move: nothing, a Fischer increment, or
// one of the two delays.
type Bonus uint8

// Bonuses.
const (
	// NoBonus: sudden death, the clock counts down from the first instant.
	NoBonus Bonus = iota
	// Increment (Fischer, "180+2"): the amount is added after each move.
	Increment
	// Delay (simple or US delay, "300d3"): each turn the clock waits the
	// amount before it counts down.
	Delay
	// Bronstein delay ("300b3"): the clock counts down at once; after the
	// move the time used is given back, up to the amount. It never adds more
	// than the move took.
	Bronstein
)

// letters of the bonuses in a control string, indexed by Bonus.
const bonusLetters = " +db"

func (b Bonus) String() string {
	switch b {
	case NoBonus:
		return "none"
	case Increment:
		return "increment"
	case Delay:
		return "delay"
	case Bronstein:
		return "bronstein"
	}
	return fmt.Sprintf("Bonus(%d)", uint8(b))
}

// Period is one period of a time control.
type Period struct {
	// Moves is the number of moves each side makes in the period; 0 means
	// the rest of the game (then the period is the last one). When the last
	// period has a move count it repeats: "40/7200" adds two hours every 40
	// moves.
	Moves int
	// Time is added to a side's clock when it enters the period (the
	// first period's Time is the time at the start).
	Time time.Duration
	// Bonus and Amount are what each move of the period gives.
	Bonus  Bonus
	Amount time.Duration
}

// Control is a time control: its periods in order. The zero Control (no
// periods) is no clock at all.
type Control struct {
	Periods []Period
}

// None reports whether c is no time control.
func (c Control) None() bool { return len(c.Periods) == 0 }

// Equal reports whether c and d are the same control.
func (c Control) Equal(d Control) bool {
	if len(c.Periods) != len(d.Periods) {
		return false
	}
	for i := range c.Periods {
		if c.Periods[i] != d.Periods[i] {
			return false
		}
	}
	return true
}

// Initial is each side's time at the start: the first period's Time.
func (c Control) Initial() time.Duration {
	if c.None() {
		return 0
	}
	return c.Periods[0].Time
}

// HasMoves reports whether some period counts moves (then the snapshot
// carries each side's period and moves to go).
func (c Control) HasMoves() bool {
	return len(c.Periods) > 0 && c.Periods[0].Moves > 0
}

// Limits of a control string, so that no sum of times overflows and no
// typing slip becomes a month-long clock.
const (
	maxSeconds = 100 * 3600 // a period's time: 100 hours
	maxAmount  = 3600       // an increment or delay: one hour
	maxMoves   = 1000       // moves of a period
	maxPeriods = 8
)

// Parse reads a time control as PGN's TimeControl tag writes it, with two
// delays added:
//
//	""  or "-"            no clock
//	300                   sudden death: 300 s for the game
//	180+2                 Fischer increment: 180 s, 2 s added after each move
//	300d3                 simple (US) delay of 3 s each move
//	300b3                 Bronstein delay of 3 s each move
//	40/5400+30:1800+30    periods: 40 moves in 5400 s, then 1800 s for the
//	                      rest; 30 s increment in both
//
// Periods are separated by ':'; each is [moves/]seconds[+inc|dN|bN]. A
// period without a move count is the rest of the game and must be the last.
// Times are whole seconds. "+0" is sudden death ("180+0" reads as "180").
// PGN's "?" (unknown) and "*N" (sandclock) are refused. The error names
// the offending part.
func Parse(s string) (Control, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "-" {
		return Control{}, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) > maxPeriods {
		return Control{}, fmt.Errorf("clock: time control %q: %d periods, at most %d", s, len(parts), maxPeriods)
	}
	var c Control
	for i, part := range parts {
		p, err := parsePeriod(part)
		if err == nil && p.Moves == 0 && i < len(parts)-1 {
			err = errors.New("a period without a move count is the rest of the game: it must be the last")
		}
		if err != nil {
			if len(parts) == 1 {
				return Control{}, fmt.Errorf("clock: time control %q: %w", s, err)
			}
			return Control{}, fmt.Errorf("clock: time control %q: period %d %q: %w", s, i+1, part, err)
		}
		c.Periods = append(c.Periods, p)
	}
	return c, nil
}

// MustParse is Parse for controls known to be good (tests, examples); it
// panics on an error.
func MustParse(s string) Control {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

func parsePeriod(s string) (Period, error) {
	var p Period
	switch {
	case s == "":
		return p, errors.New("empty period")
	case s == "?":
		return p, errors.New(`"?" (unknown) is not a control a clock can run`)
	case s[0] == '*':
		return p, errors.New("sandclock controls (*N) are not supported")
	}
	rest := s
	if moves, after, ok := strings.Cut(rest, "/"); ok {
		n, err := number(moves, "move count", 1, maxMoves)
		if err != nil {
			return p, err
		}
		p.Moves, rest = n, after
	}
	secs, bonus := rest, ""
	if i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && strings.IndexByte("+db", rest[i]) >= 0 {
		secs, bonus = rest[:i], rest[i:]
	}
	n, err := number(secs, "seconds", 1, maxSeconds)
	if err != nil {
		return p, err
	}
	p.Time = time.Duration(n) * time.Second
	if bonus == "" {
		return p, nil
	}
	kind := Bonus(strings.IndexByte(bonusLetters, bonus[0]))
	n, err = number(bonus[1:], kind.String(), 0, maxAmount)
	if err != nil {
		return p, err
	}
	if n > 0 {
		p.Bonus, p.Amount = kind, time.Duration(n)*time.Second
	}
	return p, nil
}

// number reads a decimal count of what (digits only) within lo..hi.
func number(s, what string, lo, hi int) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("%s missing", what)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%s %q: not a whole number", what, s)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s %q: want %d..%d", what, s, lo, hi)
	}
	return n, nil
}

// String writes c as Parse reads it: "-" for no clock.
func (c Control) String() string {
	if c.None() {
		return "-"
	}
	var b strings.Builder
	for i, p := range c.Periods {
		if i > 0 {
			b.WriteByte(':')
		}
		if p.Moves > 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		b.WriteString(strconv.FormatInt(int64(p.Time/time.Second), 10))
		if p.Bonus != NoBonus && int(p.Bonus) < len(bonusLetters) {
			b.WriteByte(bonusLetters[p.Bonus])
			b.WriteString(strconv.FormatInt(int64(p.Amount/time.Second), 10))
		}
	}
	return b.String()
}

// Check reports whether c could have come from Parse: whole seconds within
// the limits, the bonus known, only the last period without a move count.
// A Control built by hand should pass it before it runs a clock.
func (c Control) Check() error {
	if len(c.Periods) > maxPeriods {
		return fmt.Errorf("clock: time control: %d periods, at most %d", len(c.Periods), maxPeriods)
	}
	for i, p := range c.Periods {
		var err error
		switch {
		case p.Moves < 0 || p.Moves > maxMoves:
			err = fmt.Errorf("move count %d: want 0..%d", p.Moves, maxMoves)
		case p.Moves == 0 && i < len(c.Periods)-1:
			err = errors.New("a period without a move count must be the last")
		case p.Time < time.Second || p.Time > maxSeconds*time.Second || p.Time%time.Second != 0:
			err = fmt.Errorf("time %v: want whole seconds, 1s..%ds", p.Time, maxSeconds)
		case p.Bonus > Bronstein:
			err = fmt.Errorf("unknown bonus %d", p.Bonus)
		case p.Bonus == NoBonus && p.Amount != 0:
			err = fmt.Errorf("amount %v without a bonus", p.Amount)
		case p.Bonus != NoBonus && (p.Amount < time.Second || p.Amount > maxAmount*time.Second || p.Amount%time.Second != 0):
			err = fmt.Errorf("%s %v: want whole seconds, 1s..%ds", p.Bonus, p.Amount, maxAmount)
		}
		if err != nil {
			return fmt.Errorf("clock: time control period %d: %w", i+1, err)
		}
	}
	return nil
}

// MarshalText writes String, so a Control is a string in JSON and YAML.
func (c Control) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a control with Parse.
func (c *Control) UnmarshalText(b []byte) error {
	d, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = d
	return nil
}

// period locates the period a side is in after it made moves moves: the
// index into c.Periods and the moves it already made in that period. The
// last period repeats when it counts moves.
func (c Control) period(moves int) (index, inPeriod int) {
	for i, p := range c.Periods {
		last := i == len(c.Periods)-1
		switch {
		case p.Moves == 0:
			return i, moves
		case last:
			return i, moves % p.Moves
		case moves < p.Moves:
			return i, moves
		}
		moves -= p.Moves
	}
	return 0, moves // no periods
}
