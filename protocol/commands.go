package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/trust"
)

// Command names: the last level of <base>/set/<command> and <base>/response/<command>.
const (
	CmdNewGame   = "new_game"
	CmdPromotion = "promotion"
	CmdTakeBack  = "take_back"
	CmdResign    = "resign"
	CmdDraw      = "draw"
	CmdResync    = "resync"
	CmdMove      = "move"
	CmdHint      = "hint"
	CmdTeach     = "teach"
	CmdClock     = "clock"
	CmdResolve   = "resolve"
)

// Command is one of the typed commands: NewGame, Promotion, TakeBack,
// Resign, Draw, Resync, PlayMove, Hint, Teach, AdjustClock.
type Command interface {
	// Name is the command's name, a Cmd* constant.
	Name() string
	validate() error
}

// NewGame starts a new game of Variant ("st3d", ...) with Options (st3d's
// variant options, "V.A1,V.A2"), from Position if it is not empty, else from
// the variant's start position. White, Black, Event and Round name the
// players and the event, as in the game record.
type NewGame struct {
	Variant  string `json:"variant"`
	Options  string `json:"options,omitempty"`
	Position string `json:"position,omitempty"`
	White    string `json:"white,omitempty"`
	Black    string `json:"black,omitempty"`
	Event    string `json:"event,omitempty"`
	Round    string `json:"round,omitempty"`
	// Board is the board number in the event's round (an event sends it).
	Board string `json:"board,omitempty"`
	// The players' ratings (digits), FIDE titles ("GM", "WIM", ...) and
	// FIDE ids (digits), for the record's tags and the displays.
	WhiteElo    string `json:"white_elo,omitempty"`
	BlackElo    string `json:"black_elo,omitempty"`
	WhiteTitle  string `json:"white_title,omitempty"`
	BlackTitle  string `json:"black_title,omitempty"`
	WhiteFideID string `json:"white_fide_id,omitempty"`
	BlackFideID string `json:"black_fide_id,omitempty"`
	// Opponent, if set, plays one side from elsewhere.
	Opponent *Opponent `json:"opponent,omitempty"`
	// TimeControl is the game's clock as PGN's TimeControl tag writes it
	// ("180+2", "300d3", "40/5400+30:1800+30", clock.Parse); absent: the
	// set's configured default; "-": no clock.
	TimeControl string `json:"time_control,omitempty"`
	// Assist is each side's assistance in the game ({"white": "full",
	// "black": "none"}); a side left out gets the set's default (full).
	Assist map[string]string `json:"assist,omitempty"`
	// Play is how the game is played: "casual", "tournament" or "lesson"
	// (game.Play); absent: the set's configured default (game.play).
	Play string `json:"play,omitempty"`
}

// Opponent is who plays a side of a new game from elsewhere: the players
// of another set on the broker (Set, its board id), or an engine (Engine,
// its level from 1). Side is the side it plays, "black" when empty.
type Opponent struct {
	Side   string `json:"side,omitempty"`
	Set    string `json:"set,omitempty"`
	Engine int    `json:"engine,omitempty"`
	// Key is the other set's public key ("ed25519:<base64>", what its
	// "tridboard key" prints): the set believes only what that key signed
	// (docs/mqtt.md, "Signed messages").
	Key string `json:"key,omitempty"`
}

// Promotion chooses the piece a pawn promotes to: 'Q', 'R', 'B' or 'N'; or
// the piece a placement puts down ('K', 'P' too), when several could stand
// on the cell (the sensors see a cell close, not which piece).
type Promotion struct {
	Piece byte `json:"-"`
}

// TakeBack takes the last move back, or the last Plies moves: 2 takes back
// a learner's move and the engine's reply together.
//
// In a game against another set, a take-back is asked of the other set's
// players; Answer ("accept" or "refuse") answers the other set's request.
type TakeBack struct {
	Plies  int    `json:"plies,omitempty"`
	Answer string `json:"answer,omitempty"`
}

// Resign resigns the game for Side.
type Resign struct {
	Side rules.Color `json:"-"`
}

// Draw actions.
const (
	DrawOffer   = "offer"
	DrawAccept  = "accept"
	DrawDecline = "decline"
	DrawClaim   = "claim" // threefold repetition or the 50-move rule
)

// Draw offers, accepts, declines or claims a draw for Side.
type Draw struct {
	Action string      `json:"action"`
	Side   rules.Color `json:"-"`
}

// PlayMove plays a move made elsewhere (a remote opponent, an engine), in
// long form or short notation; the board's LEDs then show it until the
// players make it on the set.
type PlayMove struct {
	Move string `json:"move"`
}

// Hint asks for a suggested move for the side to move: the first request
// in a position shows the piece to move on the LEDs, the second its target.
type Hint struct{}

// Teach changes the teacher's settings of the game, and must change
// something: Lock the teacher's lock (no hints and no targets on the LEDs),
// Hints a side's number of hints a game ({"white": 5, "black": 0}; -1 no
// limit), Assist a side's assistance ({"black": "none"}: "full",
// "explain" or "none").
type Teach struct {
	Lock   *bool             `json:"lock,omitempty"`
	Hints  map[string]int    `json:"hints,omitempty"`
	Assist map[string]string `json:"assist,omitempty"`
}

