package clock

import (
	"time"

	"github.com/tridboard/tridboard/rules"
)

// LowSettle is the settle window Settle recommends in low time.
//
// Why shorter at all: the clock charges the mover up to the moment the move
// was completed, so the settle window costs nobody time on the clock. What
// it costs in low time is this: a move is recognized only once the reading
// has stood still for the window (after the sensors' 30 ms debounce and up
// to one 5 ms scan), and a reply begun before then lands in the same
// window. The reading never stands still, the first move is not
// recognized, and the board then shows two moves at once: a mismatch that
// stops the game when there is least time to fix it. Players in time
// trouble reply as fast as they can, so the window must close before the
// opponent can react to the release of the piece at all.
//
// Why 150 ms: a human's simple reaction to a visual event takes about
// 200 ms at best (and a reply has to be seen, reached for and lifted, so
// more). 30 ms debounce + 150 ms + 5 ms of scan is 185 ms: the move is
// recognized, and the opponent's clock shown running, before the fastest
// possible reply lifts a piece. With the normal window of some 250-300 ms
// the total is 285-335 ms, inside a scramble's fastest replies.
//
// What it gives up: the longer window is there against ghost moves, a piece
// slid over a square or set down there for a moment on its way. With
// 150 ms a piece that stays 150-300 ms on a square on its way is taken for
// a move there (in low time the next reading, the piece moving on, then
// makes a mismatch or a take-back to fix). A slide across a square at the
// speed of a hurried hand passes it in well under 100 ms, and 150 ms is
// still five times the debounce, so contact bounce and a wobble never
// pass; the risk left is the hesitant pause mid-move, which time trouble
// makes rare. Settle never lengthens a window that is already shorter.
const LowSettle = 150 * time.Millisecond

// Settle recommends the recognizer's settle window at at: normal, or
// LowSettle (when shorter) while either side is under the low-time
// threshold (Opts.Low; the reply that could collide is the opponent's, in
// time trouble as often as the mover). A clock not started, paused or with
// no threshold keeps normal.
func (c *Clock) Settle(at time.Time, normal time.Duration) time.Duration {
	if !c.started || c.paused || c.stopped || c.opts.Low <= 0 {
		return normal
	}
	r := min(c.Remaining(rules.White, at), c.Remaining(rules.Black, at))
	return SettleFor(r, c.opts.Low, normal)
}

// SettleFor is Settle's rule: LowSettle (when shorter than normal) once
// remaining, the lesser of the two sides' times, is under low; else normal.
func SettleFor(remaining, low, normal time.Duration) time.Duration {
	if low > 0 && remaining < low {
		return min(normal, LowSettle)
	}
	return normal
}

// Low reports whether side is under the low-time threshold at at (for the
// LEDs' and displays' warning).
func (c *Clock) Low(side rules.Color, at time.Time) bool { return c.low(side&1, at) }
