package web

import (
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
)

// Status is a board's state apart from its moves, as the pages draw it.
type Status struct {
	Online  bool   `json:"online"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Seq     int    `json:"seq"`   // the seq of the last move
	Epoch   uint64 `json:"epoch"` // changes when the history is rewritten (take-back, new game)
	Ver     uint64 `json:"ver"`   // changes with anything
	Plies   int    `json:"plies"` // moves kept
	// At is the set's time of the last state or move shown: with Game, what
	// orders two summaries of a board from different views (a page drops
	// the older, web/static/wall.js).
	At    time.Time         `json:"at,omitzero"`
	Tags  map[string]string `json:"tags,omitempty"`
	Clock *clock.Snapshot   `json:"clock,omitempty"`
	// Peer is the other set of a remote game: offline, or in another game.
	Peer *protocol.PeerState `json:"peer,omitempty"`
	// Board is the board status (protocol.Board*), Choices and Fault as in
	// protocol.Board.
	Board   string   `json:"board"`
	Choices []string `json:"choices,omitempty"`
	// AwaitingPress: the move set down waits for its player's clock press.
	AwaitingPress bool   `json:"awaiting_press,omitempty"`
	Fault         string `json:"fault,omitempty"`
	// Lifted are the cells lifted, Targets the cells their pieces may
	// reach (Captures those where they capture), PinTargets the pins a
	// lifted attack board may go to: what the LEDs show.
	Lifted     []string `json:"lifted,omitempty"`
	Targets    []string `json:"targets,omitempty"`
	Captures   []string `json:"captures,omitempty"`
	PinTargets []string `json:"pin_targets,omitempty"`
	// Fix are the cells to fix during a mismatch or fault, and why;
	// FixInstruction says what to do, in words (which piece goes back where).
	Fix            []string `json:"fix,omitempty"`
	FixReason      string   `json:"fix_reason,omitempty"`
	FixInstruction string   `json:"fix_hint,omitempty"`
	// Lesson is the teacher's settings and the hints used (the state's
	// "lesson"): each side's assistance, shown on the page.
	Lesson      *protocol.Lesson `json:"lesson,omitempty"`
	Turn        string           `json:"turn"`
	Check       string           `json:"check,omitempty"` // the cell of the king in check
	Result      string           `json:"result"`
	Termination string           `json:"termination,omitempty"`
	Error       string           `json:"error,omitempty"` // what the hub could not make sense of
	Event       *EventView       `json:"event,omitempty"` // the last event
	// Now is the server's time when it sent this, for the pages to count
	// the clocks down on the server's time.
	Now time.Time `json:"now"`
}

// EventView is the last event of a board.
type EventView struct {
	Type   string    `json:"type"`
	Cell   string    `json:"cell,omitempty"`
	Cells  []string  `json:"cells,omitempty"`
	Move   string    `json:"move,omitempty"`
	Detail string    `json:"detail,omitempty"`
	Result string    `json:"result,omitempty"`
	Time   time.Time `json:"ts"`
}

// MoveView is one move of a game as drawn: its number ("12." or "12..."),
// its notation, the cells it leaves and reaches (pins for a board move),
// the position after it and the king it checks.
type MoveView struct {
	Seq   int    `json:"seq"`
	Ply   int    `json:"ply"`
	Num   string `json:"num"`
	Long  string `json:"long"`
	Short string `json:"short"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Check string `json:"check,omitempty"`
	// ClkMS is the mover's time left after the move (absent without a
	// clock); Time when it was played.
	ClkMS *int64    `json:"clk_ms,omitempty"`
	Time  time.Time `json:"ts,omitzero"`
	// Eval is the engine's evaluation of the position after the move
	// (HubOpts.Eval), when done.
	Eval    *EvalView `json:"eval,omitempty"`
	evalVer uint64    // the board's ver when Eval came
	plyView
}

// BoardView is a board as one board's page draws it: its status, the start
// position, and the moves (all of them when Full, else those after the
// seq the client had and those whose evaluation came since).
type BoardView struct {
	ID string `json:"id"`
	Status
	Full      bool        `json:"full"`
	Start     plyView     `json:"start"`
	StartEval *EvalView   `json:"start_eval,omitempty"`
	Moves     []*MoveView `json:"moves"`
}

// Summary is a board as the wall draws it: its status, the position now
// and the last move.
type Summary struct {
	ID string `json:"id"`
	Status
	Pos  plyView   `json:"pos"` // the position now
	Last *LastView `json:"last,omitempty"`
}

// LastView is the last move on the wall.
type LastView struct {
	Num   string `json:"num"`
	Short string `json:"short"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
}
