package protocol

import (
	"context"
	"fmt"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// StateOf is the state payload of snap: what a display needs to draw the
// table's game.
func StateOf(snap *table.Snapshot) State {
	pos := snap.Position
	check, _ := pos.InCheck()
	s := State{V: Version, Game: snap.Game, Variant: snap.System.Name(), Position: pos.String(), Turn: pos.Turn(),
		Board: boardOf(snap), MoveNumber: pos.FullmoveNumber(), Check: check, Result: string(snap.Result),
		Reason: string(snap.Reason), Time: snap.Time.UTC(), Clock: snap.Clock, Lesson: lessonOf(snap)}
	if n := len(snap.Moves); n > 0 {
		m := snap.Moves[n-1]
		s.LastMove = &LastMove{Seq: m.Seq, Move: m.Move, SAN: m.SAN}
		s.Moves = make([]string, n)
		s.ClkMS = make([]int64, n)
		for i, m := range snap.Moves {
			s.Moves[i] = m.Move
			if m.ClkMS == nil {
				s.ClkMS = nil
			} else if s.ClkMS != nil {
				s.ClkMS[i] = *m.ClkMS
			}
		}
	}
	if start := snap.Start.String(); start != snap.System.Start().String() {
		s.Start = start
	}
	if snap.HasDrawOffer {
		s.DrawOffer = snap.DrawOffer.String()
	}
	if p := snap.Peer; p != nil {
		s.Peer = &PeerState{Set: p.Set, Online: p.Online, Paired: p.Paired, Detail: p.Detail, Desync: p.Desync}
	}
	if tb := snap.TakeBack; tb != nil {
		s.TakeBackAsked = &TakeBackAsked{Plies: tb.Plies, ByOtherSet: tb.ByPeer}
	}
	s.Play = string(game.PlayCasual)
	if snap.Tags.Play != "" {
		s.Play = string(snap.Tags.Play)
	}
	for _, t := range []struct{ name, value string }{{"White", snap.Tags.White}, {"Black", snap.Tags.Black},
		{"Event", snap.Tags.Event}, {"Round", snap.Tags.Round}, {"Board", snap.Tags.Board}, {"Site", snap.Tags.Site},
		{"Date", snap.Tags.Date}} {
		if t.value != "" {
			if s.Tags == nil {
				s.Tags = map[string]string{}
			}
			s.Tags[t.name] = t.value
		}
	}
	for _, t := range snap.Tags.Players() {
		if s.Tags == nil {
			s.Tags = map[string]string{}
		}
		s.Tags[t.Name] = t.Value
	}
	return s
}

// lessonOf is the lesson's part of the state.
func lessonOf(snap *table.Snapshot) *Lesson {
	tc := &snap.Teaching
	l := &Lesson{Locked: tc.Locked, Assist: map[string]string{}, Hints: map[string]int{}, HintsUsed: map[string]int{}}
	for _, side := range []rules.Color{rules.White, rules.Black} {
		a := tc.Assist[side]
		if a == "" {
			a = game.AssistFull
		}
		l.Assist[side.String()], l.Hints[side.String()], l.HintsUsed[side.String()] = string(a), tc.Limit[side], snap.HintsUsed[side]
	}
	return l
}

func boardOf(snap *table.Snapshot) Board {
	st := &snap.Status
	names := snap.Cells()
	switch st.State {
	case recognize.MoveInProgress:
		return Board{Status: BoardMoveInProgress, Cells: st.Lifted.Union(st.Placed).Names(names), AwaitingPress: st.Held}
	case recognize.NeedsChoice:
		b := Board{Status: BoardNeedsChoice}
		for _, p := range st.Choices {
			b.Choices = append(b.Choices, string(p))
		}
		return b
	case recognize.Mismatch:
		return Board{Status: BoardMismatch, Cells: st.Fix.Names(names), Reason: st.Reason, Instruction: st.Instruction}
	case recognize.SensorFault:
		return Board{Status: BoardSensorFault, Cells: st.Unknown.Names(names), Fault: st.Fault}
	}
	return Board{Status: BoardInSync}
}

// EventOf is the event payload of e, when e is one a display sees (a lift,
// a move taken back, the game's end, ...; not a scan or a journal write).
func EventOf(e table.Event) (Event, bool) {
	snap := e.Snap
	names := snap.Cells()
	ev := Event{Game: snap.Game, Time: e.At.UTC()}
	switch e.Kind {
	case table.TookBack:
		ev.Type, ev.Move = EventTakeBack, e.Move.Move
	case table.Corrected:
		ev.Type, ev.Move, ev.Detail = EventCorrection, e.Move.Move, e.Withdrawn.Move
	case table.Lifted:
		ev.Type, ev.Cells = EventLift, e.Cells.Names(names)
		if e.Cell != rules.NoCell {
			ev.Cell = names[e.Cell] // touch-move: the piece touched first
		}
	case table.Placed:
		ev.Type, ev.Cells = EventPlace, e.Cells.Names(names)
	case table.Illegal:
		ev.Type, ev.Cells, ev.Detail = EventIllegal, e.Cells.Names(names), e.Detail
	case table.Mismatch:
		ev.Type, ev.Cells, ev.Detail = EventMismatch, e.Cells.Names(names), e.Detail
	case table.Check:
		ev.Type, ev.Cell = EventCheck, snap.CellName(e.Cell)
	case table.GameOver:
		ev.Type, ev.Result, ev.Detail = EventGameOver, string(e.Result), string(e.Reason)
	case table.Fault:
		if e.Detail == "" {
			return ev, false
		}
		ev.Type, ev.Detail = EventFault, e.Detail
	case table.GameBegan:
		ev.Type = EventNewGame
	case table.DrawOffered:
		ev.Type, ev.Detail = EventDrawOffer, e.Side.String()
	case table.ClockChanged:
		ev.Type, ev.Detail = EventClock, e.Detail
	case table.LowTime:
		ev.Type, ev.Detail = EventLowTime, e.Side.String()
	case table.HintGiven:
		// As the LEDs show it: the first stage names the piece only.
		h := snap.Hint
		if h == nil {
			return ev, false
		}
		ev.Type, ev.Cell, ev.Cells, ev.Detail = EventHint, h.Piece, h.From.Union(h.To).Names(names), e.Side.String()
		if h.Stage == 2 {
			ev.Move = h.Move
		}
	case table.ButtonPressed:
		ev.Type, ev.Detail = EventButton, e.Detail
	case table.PeerChanged:
		ev.Type, ev.Detail = EventPeer, e.Detail
	default:
		return ev, false
	}
	return ev, true
}

// Doer carries out table commands: a *table.Table.
type Doer interface {
	Do(ctx context.Context, c table.Command) (table.Reply, error)
}

// Resolver finds the rule system of a new game's variant and options
// (rules/systems.Lookup).
type Resolver func(variant, options string) (rules.System, error)

// TableHandler answers commands by carrying them out on t: what the
// daemon's MQTT and web commands both run through.
func TableHandler(t Doer, resolve Resolver) Handler {
	return HandlerFunc(func(ctx context.Context, c Command) (any, error) {
		tc, err := TableCommand(c, resolve)
		if err != nil {
			return nil, err
		}
		r, err := t.Do(ctx, tc)
		if err != nil {
			return nil, err
		}
		return replyData(tc, r), nil
	})
}

// TableCommand is the table command of a command.
func TableCommand(c Command, resolve Resolver) (table.Command, error) {
	switch c := c.(type) {
	case NewGame:
		sys, err := resolve(c.Variant, c.Options)
		if err != nil {
			return nil, err
		}
		tags := game.Tags{White: c.White, Black: c.Black, Event: c.Event, Round: c.Round, Board: c.Board, WhiteElo: c.WhiteElo,
			BlackElo: c.BlackElo, WhiteTitle: c.WhiteTitle, BlackTitle: c.BlackTitle, WhiteFideID: c.WhiteFideID,
			BlackFideID: c.BlackFideID, Play: game.Play(c.Play)}
		if o := c.Opponent; o != nil {
			spec := game.Opponent{Side: rules.Black, Set: o.Set, Engine: o.Engine}
			if o.Side == "white" {
				spec.Side = rules.White
			}
			if _, _, err := game.ParseOpponent(spec.String()); err != nil {
				return nil, err
			}
			tags.Opponent = spec.String()
		}
		ctl, err := clock.Parse(c.TimeControl)
		if err != nil {
			return nil, err
		}
		ng := table.NewGame{System: sys, Position: c.Position, Tags: tags, TimeControl: ctl,
			DefaultClock: c.TimeControl == ""}
		for side, a := range c.Assist {
			ng.Assist[sideIndex(side)] = game.Assist(a)
		}
		return ng, nil
	case Promotion:
		return table.Promote{Piece: c.Piece}, nil
	case TakeBack:
		return table.TakeBack{Plies: c.Plies, Answer: c.Answer}, nil
	case Resign:
		return table.Resign{Side: c.Side}, nil
	case Draw:
		a, ok := map[string]table.DrawAction{DrawOffer: table.DrawOffer, DrawAccept: table.DrawAccept,
			DrawDecline: table.DrawDecline, DrawClaim: table.DrawClaim}[c.Action]
		if !ok {
			return nil, fmt.Errorf("draw action %q: want offer, accept, decline or claim", c.Action)
		}
		return table.Draw{Side: c.Side, Action: a}, nil
	case Resync:
		return table.Resync{}, nil
	case PlayMove:
		return table.PlayMove{Move: c.Move}, nil
	case Hint:
		return table.Hint{}, nil
	case Teach:
		t := table.Teach{Lock: c.Lock}
		for side, n := range c.Hints {
			t.Limit[sideIndex(side)] = &n
		}
		for side, a := range c.Assist {
			t.Assist[sideIndex(side)] = game.Assist(a)
		}
		return t, nil
	case AdjustClock:
		return clockCommand(c)
	case Resolve:
		return table.Resolve{Action: c.Action}, nil
	}
	return nil, fmt.Errorf("command %q not supported", c.Name())
}

// sideIndex is the rules.Color of "white" or "black" (checked by the
// payload's validation).
func sideIndex(side string) rules.Color {
	if side == "black" {
		return rules.Black
	}
	return rules.White
}

func replyData(c table.Command, r table.Reply) any {
	switch c.(type) {
	case table.NewGame:
		return map[string]string{"game": r.Game}
	case table.TakeBack:
		if r.Move == nil {
			// Asked of the other set of a remote game, or refused.
			return map[string]any{"moves": []string{}}
		}
		moves := make([]string, len(r.TakenBack))
		for i, m := range r.TakenBack {
			moves[i] = m.Move
		}
		return map[string]any{"move": r.Move.Move, "moves": moves}
	case table.PlayMove:
		return map[string]any{"seq": r.Move.Seq, "move": r.Move.Move, "san": r.Move.SAN}
	case table.Hint:
		// Stage 1 names the piece only; stage 2 the whole move.
		d := map[string]any{"stage": r.Hint.Stage, "piece": r.Hint.Piece}
		if r.Hint.Stage == 2 {
			d["target"], d["move"] = r.Hint.Target, r.Hint.Move
		}
		return d
	case table.AdjustClock:
		return r.Clock
	case table.Draw:
		if r.Claim != "" {
			return map[string]string{"termination": string(r.Claim)}
		}
	}
	return nil
}

// clockCommand is the table command of a clock command.
func clockCommand(c AdjustClock) (table.Command, error) {
	a, ok := map[string]table.ClockAction{ClockPause: table.ClockPause, ClockResume: table.ClockResume,
		ClockAdd: table.ClockAdd, ClockSet: table.ClockSet}[c.Action]
	if !ok {
		return nil, fmt.Errorf("clock action %q: want pause, resume, add or set", c.Action)
	}
	return table.AdjustClock{Action: a, Side: c.Side, D: time.Duration(c.MS) * time.Millisecond}, nil
}
