package table

import (
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
)

// Kind is the kind of an Event.
type Kind uint8

const (
	// Started is the first event every sink gets, and the one it gets after
	// it missed events (its queue overflowed): Snap is everything to draw
	// or publish from scratch.
	Started Kind = iota + 1
	// Moved: a move was made on the set, or elsewhere (Remote), and is
	// durable in the journal (Move).
	Moved
	// TookBack: the last move was taken back (Move: the move taken back).
	TookBack
	// BoardChanged: the board's status changed (Snap.Status).
	BoardChanged
	// Lifted: pieces or boards were lifted (Cells; Cell: the first touched,
	// for touch-move).
	Lifted
	// Placed: pieces or boards were put where the position has none (Cells).
	Placed
	// Illegal: the pieces were moved in a way no legal move explains
	// (Cells: what to fix; Detail: why and how to fix it).
	Illegal
	// Mismatch: the set does not show the expected position, at a start or
	// after a change of the game (Cells, Detail).
	Mismatch
	// Check: the side to move is in check (Cell: its king).
	Check
	// GameOver: the game ended (Result, Reason).
	GameOver
	// Fault: a sensor or I/O fault (Detail); Detail is empty when the
	// fault has cleared.
	Fault
	// GameBegan: a new game began (Snap.Game).
	GameBegan
	// DrawOffered: Side offered a draw.
	DrawOffered
	// Changed: the game changed in a way no other kind names (a draw offer
	// declined, a resync): Snap has it.
	Changed
	// HintGiven: a hint is shown (Snap.Hint; Side: the side it is for;
	// Detail: the move).
	HintGiven
	// ClockChanged: the clock was started, paused (Detail says why: an
	// arbiter, or a restart), resumed, adjusted or a penalty given (Side:
	// the side concerned; Detail: what, in words). Snap.Clock has it.
	ClockChanged
	// LowTime: Side's clock went under the low-time threshold.
	LowTime
	// ButtonPressed: a button of the set was pressed (Detail: its name,
	// the cell name without sensors.ButtonPrefix: "clock_white"; Side:
	// the side of a clock button). It comes before what the press does.
	ButtonPressed
	// PeerChanged: the other set of a remote game went offline, came back,
	// paired its game with this one or is in another (Snap.Peer; Detail).
	PeerChanged
	// Corrected: the mover changed their mind about their last move,
	// which the settle window had completed (recognize.Opts.Correction):
	// Withdrawn is taken back and Move made instead (from Before), both
	// durable in the journal. The game's record never holds Withdrawn.
	Corrected
)

