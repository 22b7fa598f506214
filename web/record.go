package web

import (
	"fmt"
	"io"

	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/record"
)

// Record is board id's game as a game record in the export format of
// game.Session.Record: the tags Event, Site, Date, Round, White, Black
// ("?" when unknown), Result, Variant and Position (only when the game did
// not start from the usual position), and the moves in the system's short
// notation.
func (h *Hub) Record(id string) (*record.Record, rules.Position, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[id]
	if b == nil || b.sys == nil {
		return nil, nil, fmt.Errorf("web: no game on board %q", id)
	}
	tag := func(n string) string { return or(b.tags[n], "?") }
	res := or(b.result, "*")
	rec := &record.Record{
		Tags: []record.Tag{
			{Name: "Event", Value: tag("Event")},
			{Name: "Site", Value: tag("Site")},
			{Name: "Date", Value: or(b.tags["Date"], "????.??.??")},
			{Name: "Round", Value: tag("Round")},
			{Name: "White", Value: tag("White")},
			{Name: "Black", Value: tag("Black")},
			{Name: "Result", Value: res},
			{Name: "Variant", Value: b.sys.Name()},
		},
		Result: res,
	}
	start := b.g.Start()
	if s := start.String(); s != b.sys.Start().String() {
		rec.Tags = append(rec.Tags, record.Tag{Name: "Position", Value: s})
	}
	for _, p := range b.plies {
		rec.Moves = append(rec.Moves, p.Short)
	}
	return rec, start, nil
}

// WriteRecord writes board id's game record (see Record), its moves
// numbered from the start position's move number.
func (h *Hub) WriteRecord(w io.Writer, id string) error {
	rec, start, err := h.Record(id)
	if err != nil {
		return err
	}
	return record.Write(w, rec, start.FullmoveNumber(), start.Turn() == rules.White)
}