// Assistance levels of NewGame.Assist and Teach.Assist: what the set gives
// a side.
const (
	AssistFull    = "full"    // legal targets on the LEDs, hints, explanations
	AssistExplain = "explain" // explanations of illegal moves only
	AssistNone    = "none"    // the cells to fix only
)

// MaxHintLimit bounds Teach.Hints.
const MaxHintLimit = 1000

// checkSides checks a per-side map's keys.
func checkSides[V any](field string, m map[string]V) error {
	for k := range m {
		if k != "white" && k != "black" {
			return fmt.Errorf(`%q: side %q: want "white" or "black"`, field, k)
		}
	}
	return nil
}

func checkAssist(m map[string]string) error {
	if err := checkSides("assist", m); err != nil {
		return err
	}
	for _, side := range []string{"white", "black"} {
		switch a, ok := m[side]; {
		case !ok, a == AssistFull, a == AssistExplain, a == AssistNone:
		default:
			return fmt.Errorf(`"assist": %s: %q: want "full", "explain" or "none"`, side, a)
		}
	}
	return nil
}

func (c Teach) validate() error {
	if c.Lock == nil && len(c.Hints) == 0 && len(c.Assist) == 0 {
		return errors.New(`nothing to change: give "lock", "hints" or "assist"`)
	}
	if err := checkSides("hints", c.Hints); err != nil {
		return err
	}
	for _, side := range []string{"white", "black"} {
		if n, ok := c.Hints[side]; ok && (n < -1 || n > MaxHintLimit) {
			return fmt.Errorf(`"hints": %s: %d: want -1 (no limit) to %d`, side, n, MaxHintLimit)
		}
	}
	return checkAssist(c.Assist)
}

// Resolve ends a desync of a game between two sets (the state's
// peer.desync): Action "accept" takes the other set's record here,
// "restore" takes both sets back to the last position both games share.
type Resolve struct {
	Action string `json:"action"`
}

// Name is CmdResolve.
func (Resolve) Name() string { return CmdResolve }

func (c Resolve) validate() error {
	if c.Action != "accept" && c.Action != "restore" {
		return fmt.Errorf(`"action" %q: want "accept" or "restore"`, c.Action)
	}
	return nil
}

// Resync asks the daemon to re-read the sensors and compare them with the
// position again, after the players fixed a mismatch.
type Resync struct{}

func (NewGame) Name() string   { return CmdNewGame }
func (Promotion) Name() string { return CmdPromotion }
func (TakeBack) Name() string  { return CmdTakeBack }
func (Resign) Name() string    { return CmdResign }
func (Draw) Name() string      { return CmdDraw }
func (Resync) Name() string    { return CmdResync }
func (PlayMove) Name() string  { return CmdMove }
func (Hint) Name() string      { return CmdHint }
func (Teach) Name() string     { return CmdTeach }

