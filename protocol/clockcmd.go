package protocol

import (
	"fmt"

	"github.com/tridboard/tridboard/rules"
)

// Clock actions of the clock command.
const (
	ClockPause  = "pause"
	ClockResume = "resume"
	ClockAdd    = "add" // MS added to Side's clock (negative: taken off)
	ClockSet    = "set" // Side's clock set to MS
)

// AdjustClock is the arbiter's command to the game's chess clock:
//
//	{"action":"pause"}  {"action":"resume"}
//	{"action":"add","side":"black","ms":60000}
//	{"action":"set","side":"white","ms":120000}
//
// The game must have a clock. The reply's data is the clock after it.
type AdjustClock struct {
	Action string      `json:"action"`
	Side   rules.Color `json:"-"`
	MS     int64       `json:"ms,omitempty"`
}

// Name is CmdClock.
func (AdjustClock) Name() string { return CmdClock }

// MaxClockMS bounds the clock command's add and set: 100 hours, the clock's own limit.
const MaxClockMS = 100 * 3600 * 1000

func (c AdjustClock) validate() error {
	switch c.Action {
	case ClockPause, ClockResume:
		if c.MS != 0 {
			return fmt.Errorf(`"ms" goes with add and set, not %s`, c.Action)
		}
		return nil
	case ClockAdd:
		if c.MS == 0 || c.MS < -MaxClockMS || c.MS > MaxClockMS {
			return fmt.Errorf(`"ms" %d: want a non-zero number of milliseconds, at most %d either way`, c.MS, MaxClockMS)
		}
		return nil
	case ClockSet:
		if c.MS <= 0 || c.MS > MaxClockMS {
			return fmt.Errorf(`"ms" %d: want 1 to %d`, c.MS, MaxClockMS)
		}
		return nil
	}
	return fmt.Errorf(`"action" %q: want "pause", "resume", "add" or "set"`, c.Action)
}

// UnmarshalJSON reads the command; "side" is required for add and set.
func (c *AdjustClock) UnmarshalJSON(b []byte) error {
	var v struct {
		Action string `json:"action"`
		Side   string `json:"side"`
		MS     int64  `json:"ms"`
	}
	if err := strictDecode(b, &v); err != nil {
		return err
	}
	c.Action, c.MS = v.Action, v.MS
	if v.Action != ClockAdd && v.Action != ClockSet {
		if v.Side != "" {
			return fmt.Errorf(`"side" goes with add and set, not %q`, v.Action)
		}
		return nil
	}
	s, err := rules.ParseColor(v.Side)
	c.Side = s
	return err
}
