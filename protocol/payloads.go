package protocol

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/rules"
)

// Move is the payload of <base>/move: one move of a game, published after the
// game journal holds it. Seq counts the game's moves from 1 and never repeats
// within a game (after a take-back the next move gets the next seq), so a
// consumer drops a message whose (Game, Seq) it has already seen.
type Move struct {
	Seq      int       `json:"seq"`
	Game     string    `json:"game"`
	Move     string    `json:"move"`     // long (machine) form, "b2W-b4N"
	SAN      string    `json:"san"`      // Meder notation with + or #
	Position string    `json:"position"` // position string after the move
	Time     time.Time `json:"ts"`       // RFC 3339
	// ClkMS is the mover's time left on the clock after the move, in
	// milliseconds (absent without a clock): the record's [%clk].
	ClkMS *int64 `json:"clk_ms,omitempty"`
}

// Validate checks what a consumer relies on: a game id, a seq from 1 and
// a move.
func (m Move) Validate() error {
	switch {
	case m.Game == "":
		return fmt.Errorf("move seq %d: empty game id", m.Seq)
	case m.Seq < 1:
		return fmt.Errorf("game %q: seq %d: must be 1 or more", m.Game, m.Seq)
	case m.Move == "":
		return fmt.Errorf("game %q seq %d: empty move", m.Game, m.Seq)
	}
	return nil
}

// Board statuses of State.Board.Status.
const (
	BoardInSync         = "in_sync"          // the pieces match the position
	BoardMoveInProgress = "move_in_progress" // pieces are lifted, the move is not complete
	BoardMismatch       = "mismatch"         // the pieces do not match the position (Cells)
	BoardNeedsChoice    = "needs_choice"     // a promotion or ambiguity waits for a choice (Choices)
	BoardSensorFault    = "sensor_fault"     // the sensors cannot be trusted (Fault)
)

// Board is what the sensors say about the set.
type Board struct {
	Status string `json:"status"` // one of the Board* constants
	// Cells are the cells involved: lifted while a move is in progress,
	// wrong when in mismatch.
	Cells []string `json:"cells,omitempty"`
	// Choices are what the player must choose from when Status is
	// BoardNeedsChoice: piece letters for a promotion, long moves otherwise.
	Choices []string `json:"choices,omitempty"`
	// Fault describes a sensor fault (BoardSensorFault).
	Fault string `json:"fault,omitempty"`
	// AwaitingPress is true, in BoardMoveInProgress, while the set shows a
	// complete move that waits for its player's clock press (a game on
	// the clock): the page says "press your clock".
	AwaitingPress bool `json:"awaiting_press,omitempty"`
	// Reason says why the board is in mismatch (BoardMismatch), in words:
	// why the move shown is illegal, or what the game expects ("set up
	// the position of the new game").
	Reason string `json:"reason,omitempty"`
	// Instruction says how to set the board right (BoardMismatch), in
	// words: which piece goes back to which cell, what to take away, and
	// that putting the previous position back takes a wrong move back.
	// (Its JSON name is "hint"; a hint is otherwise the engine's
	// suggested move, EventHint.)
	Instruction string `json:"hint,omitempty"`
}

// LastMove is the last move of State.
type LastMove struct {
	Seq  int    `json:"seq"`
	Move string `json:"move"`
	SAN  string `json:"san"`
}

// Results of State.Result, as in PGN.
const (
	ResultOngoing   = "*"
	ResultWhiteWins = "1-0"
	ResultBlackWins = "0-1"
	ResultDraw      = "1/2-1/2"
)

// Version is the version of the payloads this package writes and reads.
const Version = 1

