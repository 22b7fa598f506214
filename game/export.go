package game

import (
	"fmt"
	"io"
	"time"

	"github.com/tridboard/tridboard/clock"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
)

// RecordOf is what a game record is made of: the game's tags, its rules
// and start, its moves in the system's short notation, its result and why
// it ended, and its clock. The daemon's export (Session.Record) and the web
// displays' live record (web.Hub.Record, from the MQTT payloads) both write
// it, so that the two are one format.
type RecordOf struct {
	Tags   Tags
	System rules.System
	Start  rules.Position
	Moves  []string
	// Result is the result ("1-0", ...); "" or "*" while the game goes
	// on. Reason is why it ended.
	Result string
	Reason Reason
	// Control is the time control as clock.Control.String writes it
	// ("180+2"); "" or "-" for a game without a clock.
	Control string
	// Clocks holds, for each move, the mover's time left after it; a
	// negative value (or a move beyond the slice) is unknown.
	Clocks []time.Duration
}

// Record is the game record: the tags Event, Site, Date, Round, White,
// Black ("?" when empty, "????.??.??" for the date), Result, the players'
// WhiteTitle, BlackTitle, WhiteElo, BlackElo, WhiteFideId, BlackFideId
// when known, Variant (the system's name), Board (the board of an event,
// when new_game gave one), Position (the start position string, only when
// the game did not start from the system's start position), Termination once the
// game is over ("time forfeit" for a flag, else "normal", as PGN writes
// it), TimeControl with a clock, and the moves, each with the mover's
// time left as a {[%clk h:mm:ss]} comment with a clock. `tridboard replay`
// reads it back.
func (r RecordOf) Record() *record.Record {
	or := func(v, empty string) string {
		if v == "" {
			return empty
		}
		return v
	}
	t := r.Tags
	res := or(r.Result, "*")
	rec := &record.Record{
		Tags: []record.Tag{
			{Name: "Event", Value: or(t.Event, "?")},
			{Name: "Site", Value: or(t.Site, "?")},
			{Name: "Date", Value: or(t.Date, "????.??.??")},
			{Name: "Round", Value: or(t.Round, "?")},
			{Name: "White", Value: or(t.White, "?")},
			{Name: "Black", Value: or(t.Black, "?")},
			{Name: "Result", Value: res},
		},
		Moves:  r.Moves,
		Result: res,
	}
	for _, x := range t.Players() {
		rec.Tags = append(rec.Tags, record.Tag{Name: x.Name, Value: x.Value})
	}
	rec.Tags = append(rec.Tags, record.Tag{Name: "Variant", Value: r.System.Name()})
	if t.Board != "" {
		rec.Tags = append(rec.Tags, record.Tag{Name: "Board", Value: t.Board})
	}
	if start := r.Start.String(); start != r.System.Start().String() {
		rec.Tags = append(rec.Tags, record.Tag{Name: "Position", Value: start})
	}
	if res != "*" {
		term := "normal"
		switch r.Reason {
		case ReasonTime:
			term = "time forfeit"
		case ReasonIllegal:
			term = "rules infraction"
		}
		rec.Tags = append(rec.Tags, record.Tag{Name: "Termination", Value: term})
	}
	if r.Control == "" || r.Control == "-" {
		return rec
	}
	rec.Tags = append(rec.Tags, record.Tag{Name: "TimeControl", Value: r.Control})
	rec.Comments = make([]string, len(rec.Moves))
	for i, d := range r.Clocks {
		if d >= 0 && i < len(rec.Comments) {
			rec.Comments[i] = clock.ClkComment(d)
		}
	}
	return rec
}

// Tag is a record tag: its PGN name and value.
type Tag struct{ Name, Value string }

// Players are the players' tags that are set, in PGN's names and order:
// WhiteTitle, BlackTitle, WhiteElo, BlackElo, WhiteFideId, BlackFideId.
func (t Tags) Players() []Tag {
	var out []Tag
	for _, x := range []Tag{{"WhiteTitle", t.WhiteTitle}, {"BlackTitle", t.BlackTitle}, {"WhiteElo", t.WhiteElo},
		{"BlackElo", t.BlackElo}, {"WhiteFideId", t.WhiteFideID}, {"BlackFideId", t.BlackFideID}} {
		if x.Value != "" {
			out = append(out, x)
		}
	}
	return out
}

// Write writes the record (see Record), its moves numbered from the start
// position's move number.
func (r RecordOf) Write(w io.Writer) error {
	return record.Write(w, r.Record(), r.Start.FullmoveNumber(), r.Start.Turn() == rules.White)
}

// RecordOf is what the game's record is made of.
func (s *Session) RecordOf() RecordOf {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := RecordOf{Tags: s.tags, System: s.sys, Start: s.g.Start(), Moves: s.g.Short(), Result: string(s.result), Reason: s.reason}
	if !s.clk.ctl.None() {
		r.Control = s.clk.ctl.String()
		r.Clocks = make([]time.Duration, len(r.Moves))
		mover := r.Start.Turn()
		for i := range r.Clocks {
			r.Clocks[i] = -1
			if i < len(s.clk.readings) && s.clk.readings[i] != nil {
				r.Clocks[i] = time.Duration(s.clk.readings[i].MS(mover)) * time.Millisecond
			}
			mover = mover.Other()
		}
	}
	return r
}

// Record is the game as a game record (RecordOf.Record).
func (s *Session) Record() *record.Record { return s.RecordOf().Record() }

// Export writes the game record (RecordOf.Write).
func (s *Session) Export(w io.Writer) error {
	if err := s.RecordOf().Write(w); err != nil {
		return fmt.Errorf("game %s: export: %w", s.id, err)
	}
	return nil
}