func (c NewGame) validate() error {
	if c.Variant == "" {
		return errors.New(`"variant" is required`)
	}
	if o := c.Opponent; o != nil {
		switch {
		case o.Side != "" && o.Side != "white" && o.Side != "black":
			return fmt.Errorf(`"opponent": side %q: want "white" or "black"`, o.Side)
		case (o.Set == "") == (o.Engine == 0):
			return errors.New(`"opponent": give one of "set" (a board id) and "engine" (a level from 1)`)
		case o.Engine < 0:
			return fmt.Errorf(`"opponent": engine level %d: want 1 or more`, o.Engine)
		case o.Key != "" && o.Set == "":
			return errors.New(`"opponent": "key" is another set's: give "set" too`)
		}
		if o.Key != "" {
			if _, err := trust.ParsePublicKey(o.Key); err != nil {
				return fmt.Errorf(`"opponent": %v`, strings.TrimPrefix(err.Error(), "trust: "))
			}
		}
	}
	if _, err := clock.Parse(c.TimeControl); err != nil {
		return fmt.Errorf(`"time_control": %v`, strings.TrimPrefix(err.Error(), "clock: "))
	}
	if _, err := game.ParsePlay(c.Play); err != nil {
		return fmt.Errorf(`"play": %v`, err)
	}
	for _, f := range []struct{ name, v string }{{"white_elo", c.WhiteElo}, {"black_elo", c.BlackElo},
		{"white_fide_id", c.WhiteFideID}, {"black_fide_id", c.BlackFideID}} {
		if f.v != "" && (len(f.v) > 12 || strings.Trim(f.v, "0123456789") != "") {
			return fmt.Errorf(`%q: %q: want digits`, f.name, f.v)
		}
	}
	for _, f := range []struct{ name, v string }{{"white_title", c.WhiteTitle}, {"black_title", c.BlackTitle}} {
		if f.v != "" && (len(f.v) > 4 || strings.Trim(f.v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "") {
			return fmt.Errorf(`%q: %q: want a title in capitals (GM, IM, WFM, ...)`, f.name, f.v)
		}
	}
	return checkAssist(c.Assist)
}
func (Promotion) validate() error { return nil }
func (Resign) validate() error    { return nil }
func (Resync) validate() error    { return nil }
func (Hint) validate() error      { return nil }
func (c TakeBack) validate() error {
	if c.Plies < 0 || c.Plies > MaxTakeBackPlies {
		return fmt.Errorf(`"plies" %d: want 1 to %d`, c.Plies, MaxTakeBackPlies)
	}
	if c.Answer != "" && c.Answer != "accept" && c.Answer != "refuse" {
		return fmt.Errorf(`"answer" %q: want "accept" or "refuse"`, c.Answer)
	}
	return nil
}

// MaxTakeBackPlies bounds TakeBack.Plies.
const MaxTakeBackPlies = 16

func (c PlayMove) validate() error {
	if strings.TrimSpace(c.Move) == "" {
		return errors.New(`"move" is required`)
	}
	return nil
}
func (c Draw) validate() error {
	switch c.Action {
	case DrawOffer, DrawAccept, DrawDecline, DrawClaim:
		return nil
	}
	return fmt.Errorf(`"action" %q: want "offer", "accept", "decline" or "claim"`, c.Action)
}

type sideJSON struct {
	Side string `json:"side"`
}

func (c *Promotion) UnmarshalJSON(b []byte) error {
	var v struct {
		Piece string `json:"piece"`
	}
	if err := strictDecode(b, &v); err != nil {
		return err
	}
	switch p := strings.ToUpper(v.Piece); p {
	case "Q", "R", "B", "N", "K", "P":
		// K and P choose the piece a placement puts down (First Contact's
		// introductions); a promotion takes Q, R, B or N.
		c.Piece = p[0]
		return nil
	}
	return fmt.Errorf(`"piece" %q: want "Q", "R", "B" or "N" (or "K", "P" for a placement)`, v.Piece)
}

func (c *Resign) UnmarshalJSON(b []byte) error {
	var v sideJSON
	if err := strictDecode(b, &v); err != nil {
		return err
	}
	s, err := rules.ParseColor(v.Side)
	c.Side = s
	return err
}

func (c *Draw) UnmarshalJSON(b []byte) error {
	var v struct {
		Action string `json:"action"`
		Side   string `json:"side"`
	}
	if err := strictDecode(b, &v); err != nil {
		return err
	}
	s, err := rules.ParseColor(v.Side)
	c.Action, c.Side = v.Action, s
	return err
}

func strictDecode(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// ParseCommand reads the payload of <base>/set/<name>: a JSON object with the
// command's fields, an optional "transaction" (string or number, echoed in
// the reply) and an optional "token". Unknown fields are errors.
func ParseCommand(name string, payload []byte) (cmd Command, transaction json.RawMessage, token string, err error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(payload, &fields); err != nil || fields == nil {
		return nil, nil, "", errors.New("malformed payload: want a JSON object")
	}
	if t, ok := fields["transaction"]; ok {
		delete(fields, "transaction")
		if len(t) == 0 || (t[0] != '"' && t[0] != '-' && (t[0] < '0' || t[0] > '9')) {
			return nil, nil, "", errors.New(`"transaction" must be a string or a number`)
		}
		transaction = t
	}
	if t, ok := fields["token"]; ok {
		delete(fields, "token")
		if err := json.Unmarshal(t, &token); err != nil {
			return nil, transaction, "", errors.New(`"token" must be a string`)
		}
	}
	switch name {
	case CmdNewGame:
		cmd = &NewGame{}
	case CmdPromotion:
		cmd = &Promotion{}
	case CmdTakeBack:
		cmd = &TakeBack{}
	case CmdResign:
		cmd = &Resign{}
	case CmdDraw:
		cmd = &Draw{}
	case CmdResync:
		cmd = &Resync{}
	case CmdMove:
		cmd = &PlayMove{}
	case CmdHint:
		cmd = &Hint{}
	case CmdTeach:
		cmd = &Teach{}
	case CmdClock:
		cmd = &AdjustClock{}
	case CmdResolve:
		cmd = &Resolve{}
	default:
		return nil, transaction, token, fmt.Errorf("unknown command %q", name)
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return nil, transaction, token, err
	}
	if err := strictDecode(rest, cmd); err != nil {
		return nil, transaction, token, fmt.Errorf("%s: %v", name, strings.TrimPrefix(err.Error(), "json: "))
	}
	// Hand out values, not pointers.
	switch c := cmd.(type) {
	case *NewGame:
		cmd = *c
	case *Promotion:
		cmd = *c
	case *TakeBack:
		cmd = *c
	case *Resign:
		cmd = *c
	case *Draw:
		cmd = *c
	case *Resync:
		cmd = *c
	case *PlayMove:
		cmd = *c
	case *Hint:
		cmd = *c
	case *Teach:
		cmd = *c
	case *AdjustClock:
		cmd = *c
	case *Resolve:
		cmd = *c
	}
	if err := cmd.validate(); err != nil {
		return nil, transaction, token, fmt.Errorf("%s: %v", name, err)
	}
	return cmd, transaction, token, nil
}
