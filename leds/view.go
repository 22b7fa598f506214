package leds

import (
	"strconv"

	"github.com/tridboard/tridboard/rules"
)

// View is what the LEDs should say, as sets of cells of the game system. The
// zero value lights nothing. A cell in several sets shows the signal of the
// highest priority (see Signal).
type View struct {
	// Targets are the cells a lifted piece may legally move to, on every
	// level (a target signal).
	Targets rules.CellSet
	// Captures are the targets where the lifted piece captures (a target signal); they
	// show as captures even when also in Targets.
	Captures rules.CellSet
	// Pins are the presence cells of the pins a lifted attack board may
	// legally move to (a target signal).
	Pins rules.CellSet
	// Lifted holds the cells lifted by hand (not shown). While any is, the
	// check and the last move are not shown, so that a lift lights exactly
	// its targets.
	Lifted rules.CellSet
	// Check holds the cell of a king in check (a target signal).
	Check rules.CellSet
	// LastMove holds the from and to cells of the last move. It is not shown
	// while something is lifted or targets, captures or pins are shown.
	LastMove rules.CellSet
	// RemoteFrom and RemoteTo are the from and to cells of a move to execute
	// on the board that came from elsewhere (a remote opponent, an engine).
	RemoteFrom, RemoteTo rules.CellSet
	// GameOver holds the cells that show the end of the game (such as the
	// king of the side that cannot move); Draw says the game was drawn.
	GameOver rules.CellSet
	Draw     bool
	// Fix holds the cells whose occupancy differs from what the game
	// expects: the pieces or boards to put back, add or take away.
	Fix rules.CellSet
	// LowTime holds the king of a side whose clock is in low time: a
	// warning, shown in tournament play too.
	LowTime rules.CellSet
	// NoTargets hides the target signals (Targets, Captures, Pins, Check), as in
	// tournament play. The other signals stay.
	NoTargets bool
}

// Signal is what a cell shows. A cell shows one signal, the highest: Fix,
// RemoteFrom and RemoteTo, GameOver or Draw, LowTime, Check, Capture, Pin,
// Target, LastMove (the constants run from lowest to highest).
type Signal uint8

// Signals, lowest priority first.
const (
	None Signal = iota
	LastMove
	Target
	Pin
	Capture
	Check
	LowTime
	GameOver
	Draw
	RemoteTo
	RemoteFrom
	Fix
	// NumSignals is the number of signals, None included.
	NumSignals
)

var signalNames = [NumSignals]string{"none", "last move", "target", "pin", "capture", "check", "low time", "game over", "draw", "remote to", "remote from", "fix"}

func (s Signal) String() string {
	if s < NumSignals {
		return signalNames[s]
	}
	return "Signal(" + strconv.Itoa(int(s)) + ")"
}

// layers returns, for each signal, the cells that show it (each cell in at
// most one set) with the target signals shown or not and the style's rules.
func (v *View) layers(fixHidesTargets bool) (out [NumSignals]rules.CellSet) {
	var taken rules.CellSet
	put := func(s Signal, set rules.CellSet) {
		set = set.Minus(taken)
		out[s] = set
		taken = taken.Union(set)
	}
	targets := !v.NoTargets && !(fixHidesTargets && !v.Fix.Empty())
	put(Fix, v.Fix)
	put(RemoteFrom, v.RemoteFrom)
	put(RemoteTo, v.RemoteTo)
	if v.Draw {
		put(Draw, v.GameOver)
	} else {
		put(GameOver, v.GameOver)
	}
	put(LowTime, v.LowTime)
	lifted := !v.Lifted.Empty()
	if targets {
		if !lifted {
			put(Check, v.Check)
		}
		put(Capture, v.Captures)
		put(Pin, v.Pins)
		put(Target, v.Targets)
		lifted = lifted || !(v.Captures.Empty() && v.Pins.Empty() && v.Targets.Empty())
	}
	if !lifted {
		put(LastMove, v.LastMove)
	}
	return out
}
