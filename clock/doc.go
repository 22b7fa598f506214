// Package clock is the chess clock the set runs itself: time controls,
// a clock state machine in injected time, the snapshot displays and the
// retained MQTT state carry, the readings a game's journal keeps and the
// [%clk] comments of a game record.
//
// # Time controls
//
// Parse reads PGN's TimeControl tag ("300", "180+2", "40/5400+30:1800+30")
// with two delays added ("300d3" simple or US delay, "300b3" Bronstein
// delay); String writes it back. See Parse and Period for the periods' rules.
//
// # The clock
//
// A Clock takes every event with its moment: Start(at, side), Moved(at),
// Pause, Resume, Add and Set (the arbiter), Illegal (FIDE's penalty for an
// illegal move), Blame and Unblame (a mismatch the side not to move caused
// runs its clock instead), TakeBack, and Stop (the game is over: the times
// stand for good). It never reads the system clock and starts no
// goroutine: FlagAt says when the running flag will fall, so the caller arms
// its own timer, and tests run in simulated time.
//
// Moved's moment is when the move was physically completed: the last cell's
// settled change, or a clock button's press. Recognition reports the move a
// settle window later; that latency is never charged to the mover, and a
// move completed before the flag fell counts even when reported after it.
//
// Per move: the mover's time is charged the turn (pauses excepted), then
// the period's bonus applies: an increment is added; a simple delay charges
// only the turn beyond the delay (the clock stands still for the delay and
// then counts down); a Bronstein delay counts down at once and gives back
// the time used up to the delay after the move, so never more than the move
// took. After a period's last move the next period's time is added. A flag
// falls when a running side reaches 0 (under a simple delay, 0 after its
// delay): the clock freezes at exactly 0 for that side, and FlagResult
// decides between a loss and a draw (FIDE 6.9, DefaultCannotMate).
//
// # Readings, snapshots, records
//
// Moved returns a Reading (both sides' ms and the completion time) for the
// journal; Rebuild makes the clock of a resumed game from the readings,
// paused, since the time the set was off is nobody's. A Checkpoint, taken
// between moves and kept beside the journal, gives back the thinking time
// since the last move (Restore), so a restart refunds nothing. Snapshot is
// what a display needs to count down without drift (JSON, see Snapshot).
// FormatClk and ParseClk write and read the [%clk h:mm:ss] comments.
//
// # Low time
//
// Opts.Low is the warning threshold (Snapshot.Low, Clock.Low). Low time
// leaves the recognizer's settle window as it is: a shorter one took a
// hesitating piece's rest on its way for a move (issue 21), and in low
// time the press of the clock and the opponent's lift confirm a move at
// once anyway.
//
// The sub-package segment shows both times on two HT16K33 7-segment
// backpacks.
package clock