// State is the retained payload of <base>/state: everything a display needs
// to draw the game after subscribing.
type State struct {
	// V is the payloads' version (Version); 0, from a set older than
	// versioning, reads as 1.
	V        int         `json:"v"`
	Game     string      `json:"game"`
	Variant  string      `json:"variant"`
	Position string      `json:"position"`
	Turn     rules.Color `json:"-"`
	Board    Board       `json:"board"`
	LastMove *LastMove   `json:"last_move"` // nil before the first move
	// Start is the game's start position when it is not the variant's
	// usual one; Moves the game so far in long form. A display that joins
	// late, or missed a move message, rebuilds the game from them.
	Start string   `json:"start,omitempty"`
	Moves []string `json:"moves,omitempty"`
	// ClkMS holds, when every move of Moves has one, the mover's time left
	// on the clock after each (Move.ClkMS), for a late joiner's record.
	ClkMS      []int64   `json:"clk_ms,omitempty"`
	MoveNumber int       `json:"move_number"`
	Check      bool      `json:"check"`
	Result     string    `json:"result"`                // a Result* constant
	Reason     string    `json:"termination,omitempty"` // "checkmate", "resignation", ..., "time"
	Time       time.Time `json:"ts"`
	// Clock is the game's chess clock (absent without a time control), as
	// clock.Snapshot marshals it: a display counts the running side down
	// from its "at".
	Clock *clock.Snapshot `json:"clock,omitempty"`
	// Tags are the game's record tags: "White", "Black", "Event", "Round"
	// (the players' names, the event, the round: what new_game carries),
	// "Site" and "Date".
	Tags map[string]string `json:"tags,omitempty"`
	// Lesson is the teacher's settings and the hints used.
	Lesson *Lesson `json:"lesson,omitempty"`
	// DrawOffer is the side whose draw offer stands ("" none).
	DrawOffer string `json:"draw_offer,omitempty"`
	// Play is how the game is played: "casual", "tournament" or
	// "lesson" (absent from a set older than plays: casual).
	Play string `json:"play,omitempty"`
	// Peer is the other set of a remote game (absent otherwise);
	// TakeBackAsked a take-back asked of it or by it, not answered yet.
	Peer          *PeerState     `json:"peer,omitempty"`
	TakeBackAsked *TakeBackAsked `json:"take_back_asked,omitempty"`
}

// Lesson is the teacher's settings of a game and the hints used, for the
// displays: each map is by side, "white" and "black".
type Lesson struct {
	// Locked is the teacher's lock: no hints, no targets.
	Locked bool `json:"locked,omitempty"`
	// Assist is each side's assistance: AssistFull, AssistExplain or
	// AssistNone.
	Assist map[string]string `json:"assist"`
	// Hints is each side's limit of hints a game (-1: no limit),
	// HintsUsed the hints it had.
	Hints     map[string]int `json:"hints"`
	HintsUsed map[string]int `json:"hints_used"`
}

// Supported says whether s is of a version this package reads: a state of
// a later version is refused, not misdrawn.
func (s State) Supported() error {
	if s.V > Version {
		return fmt.Errorf("protocol: state of version %d, this tridboard reads up to version %d: update it", s.V, Version)
	}
	return nil
}

// MarshalJSON writes Turn as "white" or "black".
func (s State) MarshalJSON() ([]byte, error) {
	type plain State
	return json.Marshal(struct {
		plain
		Turn string `json:"turn"`
	}{plain(s), s.Turn.String()})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *State) UnmarshalJSON(b []byte) error {
	type plain State
	var v struct {
		plain
		Turn string `json:"turn"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	c, err := rules.ParseColor(v.Turn)
	if err != nil {
		return err
	}
	*s = State(v.plain)
	s.Turn = c
	return nil
}

// Event types of Event.Type.
const (
	EventLift      = "lift"      // a piece or board left Cell
	EventPlace     = "place"     // a piece or board reached Cell
	EventIllegal   = "illegal"   // the pieces moved in a way no legal move explains
	EventMismatch  = "mismatch"  // the pieces do not match the position (Cells)
	EventCheck     = "check"     // the side to move is in check (Cell: its king)
	EventGameOver  = "game_over" // Result and Detail
	EventFault     = "fault"     // a sensor or I/O fault (Detail)
	EventTakeBack  = "take_back" // the last move was taken back (Move)
	EventDrawOffer = "draw_offer"
	EventNewGame   = "new_game"
	EventClock     = "clock"    // the clock started, paused, resumed, was adjusted, a penalty (Detail)
	EventLowTime   = "low_time" // Detail: the side whose time went under the threshold
	// EventHint: a hint is shown (Cell: the piece to move; Cells: it and,
	// at the second stage, its target; Move: the move, at the second stage
	// only; Detail: the side it is for).
	EventHint   = "hint"
	EventButton = "button" // a button of the set was pressed (Detail: its name, "clock_white")
	// EventCorrection: the mover changed their mind about their last move:
	// Detail is the move taken back, Move the move made instead (published
	// on the move topic with the next seq).
	EventCorrection = "correction"
)

// Event is the payload of <base>/event (not retained): what happens on the
// set between moves.
type Event struct {
	Type   string    `json:"type"` // an Event* constant
	Game   string    `json:"game,omitempty"`
	Cell   string    `json:"cell,omitempty"`
	Cells  []string  `json:"cells,omitempty"`
	Move   string    `json:"move,omitempty"`
	Result string    `json:"result,omitempty"`
	Detail string    `json:"detail,omitempty"`
	Time   time.Time `json:"ts"`
}