var kindNames = [...]string{"", "started", "moved", "took back", "board changed", "lifted", "placed", "illegal",
	"mismatch", "check", "game over", "fault", "new game", "draw offered", "changed", "hint", "clock", "low time", "button",
	"peer", "corrected"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Event is something that happened at the table. Events reach each sink in
// the order they happened.
type Event struct {
	Kind Kind
	// At is when it happened (the table's clock); for Moved and TookBack
	// from the set, when the recognizer decided. Completed is when the
	// hand completed it (the last cell's settled change), which the chess
	// clock charges.
	At, Completed time.Time
	// By is what completed a move from the set (Moved): the settle
	// window, the next player's lift, a clock press, a choice; zero for
	// a move made elsewhere or by command.
	By recognize.Confirmation
	// Snap is the table right after the event. It is shared by every sink
	// and must not be changed.
	Snap *Snapshot
	// Move is the move of Moved and TookBack, and the move made instead
	// of Withdrawn in Corrected.
	Move      *game.Move
	Withdrawn *game.Move
	// Before is the position Move was played from (Moved).
	Before rules.Position
	// Remote is true for a Moved event of a move made elsewhere (the set
	// must still be made to show it).
	Remote bool
	// Cell and Cells are cells of Snap.System.
	Cell  rules.Cell
	Cells rules.CellSet
	// Side is the side of DrawOffered, HintGiven, ClockChanged, LowTime.
	Side rules.Color
	// Result and Reason are those of GameOver.
	Result rules.Result
	Reason game.Reason
	// Detail says more, in words (Illegal, Mismatch, Fault).
	Detail string
}

// BoardStatus is what the sensors say about the set, in cells of the game's
// system.
type BoardStatus struct {
	State recognize.State
	// Lifted holds the cells the expected position has closed that read
	// open; Placed those it has open that read closed.
	Lifted, Placed rules.CellSet
	// Fix holds, in Mismatch, every cell that differs from the expected
	// position.
	Fix rules.CellSet
	// Unknown holds the cells that cannot be read.
	Unknown rules.CellSet
	// FirstLifted is the first cell lifted since the board was in sync
	// (touch-move), or rules.NoCell.
	FirstLifted rules.Cell
	// Held is true, in MoveInProgress, while the set shows a complete
	// legal move that has stood the settle window and waits for its
	// mover's clock press (a game with clock buttons): no move is recorded
	// until the press (or the other side's lift).
	Held bool
	// Choices are the promotion pieces to choose from (NeedsChoice), the
	// one that stands without a choice first.
	Choices []byte
	// Reason says, in Mismatch, why the board is in mismatch, in words:
	// why the move shown is illegal ("Your king on b1W would be in check
	// from the rook on b4N."), or what the game expects ("set up the
	// position of the new game", "no legal move leads to this").
	Reason string
	// Instruction says, in Mismatch, what to do to set the board right, in
	// words: which piece goes back to which cell, what to take away, and
	// that putting the position before the last move back takes it back.
	// It is empty for a learner's side without assistance (Assist).
	Instruction string
	// Culprits are the pieces that make a move shown illegal (the piece
	// that would give check, the one blocking the line).
	Culprits rules.CellSet
	// Fault says, in SensorFault, which sensors fail.
	Fault string
}

// Snapshot is the table at one moment. It is immutable once made.
type Snapshot struct {
	// Board is the set's id.
	Board string
	// Game is the current game's id; System its rules.
	Game   string
	System rules.System
	// Start is the game's start position; Position the position after
	// its durable moves; Moves those moves in order.
	Start, Position rules.Position
	Moves           []game.Move
	Tags            game.Tags
	// Result and Reason say how the game ended (rules.NoResult while it
	// goes on).
	Result rules.Result
	Reason game.Reason
	// DrawOffer is the side with a draw offer standing, if HasDrawOffer.
	DrawOffer    rules.Color
	HasDrawOffer bool
	// Expected is the position the set must show: Position, or a move
	// ahead while a recognized move is being journaled.
	Expected rules.Position
	// Status is the board's status.
	Status BoardStatus
	// LastMove holds the from and to cells of the last move.
	LastMove rules.CellSet
	// RemoteFrom and RemoteTo show a move made elsewhere until the set
	// shows it.
	RemoteFrom, RemoteTo rules.CellSet
	// Hint is the suggested move being shown, or nil; HintsLocked is the
	// teacher's lock; HintsUsed counts each side's hints this game.
	Hint        *HintShown
	HintsLocked bool
	HintsUsed   [2]int
	// Teaching is the game's teacher's settings: the lock, each side's
	// hint limit and assistance (what the LEDs, hints and explanations
	// give each side).
	Teaching game.Teaching
	// Time is when the snapshot was taken.
	Time time.Time
	// Clock is the game's clock at Time (nil: no clock), as displays and
	// the retained MQTT state carry it.
	Clock *clock.Snapshot
	// Peer is the other set of a remote game (nil: none); TakeBack a
	// take-back asked of it or by it, waiting for its answer;
	// TakeBackAnswer this set's last answer to the other set's request.
	Peer           *PeerState
	TakeBack       *TakeBackRequest
	TakeBackAnswer *TakeBackAnswer
	// Resolve is this set's players' resolution of a desync not carried
	// out yet (nil: none).
	Resolve *Resolution

	published func() []game.Move
}

// Published lists every move of the game handed out for publication, taken
// back or not, in seq order: what an outbox must hold.
func (s *Snapshot) Published() []game.Move {
	if s.published == nil {
		return s.Moves
	}
	return s.published()
}

// Cells names the cells of s's system.
func (s *Snapshot) Cells() []string { return s.System.Cells() }

// CellName names cell c of s's system.
func (s *Snapshot) CellName(c rules.Cell) string {
	if names := s.System.Cells(); int(c) < len(names) {
		return names[c]
	}
	return fmt.Sprintf("cell %d", c)
}
