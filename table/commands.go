package table

import (
	"errors"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
)

// Command is one of the commands a Table carries out: NewGame, Promote,
// TakeBack, Resign, Draw, Resync, PlayMove, AdjustClock, Hint, Teach, Alert, Peer,
// PeerFlag, PeerTakeBack, Resolve, AdoptRecord, PeerRestore. A command that
// fails changes nothing.
type Command interface {
	// Name is the command's name, as MQTT and the buttons know it.
	Name() string
	// command seals the set: the commands are this package's types, so a
	// switch over them is checked against this list (commands.go).
	command()
}

// NewGame starts a new game. The set must then be set up for it.
type NewGame struct {
	// System is the rules of the new game; nil keeps the current game's.
	System rules.System
	// Position is the start position string; "" is the system's start.
	Position string
	// Tags describe the game (players, event, round, its Play); Site
	// defaults to the set's id, Play to the table's Opts.Game.Play.
	Tags game.Tags
	// TimeControl is the game's clock; the zero Control is none, or, with
	// DefaultClock, the table's Opts.Clock.Default.
	TimeControl  clock.Control
	DefaultClock bool
	// Assist is each side's assistance in the new game (by rules.Color);
	// "" is the table's default (Opts.Hints.Assist). The teacher's lock
	// and the hint limits carry over from the game before.
	Assist [2]game.Assist
}

// Promote chooses the piece of a promotion waiting for its choice.
type Promote struct {
	Piece byte // 'Q', 'R', 'B' or 'N'
}

// TakeBack takes the last move back, or the last Plies moves (a learner's
// move and the engine's reply: 2); the set must then show the position
// before them. It takes back all of them or none.
//
// In a game paired with another set (Snapshot.Peer), a take-back is asked
// of the other set's players instead (Snapshot.TakeBack), and made on both
// sets when they accept; Answer is this set's players' answer to the other
// set's request.
type TakeBack struct {
	// Plies is the number of moves to take back (0 is 1).
	Plies int
	// Answer answers the other set's request: TakeBackAccept or
	// TakeBackRefuse ("": a take-back of this set's own).
	Answer string
}

// Answers to a take-back request of the other set.
const (
	TakeBackAccept = "accept"
	TakeBackRefuse = "refuse"
)

// Resign ends the game: Side resigns.
type Resign struct{ Side rules.Color }

// DrawAction is what Draw does.
type DrawAction uint8

const (
	DrawOffer DrawAction = iota + 1
	DrawAccept
	DrawDecline
	DrawClaim
)

// Draw offers, accepts, declines or claims a draw for Side.
type Draw struct {
	Side   rules.Color
	Action DrawAction
}

// Resync makes the table wait for the set to show the position again, as
// after a knocked-over piece.
type Resync struct{}

// PlayMove plays a move made elsewhere (a remote player, an engine, an
// arbiter): it is journaled and published at once, and the LEDs show it
// until the set shows it too.
type PlayMove struct {
	// Move is in long form or the system's short notation.
	Move string
	// Game, when set, is the game the move belongs to: a move of another
	// game is refused with ErrStale.
	Game string
	// Ply, when above 0, is the move's number in the game (1 for the
	// first move): the move is refused with ErrStale unless the game has
	// exactly Ply-1 moves, so that a move chosen in a position that has
	// changed since (a take-back, a move that crossed it) is never played.
	Ply int
	// Reading, when set, is the clock after the move on the set where it
	// was made (a remote game's authoritative clock for its mover): this
	// set's clock takes its times instead of its own.
	Reading *clock.Reading
}

// Alert reports a problem the table cannot see itself (a remote set out of
// step with this one): a Fault event with Detail.
type Alert struct {
	Detail string
}

func (Alert) Name() string    { return "alert" }
func (Alert) command()        {}
func (NewGame) Name() string  { return "new_game" }
func (NewGame) command()      {}
func (Promote) Name() string  { return "promotion" }
func (Promote) command()      {}
func (TakeBack) Name() string { return "take_back" }
func (TakeBack) command()     {}
func (Resign) Name() string   { return "resign" }
func (Resign) command()       {}
func (Draw) Name() string     { return "draw" }
func (Draw) command()         {}
func (Resync) Name() string   { return "resync" }
func (Resync) command()       {}
func (PlayMove) Name() string { return "move" }
func (PlayMove) command()     {}

// Reply is what a command that succeeded answers.
type Reply struct {
	// Game is the id of the game (NewGame).
	Game string
	// Move is the move played (PlayMove) or taken back (TakeBack: the
	// last move of the game before it).
	Move *game.Move
	// TakenBack are the moves TakeBack took back, the last move first.
	TakenBack []game.Move
	// Note is a remark on how a move was read (PlayMove), or "".
	Note string
	// Claim is the reason of a claimed draw (Draw with DrawClaim).
	Claim game.Reason
	// Hint is the hint shown (Hint).
	Hint *HintShown
	// Clock is the clock after an AdjustClock command.
	Clock *clock.Snapshot
}

// Errors of commands, to test with errors.Is.
var (
	// ErrNotInSync: the set does not show the position, so a move made
	// elsewhere cannot be played yet.
	ErrNotInSync = errors.New("the board is not in sync: finish or fix the move on the set first")
	// ErrStale: a move made elsewhere belongs to another game or another
	// moment of this one (PlayMove's Game and Ply).
	ErrStale = errors.New("the move belongs to another game or another position")
	// ErrClosed: the table is closed or not running.
	ErrClosed = errors.New("table: closed")
	// ErrCannotSense: the set cannot sense the system's cells.
	ErrCannotSense = errors.New("this set cannot sense that system")
)
