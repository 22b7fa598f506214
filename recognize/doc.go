// Package recognize turns the debounced occupancy of a board's sensing cells
// into moves.
//
// Reed switches only say "occupied". A Recognizer knows the expected
// position and, for every legal move, the occupancy after it and the cells
// it touches (rules.MoveInfo). It watches the readings and accepts a move
// when:
//
//   - the closed cells equal the occupancy after exactly one legal move
//     (promotions to different pieces count as one, see NeedsChoice);
//   - every cell the move touches has been seen open since the board was
//     last in sync (so a capture needs its victim lifted, a kingside
//     castling, which leaves the occupancy as it was, needs king and rook
//     lifted, and the order of lifts does not matter);
//   - the reading has stood still for the settle window: Opts.Settle for a
//     move the same piece could not extend, Opts.SettleExtended when it
//     could still go further along its line (a piece slid over a square,
//     or set down there for a moment, is not taken for a move).
//
// A piece lifted and put back is nothing. Putting the previous position back
// is a take-back (Opts.TakeBacks). A placement that explains no legal move
// becomes a mismatch once it has stood for Opts.MismatchAfter: the status
// then names the cells to fix, and play resumes when the board matches the
// expected position again. Unknown cells (a failed expander) never count as
// open or closed: the state is SensorFault until they read again.
//
// The settle windows count from the reading's last change. A reading is
// known to be stable only up to the time it arrives: crediting the
// sensors' debounce would accept a piece set down for a moment on its way.
// So a move is recognized the debounce window, the settle window and at
// most one scan period after the hand lets go.
package recognize
