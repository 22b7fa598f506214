package clock

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/rules"
)

// Snapshot is the clock as displays see it, and as the retained MQTT state
// carries it ("clock"):
//
//	{"control":"180+2","white_ms":171234,"black_ms":180000,"running":"white",
//	 "at":"2026-12-01T10:00:00.123Z"}
//
// WhiteMS and BlackMS are the times at At (RFC 3339, UTC, milliseconds).
// Running names the side whose turn it is (absent before the start, once a
// flag fell and once the game is over); its clock counts down from At
// unless Paused, after DelayMS under a simple delay: Remaining computes it,
// so a display never drifts however late it got the snapshot. Stopped says
// that the game is over and the clock stopped for good: the times are the
// final ones, and neither Running nor Paused is given. Flag names the side
// whose flag fell (its time is 0). Low names the side under the low-time
// threshold, "both" when both are. With a control in periods, each side's
// period (from 1) and the moves it has to make in it are given too.
type Snapshot struct {
	Control string `json:"control"`
	WhiteMS int64  `json:"white_ms"`
	BlackMS int64  `json:"black_ms"`
	Running string `json:"running,omitempty"`
	At      Stamp  `json:"at"`
	Paused  bool   `json:"paused,omitempty"`
	Stopped bool   `json:"stopped,omitempty"`
	Flag    string `json:"flag,omitempty"`
	Low     string `json:"low,omitempty"`
	// DelayMS is what is left at At of the running side's simple delay:
	// its clock stands still that long before it counts down.
	DelayMS     int64 `json:"delay_ms,omitempty"`
	WhitePeriod int   `json:"white_period,omitempty"`
	WhiteToGo   int   `json:"white_togo,omitempty"`
	BlackPeriod int   `json:"black_period,omitempty"`
	BlackToGo   int   `json:"black_togo,omitempty"`
}

// Low's value when both sides are in low time.
const LowBoth = "both"

// TimeLayout is the layout of Snapshot.At: RFC 3339 in UTC with
// milliseconds, always three digits.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Stamp is a time written in TimeLayout (JSON and text); it reads any
// RFC 3339 time.
type Stamp struct{ time.Time }

// MarshalText writes the time in UTC in TimeLayout.
func (t Stamp) MarshalText() ([]byte, error) { return []byte(t.UTC().Format(TimeLayout)), nil }

// UnmarshalText reads an RFC 3339 time.
func (t *Stamp) UnmarshalText(b []byte) error {
	v, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return fmt.Errorf("clock: time %q: want RFC 3339", b)
	}
	t.Time = v
	return nil
}

// MarshalJSON writes MarshalText as a JSON string.
func (t Stamp) MarshalJSON() ([]byte, error) {
	b, _ := t.MarshalText()
	return json.Marshal(string(b))
}

// UnmarshalJSON reads a JSON string with UnmarshalText.
func (t *Stamp) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("clock: time: %w", err)
	}
	return t.UnmarshalText([]byte(v))
}

// ParseSide reads "white" or "black".
func ParseSide(s string) (rules.Color, error) {
	switch s {
	case "white":
		return rules.White, nil
	case "black":
		return rules.Black, nil
	}
	return 0, fmt.Errorf("side %q: want white or black", s)
}

// MS is side's time at At.
func (s Snapshot) MS(side rules.Color) int64 {
	if side == rules.Black {
		return s.BlackMS
	}
	return s.WhiteMS
}

// Remaining is side's time at t as a display shows it: the running side's
// time counts down from At (after DelayMS), never below 0; the other side's
// and a paused or flagged clock's stand.
func (s Snapshot) Remaining(side rules.Color, t time.Time) time.Duration {
	ms := time.Duration(s.MS(side)) * time.Millisecond
	if s.Paused || s.Stopped || s.Flag != "" || s.Running != side.String() || !t.After(s.At.Time) {
		return ms
	}
	run := t.Sub(s.At.Time) - time.Duration(s.DelayMS)*time.Millisecond
	return max(0, ms-max(0, run))
}

// Snapshot is the clock at at. It only reads: a flag that has fallen by at
// shows (Flag, the side at 0) whether or not Flagged was asked.
//
// At is at truncated to the millisecond, the times those at it.
func (c *Clock) Snapshot(at time.Time) Snapshot {
	// Add keeps the monotonic reading that Truncate would drop.
	at = c.clamp(at.Add(-time.Duration(at.Nanosecond()) % time.Millisecond))
	s := Snapshot{
		Control: c.ctl.String(),
		WhiteMS: c.Remaining(rules.White, at).Milliseconds(),
		BlackMS: c.Remaining(rules.Black, at).Milliseconds(),
		At:      Stamp{at.UTC()},
		Paused:  c.started && c.paused && !c.stopped,
		Stopped: c.stopped,
	}
	if side, _, ok := c.Flagged(at); ok {
		s.Flag = side.String()
	} else if c.started && !c.stopped {
		s.Running = c.runner().String()
		if b, d := c.bonus(c.turn); b == Delay && !c.blaming {
			s.DelayMS = max(0, d-c.turnTime(at)).Milliseconds()
		}
	}
	switch w, b := c.low(rules.White, at), c.low(rules.Black, at); {
	case w && b:
		s.Low = LowBoth
	case w:
		s.Low = rules.White.String()
	case b:
		s.Low = rules.Black.String()
	}
	if c.ctl.HasMoves() {
		s.WhitePeriod, s.WhiteToGo = c.period(rules.White)
		s.BlackPeriod, s.BlackToGo = c.period(rules.Black)
	}
	return s
}

// period is side's period (from 1) and the moves it has to go in it; 0
// moves to go in a last period without a move count.
func (c *Clock) period(side rules.Color) (int, int) {
	i, in := c.ctl.period(c.moves[side])
	p := c.ctl.Periods[i]
	if p.Moves == 0 {
		return i + 1, 0
	}
	return i + 1, p.Moves - in
}

// low reports whether side is under the low-time threshold at at.
func (c *Clock) low(side rules.Color, at time.Time) bool {
	return c.opts.Low > 0 && c.Remaining(side, at) < c.opts.Low
}
