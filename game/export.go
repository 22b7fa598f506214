package game

import (
	"fmt"
	"io"
	"time"

	"github.com/tridboard/tridboard/clock"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
)

// Record is the game as a game record (rules/record): the tags Event, Site,
// Date, Round, White, Black ("?" when empty, "????.??.??" for the date),
// Result, Variant (the system's name) and Position (the start position
// string, only when the game did not start from the system's start
// position), and the moves in the system's short notation (Meder's for
// st3d). `tridboard replay` reads it back. A game with a clock adds the
// TimeControl tag and, after each move, the mover's time left as a
// {[%clk h:mm:ss]} comment.
func (s *Session) Record() *record.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	or := func(v, empty string) string {
		if v == "" {
			return empty
		}
		return v
	}
	t := s.tags
	rec := &record.Record{
		Tags: []record.Tag{
			{Name: "Event", Value: or(t.Event, "?")},
			{Name: "Site", Value: or(t.Site, "?")},
			{Name: "Date", Value: or(t.Date, "????.??.??")},
			{Name: "Round", Value: or(t.Round, "?")},
			{Name: "White", Value: or(t.White, "?")},
			{Name: "Black", Value: or(t.Black, "?")},
			{Name: "Result", Value: string(s.result)},
			{Name: "Variant", Value: s.sys.Name()},
		},
		Moves:  s.g.Short(),
		Result: string(s.result),
	}
	if t.Board != "" {
		rec.Tags = append(rec.Tags, record.Tag{Name: "Board", Value: t.Board})
	}
	if start := s.g.Start().String(); start != s.sys.Start().String() {
		rec.Tags = append(rec.Tags, record.Tag{Name: "Position", Value: start})
	}
	s.clockRecord(rec)
	return rec
}

// Export writes the game record (see Record), its moves numbered from the
// start position's move number.
func (s *Session) Export(w io.Writer) error {
	rec := s.Record()
	start := s.Start()
	if err := record.Write(w, rec, start.FullmoveNumber(), start.Turn() == rules.White); err != nil {
		return fmt.Errorf("game %s: export: %w", s.id, err)
	}
	return nil
}

// clockRecord adds the TimeControl tag and the moves' [%clk] comments of a
// game with a clock. s.mu is held.
func (s *Session) clockRecord(rec *record.Record) {
	if s.clk.ctl.None() {
		return
	}
	rec.Tags = append(rec.Tags, record.Tag{Name: "TimeControl", Value: s.clk.ctl.String()})
	mover := s.g.Start().Turn()
	rec.Comments = make([]string, len(rec.Moves))
	for i, r := range s.clk.readings {
		if r != nil && i < len(rec.Comments) {
			rec.Comments[i] = clock.ClkComment(time.Duration(r.MS(mover)) * time.Millisecond)
		}
		mover = mover.Other()
	}
}
