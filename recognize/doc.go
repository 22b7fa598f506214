// Package recognize turns the debounced occupancy of a board's sensing cells
// into moves.
//
// Reed switches only say "occupied". A Recognizer knows the expected
// position and, for every legal move, the occupancy after it and the cells
// it touches (rules.MoveInfo). A move shows on the board when:
//
//   - the closed cells equal the occupancy after exactly one legal move
//     (promotions to different pieces count as one, see NeedsChoice);
//   - every cell the move touches has been seen open since the board was
//     last in sync (so a capture needs its victim lifted, a kingside
//     castling, which leaves the occupancy as it was, needs king and rook
//     lifted, and the order of lifts does not matter).
//
// A move that shows is final (a Moved event) at the first of:
//
//   - the settle window: the reading has stood still for Opts.Settle
//     (300 ms), or Opts.SettleExtended (400 ms) when the same piece could
//     still go further along its line. A piece set down on its way for less
//     than that, on a legal square or not, is never a move. With
//     Opts.ConfirmByPress, settling alone never completes a move: once it
//     has stood the window, Status.Held says it waits for the press.
//   - the next player's lift: the other side lifts one of their pieces after
//     the move was complete, even in the same scan as its last placement.
//     The reading may lack cells lifted since the move was complete and hold
//     cells placed since, as long as one legal reply lifts them and puts a
//     piece on or passes over the others (a recapture lifts the piece just
//     moved first). It is decided once Opts.Skew (12 ms) has passed with no
//     other change, since contact bounce can delay the move's last placement
//     by a scan or two; a lift made together with the move's own lifts (both
//     hands) is the mover's, not a reply, and one read just before the last
//     placement that the mover's piece could take waits until the placement
//     has stood Settle/2 or the next change (a slide would go on; no other
//     move is decided meanwhile). A next change that no move of the
//     position in progress explains decides for the move as it stood: at
//     blitz pace the reply is put down together with the next lift. Of two
//     moves a reading allows, the one complete before the reply's first
//     lift ranks first. A lifted board or platform counts as the other
//     side's when a legal reply lifts it. In a placement phase (First
//     Contact's platforms and kings, V.P6) the other side's placement
//     confirms the move as their lift does, also with their next lift in
//     the same reading. The lifts then belong to the new position's move in
//     progress: a fast reply confirms the previous move and starts the next.
//   - Confirm, called when the mover presses their clock. A press that
//     beats the last placement's debounce waits Opts.PressGrace for it;
//     lifts read since the move was complete are the reply's. A press on
//     pieces only lifted (held in the hand) completes nothing and is no
//     mismatch. A press that comes within a second of the mover's last
//     move, when the other side's lift or the settle window completed
//     that move first, is that move's late press and completes nothing
//     (the reply can be quicker than the press).
//
// A change of mind: a move the settle window completed stays open to
// correction by its mover until the other side acts (their lift, a press,
// EndCorrection) or Opts.Correction passes: the moved piece lifted again
// and put on another legal square replaces it (a Corrected event, once the
// new move is complete as any move); put back where it came from, the move
// is taken back; the other side's lift while the piece is still in the hand
// restores it (correction.go). Opts.Correction 0 is touch-move.
//
// Readings are timed by the times they carry, never by when Observe is
// called: a scan that came late feeds the readings it went through one by
// one at their own times (sensors.Scanner.Readings), and ObserveGap says
// how long before a reading its changes may have happened. A lift read
// with a placement after such a gap may have come first: when the moved
// piece could take it, it waits the move's settle window or the next
// change, and the piece lifted again with nothing put down makes it the
// mover's victim. A press read with the other side's first changes
// confirms the board as it stood before them when it shows a move and the
// board after them does not.
//
// Moved carries At, when the recognizer decided, and CompletedAt, the
// reading in which the board came to show the move (the debounce after the
// hand let go): a chess clock charges the mover up to CompletedAt.
//
// A capture whose victim is swapped for the captor faster than the
// debounce never shows the victim's square open: the reading looks like a
// piece in the hand, so settling cannot complete it, but the next lift or
// a press does when only one capture by that piece leads there.
//
// A piece lifted and put back is nothing. Putting the previous position back
// is a take-back (Opts.TakeBacks), in play and from a mismatch: a move
// recognized wrongly is set right that way, and the mismatch hint says so.
//
// No silent stall: readings that no legal move in progress explains (one
// move that lifts every cell the reading lacks and places every cell it
// adds) become a Mismatch within Opts.MismatchAfter (2 s) of the first of
// them, however often the cells change meanwhile. Status.Fix names the
// cells and Status.Instruction says in a sentence which pieces to put back where.
// Play resumes when the board matches the expected position again (or the
// previous one: a take-back). A piece held in the hand that could still
// move is a move in progress, however long. Unknown cells (a failed
// expander) never count as open or closed: the state is SensorFault until
// they read again.
//
// # A move's life
//
// From the position P the recognizer expects to the position Q after the
// move. Names in brackets are Status.State; the others are the move's own
// stages, and the events it emits are in capitals.
//
//	SetPosition(P)
//	     |
//	     v          board shows P for Settle
//	[Mismatch] ------------------------------------------+
//	  ^   ^  |      board shows the position before P    |
//	  |   |  +---- for Settle (take-backs on): TOOKBACK -+
//	  |   |                                              v
//	  |   |                                          [InSync] P <-------------------+
//	  |   |                                              |                          |
//	  |   |                                              | a cell of P reads open   | every piece back:
//	  |   |                                              v                          | nothing happened
//	  |   +-- no move in progress explains the ------ lifted -----------------------+
//	  |       readings for MismatchAfter (however   [MoveInProgress] <--+
//	  |       often they change), or a press that        |              |
//	  |       finds no move after PressGrace             |              | the piece goes on
//	  |                                                  |              | (a slide): another
//	  |                 a piece put down: the reading is |              | change
//	  |                 one legal move's occupancy after |              |
//	  |                 and every cell it touches was    |              |
//	  |                 seen open (placed, CompletedAt)  v              |
//	  |                                               settling ---------+
//	  |                                        [MoveInProgress, Ready]
//	  |                                                  |
//	  |      +-----------------+-------------------+-----+-----------------------+
//	  |      | by settle       | by next lift      | by clock press              | by choice
//	  |      | the reading     | the other side    | Confirm by the mover        | settle or a press
//	  |      | stood Settle    | lifts or places   | (waits PressGrace for the   | finding several
//	  |      | (SettleExtended | (stood Skew; a    | last placement; a press on  | pieces (promotion,
//	  |      | if the piece    | lift the piece    | pieces only lifted does     | placement) wait in
//	  |      | could go on);   | could take waits  | nothing; a late press of    | [NeedsChoice] for
//	  |      | never with      | Settle/2 or the   | the last move, within 1 s,  | Choose, a press or
//	  |      | ConfirmByPress  | next change)      | does nothing)               | the next change
//	  |      v                 v                   v                             v (ByLift: a queen)
//	  |   completed: MOVED (By, CompletedAt), Q expected, P kept for take-backs
//	  |      |                                                         |
//	  |      | by settle, Correction > 0, a piece                      | by lift, press
//	  |      | moved square to square                                  | or choice
//	  |      v                                                         |
//	  |   open to correction (until CompletedAt + Correction) ---+     |
//	  |      |                                                   |     |
//	  |      | the moved piece alone lifted again                | the other side's lift, a press
//	  |      v                                                   | (either side), EndCorrection,
//	  |   reopened: P expected again, the move withdrawn         | the window passes, any other
//	  |   (no event) [MoveInProgress]                            | change, a sensor fault
//	  |      |                                                   v     v
//	  |      +-- put on another legal square, completed ------> final: Q stands
//	  |      |   as any move (settle, lift, press): CORRECTED        |
//	  |      |   (open to correction again if by settle)             |
//	  |      +-- put back on the move's square, completed: --------->|
//	  |      |   the move stands (no event)                          |
//	  |      +-- the other side lifts a piece of theirs (stood       |
//	  |      |   Skew) before it is put down, or EndCorrection: ---->|
//	  |      |   the move stands, restored (no event)                |
//	  |      +-- put back where it came from for SettleExtended:     | the board shows P again
//	  |          TOOKBACK, [InSync] P (take-backs off: the move      | (SettleExtended in play,
//	  +--------- stands, [Mismatch])                                 | Settle from a mismatch, or a
//	                                                                 | press in play)
//	                                                                 v
//	                                                   TOOKBACK, [InSync] P (up to MaxTakeBacks deep)
//
// After a take-back the position taken back to plays P's part. A capture
// whose victim was swapped faster than the debounce never reaches
// settling: the next lift or a press completes it from lifted. Unknown
// cells put any stage in [SensorFault] until they read again; a
// reading is timed by the time it carries (a late scan's readings one by
// one, ObserveGap). The code: step (recognizer.go) decides in this order:
// a sensor fault, a pending choice (confirm.go), out of sync (resync), a
// press (confirm.go), the next lift (reply.go), then the reading as it
// stands (settle), with the candidates matched in match.go, the times of
// the reading's changes in history.go and the change of mind in
// correction.go.
//
// The idle scan allocates nothing: the reading is compared and the timers
// checked; the search runs only when the reading changes.
package recognize
